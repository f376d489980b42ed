#include "bench/hlo/allocation_counter.h"

#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace xla_index {
namespace {

std::atomic<int64_t> current_bytes{0};
std::atomic<int64_t> peak_bytes{0};

void* Allocate(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  int64_t now = current_bytes.fetch_add(malloc_usable_size(p),
                                        std::memory_order_relaxed) +
                static_cast<int64_t>(malloc_usable_size(p));
  int64_t peak = peak_bytes.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes.compare_exchange_weak(
                           peak, now, std::memory_order_relaxed)) {
  }
  return p;
}

void Deallocate(void* p) {
  if (p == nullptr) return;
  current_bytes.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

int64_t CurrentHeapBytes() {
  return current_bytes.load(std::memory_order_relaxed);
}
int64_t PeakHeapBytes() { return peak_bytes.load(std::memory_order_relaxed); }
void ResetPeakHeapBytes() {
  peak_bytes.store(current_bytes.load(std::memory_order_relaxed),
                   std::memory_order_relaxed);
}

}  // namespace xla_index

void* operator new(std::size_t size) { return xla_index::Allocate(size); }
void* operator new[](std::size_t size) { return xla_index::Allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return xla_index::Allocate(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* p) noexcept { xla_index::Deallocate(p); }
void operator delete[](void* p) noexcept { xla_index::Deallocate(p); }
void operator delete(void* p, std::size_t) noexcept {
  xla_index::Deallocate(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  xla_index::Deallocate(p);
}

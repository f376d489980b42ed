#ifndef XLA_INDEX_BENCH_HLO_ALLOCATION_COUNTER_H_
#define XLA_INDEX_BENCH_HLO_ALLOCATION_COUNTER_H_

// Counts the bytes held through C++ operator new in this process, and their
// peak. Linking allocation_counter.cc into a binary replaces the global
// operator new and delete (by malloc and free), so it belongs to benchmark
// binaries only. The count is of usable heap bytes (malloc_usable_size),
// not of pages touched: it measures what a data structure keeps alive.

#include <cstdint>

namespace xla_index {

/// Bytes currently allocated through operator new.
int64_t CurrentHeapBytes();
/// The largest CurrentHeapBytes() since the last ResetPeakHeapBytes().
int64_t PeakHeapBytes();
/// Starts a new peak from the current count.
void ResetPeakHeapBytes();

}  // namespace xla_index

#endif  // XLA_INDEX_BENCH_HLO_ALLOCATION_COUNTER_H_

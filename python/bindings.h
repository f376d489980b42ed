#ifndef XLA_INDEX_PYTHON_BINDINGS_H_
#define XLA_INDEX_PYTHON_BINDINGS_H_

// What the pieces of the Python module `xla_index` share: the wrappers of
// parsed HLO (each keeps the parsed module alive), the one MLIR context that
// the IndexingMap objects live in and the lock around it, and the mapping of
// absl::Status to Python exceptions.

#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlo/instruction.h"
#include "hlo/module.h"
#include "mlir/IR/MLIRContext.h"
#include "pybind11/pybind11.h"
#include "tools/hlo_input.h"

namespace xla_index::python {

/// The context of every IndexingMap a Python object holds. Never destroyed:
/// maps may outlive any Python-side owner until the interpreter exits.
mlir::MLIRContext* SharedContext();

/// Held (with the GIL released) by every call that creates or simplifies
/// maps in SharedContext(), which is single-threaded.
std::mutex& SharedContextMutex();

/// Throws `status` as a Python exception: ValueError for bad input
/// (InvalidArgument, NotFound, OutOfRange, FailedPrecondition), MemoryError
/// for ResourceExhausted, RuntimeError otherwise. The message is the
/// status's, e.g. "3:7: expected ')'".
[[noreturn]] void ThrowStatus(const absl::Status& status);

template <typename T>
T ValueOrThrow(absl::StatusOr<T> value) {
  if (!value.ok()) ThrowStatus(value.status());
  return *std::move(value);
}

/// A parsed module; computations and instructions point into it and keep it
/// alive.
struct PyModule {
  std::shared_ptr<const LoadedHlo> loaded;
};

struct PyComputation {
  std::shared_ptr<const LoadedHlo> loaded;
  const HloComputation* computation = nullptr;
};

struct PyInstruction {
  std::shared_ptr<const LoadedHlo> loaded;
  const HloInstruction* instruction = nullptr;
};

/// json.loads(text).
pybind11::object JsonLoads(const std::string& text);

/// Module, Computation, Instruction, parse_module, output_to_input,
/// input_to_output.
void DefineHlo(pybind11::module_& m);
/// IndexingMap.
void DefineIndexingMap(pybind11::module_& m);
/// coalescing, utilization, tile, report, layout, sparse and their result
/// classes.
void DefineAnalyses(pybind11::module_& m);

}  // namespace xla_index::python

#endif  // XLA_INDEX_PYTHON_BINDINGS_H_

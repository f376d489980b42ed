// The Python extension module `xla_index` (docs/API.md, "Python"): the
// shared state of bindings.h and the module definition.

#include <mutex>
#include <stdexcept>
#include <string>

#include "absl/status/status.h"
#include "pybind11/pybind11.h"
#include "python/bindings.h"

namespace xla_index::python {

namespace py = pybind11;

mlir::MLIRContext* SharedContext() {
  static mlir::MLIRContext* context =
      new mlir::MLIRContext(mlir::MLIRContext::Threading::DISABLED);
  return context;
}

std::mutex& SharedContextMutex() {
  static std::mutex* mutex = new std::mutex;
  return *mutex;
}

void ThrowStatus(const absl::Status& status) {
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kFailedPrecondition:
      // pybind11 raises ValueError for std::invalid_argument.
      throw std::invalid_argument(message);
    case absl::StatusCode::kResourceExhausted:
      throw std::length_error(message);  // translated to MemoryError below
    default:
      throw std::runtime_error(message);
  }
}

py::object JsonLoads(const std::string& text) {
  return py::module_::import("json").attr("loads")(py::str(text));
}

}  // namespace xla_index::python

PYBIND11_MODULE(xla_index, m) {
  namespace py = pybind11;
  m.doc() =
      "XLA HLO indexing analysis: indexing maps of HLO instructions, their "
      "simplifier and exact comparisons, and the coalescing, utilization, "
      "tiling and report analyses of the xla-index tool.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::length_error& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    }
  });
  xla_index::python::DefineIndexingMap(m);
  xla_index::python::DefineHlo(m);
  xla_index::python::DefineAnalyses(m);
}

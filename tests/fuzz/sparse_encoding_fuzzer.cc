// Fuzz target for the #sparse_tensor.encoding parser and verifier
// (ParseSparseEncoding): any text must give an encoding or an error, never a
// crash. A verified encoding must print (as MLIR prints it) to text that
// parses back and prints the same.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/encoding.h"
#include "sparse/encoding_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xla_index;  // NOLINT: the entry point is outside it
  if (size > 4096) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::StatusOr<sparse::SparseEncoding> unverified =
      sparse::ParseSparseEncodingUnverified(text, &context);
  if (!unverified.ok()) return 0;
  absl::Status verified = sparse::VerifySparseEncoding(*unverified);
  if (!verified.ok()) return 0;
  const std::string printed = sparse::PrintSparseEncoding(*unverified);
  absl::StatusOr<sparse::SparseEncoding> reparsed =
      sparse::ParseSparseEncoding(printed, &context);
  if (!reparsed.ok() || sparse::PrintSparseEncoding(*reparsed) != printed) {
    std::fprintf(stderr,
                 "sparse_encoding_fuzzer: a verified encoding does not print "
                 "and parse back\n--- printed: %s\n--- reparsed: %s\n",
                 printed.c_str(),
                 reparsed.ok()
                     ? sparse::PrintSparseEncoding(*reparsed).c_str()
                     : std::string(reparsed.status().message()).c_str());
    std::abort();
  }
  return 0;
}

#include "sparse/mlir_reference.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace xla_index::sparse {

absl::StatusOr<std::string> MlirPrintEncoding(absl::string_view text) {
  // Drop an alias `#NAME =` prefix: parseAttribute takes the attribute only.
  absl::string_view attribute = text;
  size_t encoding_start = text.find("#sparse_tensor.encoding");
  if (encoding_start != absl::string_view::npos) {
    attribute = text.substr(encoding_start);
  }
  mlir::MLIRContext context;
  context.loadDialect<mlir::sparse_tensor::SparseTensorDialect>();
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(
      &context, [&](mlir::Diagnostic& diagnostic) {
        absl::StrAppend(&diagnostics, diagnostics.empty() ? "" : "; ",
                        diagnostic.str());
        return mlir::success();
      });

  mlir::Attribute parsed = mlir::parseAttribute(
      llvm::StringRef(attribute.data(), attribute.size()), &context);
  if (!parsed) {
    return absl::InvalidArgumentError(
        absl::StrCat("MLIR rejects it: ", diagnostics));
  }
  if (!llvm::isa<mlir::sparse_tensor::SparseTensorEncodingAttr>(parsed)) {
    return absl::InvalidArgumentError("not a sparse tensor encoding");
  }
  std::string printed;
  llvm::raw_string_ostream os(printed);
  parsed.print(os);
  return os.str();
}

absl::StatusOr<MlirEncodingFacts> MlirFactsOfEncoding(
    absl::string_view text, const std::vector<int64_t>& shape) {
  absl::string_view attribute = text;
  size_t encoding_start = text.find("#sparse_tensor.encoding");
  if (encoding_start != absl::string_view::npos) {
    attribute = text.substr(encoding_start);
  }
  mlir::MLIRContext context;
  context.loadDialect<mlir::sparse_tensor::SparseTensorDialect>();
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context,
                                        [&](mlir::Diagnostic& diagnostic) {
                                          diagnostics += diagnostic.str();
                                          return mlir::success();
                                        });
  auto encoding =
      llvm::dyn_cast_or_null<mlir::sparse_tensor::SparseTensorEncodingAttr>(
          mlir::parseAttribute(
              llvm::StringRef(attribute.data(), attribute.size()), &context));
  if (!encoding) {
    return absl::InvalidArgumentError(
        absl::StrCat("MLIR rejects it: ", diagnostics));
  }
  MlirEncodingFacts facts;
  if (mlir::AffineMap lvl_to_dim = encoding.getLvlToDim()) {
    llvm::raw_string_ostream os(facts.lvl_to_dim);
    lvl_to_dim.print(os);
    os.flush();
  }
  if (!shape.empty()) {
    auto type = mlir::RankedTensorType::get(
        shape, mlir::Float64Type::get(&context), encoding);
    for (int64_t size :
         mlir::sparse_tensor::SparseTensorType(type).getLvlShape()) {
      facts.level_shape.push_back(size);
    }
  }
  return facts;
}

}  // namespace xla_index::sparse

#include "sparse/mlir_reference.h"

#include <cctype>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace xla_index::sparse {

namespace {

/// Drops an alias definition prefix `#NAME =` (parseAttribute takes the
/// attribute alone); any other text is left for MLIR to judge.
absl::string_view StripAlias(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
  };
  skip_space();
  if (i + 1 >= text.size() || text[i] != '#' ||
      !(std::isalpha(static_cast<unsigned char>(text[i + 1])) ||
        text[i + 1] == '_')) {
    return text;
  }
  size_t name = ++i;
  while (i < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' ||
          text[i] == '$' || text[i] == '.')) {
    ++i;
  }
  if (i == name || text.substr(name, i - name) == "sparse_tensor.encoding") {
    return text;
  }
  skip_space();
  if (i >= text.size() || text[i] != '=') return text;
  ++i;
  skip_space();
  return text.substr(i);
}

}  // namespace

absl::StatusOr<std::string> MlirPrintEncoding(absl::string_view text) {
  absl::string_view attribute = StripAlias(text);
  mlir::MLIRContext context;
  context.loadDialect<mlir::sparse_tensor::SparseTensorDialect,
                      mlir::complex::ComplexDialect>();
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
  absl::string_view attribute = StripAlias(text);
  mlir::MLIRContext context;
  context.loadDialect<mlir::sparse_tensor::SparseTensorDialect,
                      mlir::complex::ComplexDialect>();
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

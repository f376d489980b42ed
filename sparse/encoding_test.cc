#include "sparse/encoding.h"

#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/affine_level_maps.h"
#include "sparse/encoding_parser.h"
#include "sparse/mlir_reference.h"

namespace xla_index::sparse {
namespace {

using ::testing::HasSubstr;

/// One section of a "// -----"-separated test file: its "// key: value"
/// comment lines and the remaining (non-comment) text.
struct Section {
  std::vector<std::pair<std::string, std::string>> keys;
  std::string text;
  std::string raw;  // Everything, comments included (parsed as is).

  std::string Get(absl::string_view key) const {
    for (const auto& [k, v] : keys) {
      if (k == key) return v;
    }
    return "";
  }
};

std::vector<Section> ReadSections(const std::string& path) {
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::vector<Section> sections;
  for (absl::string_view chunk : absl::StrSplit(buffer.str(), "// -----\n")) {
    Section section;
    for (absl::string_view line : absl::StrSplit(chunk, '\n')) {
      if (absl::ConsumePrefix(&line, "// ")) {
        std::vector<std::string> kv =
            absl::StrSplit(line, absl::MaxSplits(": ", 1));
        if (kv.size() == 2 && kv[0].find(' ') == std::string::npos) {
          section.keys.emplace_back(kv[0], kv[1]);
        }
        continue;
      }
      if (absl::StartsWith(line, "//")) continue;
      absl::StrAppend(&section.text, line, "\n");
    }
    // Parse the raw chunk, so comments inside an encoding are exercised too.
    section.raw = std::string(chunk);
    sections.push_back(section);
  }
  return sections;
}

// The text from the first line that starts an encoding (or its alias).
std::string EncodingText(const Section& section) {
  size_t start = section.raw.find("\n#");
  if (section.raw.rfind("#", 0) == 0) start = 0;
  return start == std::string::npos ? section.raw : section.raw.substr(start);
}

class EncodingTest : public ::testing::Test {
 protected:
  mlir::MLIRContext context_;
};

TEST_F(EncodingTest, EverySeedEncodingPrintsAsMlirPrintsIt) {
  std::vector<Section> sections =
      ReadSections("sparse/testdata/seed_encodings.mlir");
  ASSERT_EQ(sections.size(), 12u);
  for (const Section& section : sections) {
    SCOPED_TRACE(section.Get("name"));
    absl::StatusOr<SparseEncoding> encoding =
        ParseSparseEncoding(EncodingText(section), &context_);
    ASSERT_TRUE(encoding.ok()) << encoding.status();
    std::string modern = section.Get("modern");
    absl::StatusOr<std::string> expected =
        MlirPrintEncoding(modern.empty() ? section.text : modern);
    ASSERT_TRUE(expected.ok()) << expected.status();
    EXPECT_EQ(PrintSparseEncoding(*encoding), *expected);
    // Older spellings are translated and reported, modern ones are not.
    EXPECT_EQ(encoding->notes.empty(), modern.empty());
    // Printing and parsing again gives the same encoding.
    absl::StatusOr<SparseEncoding> reparsed =
        ParseSparseEncoding(PrintSparseEncoding(*encoding), &context_);
    ASSERT_TRUE(reparsed.ok()) << reparsed.status();
    EXPECT_EQ(reparsed->dim_to_lvl, encoding->dim_to_lvl);
    EXPECT_EQ(reparsed->level_types, encoding->level_types);
    EXPECT_EQ(reparsed->dim_slices, encoding->dim_slices);
  }
}

TEST_F(EncodingTest, EveryInvalidEncodingIsRejectedWithItsReason) {
  std::vector<Section> sections =
      ReadSections("sparse/testdata/invalid_encodings.mlir");
  EXPECT_GE(sections.size(), 40u);
  for (const Section& section : sections) {
    std::string text = EncodingText(section);
    SCOPED_TRACE(text);
    std::string error = section.Get("error");
    ASSERT_FALSE(error.empty());
    absl::StatusOr<SparseEncoding> encoding =
        ParseSparseEncoding(text, &context_);
    ASSERT_FALSE(encoding.ok());
    EXPECT_EQ(encoding.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(encoding.status().message()), HasSubstr(error));
    // MLIR's own verdict on the same text is the one recorded.
    if (section.Get("mlir") == "crashes") continue;
    absl::StatusOr<std::string> mlir = MlirPrintEncoding(text);
    EXPECT_EQ(mlir.ok() ? "accepts" : "rejects", section.Get("mlir"))
        << (mlir.ok() ? *mlir : std::string(mlir.status().message()));
  }
}

// What mlir-opt-22 accepts and prints back, on our own inputs: the stored
// values with their types (printed by MLIR's attribute printer: floats in
// %e form, untyped literals as i64 / f64, i8 255 wraps to -1, NaN in hex),
// structured[n, n] and [0, m], and a repeated field keeping its last value.
// Each expected line is mlir-opt-22's output for the input.
TEST_F(EncodingTest, AcceptsAndPrintsWhatMlirOptAccepts) {
  const std::string map = "map = (d0, d1) -> (d0 : dense, d1 : compressed)";
  auto encoding = [&](const std::string& fields) {
    return absl::StrCat("#sparse_tensor.encoding<{ ", map, fields, " }>");
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {", explicitVal = 1.0 : f32", ", explicitVal = 1.000000e+00 : f32"},
      {", explicitVal = 1 : i64", ", explicitVal = 1 : i64"},
      {", explicitVal = 1", ", explicitVal = 1 : i64"},
      {", explicitVal = 2.5", ", explicitVal = 2.500000e+00 : f64"},
      {", explicitVal = 0.1 : f32", ", explicitVal = 1.000000e-01 : f32"},
      {", explicitVal = 1.0e3 : f64", ", explicitVal = 1.000000e+03 : f64"},
      {", explicitVal = -2.5 : f16", ", explicitVal = -2.500000e+00 : f16"},
      {", explicitVal = 255 : i8", ", explicitVal = -1 : i8"},
      {", explicitVal = true", ", explicitVal = true"},
      {", explicitVal = 1 : index", ", explicitVal = 1 : index"},
      {", explicitVal = 0x7FC00000 : f32", ", explicitVal = 0x7FC00000 : f32"},
      {", explicitVal = 0x3F800000 : f32",
       ", explicitVal = 1.000000e+00 : f32"},
      {", explicitVal = 1.5 : f32, implicitVal = 0.0 : f32",
       ", explicitVal = 1.500000e+00 : f32, implicitVal = 0.000000e+00 : f32"},
      {", implicitVal = 0 : i32, explicitVal = 1 : i32",
       ", explicitVal = 1 : i32, implicitVal = 0 : i32"},
      {", explicitVal = #complex.number<:f32 1.0, 0.0> : complex<f32>",
       ", explicitVal = #complex.number<:f32 1.000000e+00, 0.000000e+00> : "
       "complex<f32>"},
      {", implicitVal = #complex.number<:f64 0.0, 0.0> : complex<f64>",
       ", implicitVal = #complex.number<:f64 0.000000e+00, 0.000000e+00> : "
       "complex<f64>"},
      {", explicitVal = 1 : i64, explicitVal = 2 : i64",
       ", explicitVal = 2 : i64"},
      {", posWidth = 8, posWidth = 32", ", posWidth = 32"},
      {", posWidth = 7, posWidth = 8", ", posWidth = 8"},
      {", crdWidth = 16, explicitVal = 1.0 : bf16, posWidth = 8,",
       ", posWidth = 8, crdWidth = 16, explicitVal = 1.000000e+00 : bf16"},
  };
  for (const auto& [fields, printed] : cases) {
    const std::string text = encoding(fields);
    SCOPED_TRACE(text);
    absl::StatusOr<SparseEncoding> parsed =
        ParseSparseEncoding(text, &context_);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(PrintSparseEncoding(*parsed),
              absl::StrCat("#sparse_tensor.encoding<{ ", map, printed, " }>"));
    absl::StatusOr<std::string> mlir = MlirPrintEncoding(text);
    ASSERT_TRUE(mlir.ok()) << mlir.status();
    EXPECT_EQ(PrintSparseEncoding(*parsed), *mlir);
    EXPECT_TRUE(parsed->notes.empty());
    // Printing and parsing again gives the same values.
    absl::StatusOr<SparseEncoding> reparsed =
        ParseSparseEncoding(PrintSparseEncoding(*parsed), &context_);
    ASSERT_TRUE(reparsed.ok()) << reparsed.status();
    EXPECT_EQ(reparsed->explicit_val, parsed->explicit_val);
    EXPECT_EQ(reparsed->implicit_val, parsed->implicit_val);
  }
}

// Accepted by MLIR but meaningless: accepted, printed back unchanged, and
// said so in the notes.
TEST_F(EncodingTest, NotesWhatMlirAcceptsButMeansNothing) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : "
       "structured[4, 4]) }>",
       "level 1 (structured[4, 4]): n = m stores every entry of a block"},
      {"#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : "
       "structured[0, 4]) }>",
       "level 1 (structured[0, 4]): n = 0 stores no entry of a block"},
      {"#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : "
       "structured[0, 0]) }>",
       "n = 0 stores no entry"},
      {"#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv "
       "4 : dense, d1 mod 4 : structured[4, 4]) }>",
       "n = m stores every entry"},
      {"#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : "
       "compressed), implicitVal = 1.000000e+00 : f32 }>",
       "implicitVal = 1.000000e+00 : f32 is not zero"},
  };
  for (const auto& [text, note] : cases) {
    SCOPED_TRACE(text);
    absl::StatusOr<SparseEncoding> parsed =
        ParseSparseEncoding(text, &context_);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(PrintSparseEncoding(*parsed), text);
    absl::StatusOr<std::string> mlir = MlirPrintEncoding(text);
    ASSERT_TRUE(mlir.ok()) << mlir.status();
    EXPECT_EQ(*mlir, text);
    ASSERT_EQ(parsed->notes.size(), 1u);
    EXPECT_THAT(parsed->notes[0], HasSubstr(note));
  }
}

TEST_F(EncodingTest, ParseErrorsNameLineAndColumn) {
  absl::StatusOr<SparseEncoding> encoding = ParseSparseEncoding(
      "#sparse_tensor.encoding<{\n  map = (i, j) -> (i : dense, j : "
      "sparse)\n}>",
      &context_);
  ASSERT_FALSE(encoding.ok());
  EXPECT_THAT(std::string(encoding.status().message()),
              HasSubstr("2:35: unknown level format 'sparse'"));
}

// MLIR's AffineExpr operators fold constants with int64 wrap-around:
// (i * 2^62) * 4 becomes i * 0. The parser refuses what it cannot build
// exactly, naming where.
TEST_F(EncodingTest, ExpressionsThatWouldWrapAreErrors) {
  for (const char* map :
       {"(i) -> (i * 4611686018427387904 * 4 : dense)",
        "(i) -> ((i + 9223372036854775807) + 1 : dense)",
        "(i) -> (i - 9223372036854775807 - 9223372036854775807"
        " : dense)"}) {
    absl::StatusOr<SparseEncoding> encoding = ParseSparseEncoding(
        absl::StrCat("#sparse_tensor.encoding<{ map = ", map, " }>"),
        &context_);
    ASSERT_FALSE(encoding.ok()) << map;
    EXPECT_THAT(std::string(encoding.status().message()),
                HasSubstr("cannot be represented exactly"))
        << map;
  }
  // Folds that fit are MLIR's (the map is not invertible: unverified).
  absl::StatusOr<SparseEncoding> fits = ParseSparseEncodingUnverified(
      "#sparse_tensor.encoding<{ map = (i) -> (i * 2147483648 * 2147483648 + "
      "9223372036854775807 - 1 : dense) }>",
      &context_);
  ASSERT_TRUE(fits.ok()) << fits.status();
  mlir::AffineExpr d0 = mlir::getAffineDimExpr(0, &context_);
  EXPECT_EQ(
      fits->dim_to_lvl.getResult(0),
      d0 * (int64_t{1} << 62) + (std::numeric_limits<int64_t>::max() - 1));
}

TEST_F(EncodingTest, LegacySpellingsMapToModernMeaning) {
  absl::StatusOr<SparseEncoding> nv24 = ParseSparseEncoding(
      "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : "
      "dense, j mod 4 : block2_4), crdWidth = 2 }>",
      &context_);
  ASSERT_TRUE(nv24.ok()) << nv24.status();
  EXPECT_EQ(nv24->level_types.back(), LevelType::Structured(2, 4));
  EXPECT_EQ(nv24->crd_width, 8);
  EXPECT_EQ(nv24->notes.size(), 2u);

  absl::StatusOr<SparseEncoding> bcoo = ParseSparseEncoding(
      "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : "
      "compressed(nonunique, high), k : singleton) }>",
      &context_);
  ASSERT_TRUE(bcoo.ok()) << bcoo.status();
  EXPECT_EQ(bcoo->level_types[1], LevelType::LooseCompressed(true));
}

TEST_F(EncodingTest, PropertiesPrintInMlirOrderWhateverTheInputOrder) {
  const char* text =
      "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed("
      "nonordered, nonunique), j : singleton(soa, nonordered, nonunique), k "
      ": singleton(soa)) }>";
  absl::StatusOr<SparseEncoding> encoding =
      ParseSparseEncoding(text, &context_);
  ASSERT_TRUE(encoding.ok()) << encoding.status();
  absl::StatusOr<std::string> expected = MlirPrintEncoding(text);
  ASSERT_TRUE(expected.ok()) << expected.status();
  EXPECT_EQ(PrintSparseEncoding(*encoding), *expected);
}

TEST_F(EncodingTest, ExpressionsSimplifyAsMlirDoes) {
  // Expressions whose MLIR form differs from the input spelling.
  for (const char* map : {
           "[c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)",
           "(i, j) -> (j : dense, (i + 0) * 1 : compressed)",
           "(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i - "
           "(i floordiv 2) * 2 : dense, j mod 3 : dense)",
           "[s0, s1](i) -> (i * s1 * 2 : dense, -(-i) : compressed)",
           "(i, j) -> (j : compressed(nonordered), i : loose_compressed)",
           "(a, b, c) -> (a : batch, b : batch, c : compressed)",
           // A trailing comma after the last field.
           "(i) -> (i : compressed), posWidth = 16,",
       }) {
    std::string text =
        std::string("#sparse_tensor.encoding<{ map = ") + map + " }>";
    SCOPED_TRACE(text);
    absl::StatusOr<std::string> expected = MlirPrintEncoding(text);
    absl::StatusOr<SparseEncoding> encoding =
        ParseSparseEncoding(text, &context_);
    ASSERT_EQ(encoding.ok(), expected.ok())
        << encoding.status() << " vs " << expected.status();
    if (!expected.ok()) continue;
    EXPECT_EQ(PrintSparseEncoding(*encoding), *expected);
  }
}

TEST_F(EncodingTest, InfersLevelToDimensionMaps) {
  mlir::MLIRContext* c = &context_;
  auto parse = [&](const std::string& map) {
    absl::StatusOr<SparseEncoding> e = ParseSparseEncoding(
        "#sparse_tensor.encoding<{ map = " + map + " }>", c);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? e->dim_to_lvl : mlir::AffineMap();
  };
  auto print = [](mlir::AffineMap map) {
    std::string s;
    llvm::raw_string_ostream os(s);
    map.print(os);
    return os.str();
  };
  EXPECT_EQ(
      print(InferLvlToDim(parse("(i, j) -> (j : compressed, i : compressed)"))),
      "(d0, d1) -> (d1, d0)");
  // The BSR_explicit of MLIR's SparseTensor dialect documentation gives this
  // inverse by hand.
  EXPECT_EQ(print(InferLvlToDim(parse(
                "(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, "
                "i mod 2 : dense, j mod 3 : dense)"))),
            "(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 3 + d3)");
  // An unblocked dimension after a blocked one stays in its place.
  EXPECT_EQ(print(InferLvlToDim(
                parse("(i, j) -> (i floordiv 2 : dense, j : compressed, i mod "
                      "2 : dense)"))),
            "(d0, d1, d2) -> (d0 * 2 + d2, d1)");
  // Brute force: the inverse undoes the map on a whole box.
  mlir::AffineMap bsr = parse(
      "(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : "
      "dense, j mod 3 : dense)");
  mlir::AffineMap inverse = InferLvlToDim(bsr);
  std::vector<int64_t> levels, dims;
  for (int64_t i = 0; i < 20; ++i) {
    for (int64_t j = 0; j < 30; ++j) {
      EvaluateAffineMap(bsr, {i, j}, levels);
      EvaluateAffineMap(inverse, levels, dims);
      ASSERT_EQ(dims, (std::vector<int64_t>{i, j}));
    }
  }
}

// InferLvlToDim and LevelSizes against what MLIR itself derives from the
// same encodings (inferLvlToDim, SparseTensorType::getLvlShape).
TEST_F(EncodingTest, InverseAndLevelShapeAgreeWithMlir) {
  struct Case {
    std::string map;
    std::vector<int64_t> shape;  // Divisible by the blocks.
  };
  for (const Case& test : std::vector<Case>{
           {"(i) -> (i : compressed)", {7}},
           {"(i, j) -> (j : compressed, i : compressed)", {8, 5}},
           {"(i, j, k) -> (k : dense, i : compressed, j : compressed)",
            {2, 3, 4}},
           {"(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i "
            "mod 2 : dense, j mod 3 : dense)",
            {20, 30}},
           {"(i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i "
            "mod 2 : dense, j mod 2 : dense)",
            {4, 6}},
           {"(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : "
            "structured[2, 4])",
            {16, 16}},
           {"(i, j) -> (j floordiv 8 : compressed, i floordiv 4 : dense, i "
            "mod 4 : dense, j mod 8 : dense)",
            {12, 16}},
       }) {
    std::string text = "#sparse_tensor.encoding<{ map = " + test.map + " }>";
    SCOPED_TRACE(text);
    absl::StatusOr<SparseEncoding> encoding =
        ParseSparseEncoding(text, &context_);
    ASSERT_TRUE(encoding.ok()) << encoding.status();
    absl::StatusOr<MlirEncodingFacts> mlir =
        MlirFactsOfEncoding(text, test.shape);
    ASSERT_TRUE(mlir.ok()) << mlir.status();
    std::string ours;
    llvm::raw_string_ostream os(ours);
    InferLvlToDim(encoding->dim_to_lvl).print(os);
    EXPECT_EQ(os.str(), mlir->lvl_to_dim);
    EXPECT_EQ(*LevelSizes(encoding->dim_to_lvl, test.shape), mlir->level_shape);
  }
}

// Where MLIR 22 and this library knowingly differ, with MLIR's answer
// recorded so that a change on either side is noticed.
TEST_F(EncodingTest, DocumentedDifferencesFromMlir) {
  // 1. An unblocked dimension after a blocked one: MLIR lists unblocked
  // dimensions first, so its inverse says i = l1, which is wrong (the
  // brute-force test in InfersLevelToDimensionMaps checks ours).
  const std::string mixed =
      "#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j : "
      "compressed, i mod 2 : dense) }>";
  absl::StatusOr<MlirEncodingFacts> mlir = MlirFactsOfEncoding(mixed, {});
  ASSERT_TRUE(mlir.ok()) << mlir.status();
  EXPECT_EQ(mlir->lvl_to_dim, "(d0, d1, d2) -> (d1, d0 * 2 + d2)");
  // 2. A shape that the block does not divide: MLIR rounds the number of
  // blocks up (11) but evaluates the `i mod 2` level's size as 21 mod 2 = 1,
  // although that level takes the values 0 and 1; ours says 2.
  const std::string bsr =
      "#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j "
      "floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense) }>";
  mlir = MlirFactsOfEncoding(bsr, {21, 30});
  ASSERT_TRUE(mlir.ok()) << mlir.status();
  EXPECT_EQ(mlir->level_shape, (std::vector<int64_t>{11, 10, 1, 3}));
  absl::StatusOr<SparseEncoding> ours = ParseSparseEncoding(bsr, &context_);
  ASSERT_TRUE(ours.ok());
  EXPECT_EQ(*LevelSizes(ours->dim_to_lvl, {21, 30}),
            (std::vector<int64_t>{11, 10, 2, 3}));
}

TEST_F(EncodingTest, LevelSizesOfTheSeedExamples) {
  auto sizes = [&](const std::string& map, std::vector<int64_t> shape) {
    absl::StatusOr<SparseEncoding> e = ParseSparseEncoding(
        "#sparse_tensor.encoding<{ map = " + map + " }>", &context_);
    EXPECT_TRUE(e.ok()) << e.status();
    return LevelSizes(e->dim_to_lvl, shape);
  };
  const std::string bsr23 =
      "(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : "
      "dense, j mod 3 : dense)";
  EXPECT_EQ(*sizes(bsr23, {20, 30}), (std::vector<int64_t>{10, 10, 2, 3}));
  // A partial last block is padded: 21 rows need 11 blocks of 2.
  EXPECT_EQ(*sizes(bsr23, {21, 30}), (std::vector<int64_t>{11, 10, 2, 3}));
  EXPECT_EQ(*sizes("(i, j) -> (j : compressed, i : compressed)", {8, 5}),
            (std::vector<int64_t>{5, 8}));
  EXPECT_EQ(*sizes("(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : "
                   "structured[2, 4])",
                   {16, 16}),
            (std::vector<int64_t>{16, 4, 4}));
  EXPECT_FALSE(sizes("[c](i, j) -> (c * 3 * i : dense, i : dense, j : "
                     "compressed)",
                     {4, 4})
                   .ok());
  EXPECT_FALSE(sizes(bsr23, {20}).ok());
  EXPECT_FALSE(sizes(bsr23, {0, 30}).ok());
}

}  // namespace
}  // namespace xla_index::sparse

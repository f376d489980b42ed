// Robustness of the encoding parser on mutated seed and invalid encodings:
// no input crashes it, every rejection is InvalidArgument, and every
// encoding it accepts (in today's spelling) is one MLIR's own SparseTensor
// dialect accepts and prints identically.

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/encoding.h"
#include "sparse/encoding_parser.h"
#include "sparse/mlir_reference.h"

namespace xla_index::sparse {
namespace {

// Corpus entries whose text MLIR 22 itself crashes on ("// mlir: crashes"
// in invalid_encodings.mlir): their mutants are not handed to MLIR either,
// since a mutant we reject for another reason (junk after the encoding)
// can still reach MLIR's crashing inverseBlockSparsity.
std::vector<bool>* CrashesMlir() {
  static auto* crashes = new std::vector<bool>();
  return crashes;
}

std::vector<std::string> Corpus() {
  std::vector<std::string> corpus;
  CrashesMlir()->clear();
  for (const char* path : {"sparse/testdata/seed_encodings.mlir",
                           "sparse/testdata/invalid_encodings.mlir"}) {
    std::ifstream file(path);
    EXPECT_TRUE(file.good()) << path;
    std::stringstream buffer;
    buffer << file.rdbuf();
    for (absl::string_view chunk : absl::StrSplit(buffer.str(), "// -----\n")) {
      size_t start = chunk.find("#");
      while (start != absl::string_view::npos && start > 0 &&
             chunk[start - 1] != '\n') {
        start = chunk.find("#", start + 1);
      }
      if (start != absl::string_view::npos) {
        corpus.emplace_back(chunk.substr(start));
        CrashesMlir()->push_back(absl::StrContains(chunk, "// mlir: crashes"));
      }
    }
  }
  return corpus;
}

std::string Mutate(std::string text, std::mt19937& rng) {
  static const std::vector<std::string> kPieces = {
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      "<",
      ">",
      ",",
      ":",
      "=",
      "#",
      "?",
      "-",
      "+",
      "*",
      "0",
      "1",
      "2",
      "4",
      "8",
      "-1",
      " ",
      "i",
      "j",
      "k",
      "l0",
      "s",
      "floordiv",
      "ceildiv",
      "mod",
      "dense",
      "compressed",
      "singleton",
      "batch",
      "loose_compressed",
      "structured[2, 4]",
      "(nonunique)",
      "soa",
      "nonordered",
      "->",
      "map = ",
      "posWidth = 16",
      "crdWidth = 2",
      "//",
      "\n",
      "#sparse_tensor<slice(1, ?, 2)>",
      "\xff",
      "99999999999999999999",
      ", explicitVal = 1.5 : f32",
      ", implicitVal = 0 : i32",
      "#complex.number<:f32 1.0, 0.0> : complex<f32>",
      "1.0",
      "structured[4, 4]",
      "structured[0, 4]",
      ", posWidth = 8"};
  const int mutations = 1 + rng() % 2;
  for (int m = 0; m < mutations && !text.empty(); ++m) {
    size_t at = rng() % text.size();
    switch (rng() % 4) {
      case 0:  // Delete a short range.
        text.erase(at, 1 + rng() % 6);
        break;
      case 1:  // Insert a piece of the grammar.
        text.insert(at, kPieces[rng() % kPieces.size()]);
        break;
      case 2: {  // Duplicate a short range.
        std::string range = text.substr(at, 1 + rng() % 12);
        text.insert(at, range);
        break;
      }
      default:  // Replace one character.
        text[at] = kPieces[rng() % kPieces.size()][0];
        break;
    }
  }
  return text;
}

// Where we reject what MLIR 22 accepts, on purpose (each has a case with
// the reason in invalid_encodings.mlir).
const char* const kStricterRules[] = {
    "divides by a symbol",
    "is not used by any level",
    "does not use any dimension",
    "slices go on every dimension or none",
    "is a keyword",
    "duplicate level property",
    // MLIR's slice parser ignores what follows "slice(o, s, t)" up to '>'.
    "to close '#sparse_tensor<'",
};

TEST(EncodingFuzzTest, MutantsNeverCrashAndAcceptedOnesMatchMlir) {
  std::vector<std::string> corpus = Corpus();
  ASSERT_GE(corpus.size(), 70u);
  const size_t seeds = 12;  // seed_encodings.mlir comes first.
  mlir::MLIRContext context;
  std::mt19937 rng(2024);
  int accepted = 0, rejected = 0, stricter = 0;
  for (int trial = 0; trial < 30000; ++trial) {
    // Valid seeds mutate into valid encodings far more often than the
    // invalid cases do, so they are picked three times in four.
    const size_t pick = rng() % 4 != 0 ? rng() % seeds : rng() % corpus.size();
    std::string text = Mutate(corpus[pick], rng);
    absl::StatusOr<SparseEncoding> encoding =
        ParseSparseEncoding(text, &context);
    if (!encoding.ok()) {
      ASSERT_EQ(encoding.status().code(), absl::StatusCode::kInvalidArgument)
          << text;
      ++rejected;
      // The other direction, on a sample (MLIR is slow to set up): when MLIR
      // accepts what we reject, the reason must be one of our documented
      // stricter rules (see invalid_encodings.mlir). Maps we cannot invert
      // are not handed to MLIR, which may crash on them.
      const std::string message(encoding.status().message());
      if (trial % 5 == 0 && !(*CrashesMlir())[pick] &&
          message.find("failed to infer") == std::string::npos) {
        absl::StatusOr<std::string> mlir = MlirPrintEncoding(text);
        if (mlir.ok()) {
          ++stricter;
          bool documented = false;
          for (const char* reason : kStricterRules) {
            documented |= message.find(reason) != std::string::npos;
          }
          EXPECT_TRUE(documented) << "MLIR accepts, we reject:\n"
                                  << text << "\n"
                                  << message;
        }
      }
      continue;
    }
    ++accepted;
    // Older spellings are translated: MLIR's print differs. Notes on what
    // MLIR accepts as is ("MLIR accepts it") do not change the print.
    bool translated = false;
    for (const std::string& note : encoding->notes) {
      translated |= note.find("MLIR accepts") == std::string::npos;
    }
    if (translated) continue;
    absl::StatusOr<std::string> mlir = MlirPrintEncoding(text);
    ASSERT_TRUE(mlir.ok()) << "we accept, MLIR rejects:\n"
                           << text << "\n"
                           << mlir.status();
    EXPECT_EQ(PrintSparseEncoding(*encoding), *mlir) << text;
  }
  // Both outcomes are exercised.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(stricter, 0);
}

TEST(EncodingFuzzTest, DeepNestingIsAnErrorNotAStackOverflow) {
  mlir::MLIRContext context;
  std::string deep = "#sparse_tensor.encoding<{ map = (i) -> (" +
                     std::string(100000, '(') + "i" + std::string(100000, ')') +
                     " : dense) }>";
  absl::StatusOr<SparseEncoding> encoding = ParseSparseEncoding(deep, &context);
  ASSERT_FALSE(encoding.ok());
  EXPECT_NE(encoding.status().message().find("nested deeper"),
            std::string::npos);
  std::string minus = "#sparse_tensor.encoding<{ map = (i) -> (" +
                      std::string(100000, '-') + "i : dense) }>";
  EXPECT_FALSE(ParseSparseEncoding(minus, &context).ok());
  // Moderate nesting is fine.
  std::string ok = "#sparse_tensor.encoding<{ map = (i) -> (" +
                   std::string(50, '(') + "i" + std::string(50, ')') +
                   " : dense) }>";
  EXPECT_TRUE(ParseSparseEncoding(ok, &context).ok());
}

}  // namespace
}  // namespace xla_index::sparse

// ParseIndexingMap against the frozen baseline parser
// (baseline_map_text_parser.h: MLIR's own operators, folded left to right)
// on generated maps: the same map (IndexingMap::operator==) for every text
// both accept. The texts stay where the two must agree: constants small
// enough that no fold leaves int64 (the baseline wraps, ParseIndexingMap
// refuses) and positive divisors (the baseline predates floordiv by a
// negative constant). Results, constraints and runtime variables' access
// maps repeat subexpressions, which the parser builds once per parse. A
// second run writes floordiv and ceildiv in XLA HEAD's spellings (`/`,
// `floorDiv`, `ceilDiv`) for the parser, the baseline reading the original.

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/core/baseline_map_text_parser.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"

namespace xla_index {
namespace {

class MapGenerator {
 public:
  explicit MapGenerator(uint32_t seed) : rng_(seed) {}

  std::string Map() {
    dims_ = 1 + Pick(4);
    range_ = Pick(3);
    runtime_ = Pick(2);
    seen_.clear();
    std::string text = "(";
    for (int i = 0; i < dims_; ++i)
      absl::StrAppend(&text, i ? ", " : "", "d", i);
    text += ")";
    if (range_) {
      text += "[";
      for (int i = 0; i < range_; ++i) {
        absl::StrAppend(&text, i ? ", " : "", "s", i);
      }
      text += "]";
    }
    if (runtime_) absl::StrAppend(&text, "{s", range_, "}");
    text += " -> (";
    const int results = Pick(5);
    for (int r = 0; r < results; ++r) {
      absl::StrAppend(&text, r ? ", " : "", Expr(1 + Pick(4)));
    }
    text += ")";
    const bool one_line = Pick(2);
    std::vector<std::string> entries;
    for (int i = 0; i < dims_; ++i) {
      entries.push_back(
          absl::StrCat("d", i, " in [", Pick(3) - 1, ", ", 5 + Pick(20), "]"));
    }
    for (int i = 0; i < range_ + runtime_; ++i) {
      std::string entry =
          absl::StrCat("s", i, " in [", -Pick(3), ", ", Pick(9), "]");
      if (!one_line && Pick(2)) {
        // An "hlo:" line makes the symbol a runtime variable; the access
        // map names its own dims.
        absl::StrAppend(&entry, "\n  hlo: %p = s32[] parameter(1)\n  (");
        for (int j = 0; j < dims_; ++j) {
          absl::StrAppend(&entry, j ? ", " : "", "a", j);
        }
        entry += Pick(2) ? ") -> ()" : ") -> (a0 * 4 + a0 floordiv 2)";
      }
      entries.push_back(entry);
    }
    const int constraints = Pick(4);
    for (int c = 0; c < constraints; ++c) {
      entries.push_back(absl::StrCat("(", Expr(1 + Pick(3)), ") in [", -Pick(5),
                                     ", ", Pick(50), "]"));
    }
    std::shuffle(entries.begin(), entries.end(), rng_);
    text += one_line ? ", domain: " : "\ndomain:\n";
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i) text += one_line ? ", " : "\n";
      text += entries[i];
    }
    return text;
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::string Constant() { return absl::StrCat(Pick(10) == 0 ? 64 : Pick(9)); }
  std::string Variable() {
    int i = Pick(dims_ + range_ + runtime_);
    return i < dims_ ? absl::StrCat("d", i) : absl::StrCat("s", i - dims_);
  }
  std::string Expr(int depth) {
    if (!seen_.empty() && Pick(6) == 0) return seen_[Pick(seen_.size())];
    std::string e;
    if (depth == 0 || Pick(4) == 0) {
      e = Pick(3) ? Variable() : Constant();
    } else {
      switch (Pick(6)) {
        case 0:
        case 1: {
          e = Expr(depth - 1);
          for (int t = Pick(5); t >= 0; --t) {
            absl::StrAppend(&e, Pick(2) ? " + " : " - ", Expr(depth - 1));
          }
          if (Pick(2)) e = absl::StrCat("(", e, ")");
          break;
        }
        case 2:
          e = Pick(2) ? absl::StrCat("(", Expr(depth - 1), ") * ", Constant())
                      : absl::StrCat(Constant(), " * ", Variable());
          break;
        case 3:
        case 4: {
          static const char* kOps[] = {" floordiv ", " ceildiv ", " mod "};
          e = absl::StrCat("(", Expr(depth - 1), ")", kOps[Pick(3)],
                           1 + Pick(8));
          break;
        }
        default:
          e = absl::StrCat("-(", Expr(depth - 1), ")");
      }
    }
    seen_.push_back(e);
    return e;
  }

  std::mt19937 rng_;
  int dims_ = 1, range_ = 0, runtime_ = 0;
  std::vector<std::string> seen_;
};

TEST(MapTextDifferentialTest, SameMapAsTheBaselineParser) {
  mlir::MLIRContext context;
  MapGenerator generator(31337);
  int compared = 0, refused = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = generator.Map();
    absl::StatusOr<IndexingMap> baseline =
        baseline::ParseIndexingMap(text, &context);
    absl::StatusOr<IndexingMap> parsed = ParseIndexingMap(text, &context);
    ASSERT_TRUE(baseline.ok()) << baseline.status() << "\n" << text;
    if (!parsed.ok()) {
      // The checked builder refuses a fold of MLIR's it cannot check (a
      // sum rewritten into a mod: "s0 + s2 - s2 floordiv 2 and
      // -(s2 floordiv 2) became s0 + s2 mod 2"); nothing else.
      ASSERT_NE(parsed.status().message().find("cannot check for int64"),
                absl::string_view::npos)
          << parsed.status() << "\n"
          << text;
      ++refused;
      continue;
    }
    ASSERT_TRUE(*parsed == *baseline) << text << "\nparsed:\n"
                                      << ToString(*parsed) << "\nbaseline:\n"
                                      << ToString(*baseline);
    ++compared;
  }
  EXPECT_GT(compared, 19000);
  EXPECT_LT(refused, 200);
}

// `text` with XLA HEAD's spellings of floordiv and ceildiv
// (SymbolicExprParserImpl::ParseTerm in XLA's
// symbolic_map_serialization.cc reads `/`, `floorDiv` and `ceilDiv`), one
// picked at random per occurrence; the baseline, which predates them, reads
// the original text.
std::string InXlaHeadSpelling(const std::string& text, std::mt19937& rng) {
  static const char* kFloor[] = {" / ", " floorDiv ", " floordiv "};
  static const char* kCeil[] = {" ceilDiv ", " ceildiv "};
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const int pick = std::uniform_int_distribution<int>(0, 5)(rng);
    if (text.compare(i, 10, " floordiv ") == 0) {
      out += kFloor[pick % 3];
      i += 10;
    } else if (text.compare(i, 9, " ceildiv ") == 0) {
      out += kCeil[pick % 2];
      i += 9;
    } else {
      out += text[i++];
    }
  }
  return out;
}

TEST(MapTextDifferentialTest, XlaHeadSpellingGivesTheBaselinesMap) {
  mlir::MLIRContext context;
  MapGenerator generator(4242);
  std::mt19937 rng(99);
  int compared = 0, respelled = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::string text = generator.Map();
    const std::string xla_text = InXlaHeadSpelling(text, rng);
    if (xla_text != text) ++respelled;
    absl::StatusOr<IndexingMap> baseline =
        baseline::ParseIndexingMap(text, &context);
    absl::StatusOr<IndexingMap> parsed = ParseIndexingMap(xla_text, &context);
    ASSERT_TRUE(baseline.ok()) << baseline.status() << "\n" << text;
    if (!parsed.ok()) {
      // As above: only a fold the checked builder cannot check.
      ASSERT_NE(parsed.status().message().find("cannot check for int64"),
                absl::string_view::npos)
          << parsed.status() << "\n"
          << xla_text;
      continue;
    }
    ASSERT_TRUE(*parsed == *baseline) << xla_text << "\nbaseline read:\n"
                                      << text;
    ++compared;
  }
  EXPECT_GT(compared, 3800);
  EXPECT_GT(respelled, 2000);
}

}  // namespace
}  // namespace xla_index

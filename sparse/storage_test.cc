#include "sparse/storage.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "sparse/affine_level_maps.h"
#include "sparse/coo_text.h"
#include "sparse/encoding_parser.h"

namespace xla_index::sparse {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

/// The numbers after "NAME :" in a seed storage dump, including the lines
/// that continue the list (lines made only of numbers).
std::vector<double> ReadSeedArray(const std::string& text,
                                  const std::string& name) {
  std::vector<double> numbers;
  bool in_list = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::vector<absl::string_view> words =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (!in_list) {
      if (words.size() >= 2 && words[0] == name && words[1] == ":") {
        in_list = true;
        words.erase(words.begin(), words.begin() + 2);
      } else {
        continue;
      }
    } else if (words.empty()) {
      break;
    }
    for (absl::string_view word : words) {
      double value;
      if (!absl::SimpleAtod(word, &value)) return numbers;
      numbers.push_back(value);
    }
  }
  return numbers;
}

class StorageTest : public ::testing::Test {
 protected:
  SparseEncoding Parse(const std::string& map, int pos_width = 0,
                       int crd_width = 0) {
    std::string text = "#sparse_tensor.encoding<{ map = " + map;
    if (pos_width) text += ", posWidth = " + std::to_string(pos_width);
    if (crd_width) text += ", crdWidth = " + std::to_string(crd_width);
    text += " }>";
    absl::StatusOr<SparseEncoding> encoding =
        ParseSparseEncoding(text, &context_);
    EXPECT_TRUE(encoding.ok()) << encoding.status();
    return *encoding;
  }

  mlir::MLIRContext context_;
};

// The 2x2 BSR picture of MLIR's SparseTensor dialect documentation, both
// directions: the matrix drawn on the left assembles to the "Stored as" arrays,
// and those arrays give back the matrix.
TEST_F(StorageTest, SeedBsrExampleBothDirections) {
  const std::string seed = ReadFile("sparse/testdata/seed_bsr_2x2.txt");
  // The left picture: rows of "| a b | . . | c d |" before the "=>" side.
  CooTensor coo;
  coo.dim_sizes = {4, 6};
  int64_t row = 0;
  for (absl::string_view line : absl::StrSplit(seed, '\n')) {
    if (!absl::StartsWith(line, " | ")) continue;
    absl::string_view left = line.substr(0, line.find("|    "));
    int64_t column = 0;
    for (absl::string_view word :
         absl::StrSplit(left, absl::ByAnyChar(" |"), absl::SkipEmpty())) {
      double value;
      if (word != ".") {
        ASSERT_TRUE(absl::SimpleAtod(word, &value)) << word;
        coo.coordinates.insert(coo.coordinates.end(), {row, column});
        coo.values.push_back(value);
      }
      ++column;
    }
    ASSERT_EQ(column, 6);
    ++row;
  }
  ASSERT_EQ(row, 4);
  ASSERT_EQ(coo.nnz(), 8);

  SparseEncoding bsr = Parse(
      "(i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : "
      "dense, j mod 2 : dense)");
  absl::StatusOr<SparseStorage> storage = AssembleFromCoo(bsr, coo);
  ASSERT_TRUE(storage.ok()) << storage.status();
  std::vector<double> positions = ReadSeedArray(seed, "positions[1]");
  std::vector<double> coordinates = ReadSeedArray(seed, "coordinates[1]");
  std::vector<double> values = ReadSeedArray(seed, "values");
  ASSERT_EQ(values.size(), 12u);
  EXPECT_THAT(storage->level_sizes, ElementsAre(2, 3, 2, 2));
  std::vector<uint64_t> pos_built = storage->levels[1].positions.ToVector();
  EXPECT_EQ(std::vector<double>(pos_built.begin(), pos_built.end()), positions);
  std::vector<uint64_t> crd = storage->levels[1].coordinates.ToVector();
  EXPECT_EQ(std::vector<double>(crd.begin(), crd.end()), coordinates);
  EXPECT_EQ(storage->values, values);
  for (int l : {0, 2, 3}) {
    EXPECT_TRUE(storage->levels[l].positions.empty());
    EXPECT_TRUE(storage->levels[l].coordinates.empty());
  }

  // Back: the documented arrays, built by hand, decode to the same matrix.
  SparseStorage from_seed;
  from_seed.dim_sizes = {4, 6};
  from_seed.level_sizes = {2, 3, 2, 2};
  from_seed.levels.resize(4);
  std::vector<uint64_t> pos(positions.begin(), positions.end());
  std::vector<uint64_t> crd_seed(coordinates.begin(), coordinates.end());
  from_seed.levels[1].positions = *WidthArray::Create(pos, 0, "pos");
  from_seed.levels[1].coordinates = *WidthArray::Create(crd_seed, 0, "crd");
  from_seed.values = values;
  absl::StatusOr<CooTensor> back = StorageToCoo(bsr, from_seed);
  ASSERT_TRUE(back.ok()) << back.status();
  std::map<std::vector<int64_t>, double> expected, actual;
  for (int64_t k = 0; k < coo.nnz(); ++k) {
    expected[{coo.coordinates[2 * k], coo.coordinates[2 * k + 1]}] =
        coo.values[k];
    actual[{back->coordinates[2 * k], back->coordinates[2 * k + 1]}] =
        back->values[k];
  }
  EXPECT_EQ(back->nnz(), coo.nnz());
  EXPECT_EQ(actual, expected);
}

// The 2:4 storage of MLIR's SparseTensor dialect documentation: decoding it
// gives a 16x16 matrix with exactly two nonzeros in every 1x4 block, and
// assembling that matrix gives back the documented coordinates and values.
TEST_F(StorageTest, SeedTwoFourExampleBothDirections) {
  const std::string seed = ReadFile("sparse/testdata/seed_nv24.txt");
  std::vector<double> coordinates = ReadSeedArray(seed, "coordinates[2]");
  std::vector<double> values = ReadSeedArray(seed, "values");
  ASSERT_EQ(coordinates.size(), 128u);
  ASSERT_EQ(values.size(), 128u);
  absl::StatusOr<SparseEncoding> nv24 = ParseSparseEncoding(
      "#NV_24 = #sparse_tensor.encoding<{\n"
      "  map = ( i, j ) -> ( i            : dense,\n"
      "                      j floordiv 4 : dense,\n"
      "                      j mod 4      : block2_4),\n"
      "  crdWidth = 2  // 2-bits for each coordinate\n}>",
      &context_);
  ASSERT_TRUE(nv24.ok()) << nv24.status();

  SparseStorage from_seed;
  from_seed.dim_sizes = {16, 16};
  from_seed.level_sizes = {16, 4, 4};
  from_seed.levels.resize(3);
  std::vector<uint64_t> crd(coordinates.begin(), coordinates.end());
  from_seed.levels[2].coordinates = *WidthArray::Create(crd, 8, "crd");
  from_seed.values = values;
  absl::StatusOr<std::vector<double>> dense = StorageToDense(*nv24, from_seed);
  ASSERT_TRUE(dense.ok()) << dense.status();
  // Read off the documentation by hand: row 0 stores 1 2 3 4 1 2 3 4 at block
  // offsets 0 2, row 3 stores 13 14 15 16 ... at offsets 2 3 0 1.
  EXPECT_THAT(std::vector<double>(dense->begin(), dense->begin() + 16),
              ElementsAre(1, 0, 2, 0, 3, 0, 4, 0, 1, 0, 2, 0, 3, 0, 4, 0));
  EXPECT_THAT(
      std::vector<double>(dense->begin() + 48, dense->begin() + 64),
      ElementsAre(0, 0, 13, 14, 15, 16, 0, 0, 0, 0, 13, 14, 15, 16, 0, 0));
  for (int64_t block = 0; block < 64; ++block) {
    EXPECT_EQ(std::count(dense->begin() + 4 * block,
                         dense->begin() + 4 * block + 4, 0.0),
              2)
        << "block " << block;
  }

  absl::StatusOr<CooTensor> coo = StorageToCoo(*nv24, from_seed);
  ASSERT_TRUE(coo.ok()) << coo.status();
  EXPECT_EQ(coo->nnz(), 128);
  absl::StatusOr<SparseStorage> storage = AssembleFromCoo(*nv24, *coo);
  ASSERT_TRUE(storage.ok()) << storage.status();
  EXPECT_EQ(storage->levels[2].coordinates.ToVector(), crd);
  EXPECT_EQ(storage->levels[2].coordinates.width(), 8);
  EXPECT_EQ(storage->values, values);
}

// Every level format on random tensors: assembling and decoding gives back
// the elements, and the dense form matches one built straight from the COO.
TEST_F(StorageTest, RandomRoundTripForEveryFormat) {
  struct Case {
    std::string map;
    std::vector<int64_t> shape;
    bool two_of_four = false;  // Exactly <= 2 nonzeros per 1x4 block.
  };
  const std::vector<Case> cases = {
      {"(i) -> (i : compressed)", {37}},
      {"(i, j) -> (i : dense, j : compressed)", {9, 13}},
      {"(i, j) -> (j : dense, i : compressed)", {9, 13}},
      {"(i, j) -> (i : compressed, j : compressed)", {9, 13}},
      {"(i, j) -> (j : compressed, i : compressed)", {9, 13}},
      {"(i, j) -> (i : compressed(nonunique), j : singleton)", {9, 13}},
      {"(i, j) -> (i : compressed(nonunique), j : singleton(soa))", {9, 13}},
      {"(i, j) -> (i : loose_compressed, j : compressed)", {9, 13}},
      {"(i, j) -> (i : dense, j : loose_compressed(nonordered))", {9, 13}},
      {"(i, j, k) -> (i : dense, j : loose_compressed(nonunique), k : "
       "singleton)",
       {4, 5, 6}},
      {"(i, j, k) -> (i : batch, j : dense, k : compressed)", {3, 4, 5}},
      {"(i, j, k) -> (k : compressed, i : dense, j : compressed(nonunique, "
       "nonordered))",
       {3, 4, 5}},
      {"(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 "
       ": dense, j mod 3 : dense)",
       {7, 10}},
      {"(i, j) -> (i : dense, j : dense)", {5, 6}},
      {"(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, "
       "4])",
       {6, 12},
       true},
      {"(i, j) -> (i : dense, j floordiv 8 : dense, j mod 8 : structured[3, "
       "8])",
       {5, 16},
       true},
  };
  std::mt19937 rng(42);
  for (const Case& test : cases) {
    SCOPED_TRACE(test.map);
    SparseEncoding encoding = Parse(test.map);
    for (int trial = 0; trial < 20; ++trial) {
      // A random set of distinct coordinates with nonzero values.
      int64_t elements = 1;
      for (int64_t size : test.shape) elements *= size;
      std::vector<double> dense(elements, 0.0);
      std::bernoulli_distribution keep(trial % 4 * 0.25 + 0.1);
      for (int64_t linear = 0; linear < elements; ++linear) {
        if (keep(rng)) dense[linear] = 1 + rng() % 100;
      }
      if (test.two_of_four) {
        // Keep at most n nonzeros per block (n and m read off the type).
        const LevelType& type = encoding.level_types.back();
        for (int64_t b = 0; b < elements / type.m; ++b) {
          int64_t kept = 0;
          for (int64_t c = 0; c < type.m; ++c) {
            double& v = dense[b * type.m + c];
            if (v != 0 && ++kept > type.n) v = 0;
          }
        }
      }
      CooTensor coo;
      coo.dim_sizes = test.shape;
      // Shuffled input order: assembly must not rely on sorted input.
      std::vector<int64_t> order(elements);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      for (int64_t linear : order) {
        if (dense[linear] == 0) continue;
        int64_t rest = linear;
        std::vector<int64_t> point(test.shape.size());
        for (int64_t d = test.shape.size() - 1; d >= 0; --d) {
          point[d] = rest % test.shape[d];
          rest /= test.shape[d];
        }
        coo.coordinates.insert(coo.coordinates.end(), point.begin(),
                               point.end());
        coo.values.push_back(dense[linear]);
      }
      absl::StatusOr<SparseStorage> storage = AssembleFromCoo(encoding, coo);
      ASSERT_TRUE(storage.ok()) << storage.status();
      absl::StatusOr<std::vector<double>> decoded =
          StorageToDense(encoding, *storage);
      ASSERT_TRUE(decoded.ok()) << decoded.status();
      EXPECT_EQ(*decoded, dense);
      absl::StatusOr<CooTensor> back = StorageToCoo(encoding, *storage);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(back->nnz(), coo.nnz());
      // Compressed levels store exactly the distinct nonzero prefixes.
      for (int64_t l = 0; l < encoding.lvl_rank(); ++l) {
        const LevelStorage& level = storage->levels[l];
        if (encoding.level_types[l].format == LevelFormat::kCompressed) {
          std::vector<uint64_t> pos = level.positions.ToVector();
          EXPECT_TRUE(std::is_sorted(pos.begin(), pos.end()));
          EXPECT_EQ(pos.back(), level.coordinates.size());
        }
      }
    }
  }
}

// The largest storage is that of a tensor with no zero: assembling a full
// tensor must give exactly MaxStorageSizes, for every format.
TEST_F(StorageTest, MaxStorageSizesAreThoseOfAFullTensor) {
  for (const char* map :
       {"(i, j) -> (i : dense, j : compressed)",
        "(i, j) -> (j : compressed, i : compressed)",
        "(i, j) -> (i : compressed(nonunique), j : singleton)",
        "(i, j) -> (i : loose_compressed, j : compressed(nonunique))",
        "(i, j) -> (i : dense, j : loose_compressed)",
        "(i, j) -> (i : batch, j : compressed)",
        "(i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 "
        ": dense, j mod 3 : dense)",
        "(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : "
        "structured[2, 4])"}) {
    SCOPED_TRACE(map);
    SparseEncoding encoding = Parse(map, 16, 8);
    CooTensor full;
    full.dim_sizes = {6, 12};
    const bool two_four =
        encoding.level_types.back().format == LevelFormat::kStructured;
    for (int64_t i = 0; i < 6; ++i) {
      for (int64_t j = 0; j < 12; ++j) {
        if (two_four && j % 4 >= 2) continue;  // 2 of every 4 only.
        full.coordinates.insert(full.coordinates.end(), {i, j});
        full.values.push_back(1 + i + j);
      }
    }
    absl::StatusOr<SparseStorage> storage = AssembleFromCoo(encoding, full);
    ASSERT_TRUE(storage.ok()) << storage.status();
    StorageSizes actual = SizesOf(encoding, *storage);
    StorageSizes max = MaxStorageSizes(encoding, storage->level_sizes);
    EXPECT_EQ(actual.positions, max.positions);
    EXPECT_EQ(actual.coordinates, max.coordinates);
    EXPECT_EQ(actual.values, max.values);
    EXPECT_EQ(actual.bytes, max.bytes);
  }
}

TEST_F(StorageTest, NonuniqueLevelsKeepDuplicates) {
  SparseEncoding coo_encoding =
      Parse("(i, j) -> (i : compressed(nonunique), j : singleton)");
  CooTensor coo{{3, 3}, {1, 2, 0, 0, 1, 2}, {5, 7, 11}};
  absl::StatusOr<SparseStorage> storage = AssembleFromCoo(coo_encoding, coo);
  ASSERT_TRUE(storage.ok()) << storage.status();
  EXPECT_THAT(storage->levels[0].positions.ToVector(), ElementsAre(0, 3));
  EXPECT_THAT(storage->levels[0].coordinates.ToVector(), ElementsAre(0, 1, 1));
  EXPECT_THAT(storage->levels[1].coordinates.ToVector(), ElementsAre(0, 2, 2));
  // Duplicates keep their input order.
  EXPECT_THAT(storage->values, ElementsAre(7, 5, 11));
  // The array-of-structs buffer interleaves the segment's coordinates.
  EXPECT_TRUE(StartsAosSegment(coo_encoding, 0));
  absl::StatusOr<std::vector<uint64_t>> aos =
      AosCoordinates(coo_encoding, *storage, 0);
  ASSERT_TRUE(aos.ok()) << aos.status();
  EXPECT_THAT(*aos, ElementsAre(0, 0, 1, 2, 1, 2));
  // A storage built by hand whose segment levels disagree, or that lacks
  // the levels, is an error rather than a read out of bounds.
  SparseStorage uneven = *storage;
  uneven.levels[1].coordinates = *WidthArray::Create({2}, 0, "test");
  aos = AosCoordinates(coo_encoding, uneven, 0);
  EXPECT_EQ(aos.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(aos.status().message(), HasSubstr("level 1 has 1 coordinates"));
  SparseStorage truncated = *storage;
  truncated.levels.pop_back();
  aos = AosCoordinates(coo_encoding, truncated, 0);
  EXPECT_EQ(aos.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(aos.status().message(), HasSubstr("the storage has 1 levels"));
  absl::StatusOr<std::vector<double>> dense =
      StorageToDense(coo_encoding, *storage);
  ASSERT_TRUE(dense.ok());
  EXPECT_EQ((*dense)[1 * 3 + 2], 16);
}

TEST_F(StorageTest, UniqueEncodingsRejectDuplicates) {
  SparseEncoding csr = Parse("(i, j) -> (i : dense, j : compressed)");
  CooTensor coo{{3, 3}, {1, 2, 0, 0, 1, 2}, {5, 7, 11}};
  absl::StatusOr<SparseStorage> storage = AssembleFromCoo(csr, coo);
  ASSERT_FALSE(storage.ok());
  EXPECT_THAT(std::string(storage.status().message()),
              HasSubstr("elements 0 and 2 have the same coordinates (1, 2)"));
}

TEST_F(StorageTest, ReportsBadInput) {
  SparseEncoding csr = Parse("(i, j) -> (i : dense, j : compressed)");
  CooTensor outside{{3, 3}, {1, 3}, {1}};
  EXPECT_THAT(std::string(AssembleFromCoo(csr, outside).status().message()),
              HasSubstr("element 0 at (1, 3) is outside the shape 3x3"));
  CooTensor wrong_rank{{3}, {1}, {1}};
  EXPECT_FALSE(AssembleFromCoo(csr, wrong_rank).ok());

  // A singleton under a unique compressed level holds one element per row.
  SparseEncoding bad_coo = Parse("(i, j) -> (i : compressed, j : singleton)");
  CooTensor two_in_row{{3, 3}, {1, 0, 1, 2}, {1, 2}};
  EXPECT_THAT(
      std::string(AssembleFromCoo(bad_coo, two_in_row).status().message()),
      HasSubstr("exactly one coordinate per parent entry"));

  SparseEncoding nv24 = Parse(
      "(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, "
      "4])");
  CooTensor three_in_block{{1, 4}, {0, 0, 0, 1, 0, 3}, {1, 2, 3}};
  EXPECT_THAT(
      std::string(AssembleFromCoo(nv24, three_in_block).status().message()),
      HasSubstr("has 3 nonzeros, more than n = 2"));

  SparseEncoding ell =
      Parse("[c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)");
  CooTensor one{{2, 2}, {0, 0}, {1}};
  EXPECT_EQ(AssembleFromCoo(ell, one).status().code(),
            absl::StatusCode::kUnimplemented);
}

TEST_F(StorageTest, NarrowWidthsStoreAtTheirWidthAndReportOverflow) {
  // 300 columns: coordinate 299 does not fit in 8 bits.
  SparseEncoding narrow = Parse("(i, j) -> (i : dense, j : compressed)", 16, 8);
  CooTensor wide_column{{2, 300}, {0, 299}, {1}};
  absl::StatusOr<SparseStorage> overflow = AssembleFromCoo(narrow, wide_column);
  ASSERT_FALSE(overflow.ok());
  EXPECT_THAT(std::string(overflow.status().message()),
              HasSubstr("coordinates of level 1 (compressed) (crdWidth = 8): "
                        "value 299 at index 0 does not fit in 8 bits"));
  // 300 nonzeros in one row: the last position, 300, does not fit posWidth 8.
  SparseEncoding narrow_pos =
      Parse("(i, j) -> (i : dense, j : compressed)", 8, 16);
  CooTensor full_row{{1, 300}, {}, {}};
  for (int64_t j = 0; j < 300; ++j) {
    full_row.coordinates.insert(full_row.coordinates.end(), {0, j});
    full_row.values.push_back(1);
  }
  absl::StatusOr<SparseStorage> pos_overflow =
      AssembleFromCoo(narrow_pos, full_row);
  ASSERT_FALSE(pos_overflow.ok());
  EXPECT_THAT(std::string(pos_overflow.status().message()),
              HasSubstr("positions of level 1 (compressed) (posWidth = 8): "
                        "value 300 at index 1"));
  // Fitting values are stored at the declared widths.
  absl::StatusOr<SparseStorage> fits =
      AssembleFromCoo(Parse("(i, j) -> (i : dense, j : compressed)", 16, 8),
                      CooTensor{{2, 200}, {0, 199, 1, 5}, {1, 2}});
  ASSERT_TRUE(fits.ok()) << fits.status();
  EXPECT_EQ(fits->levels[1].positions.width(), 16);
  EXPECT_EQ(fits->levels[1].coordinates.width(), 8);
  EXPECT_EQ(StorageBytes(*fits), 3 * 2 + 2 * 1 + 2 * 8);
}

TEST_F(StorageTest, CorruptStorageIsAnErrorNotACrash) {
  SparseEncoding csr = Parse("(i, j) -> (i : dense, j : compressed)");
  SparseStorage storage;
  storage.dim_sizes = {2, 3};
  storage.level_sizes = {2, 3};
  storage.levels.resize(2);
  storage.levels[1].positions = *WidthArray::Create({0, 2, 1}, 0, "pos");
  storage.levels[1].coordinates = *WidthArray::Create({0, 1}, 0, "crd");
  storage.values = {1, 2};
  EXPECT_FALSE(StorageToCoo(csr, storage).ok());  // decreasing positions
  storage.levels[1].positions = *WidthArray::Create({0, 2, 5}, 0, "pos");
  EXPECT_FALSE(StorageToCoo(csr, storage).ok());  // past the coordinates
  storage.levels[1].positions = *WidthArray::Create({0, 1, 2}, 0, "pos");
  storage.levels[1].coordinates = *WidthArray::Create({0, 7}, 0, "crd");
  EXPECT_FALSE(StorageToCoo(csr, storage).ok());  // coordinate >= size
  storage.levels[1].coordinates = *WidthArray::Create({0, 2}, 0, "crd");
  storage.values = {1};
  EXPECT_FALSE(StorageToCoo(csr, storage).ok());  // too few values
  storage.values = {1, 2};
  absl::StatusOr<CooTensor> good = StorageToCoo(csr, storage);
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_THAT(good->coordinates, ElementsAre(0, 0, 1, 2));
}

TEST_F(StorageTest, HugeStorageIsRefusedNotAllocated) {
  // A dense level over 10^9 rows would pad 10^9 entries.
  SparseEncoding csr = Parse("(i, j) -> (i : dense, j : compressed)");
  CooTensor huge{{1000000000, 4}, {5, 1}, {1}};
  absl::StatusOr<SparseStorage> storage = AssembleFromCoo(csr, huge);
  ASSERT_FALSE(storage.ok());
  EXPECT_EQ(storage.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(storage.status().message()),
              HasSubstr("level 0 (dense) of a 1000000000x4 tensor would hold "
                        "1000000000 entries"));
  // Doubly compressed storage of the same tensor is small.
  SparseEncoding dcsr = Parse("(i, j) -> (i : compressed, j : compressed)");
  absl::StatusOr<SparseStorage> small = AssembleFromCoo(dcsr, huge);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_THAT(small->levels[0].coordinates.ToVector(), ElementsAre(5));
  EXPECT_EQ(StorageToDense(dcsr, *small).status().code(),
            absl::StatusCode::kResourceExhausted);
  absl::StatusOr<CooTensor> back = StorageToCoo(dcsr, *small);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_THAT(back->coordinates, ElementsAre(5, 1));
}

// Random arrays under every format: decoding reports errors or succeeds, and
// never reads out of bounds (run under --config=asan to check the latter).
TEST_F(StorageTest, RandomArraysNeverCrashTheDecoder) {
  std::mt19937 rng(99);
  for (const char* map :
       {"(i, j) -> (i : dense, j : compressed)",
        "(i, j) -> (i : compressed(nonunique), j : singleton)",
        "(i, j) -> (i : loose_compressed, j : compressed)",
        "(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, "
        "4])",
        "(i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 "
        ": dense, j mod 2 : dense)"}) {
    SparseEncoding encoding = Parse(map);
    for (int trial = 0; trial < 300; ++trial) {
      SparseStorage storage;
      storage.dim_sizes = {4, 8};
      storage.level_sizes = *LevelSizes(encoding.dim_to_lvl, {4, 8});
      storage.levels.resize(encoding.lvl_rank());
      for (LevelStorage& level : storage.levels) {
        std::vector<uint64_t> pos(rng() % 10), crd(rng() % 10);
        for (uint64_t& p : pos) p = rng() % 12;
        for (uint64_t& c : crd) c = rng() % 10;
        if (rng() % 2) std::sort(pos.begin(), pos.end());
        level.positions = *WidthArray::Create(pos, 0, "pos");
        level.coordinates = *WidthArray::Create(crd, 0, "crd");
      }
      storage.values.assign(rng() % 40, 1.0);
      absl::StatusOr<CooTensor> coo = StorageToCoo(encoding, storage);
      if (!coo.ok()) {
        EXPECT_EQ(coo.status().code(), absl::StatusCode::kInvalidArgument);
      }
    }
  }
}

TEST_F(StorageTest, RandomCooTextNeverCrashes) {
  std::mt19937 rng(5);
  const std::string alphabet = "0123456789 -.e+x#%\n\tinfa";
  for (int trial = 0; trial < 2000; ++trial) {
    std::string text;
    for (int k = rng() % 40; k > 0; --k)
      text += alphabet[rng() % alphabet.size()];
    absl::StatusOr<CooTensor> coo =
        ParseCooText(text, 1 + rng() % 3, {}, "random.coo");
    if (coo.ok()) {
      EXPECT_EQ(coo->coordinates.size(), coo->values.size() * coo->rank());
    } else {
      EXPECT_EQ(coo.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST_F(StorageTest, ParsesCooText) {
  absl::StatusOr<CooTensor> coo =
      ParseCooText("# comment\n0 1 2.5\n\n3 0 -1\n", 2, {}, "a.coo");
  ASSERT_TRUE(coo.ok()) << coo.status();
  EXPECT_THAT(coo->dim_sizes, ElementsAre(4, 2));
  EXPECT_THAT(coo->coordinates, ElementsAre(0, 1, 3, 0));
  EXPECT_THAT(coo->values, ElementsAre(2.5, -1));
  EXPECT_THAT(
      std::string(
          ParseCooText("0 1 2\n0 x 1\n", 2, {}, "a.coo").status().message()),
      HasSubstr("a.coo:2:3: expected an integer coordinate"));
  EXPECT_THAT(
      std::string(ParseCooText("0 1\n", 2, {}, "a.coo").status().message()),
      HasSubstr("a.coo:1:1: expected 3 numbers"));
  EXPECT_THAT(
      std::string(
          ParseCooText("0 4 1\n", 2, {4, 4}, "a.coo").status().message()),
      HasSubstr("a.coo:1:3: coordinate 4 of dimension 1 is outside"));
  EXPECT_THAT(*ParseShape("20x30"), ElementsAre(20, 30));
  EXPECT_FALSE(ParseShape("20x0").ok());
  EXPECT_FALSE(ParseShape("20xx3").ok());
}

// Out-of-range arguments are programmer errors: asserts with a message (in
// the fastbuild and debug builds the tests run in; compiled out with
// NDEBUG).
#ifndef NDEBUG
TEST_F(StorageTest, OutOfRangeArgumentsAssert) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SparseEncoding encoding =
      Parse("(i, j) -> (i : compressed(nonunique), j : singleton)");
  SparseStorage storage;
  EXPECT_DEATH(AosCoordinates(encoding, storage, 2).IgnoreError(),
               "level out of range");
  EXPECT_DEATH(AosCoordinates(encoding, storage, -1).IgnoreError(),
               "level out of range");
  EXPECT_DEATH(MaxStorageSizes(encoding, {3}), "one level size per level");
  EXPECT_DEATH(MaxStorageSizes(encoding, {3, -1}), "negative level size");
}
#endif

}  // namespace
}  // namespace xla_index::sparse

// Replays a fuzz target's corpus without libFuzzer: every file under
// tests/fuzz/corpus/<target>/ and tests/fuzz/regressions/<target>/ goes
// through the target's LLVMFuzzerTestOneInput, so the seed corpus and the
// inputs of fixed findings are checked on every CI run with the normal
// toolchain (and under --config=asan). A target aborts on a finding, so a
// failure shows as a crash of this test; the file it was on is printed
// first.
//
// Built once per target with -DXLA_INDEX_FUZZ_TARGET=<target> and linked
// with that target's <target>_fuzzer.cc.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gtest/gtest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define XLA_INDEX_STRINGIFY_INNER(x) #x
#define XLA_INDEX_STRINGIFY(x) XLA_INDEX_STRINGIFY_INNER(x)

namespace xla_index {
namespace {

constexpr char kTarget[] = XLA_INDEX_STRINGIFY(XLA_INDEX_FUZZ_TARGET);

// Regular files under `dir` (recursively), sorted so runs are repeatable.
std::vector<std::string> FilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void RunFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot open " << path;
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  // Printed before the run: if the target aborts, the log ends with it.
  std::fprintf(stderr, "replaying %s\n", path.c_str());
  // A heap copy of exactly the input's size, as libFuzzer passes it, so
  // AddressSanitizer sees reads past the end.
  std::vector<uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
}

TEST(FuzzReplay, Corpus) {
  const std::vector<std::string> files =
      FilesUnder(std::string("tests/fuzz/corpus/") + kTarget);
  // An empty corpus means the data was not found (wrong working directory
  // or missing `data`), not that there is nothing to check.
  ASSERT_FALSE(files.empty()) << "no corpus for " << kTarget;
  for (const std::string& path : files) RunFile(path);
  std::printf("%s: replayed %zu corpus files\n", kTarget, files.size());
}

TEST(FuzzReplay, Regressions) {
  const std::string dir = std::string("tests/fuzz/regressions/") + kTarget;
  // Every target has the inputs of its fixed findings (or of findings that
  // another way of testing made; RELIABILITY.md): a missing folder is data
  // that was not found, not a target with nothing to check.
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << "no folder " << dir;
  const std::vector<std::string> files = FilesUnder(dir);
  ASSERT_FALSE(files.empty()) << "no regression inputs in " << dir;
  for (const std::string& path : files) RunFile(path);
  std::printf("%s: replayed %zu regression files\n", kTarget, files.size());
}

}  // namespace
}  // namespace xla_index

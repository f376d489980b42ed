#ifndef XLA_INDEX_CORE_TEST_BLOCKS_H_
#define XLA_INDEX_CORE_TEST_BLOCKS_H_

// ReadBlocks: test data files of blocks separated by "----" lines.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace xla_index {

/// Reads a test data file of blocks separated by lines "----" (lines that
/// start with '#' are comments), for tests run from the repository root.
/// Each block is returned without its trailing newline.
inline std::vector<std::string> ReadBlocks(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::vector<std::string> blocks;
  std::string current;
  bool started = false;
  for (absl::string_view line : absl::StrSplit(buffer.str(), '\n')) {
    if (absl::StartsWith(line, "#")) continue;
    if (line == "----") {
      if (started && !current.empty()) blocks.push_back(current);
      current.clear();
      started = true;
      continue;
    }
    if (!started) continue;
    if (line.empty() && current.empty()) continue;
    if (!current.empty()) current += "\n";
    current += std::string(line);
  }
  while (!current.empty() && current.back() == '\n') current.pop_back();
  if (!current.empty()) blocks.push_back(current);
  for (std::string& b : blocks) {
    while (!b.empty() && (b.back() == '\n' || b.back() == ' ')) b.pop_back();
  }
  return blocks;
}

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_TEST_BLOCKS_H_

#include "xla_index/analysis/test_modules.h"

#include <fstream>
#include <sstream>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "hlo/parser.h"

namespace xla_index {

std::unique_ptr<HloModule> ParseTestModule(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

std::unique_ptr<HloModule> ParseTestdataModule(const std::string& name) {
  std::ifstream file("xla_index/analysis/testdata/" + name);
  EXPECT_TRUE(file.good()) << name;
  std::stringstream text;
  text << file.rdbuf();
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text.str());
  EXPECT_TRUE(module.ok()) << name << ": " << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

}  // namespace xla_index

#include "hlo/parser_test_util.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"

namespace xla_index {

std::unique_ptr<HloModule> ExpectAccepted(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << text;
  if (!module.ok()) return nullptr;
  std::string printed = (*module)->ToString();
  absl::StatusOr<std::unique_ptr<HloModule>> again =
      ParseAndVerifyHloModule(printed);
  EXPECT_TRUE(again.ok()) << again.status() << "\n" << printed;
  if (again.ok()) {
    EXPECT_EQ((*again)->ToString(), printed);
  }
  return *std::move(module);
}

void ExpectRejected(const std::string& text, const std::string& location,
                    const std::string& message) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  ASSERT_FALSE(module.ok()) << text;
  std::string error(module.status().message());
  EXPECT_TRUE(absl::StartsWith(error, location + ":"))
      << "expected " << location << ", got: " << error;
  EXPECT_THAT(error, ::testing::HasSubstr(message)) << error;
}

}  // namespace xla_index

// The JAX-style variants of the generated dump are read as XLA HEAD reads
// them (HloParserImpl::ParseHloModule: a name token ending in ':', then
// ParseStackFrameIndex before ParseComputations; ParseInstructionRhs:
// a scalar broadcast needs no dimensions=) and give the same computations
// as the default text, which writes none of these forms.

#include "bench/hlo/dump_style_module.h"

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "hlo/module.h"
#include "hlo/parser.h"

namespace xla_index {
namespace {

// The printed computations, without the module header.
std::string PrintedComputations(const HloModule& module) {
  std::string out;
  for (const auto& computation : module.computations()) {
    out += computation->ToString();
  }
  return out;
}

std::unique_ptr<HloModule> ParseOrFail(const std::string& text) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

TEST(DumpStyleModule, JaxFormsReadAsTheDefaultText) {
  const std::string plain = MakeDumpStyleModule(200);
  JaxDumpStyle all;
  all.colon_header = true;
  all.stack_frames = true;
  all.scalar_broadcast_without_dimensions = true;
  const std::string jax = MakeDumpStyleModule(200, all);
  // The forms are really there.
  ASSERT_TRUE(absl::StartsWith(jax, "HloModule jit_train_step:\n"));
  ASSERT_LT(jax.find("StackFrames"), jax.find("%fused_bias_act.0"));
  ASSERT_NE(jax.find("%scale.0)\n"), std::string::npos);

  std::unique_ptr<HloModule> plain_module = ParseOrFail(plain);
  std::unique_ptr<HloModule> jax_module = ParseOrFail(jax);
  ASSERT_NE(plain_module, nullptr);
  ASSERT_NE(jax_module, nullptr);
  EXPECT_EQ(jax_module->name(), "jit_train_step");
  EXPECT_EQ(PrintedComputations(*jax_module),
            PrintedComputations(*plain_module));
}

TEST(DumpStyleModule, EachJaxFormAlone) {
  for (int option = 0; option < 3; ++option) {
    JaxDumpStyle style;
    style.colon_header = option == 0;
    style.stack_frames = option == 1;
    style.scalar_broadcast_without_dimensions = option == 2;
    EXPECT_NE(ParseOrFail(MakeDumpStyleModule(60, style)), nullptr) << option;
  }
}

}  // namespace
}  // namespace xla_index

#ifndef XLA_INDEX_ANALYSIS_TEST_MODULES_H_
#define XLA_INDEX_ANALYSIS_TEST_MODULES_H_

// Test-only: HLO modules for the analysis tests, parsed and verified from
// text or from a file of xla_index/analysis/testdata/, a failure recorded
// as a GoogleTest failure that names the input.

#include <memory>
#include <string>

#include "hlo/module.h"

namespace xla_index {

/// The computation `sum` (f32 scalar addition), the reducer of the tests'
/// reduces and scatters: modules prepend it to their entry computation.
inline constexpr char kF32SumComputation[] = R"(
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
)";

/// `text` parsed and verified (ParseAndVerifyHloModule); on error a
/// non-fatal test failure with the status, and nullptr.
std::unique_ptr<HloModule> ParseTestModule(const std::string& text);

/// The module in xla_index/analysis/testdata/`name` (the test's data, read
/// relative to the runfiles root); an unreadable file or a parse error is
/// a non-fatal test failure naming `name`, and nullptr.
std::unique_ptr<HloModule> ParseTestdataModule(const std::string& name);

}  // namespace xla_index

#endif  // XLA_INDEX_ANALYSIS_TEST_MODULES_H_

// The time limit of the utilization and report commands as a user sees it
// (--time-limit=SECONDS, all operands together): past it every hard count
// is an upper bound marked exact=false, and each bound contains the true
// count, which the reference evaluator's trace gives independently of the
// maps; within it the counts are exact and equal to the trace.

#include "tools/fusion_analysis_commands.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/literal.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "tools/command_line.h"
#include "tools/hlo_input.h"
#include "tools/report_command.h"

namespace xla_index {
namespace {

// A fusion of three operands, each read through two overlapping maps
// (slices, a transposed slice, strided slices) whose union takes more than
// 4096 points to list: with no time left each count is a bound; with time,
// exact.
constexpr char kThreeHardOperands[] = R"(HloModule budget
fused {
  p0 = f32[100,100] parameter(0)
  p1 = f32[100,100] parameter(1)
  p2 = f32[100,100] parameter(2)
  a0 = f32[90,90] slice(p0), slice={[0:90], [0:90]}
  b0 = f32[90,90] slice(p0), slice={[5:95], [5:95]}
  s0 = f32[90,90] add(a0, b0)
  a1 = f32[90,90] slice(p1), slice={[0:90], [0:90]}
  t1 = f32[100,100] transpose(p1), dimensions={1,0}
  b1 = f32[90,90] slice(t1), slice={[3:93], [7:97]}
  s1 = f32[90,90] add(a1, b1)
  a2 = f32[90,90] slice(p2), slice={[0:90], [0:90:1]}
  b2 = f32[90,90] slice(p2), slice={[10:100], [1:91]}
  s2 = f32[90,90] add(a2, b2)
  s3 = f32[90,90] add(s0, s1)
  ROOT r = f32[90,90] add(s3, s2)
}
ENTRY e {
  x0 = f32[100,100] parameter(0)
  x1 = f32[100,100] parameter(1)
  x2 = f32[100,100] parameter(2)
  ROOT f = f32[90,90] fusion(x0, x1, x2), kind=kLoop, calls=fused
}
)";

std::string WriteTemp(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// The distinct elements of entry parameter `parameter` that the outputs
// read, from the evaluator's trace of the module (no indexing map used).
int64_t TracedElementsRead(const std::string& text, int64_t parameter) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndVerifyHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return -1;
  const HloComputation& entry = *(*module)->entry_computation();
  std::vector<Literal> arguments;
  for (size_t k = 0; k < entry.parameters().size(); ++k) {
    arguments.emplace_back(entry.parameter(k)->shape());
  }
  absl::StatusOr<TracedValue> traced = TraceComputation(entry, arguments);
  EXPECT_TRUE(traced.ok()) << traced.status();
  if (!traced.ok()) return -1;
  std::set<int64_t> elements;
  for (const ReadSet& set : traced->reads[0]) {
    for (const ElementId& id : set) {
      if (id.operand == parameter) elements.insert(id.linear_index);
    }
  }
  return static_cast<int64_t>(elements.size());
}

// One operand's counts as a command printed them in JSON.
struct PrintedCounts {
  int64_t elements_read = -1;
  bool exact = false;
  std::string method;
};

// Every `"elements_read": E, ... "exact": B, "method": "M"` of `json`, in
// order (the utilization and report commands print the fields in that
// order; the report nests them in "utilization").
std::vector<PrintedCounts> ParseCounts(const std::string& json) {
  static const std::regex kCounts(
      "\"elements_read\": ([0-9]+), [^{}]*?\"exact\": (true|false), "
      "\"method\": \"([a-z ]+)\"");
  std::vector<PrintedCounts> counts;
  for (auto it = std::sregex_iterator(json.begin(), json.end(), kCounts);
       it != std::sregex_iterator(); ++it) {
    counts.push_back(
        {std::stoll((*it)[1]), (*it)[2] == "true", std::string((*it)[3])});
  }
  return counts;
}

// Runs `command` with `flags` on `text` (written to the file `name`), as
// the command line would; what it prints.
std::string RunOnText(HloCommand command, const std::string& name,
                      const std::string& text,
                      std::map<std::string, std::string> flags) {
  CommandLine command_line;
  command_line.positional = {WriteTemp(name, text)};
  command_line.flags = std::move(flags);
  std::ostringstream out, err;
  absl::Status status =
      RunOnHloModules("test", command_line, command, out, err);
  EXPECT_TRUE(status.ok()) << status;
  return out.str();
}

// Runs `command` on kThreeHardOperands with --json and `time_limit` (none
// when empty); the printed counts.
std::vector<PrintedCounts> RunWithLimit(HloCommand command,
                                        const std::string& time_limit) {
  std::map<std::string, std::string> flags = {{"json", ""}};
  if (!time_limit.empty()) flags["time-limit"] = time_limit;
  return ParseCounts(
      RunOnText(command, "budget.hlo", kThreeHardOperands, std::move(flags)));
}

TEST(UtilizationTimeLimitTest, NoTimeLeftGivesSoundBoundsMarkedInexact) {
  const std::vector<PrintedCounts> counts =
      RunWithLimit(RunUtilizationCommand, "0");
  ASSERT_EQ(counts.size(), 3u);
  for (int64_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    const int64_t truth = TracedElementsRead(kThreeHardOperands, k);
    EXPECT_FALSE(counts[k].exact);
    EXPECT_EQ(counts[k].method, "bound");
    EXPECT_GE(counts[k].elements_read, truth);
    EXPECT_LE(counts[k].elements_read, 100 * 100);
  }
}

TEST(UtilizationTimeLimitTest, DefaultLimitCountsExactly) {
  const std::vector<PrintedCounts> counts =
      RunWithLimit(RunUtilizationCommand, "");
  ASSERT_EQ(counts.size(), 3u);
  for (int64_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    EXPECT_TRUE(counts[k].exact);
    EXPECT_EQ(counts[k].elements_read,
              TracedElementsRead(kThreeHardOperands, k));
  }
}

TEST(UtilizationTimeLimitTest, ReportHasTheSameLimit) {
  const std::vector<PrintedCounts> bounded =
      RunWithLimit(RunReportCommand, "0");
  const std::vector<PrintedCounts> exact = RunWithLimit(RunReportCommand, "60");
  ASSERT_EQ(bounded.size(), 3u);
  ASSERT_EQ(exact.size(), 3u);
  for (int64_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    const int64_t truth = TracedElementsRead(kThreeHardOperands, k);
    EXPECT_FALSE(bounded[k].exact);
    EXPECT_GE(bounded[k].elements_read, truth);
    EXPECT_TRUE(exact[k].exact);
    EXPECT_EQ(exact[k].elements_read, truth);
  }
}

TEST(UtilizationTimeLimitTest, RefusesALimitOutOfRange) {
  for (const char* limit : {"-1", "86401", "soon"}) {
    CommandLine command_line;
    command_line.flags["time-limit"] = limit;
    absl::StatusOr<absl::Duration> parsed =
        UtilizationTimeLimitFromFlags(command_line, absl::Seconds(5));
    ASSERT_FALSE(parsed.ok()) << limit;
    EXPECT_NE(parsed.status().message().find("--time-limit"), std::string::npos)
        << parsed.status();
  }
}

// --sample-points=N bounds the evaluations of XLA's 128-byte rule sample
// (CoalescingOptions::max_sample_points) when the sample walks the
// iterations of a loop: here each of 5 threads sums a column over 3 x 4000
// rows, a sample of at least one evaluation per thread. Four leave it
// undecided; the default decides it.
TEST(CoalescingSamplePointsTest, TheBudgetDecidesWhetherTheRuleIsDecided) {
  constexpr char kColumnSums[] = R"(HloModule columns
sum {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p = f32[3,4000,5] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[5] reduce(p, zero), dimensions={0,1}, to_apply=sum
}
)";
  const std::string decided =
      RunOnText(RunCoalescingCommand, "columns.hlo", kColumnSums, {});
  const std::string starved = RunOnText(RunCoalescingCommand, "columns.hlo",
                                        kColumnSums, {{"sample-points", "4"}});
  EXPECT_EQ(decided.find("not decided"), std::string::npos) << decided;
  EXPECT_NE(decided.find(" interval(s), "), std::string::npos) << decided;
  EXPECT_NE(starved.find("xla 128-byte rule: not decided"), std::string::npos)
      << starved;
  for (const char* bad : {"0", "16777217", "many"}) {
    CommandLine command_line;
    command_line.flags["sample-points"] = bad;
    absl::StatusOr<CoalescingOptions> options =
        CoalescingOptionsFromFlags(command_line);
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_NE(options.status().message().find("--sample-points"),
              std::string::npos)
        << options.status();
  }
}

}  // namespace
}  // namespace xla_index

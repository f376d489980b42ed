// Every command that reads HLO agrees on a snippet whose parameters are not
// numbered 0..n-1: each refuses it with the same located error, as the
// parser refuses such a module (XLA's HloParserImpl checks that a
// computation's parameter numbers are 0..n-1). A snippet numbered 0..n-1,
// written parameters and implicit ones alike, is still read by all of them.

#include "tools/hlo_input.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tools/analyze_command.h"
#include "tools/command_line.h"
#include "tools/fusion_analysis_commands.h"
#include "tools/report_command.h"
#include "tools/tile_command.h"

namespace xla_index {
namespace {

using Command = absl::Status (*)(const CommandLine& command_line,
                                 std::ostream& out, std::ostream& err);

struct NamedCommand {
  const char* name;
  Command command;
};

// The commands as xla_index_main.cc runs them on an HLO file: through
// RunOnHloModules, or (tile, which also reads maps) on their own.
template <HloCommand command>
absl::Status OnModules(const CommandLine& command_line, std::ostream& out,
                       std::ostream& err) {
  return RunOnHloModules("command", command_line, command, out, err);
}

const std::vector<NamedCommand>& AllHloCommands() {
  static const std::vector<NamedCommand>* commands =
      new std::vector<NamedCommand>{
          {"analyze", OnModules<RunAnalyzeCommand>},
          {"report", OnModules<RunReportCommand>},
          {"utilization", OnModules<RunUtilizationCommand>},
          {"tile", RunTileCommand},
          {"coalescing", OnModules<RunCoalescingCommand>}};
  return *commands;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Runs every command on `text` (with --json, and --tile for tile); the
// statuses in AllHloCommands() order.
std::vector<absl::Status> RunAll(const std::string& text,
                                 const std::string& tile) {
  const std::string path = WriteTemp("snippet.hlo", text);
  std::vector<absl::Status> statuses;
  for (const NamedCommand& command : AllHloCommands()) {
    CommandLine command_line;
    command_line.positional = {path};
    command_line.flags["json"] = "";
    command_line.flags["tile"] = tile;
    std::ostringstream out, err;
    statuses.push_back(command.command(command_line, out, err));
  }
  return statuses;
}

TEST(HloInputTest, EveryCommandRefusesAOneParameterSnippetNumberedOne) {
  const std::vector<absl::Status> statuses = RunAll(
      "p = f32[8] parameter(1)\n"
      "ROOT r = f32[8] negate(p)\n",
      "4");
  for (size_t k = 0; k < statuses.size(); ++k) {
    SCOPED_TRACE(AllHloCommands()[k].name);
    EXPECT_EQ(statuses[k].code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(
        statuses[k].message(),
        "snippet.hlo:1:1: parameter number 1 of 'main' leaves parameter 0 "
        "undefined"))
        << statuses[k];
  }
}

TEST(HloInputTest, EveryCommandRefusesAGapBetweenTwoParameters) {
  // Numbers 1 and 3: parameter 0 is missing, the error points at 3 (line 2).
  const std::vector<absl::Status> statuses = RunAll(
      "b = f32[6] parameter(1)\n"
      "  a = f32[6] parameter(3)\n"
      "n = f32[6] negate(b)\n"
      "ROOT r = f32[6] subtract(a, n)\n",
      "2");
  for (size_t k = 0; k < statuses.size(); ++k) {
    SCOPED_TRACE(AllHloCommands()[k].name);
    EXPECT_TRUE(absl::StrContains(statuses[k].message(),
                                  ":2:3: parameter number 3 of 'main' leaves "
                                  "parameter 0 undefined"))
        << statuses[k];
  }
}

TEST(HloInputTest, AWrittenParameterBeforeImplicitOnesIsLocated) {
  // `x` is implicit and numbered 3, after the written parameter(2).
  const std::vector<absl::Status> statuses = RunAll(
      "q = f32[5] parameter(2)\n"
      "ROOT r = f32[5] add(q, f32[5] x)\n",
      "5");
  for (size_t k = 0; k < statuses.size(); ++k) {
    SCOPED_TRACE(AllHloCommands()[k].name);
    EXPECT_TRUE(absl::StrContains(statuses[k].message(),
                                  ":1:1: parameter number 2 of 'main' leaves "
                                  "parameter 0 undefined"))
        << statuses[k];
  }
}

TEST(HloInputTest, EveryCommandReadsASnippetNumberedFromZero) {
  // Written parameters 0 and 1 and an implicit one (numbered 2).
  const std::vector<absl::Status> statuses = RunAll(
      "b = f32[6] parameter(1)\n"
      "a = f32[6] parameter(0)\n"
      "n = f32[6] negate(b)\n"
      "s = f32[6] subtract(a, n)\n"
      "ROOT r = f32[6] multiply(s, f32[6] c)\n",
      "3");
  for (size_t k = 0; k < statuses.size(); ++k) {
    SCOPED_TRACE(AllHloCommands()[k].name);
    EXPECT_TRUE(statuses[k].ok()) << statuses[k];
  }
}

}  // namespace
}  // namespace xla_index

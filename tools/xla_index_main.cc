// xla-index: the command-line face of the library. It only splits the
// words, calls the library and prints; every answer is computed by the
// library. Errors name the flag or argument at fault.
//
// Exit status: 0 on success, 1 on bad input (message on stderr); `equal`
// and `empty` answer as diff/cmp do (tools/exact_commands.h).

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tools/analyze_command.h"
#include "tools/command_line.h"
#include "tools/exact_commands.h"
#include "tools/fusion_analysis_commands.h"
#include "tools/hlo_input.h"
#include "tools/layout_command.h"
#include "tools/map_commands.h"
#include "tools/report_command.h"
#include "tools/sparse_command.h"
#include "tools/tile_command.h"

namespace xla_index {
namespace {

constexpr char kUsage[] = R"(usage: xla-index SUBCOMMAND ...

  analyze FILE.hlo [--direction=output-to-input|input-to-output]
                   [--instruction=NAME] [--compose] [--physical-layout]
                   [--json]
      indexing maps of the entry computation's root (or NAME), per operand;
      FILE may be a module, a computation or a list of instructions. The
      root is composed back to the computation's parameters; in a module,
      --instruction=NAME gives NAME's own operand maps (as XLA's
      ComputeOutputToInputIndexing), unless --compose
  simplify MAP|- [--json] [--timing] [--syntax=documentation|xla-head]
      the simplified indexing map (MAP in the text format of XLA's
      indexing-analysis documentation or XLA's one-line form, with XLA
      HEAD's `/` too; - reads standard input); --syntax=xla-head prints
      XLA HEAD's one-line form, which its ParseIndexingMap reads
  compose MAP1 MAP2 [--json] [--timing] [--syntax=documentation|xla-head]
      MAP2 after MAP1: MAP1's results feed MAP2's dimensions
  layout SHAPE [--index=i,j,...] [--svg=FILE] [--json]
      element count, padded count, bytes, memory space and the
      logical-to-physical map of a shape's (tiled) layout, e.g.
      'f32[3,5]{1,0:T(2,2)}'; --index gives the element's linear offset
  sparse ENCODING [--shape=AxB...] [--coo=FILE] [--svg=FILE] [--json]
      canonical '#sparse_tensor.encoding<{...}>', level types, maps,
      storage sizes; --coo (lines "i j ... value") assembles the storage
  coalescing FILE.hlo [--instruction=NAME] [--device=NAME] [--block=N]
                      [--unroll=N] [--sample-points=N] [--json]
      the emitter XLA runs the root or NAME on (--device: 'RTX A6000', the
      default, or 'H100') and per operand read one warp's byte ranges,
      transactions, efficiency, verdict and XLA's 128-byte rule; --block
      and --unroll override the loop emitter's launch; a rule whose sample
      needs more than --sample-points evaluations (default 2^20, at most
      2^24) is not decided
  coalescing FILE.hlo --producer=NAME [--consumer=NAME] [--device=NAME]
      XLA's IsReadCoalescedHeuristic: does fusing keep reads coalesced
  utilization FILE.hlo [--instruction=NAME] [--json] [--time-limit=SECONDS]
      per operand: fraction of its elements read, reads per element; the
      exact counts of all operands together stop after the time limit
      (default 5 s, 0 allowed), later counts are upper bounds (exact=false)
  tile FILE.hlo|MAP|- --tile=8,128 [--strict] [--instruction=NAME] [--json]
      an output tile propagated to a tile of every operand, or why not,
      with XLA's constraints on the tile sizes; MAP is an output-to-operand
      indexing map (text, a file or -); --tile= tiles a rank-0 output;
      --strict refuses tiles that run past a pad or concatenate edge
  report FILE.hlo [--json] [--html=FILE] [--device=NAME] [--block=N]
                  [--unroll=N] [--sample-points=N] [--worst=N] [--timing]
                  [--time-limit=SECONDS]
      every fusion (every instruction with a non-identity map when there
      are none), each on its own: maps, coalescing, utilization, unused
      operands (exact) and time, under a summary with the worst reads
      first; --html writes a self-contained page with pictures; the exact
      utilization counts of the whole module stop after the time limit
      (default 10 s), later ones are upper bounds
  equal MAP1 MAP2 [--json] [--timing] [--time-limit=SECONDS]
      exact: exit 0 when the maps relate the same (dims, result) pairs
      (KNOWN EMPTY equals any empty domain), 1 with a pair only one of them
      has, 2 on bad input or when no method answers within the time limit
      (default 10 s)
  empty MAP [--json] [--timing] [--time-limit=SECONDS]
      exact: exit 0 when no point meets the map's bounds and constraints, 1
      with such a point, 2 on bad input or past the time limit

equal and empty exit 2 on bad input, as diff and cmp do; the other
subcommands exit 1 on bad input.

--json prints a machine-readable answer (--json=false turns it off);
--timing repeats the work in-process and reports median times on stderr.
--instruction=NAME names an instruction of any computation, or
COMPUTATION.NAME one of a given computation. A FILE.hlo of several modules
separated by `// -----` lines (as XLA's tests write them) is analyzed
module by module, or only module K (from 1) with --module=K. Inputs (files, standard input)
larger than 64 MiB are refused; --max-input-bytes=N changes the limit.
)";

/// Flags that are on or off (--json, --json=false), wherever they appear.
constexpr absl::string_view kBooleanFlags[] = {"json", "timing", "strict"};

/// One subcommand: its flags, how many positional arguments it takes (the
/// run function may rely on that count) and the usage line shown otherwise.
struct Subcommand {
  absl::string_view name;
  std::vector<absl::string_view> flags;
  size_t positional_count;
  absl::string_view usage;
  absl::Status (*run)(const CommandLine&, std::ostream&, std::ostream&);
  /// Instead of `run`, for commands on FILE.hlo: run on its modules
  /// (tools/hlo_input.h).
  HloCommand run_on_hlo = nullptr;
};

const std::vector<Subcommand>& Subcommands() {
  static const auto* subcommands = new std::vector<Subcommand>{
      {"analyze",
       {"json", "direction", "instruction", "compose", "physical-layout",
        "max-input-bytes", "module"},
       1,
       "xla-index analyze FILE.hlo "
       "[--direction=output-to-input|input-to-output] [--instruction=NAME] "
       "[--compose] [--physical-layout] [--json]",
       nullptr,
       RunAnalyzeCommand},
      {"simplify",
       {"json", "timing", "max-input-bytes", "syntax"},
       1,
       "xla-index simplify MAP|- [--json] [--timing] "
       "[--syntax=documentation|xla-head]",
       RunSimplifyCommand},
      {"compose",
       {"json", "timing", "max-input-bytes", "syntax"},
       2,
       "xla-index compose MAP1 MAP2 [--json] [--timing] "
       "[--syntax=documentation|xla-head] (MAP2 after MAP1)",
       RunComposeCommand},
      {"coalescing",
       {"json", "block", "unroll", "instruction", "max-input-bytes", "module",
        "device", "producer", "consumer", "sample-points"},
       1,
       "xla-index coalescing FILE.hlo [--instruction=NAME] [--device=NAME] "
       "[--block=N] [--unroll=N] [--sample-points=N] [--json] | "
       "--producer=NAME "
       "[--consumer=NAME]",
       nullptr,
       RunCoalescingCommand},
      {"utilization",
       {"json", "instruction", "max-input-bytes", "module", "time-limit"},
       1,
       "xla-index utilization FILE.hlo [--instruction=NAME] [--json] "
       "[--time-limit=SECONDS]",
       nullptr,
       RunUtilizationCommand},
      {"tile",
       {"json", "tile", "strict", "instruction", "max-input-bytes", "module"},
       1,
       "xla-index tile FILE.hlo|MAP|- --tile=8,128 [--strict] "
       "[--instruction=NAME] [--json]",
       RunTileCommand},
      {"report",
       {"json", "html", "block", "unroll", "worst", "timing", "max-input-bytes",
        "module", "device", "time-limit", "sample-points"},
       1,
       "xla-index report FILE.hlo [--json] [--html=FILE] [--device=NAME] "
       "[--block=N] [--unroll=N] [--sample-points=N] [--worst=N] "
       "[--timing] [--time-limit=SECONDS]",
       nullptr,
       RunReportCommand},
      {"layout",
       {"json", "index", "svg"},
       1,
       "xla-index layout SHAPE [--index=i,j,...] [--svg=FILE] [--json]",
       RunLayoutCommand},
      {"sparse",
       {"json", "shape", "coo", "svg", "max-input-bytes"},
       1,
       "xla-index sparse ENCODING [--shape=AxB...] [--coo=FILE] [--svg=FILE] "
       "[--json]",
       RunSparseCommand},
  };
  return *subcommands;
}

int Main(int argc, char** argv) {
  // Under `bazel run`, resolve relative paths against the caller's folder.
  if (const char* dir = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(dir) != 0) {
      std::cerr << "xla-index: cannot enter " << dir << "\n";
      return 1;
    }
  }
  if (argc < 2 || absl::string_view(argv[1]) == "--help" ||
      absl::string_view(argv[1]) == "help") {
    (argc < 2 ? std::cerr : std::cout) << kUsage;
    return argc < 2 ? 1 : 0;
  }
  absl::string_view name = argv[1];
  if (IsExactCommand(name)) {
    return RunExactCommand(name,
                           std::vector<std::string>(argv + 2, argv + argc),
                           std::cout, std::cerr);
  }
  for (const Subcommand& subcommand : Subcommands()) {
    if (subcommand.name != name) continue;
    std::vector<std::string> args(argv + 2, argv + argc);
    absl::StatusOr<CommandLine> command_line =
        ParseCommandLine(args, subcommand.flags, kBooleanFlags);
    absl::Status status = command_line.status();
    if (status.ok() &&
        command_line->positional.size() != subcommand.positional_count) {
      status =
          absl::InvalidArgumentError(absl::StrCat("usage: ", subcommand.usage));
    }
    if (status.ok()) {
      status = subcommand.run_on_hlo != nullptr
                   ? RunOnHloModules(name, *command_line, subcommand.run_on_hlo,
                                     std::cout, std::cerr)
                   : subcommand.run(*command_line, std::cout, std::cerr);
    }
    std::cout.flush();
    if (!status.ok()) {
      std::cerr << "xla-index " << name << ": "
                << Abbreviated(status.message(), kMaxMessageBytes) << "\n";
      return 1;
    }
    return 0;
  }
  std::cerr << "xla-index: unknown subcommand '" << name << "'\n" << kUsage;
  return 1;
}

}  // namespace
}  // namespace xla_index

int main(int argc, char** argv) { return xla_index::Main(argc, argv); }

#include "tools/exact_commands.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/command_line.h"
#include "tools/file_io.h"
#include "tools/timing.h"
#include "xla_index/core/exact_map_questions.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/presburger_relation.h"

namespace xla_index {
namespace {

// Exit statuses of `equal` and `empty`, as diff and cmp use them.
constexpr int kYes = 0;
constexpr int kNo = 1;
constexpr int kTrouble = 2;

/// The map argument `argument` ("-" is standard input); errors name
/// `label`, e.g. "MAP2:3:7: expected ')'".
absl::StatusOr<IndexingMap> ReadMapArgument(const std::string& argument,
                                            absl::string_view label,
                                            int64_t max_bytes,
                                            mlir::MLIRContext* context) {
  XI_ASSIGN_OR_RETURN(std::string text, ArgumentOrStdin(argument, max_bytes));
  absl::StatusOr<IndexingMap> map = ParseIndexingMap(text, context);
  if (!map.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(label, ":", map.status().message()));
  }
  return map;
}

/// "d0 = 1, d1 = 2" for prefix "d".
std::string NamedValues(absl::string_view prefix,
                        const std::vector<int64_t>& values) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < values.size(); ++i) {
    parts.push_back(absl::StrCat(prefix, i, " = ", values[i]));
  }
  return absl::StrJoin(parts, ", ");
}

/// The text lines of a point: dims, symbols (when the map has any) and
/// results, each indented.
std::string PointText(const RelationPoint& point,
                      absl::string_view symbols_label) {
  std::string text = absl::StrCat("  ", NamedValues("d", point.dims), "\n");
  if (!point.symbols.empty()) {
    absl::StrAppend(&text, "  ", symbols_label, ": ",
                    NamedValues("s", point.symbols), "\n");
  }
  absl::StrAppend(&text, "  results: (", absl::StrJoin(point.results, ", "),
                  ")\n");
  return text;
}

/// `"dims": [..], "symbols": [..], "results": [..]`.
std::string PointJson(const RelationPoint& point) {
  return absl::StrCat("\"dims\": [", absl::StrJoin(point.dims, ", "),
                      "], \"symbols\": [", absl::StrJoin(point.symbols, ", "),
                      "], \"results\": [", absl::StrJoin(point.results, ", "),
                      "]");
}

/// The answer of `equal` on `out`; returns the exit status.
int PrintEquality(const EqualityAnswer& answer, bool json, std::ostream& out) {
  const std::optional<MapDifference>& difference = answer.difference;
  const std::string method =
      absl::StrCat(", \"method\": \"", ExactMethodName(answer.method), "\"");
  if (!difference.has_value()) {
    if (json) {
      out << "{\"equal\": true, \"witness\": null" << method << "}\n";
    } else {
      out << "equal\n";
    }
    return kYes;
  }
  std::string in = difference->in_map == 0 ? "MAP1" : "MAP2";
  std::string not_in = difference->in_map == 0 ? "MAP2" : "MAP1";
  if (json) {
    out << "{\"equal\": false, \"witness\": {\"in\": \"" << in
        << "\", \"not_in\": \"" << not_in << "\", "
        << PointJson(difference->point) << "}" << method << "}\n";
  } else {
    out << "not equal: " << in << " relates this pair and " << not_in
        << " does not\n"
        << PointText(difference->point, absl::StrCat("symbols of ", in));
  }
  return kNo;
}

/// The answer of `empty` on `out`; returns the exit status.
int PrintEmptiness(const EmptinessAnswer& answer, bool json,
                   std::ostream& out) {
  const std::optional<RelationPoint>& point = answer.point;
  const std::string method =
      absl::StrCat(", \"method\": \"", ExactMethodName(answer.method), "\"");
  if (!point.has_value()) {
    if (json) {
      out << "{\"empty\": true, \"witness\": null" << method << "}\n";
    } else {
      out << "empty\n";
    }
    return kYes;
  }
  if (json) {
    out << "{\"empty\": false, \"witness\": {" << PointJson(*point) << "}"
        << method << "}\n";
  } else {
    out << "not empty: this point meets every bound and constraint\n"
        << PointText(*point, "symbols");
  }
  return kNo;
}

/// The budget the command line asks for: --time-limit=SECONDS (default
/// 10, at least 1).
absl::StatusOr<ExactBudget> BudgetOf(const CommandLine& command_line) {
  XI_ASSIGN_OR_RETURN(int64_t seconds,
                      command_line.GetInteger("time-limit", 10));
  if (seconds < 1 || seconds > 86400) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--time-limit: expected seconds in [1, 86400], got ", seconds));
  }
  ExactBudget budget;
  budget.time_limit = absl::Seconds(seconds);
  return budget;
}

/// Ends the process with exit status 2 when a question outlives its time
/// limit by a grace period: the library checks its deadline between
/// methods and while enumerating, but one MLIR Presburger call cannot be
/// interrupted, and a caller of `equal` must get an answer or a refusal in
/// seconds. The message goes straight to file descriptor 2.
class Watchdog {
 public:
  Watchdog(absl::string_view command, absl::Duration limit)
      : message_(absl::StrCat("xla-index ", command,
                              ": gave up: no exact method answered "
                              "within the time limit of ",
                              absl::FormatDuration(limit),
                              " (--time-limit=SECONDS raises it)\n")),
        thread_([this, limit] { Watch(limit + absl::Seconds(2)); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

 private:
  void Watch(absl::Duration patience) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_for(lock, absl::ToChronoNanoseconds(patience),
                       [this] { return done_; })) {
      return;
    }
    ssize_t ignored = write(STDERR_FILENO, message_.data(), message_.size());
    (void)ignored;
    std::_Exit(kTrouble);
  }

  std::string message_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

absl::StatusOr<int> RunEqual(const CommandLine& command_line, std::ostream& out,
                             std::ostream& err) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(int64_t max_bytes, MaxInputBytes(command_line));
  XI_ASSIGN_OR_RETURN(ExactBudget budget, BudgetOf(command_line));
  XI_ASSIGN_OR_RETURN(
      IndexingMap first,
      ReadMapArgument(command_line.positional[0], "MAP1", max_bytes, &context));
  XI_ASSIGN_OR_RETURN(
      IndexingMap second,
      ReadMapArgument(command_line.positional[1], "MAP2", max_bytes, &context));
  absl::StatusOr<EqualityAnswer> answer;
  {
    Watchdog watchdog("equal", budget.time_limit);
    answer = DecideEquality(first, second, budget);
  }
  XI_RETURN_IF_ERROR(answer.status());
  int status = PrintEquality(*answer, command_line.Has("json"), out);
  if (command_line.Has("timing")) {
    PrintTimings({{"equal", MedianMicroseconds([&] {
                     (void)DecideEquality(first, second, budget);
                   })}},
                 err);
  }
  return status;
}

absl::StatusOr<int> RunEmpty(const CommandLine& command_line, std::ostream& out,
                             std::ostream& err) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  XI_ASSIGN_OR_RETURN(int64_t max_bytes, MaxInputBytes(command_line));
  XI_ASSIGN_OR_RETURN(ExactBudget budget, BudgetOf(command_line));
  XI_ASSIGN_OR_RETURN(
      IndexingMap map,
      ReadMapArgument(command_line.positional[0], "MAP", max_bytes, &context));
  absl::StatusOr<EmptinessAnswer> answer;
  {
    Watchdog watchdog("empty", budget.time_limit);
    answer = DecideEmptiness(map, budget);
  }
  XI_RETURN_IF_ERROR(answer.status());
  int status = PrintEmptiness(*answer, command_line.Has("json"), out);
  if (command_line.Has("timing")) {
    PrintTimings({{"empty", MedianMicroseconds(
                                [&] { (void)DecideEmptiness(map, budget); })}},
                 err);
  }
  return status;
}

}  // namespace

bool IsExactCommand(absl::string_view name) {
  return name == "equal" || name == "empty";
}

int RunExactCommand(absl::string_view name, absl::Span<const std::string> args,
                    std::ostream& out, std::ostream& err) {
  bool equal = name == "equal";
  absl::StatusOr<CommandLine> command_line = ParseCommandLine(
      args, {"json", "timing", "time-limit", "max-input-bytes"},
      {"json", "timing"});
  absl::StatusOr<int> answer = kTrouble;
  if (!command_line.ok()) {
    answer = command_line.status();
  } else {
    if (command_line->positional.size() != (equal ? 2u : 1u)) {
      answer = absl::InvalidArgumentError(
          equal ? "usage: xla-index equal MAP1 MAP2 [--json] [--timing] "
                  "[--time-limit=SECONDS] [--max-input-bytes=N]"
                : "usage: xla-index empty MAP [--json] [--timing] "
                  "[--time-limit=SECONDS] [--max-input-bytes=N]");
    } else {
      answer = equal ? RunEqual(*command_line, out, err)
                     : RunEmpty(*command_line, out, err);
    }
  }
  out.flush();
  if (!answer.ok()) {
    err << "xla-index " << name << ": "
        << Abbreviated(answer.status().message(), kMaxMessageBytes) << "\n";
    return kTrouble;
  }
  return *answer;
}

}  // namespace xla_index

#ifndef XLA_INDEX_TOOLS_TIMING_H_
#define XLA_INDEX_TOOLS_TIMING_H_

// The `--timing` option of the subcommands: median wall time of repeated
// runs, printed as "timing: NAME median X us" lines.

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace xla_index {

/// Median wall time, in microseconds, of `work` over repeated runs: at least
/// 5 runs, then more until about 0.2 s is spent or 100,000 runs are done.
double MedianMicroseconds(const std::function<void()>& work);

/// Prints "timing: NAME median X us" lines, like mlir-opt --mlir-timing.
void PrintTimings(const std::vector<std::pair<std::string, double>>& timings,
                  std::ostream& err);

}  // namespace xla_index

#endif  // XLA_INDEX_TOOLS_TIMING_H_

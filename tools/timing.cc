#include "tools/timing.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_format.h"

namespace xla_index {

double MedianMicroseconds(const std::function<void()>& work) {
  using Clock = std::chrono::steady_clock;
  constexpr int kMinRuns = 5;
  constexpr int kMaxRuns = 100000;
  constexpr double kBudgetMicroseconds = 200000;
  std::vector<double> samples;
  double spent = 0;
  while (samples.size() < kMinRuns ||
         (spent < kBudgetMicroseconds && samples.size() < kMaxRuns)) {
    Clock::time_point start = Clock::now();
    work();
    double us =
        std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    samples.push_back(us);
    spent += us;
  }
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2,
                   samples.end());
  return samples[samples.size() / 2];
}

void PrintTimings(const std::vector<std::pair<std::string, double>>& timings,
                  std::ostream& err) {
  for (const auto& [name, us] : timings) {
    err << absl::StrFormat("timing: %-9s median %10.3f us\n", name, us);
  }
}

}  // namespace xla_index

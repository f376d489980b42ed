#!/usr/bin/env python3
"""Times Google Benchmark binaries against each other on a noisy machine.

Runs the binaries in turn, ROUNDS times (3 repetitions each, pinned to one
CPU with taskset when it exists), so that a slow phase of the machine hits
all of them alike, and prints per benchmark the min and the median CPU time
of each binary over all its repetitions. On the shared 2-core machine the
same binary's time moves by up to 50% between runs; interleaving and the
min keep the comparison honest (docs/PERFORMANCE.md).

  tools/compare_benchmarks.py [--rounds=N] [--filter=REGEX] BINARY...
"""
import collections
import json
import shutil
import statistics
import subprocess
import sys


def main(argv):
    rounds, regex, binaries = 4, ".", []
    for arg in argv[1:]:
        if arg.startswith("--rounds="):
            rounds = int(arg.split("=", 1)[1])
        elif arg.startswith("--filter="):
            regex = arg.split("=", 1)[1]
        else:
            binaries.append(arg)
    if not binaries:
        print(__doc__)
        return 2
    pin = ["taskset", "-c", "1"] if shutil.which("taskset") else []
    times = collections.defaultdict(list)  # (benchmark, binary) -> [us]
    order = []
    for _ in range(rounds):
        for binary in binaries:
            run = subprocess.run(
                pin + [binary, f"--benchmark_filter={regex}",
                       "--benchmark_min_time=0.2", "--benchmark_repetitions=3",
                       "--benchmark_format=json"],
                capture_output=True, text=True, check=True)
            for bm in json.loads(run.stdout)["benchmarks"]:
                if bm.get("run_type") != "iteration":
                    continue
                scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
                us = bm["cpu_time"] * scale[bm.get("time_unit", "ns")]
                times[(bm["run_name"], binary)].append(us)
                if bm["run_name"] not in order:
                    order.append(bm["run_name"])
    for name in order:
        cells = []
        for binary in binaries:
            t = times[(name, binary)]
            cells.append(f"{binary.split('/')[-1]}: min {min(t):.2f} "
                         f"med {statistics.median(t):.2f} us")
        print(f"{name} | " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Fails when a file includes a header of a higher (or a sibling) layer.

The layers, lowest first (docs/ARCHITECTURE.md, "Layers"); a file may
include headers of its own layer and of lower ranks only:

  0  base/                  checked arithmetic, status macros
  1  xla_index/core/, hlo/  maps and the simplifier; the HLO IR (siblings:
                            neither includes the other)
  2  layout/, sparse/       tiled layouts; sparse encodings (siblings)
  3  xla_index/ops/         the per-op indexing rules
  4  xla_index/             dispatch, fusion composition, AnalyzeIndexing
  5  xla_index/analysis/    coalescing, utilization, tiles, module report
  6  tools/                 the command line

tests/, bench/ and examples/ may include anything, and so may the files of
a test or a test-only library in any folder (xi_cc_test, testonly = True in
its BUILD: a test of the op rules may go through the dispatch above them).
The umbrella header xla_index/xla_index.h includes every public header.

Prints one line per upward include, then "layers: N files, N upward
includes"; exits 1 when there is any.

  tools/check_layers.py [REPO_ROOT]
"""
import os
import re
import sys

import build_files

LAYERS = [
    ("base", 0),
    ("hlo", 1),
    ("xla_index/core", 1),
    ("layout", 2),
    ("sparse", 2),
    ("xla_index/ops", 3),
    ("xla_index", 4),
    ("xla_index/analysis", 5),
    ("tools", 6),
]
UMBRELLA = {"xla_index/xla_index.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    """(folder, rank) of the deepest layer folder holding `path`, or None
    (tests/, bench/, examples/, third-party headers)."""
    best = None
    for folder, rank in LAYERS:
        if path.startswith(folder + "/") and (
                best is None or len(folder) > len(best[0])):
            best = (folder, rank)
    return best


def test_files(root):
    """Paths of the sources and headers of tests and test-only targets."""
    out = set()
    for package in build_files.build_folders(root):
        for target in build_files.bazel_targets(root, package):
            if target.kind in ("xi_cc_test", "xi_cc_benchmark") or \
                    target.testonly:
                for f in target.srcs + target.hdrs:
                    if isinstance(f, str):
                        out.add(os.path.join(package, f))
    return out


def main(root):
    exempt = test_files(root) | UMBRELLA
    checked = 0
    upward = []
    for folder, _ in LAYERS:
        for name in sorted(os.listdir(os.path.join(root, folder))):
            path = f"{folder}/{name}"
            if not name.endswith((".h", ".cc")) or path in exempt:
                continue
            checked += 1
            own = layer_of(path)
            with open(os.path.join(root, path), errors="replace") as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    other = layer_of(match.group(1))
                    if other is None or other[0] == own[0]:
                        continue
                    if other[1] >= own[1]:
                        kind = "a sibling of" if other[1] == own[1] else "above"
                        upward.append(
                            f"{path}:{number}: includes {match.group(1)} "
                            f"from {other[0]}/ (rank {other[1]}), {kind} "
                            f"{own[0]}/ (rank {own[1]})")
    for line in upward:
        print(line)
    print(f"layers: {checked} files, {len(upward)} upward includes")
    return 1 if upward else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

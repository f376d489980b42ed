#!/usr/bin/env python3
"""Fails when the Bazel and CMake builds differ.

For every folder with a BUILD file, compares the C++ sources (.cc, .h) that
its BUILD and its CMakeLists.txt mention, lists C++ files on disk that
neither build mentions, and compares the targets (Bazel //a/b:c is CMake
a_b_c, tools/build_files.py) and each target's deps. Prints one line per
difference, then "build parity: N passed, N failed" counting folders; exits
1 on any difference.

  tools/check_build_parity.py [REPO_ROOT]
"""
import os
import re
import sys

import build_files

SOURCE = re.compile(r"""[\w./-]+\.(?:cc|h)\b""")
SKIP_DIRS = {"third_party", ".git", ".ci", "cmake", "docs"}


def sources(path):
    if not os.path.exists(path):
        return set()
    text = open(path).read()
    text = re.sub(r"#.*", "", text)  # both languages comment with '#'
    return set(SOURCE.findall(text))


def target_problems(root, package):
    """Targets of `package` that one build has and the other lacks, and deps
    of a target that differ."""
    problems = []
    cmake = build_files.cmake_targets(root, package)
    where = package or "(top level)"
    seen = set()
    for target in build_files.bazel_targets(root, package):
        name = build_files.cmake_name(target.label)
        seen.add(name)
        if name not in cmake:
            problems.append(f"{where}: {target.label} ({name}) is not a CMake "
                            "target")
            continue
        want = {build_files.cmake_name(d, target.kind)
                for d in target.deps} - {None}
        for dep in sorted(want - cmake[name]):
            problems.append(f"{where}: {target.label} depends on {dep} in "
                            f"BUILD, not in CMakeLists.txt ({name})")
        for dep in sorted(cmake[name] - want):
            problems.append(f"{where}: {name} depends on {dep} in "
                            f"CMakeLists.txt, not in BUILD ({target.label})")
    for name in sorted(set(cmake) - seen):
        problems.append(f"{where}: CMake target {name} has no Bazel target")
    return problems


def main(root):
    failed = passed = 0
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs
                   if d not in SKIP_DIRS and not d.startswith(("bazel-", "build"))]
        if "BUILD" not in files and "CMakeLists.txt" not in files:
            continue
        if rel == ".":
            # The top-level groups: targets and deps only.
            problems = target_problems(root, "")
            for p in problems:
                print(p)
            failed, passed = failed + bool(problems), passed + (not problems)
            continue
        bazel = sources(os.path.join(folder, "BUILD"))
        cmake = sources(os.path.join(folder, "CMakeLists.txt"))
        on_disk = {f for f in files if f.endswith((".cc", ".h"))}
        problems = []
        for f in sorted(bazel - cmake):
            problems.append(f"{rel}/{f}: in BUILD, not in CMakeLists.txt")
        for f in sorted(cmake - bazel):
            problems.append(f"{rel}/{f}: in CMakeLists.txt, not in BUILD")
        for f in sorted(on_disk - bazel - cmake):
            problems.append(f"{rel}/{f}: in no build")
        for f in sorted((bazel | cmake) - on_disk):
            if "/" not in f:
                problems.append(f"{rel}/{f}: named by a build, not on disk")
        if rel != "." and "BUILD" in files and not rel.startswith("examples"):
            problems += target_problems(root, rel)
        for p in problems:
            print(p)
        if problems:
            failed += 1
        else:
            passed += 1
    print(f"build parity: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

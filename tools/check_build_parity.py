#!/usr/bin/env python3
"""Fails when the Bazel and CMake builds name different source files.

For every folder with a BUILD file, compares the C++ sources (.cc, .h) that
its BUILD and its CMakeLists.txt mention, and lists C++ files on disk that
neither build mentions. Prints one line per difference, then
"build parity: N passed, N failed" counting folders; exits 1 on any difference.

  tools/check_build_parity.py [REPO_ROOT]
"""
import os
import re
import sys

SOURCE = re.compile(r"""[\w./-]+\.(?:cc|h)\b""")
SKIP_DIRS = {"third_party", ".git", ".ci", "cmake", "docs"}


def sources(path):
    if not os.path.exists(path):
        return set()
    text = open(path).read()
    text = re.sub(r"#.*", "", text)  # both languages comment with '#'
    return set(SOURCE.findall(text))


def main(root):
    failed = passed = 0
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs
                   if d not in SKIP_DIRS and not d.startswith(("bazel-", "build"))]
        if "BUILD" not in files and "CMakeLists.txt" not in files:
            continue
        if rel == ".":
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

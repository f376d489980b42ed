#!/usr/bin/env python3
"""Fails when a header does not open with a comment saying what it holds.

Every .h file of the repository (third_party/ and build folders aside) must
have a `//` comment as its first line after the include guard
(`#ifndef` / `#define`) and blank lines. Prints one line per header
without one, then "header comments: N headers, N without"; exits 1 when
any is without.

  tools/check_header_comments.py [REPO_ROOT]
"""
import os
import sys

SKIP_DIRS = {"third_party", ".git"}


def opens_with_comment(path):
    with open(path, errors="replace") as f:
        for line in f:
            stripped = line.strip()
            if not stripped or stripped.startswith(("#ifndef", "#define",
                                                    "#pragma once")):
                continue
            return stripped.startswith("//")
    return False


def main(root):
    headers = missing = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and
                         not d.startswith(("bazel-", "build")))
        for name in sorted(files):
            if not name.endswith(".h"):
                continue
            headers += 1
            path = os.path.join(folder, name)
            if not opens_with_comment(path):
                missing += 1
                print(f"{os.path.relpath(path, root)}: no opening comment "
                      "saying what the header holds")
    print(f"header comments: {headers} headers, {missing} without")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

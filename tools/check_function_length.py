#!/usr/bin/env python3
"""Fails when a library function is longer than the limit.

Library code is every .cc and .h under hlo/, layout/, sparse/, xla_index/
and tools/, except tests (*_test.cc, test helpers marked testonly are not
distinguished: keep them short too) and the fuzz targets. A function is a
brace-enclosed body whose opening brace follows a parameter list at
namespace or class scope; its length runs from the first line of its
signature to its closing brace. Lambdas and local classes count toward the
function that contains them.

  tools/check_function_length.py [--limit=120] [--root=.] [--list=N]

Prints "function length: N over the limit" and one line per offender
(path:line: name, N lines), and exits 1 when there is any.
"""

import argparse
import os
import re
import sys

LIBRARY_DIRS = ("hlo", "layout", "sparse", "xla_index", "tools")
CONTROL = re.compile(r"^(if|for|while|switch|catch|do|else|return)\b")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$")
SIGNATURE = re.compile(
    r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(final\s*)?"
    r"(->\s*[\w:<>,\s*&]+)?\s*$|\)\s*:\s*.*$")


def strip_comments_and_strings(text):
    """Blanks comments, string and character literals, keeping newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i)
            j = n if j < 0 else j + len(end)
            out.append('""' + re.sub(r"[^\n]", "", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """Yields (name, first_line, last_line) of each function body."""
    code = strip_comments_and_strings(text)
    # Preprocessor lines are not statements.
    code = re.sub(r"(?m)^\s*#.*$", "", code)
    stack = []  # True for a scope (namespace/class), False for other braces.
    prefix_start = 0
    line_of = []
    line = 1
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    i = 0
    while i < len(code):
        ch = code[i]
        if ch == "{":
            prefix = code[prefix_start:i]
            flat = " ".join(prefix.split())
            in_scope = all(stack)
            if in_scope and SIGNATURE.search(flat) and not CONTROL.match(flat) \
                    and not SCOPE.search(flat.split("(")[0]) \
                    and "=" not in flat.split("(")[0]:
                depth, j = 1, i + 1
                while j < len(code) and depth:
                    depth += {"{": 1, "}": -1}.get(code[j], 0)
                    j += 1
                first = prefix_start + len(prefix) - len(prefix.lstrip())
                name = flat.split("(")[0].split()[-1] if "(" in flat else flat
                yield name, line_of[first], line_of[min(j, len(code)) - 1]
                i = j
                prefix_start = j
                continue
            stack.append(in_scope and bool(SCOPE.search(flat)) or
                         (in_scope and flat.startswith("extern")))
            prefix_start = i + 1
        elif ch == "}":
            if stack:
                stack.pop()
            prefix_start = i + 1
        elif ch == ";":
            prefix_start = i + 1
        elif ch == ":" and re.search(r"\b(public|private|protected)\s*$",
                                     code[prefix_start:i]):
            prefix_start = i + 1
        i += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--root", default=".")
    parser.add_argument("--list", type=int, default=0,
                        help="also print the N longest functions")
    args = parser.parse_args()
    found = []
    for top in LIBRARY_DIRS:
        for dirpath, _, files in os.walk(os.path.join(args.root, top)):
            if "fuzz" in dirpath.split(os.sep) or "testdata" in dirpath:
                continue
            for f in sorted(files):
                if not f.endswith((".cc", ".h")) or f.endswith("_test.cc"):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for name, first, last in functions(text):
                    found.append((last - first + 1,
                                  os.path.relpath(path, args.root), first,
                                  name))
    found.sort(reverse=True)
    over = [f for f in found if f[0] > args.limit]
    for length, path, line, name in found[:args.list]:
        print(f"  {path}:{line}: {name}, {length} lines")
    print(f"function length: {len(over)} over the limit of {args.limit} "
          f"lines ({len(found)} functions)")
    for length, path, line, name in over:
        print(f"{path}:{line}: {name}, {length} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

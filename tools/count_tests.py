#!/usr/bin/env python3
"""Counts test cases in JUnit XML files (Bazel's test.xml, ctest's
--output-junit) and prints "LABEL: N passed, N failed".

  count_tests.py LABEL [--newer-than EPOCH_SECONDS] PATH...

A PATH is an XML file or a folder searched for test.xml files. With
--newer-than, files older than that time are ignored, so stale logs of tests
that no longer exist are not counted. A skipped or disabled case counts as
neither passed nor failed. Exits 1 when a case failed or nothing was found.
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET


def count(path):
    passed = failed = skipped = 0
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif (case.find("skipped") is not None or
              case.get("status") in ("notrun", "disabled") or
              case.get("result") in ("skipped", "suppressed")):
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def main(argv):
    label, args = argv[1], argv[2:]
    newer_than = 0.0
    if args[:1] == ["--newer-than"]:
        newer_than, args = float(args[1]), args[2:]
    files = []
    for a in args:
        files += (glob.glob(os.path.join(a, "**", "test.xml"), recursive=True)
                  if os.path.isdir(a) else [a])
    files = [f for f in files if os.path.getmtime(f) >= newer_than]
    totals = [0, 0, 0]
    for f in files:
        try:
            for i, n in enumerate(count(f)):
                totals[i] += n
        except ET.ParseError as e:  # a test binary that crashed mid-write
            print(f"{f}: unreadable test log ({e})")
            totals[1] += 1
    line = f"{label}: {totals[0]} passed, {totals[1]} failed"
    print(line + (f", {totals[2]} skipped" if totals[2] else ""))
    return 1 if totals[1] or not totals[0] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

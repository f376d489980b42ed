#!/usr/bin/env python3
"""Randomized: JSON output is valid UTF-8 JSON and the report page is
well-formed XHTML whatever bytes the HLO text held.

Writes HLO modules whose fusion kinds, replica_groups strings (quoted in an
UNDEFINED reason), metadata strings and module names hold random bytes
(invalid UTF-8, controls, DEL, quotes, '<', '&', U+2028, ...), and some files
of two modules where the second is broken by random bytes (its error is
quoted in a JSON line). Then:
  - `analyze --json` and `report --json` stdout must decode as strict UTF-8
    and parse with Python's json module (each line, for several modules);
  - the page of `report --html` must parse with xml.etree (an XML parser
    stops at the first character XML 1.0 forbids).
The judges are Python's own decoders, independent of the C++ writers.

  output_encoding_test.py XLA_INDEX [CASES] [SEED]
Prints "output-encoding: N passed, N failed" and exits 1 on any failure.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# Bytes that stress the writers most, mixed with uniformly random ones.
SPECIAL = [b"\xff", b"\xfe", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
           b"\xe2\x80\xa8", b"\xef\xbf\xbe", b"\x01", b"\x1f", b"\x7f", b"\x00",
           b"<", b">", b"&", b"\"", b"'", b"\\", b"\t", b"]]>", b"\xc3\xa9",
           b"\xf0\x9f\x98\x80", b"\xe2\x82"]


def random_bytes(rng, stop=b""):
    """1..12 random pieces; no newline and none of `stop`."""
    out = b""
    for _ in range(rng.randint(1, 12)):
        piece = rng.choice(SPECIAL) if rng.random() < 0.6 else bytes(
            [rng.randrange(256)])
        out += piece
    for b in b"\n\r" + stop:
        out = out.replace(bytes([b]), b"")
    return out or b"\xff"


def fusion_module(rng):
    kind = random_bytes(rng, b", }")
    return (b"HloModule m\nfused {\n  p0 = f32[8,4] parameter(0)\n"
            b"  ROOT n = f32[8,4] negate(p0)\n}\n"
            b"ENTRY e {\n  a = f32[8,4] parameter(0)\n"
            b"  ROOT f = f32[8,4] fusion(a), kind=" + kind +
            b", calls=fused, metadata={op_name=\"" + random_bytes(rng, b"\"") +
            b"\"}\n}\n")


def collective_module(rng):
    groups = random_bytes(rng, b"\"")
    return (b"HloModule m, replica_count=4\nENTRY e {\n"
            b"  a = f32[8] parameter(0)\n"
            b"  ROOT g = f32[16] all-gather(a), replica_groups=\"" + groups +
            b"\", dimensions={0}\n}\n")


def named_module(rng):
    # A module name of random bytes: accepted or refused, never raw output.
    return (b"HloModule " + random_bytes(rng, b" ,") +
            b"\nENTRY e {\n  a = f32[6] parameter(0)\n"
            b"  ROOT r = f32[6] exponential(a)\n}\n")


def two_modules(rng):
    broken = (b"HloModule m2\nENTRY e {\n  a = f32[4] parameter(0)\n"
              b"  ROOT r = f32[4] " + random_bytes(rng) + b"(a)\n}\n")
    return fusion_module(rng) + b"// -----\n" + broken


GENERATORS = [fusion_module, collective_module, named_module, two_modules]


def check_json(stdout, what):
    text = stdout.decode("utf-8")  # strict: raises on invalid UTF-8
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{what}: no output")
    for line in lines:
        json.loads(line)


def run_case(tool, hlo, directory):
    """(checks passed, failure messages) for one input."""
    path = os.path.join(directory, "input.hlo")
    with open(path, "wb") as f:
        f.write(hlo)
    failures = []
    checked = 0
    for command in (["analyze", "--json"], ["report", "--json"]):
        proc = subprocess.run([tool] + command + [path], capture_output=True,
                              timeout=60)
        if not proc.stdout:  # refused: the error went to stderr
            continue
        try:
            check_json(proc.stdout, command[0])
            checked += 1
        except ValueError as e:  # UnicodeDecodeError and JSONDecodeError too
            failures.append(f"{command[0]} --json: {e}")
    page = os.path.join(directory, "page.xhtml")
    if os.path.exists(page):
        os.remove(page)
    proc = subprocess.run([tool, "report", "--module=1", "--html=" + page,
                           path], capture_output=True, timeout=60)
    if os.path.exists(page):
        try:
            ET.parse(page)
            checked += 1
        except ET.ParseError as e:
            failures.append(f"report --html: {e}")
    return checked, failures


def main():
    tool = sys.argv[1]
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20261128
    rng = random.Random(seed)
    passed = failed = checked = 0
    with tempfile.TemporaryDirectory() as directory:
        for case in range(cases):
            hlo = GENERATORS[case % len(GENERATORS)](rng)
            n, failures = run_case(tool, hlo, directory)
            checked += n
            if failures:
                failed += 1
                print(f"case {case} (seed {seed}) input {hlo!r}:")
                for message in failures:
                    print("  " + message)
            else:
                passed += 1
    # Refusing everything would pass vacuously: most inputs must produce
    # output to check (named_module's and two_modules' may be refused).
    if checked < cases:
        print(f"only {checked} outputs checked for {cases} cases")
        failed += 1
    print(f"output-encoding: {passed} passed, {failed} failed "
          f"({checked} outputs checked)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

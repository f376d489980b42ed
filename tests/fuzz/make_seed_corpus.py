#!/usr/bin/env python3
"""Writes the seed corpora tests/fuzz/corpus/<target>/ from the project's
test inputs (the public documents' examples as the modules keep them).

Run from the repository root; files are named by a hash of their content, so
running it again adds nothing twice. Corpus files that libFuzzer adds during
a campaign (tools/fuzz.sh --merge) live beside these.
"""
import glob
import hashlib
import os
import random
import re

ROOT = "tests/fuzz/corpus"


def put(target, text):
    data = text.encode() if isinstance(text, str) else text
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def blocks(path, sep, comment):
    """Blocks of a file separated by lines equal to `sep`, comments dropped."""
    out, cur = [], []
    for line in open(path):
        if line.rstrip("\n") == sep:
            out.append(cur)
            cur = []
        elif not line.startswith(comment):
            cur.append(line)
    out.append(cur)
    return ["".join(b).strip("\n") for b in out if "".join(b).strip()]


def main():
    # HLO: every module/snippet the parser tests and CLI tests read.
    for path in sorted(glob.glob("hlo/testdata/**/*.hlo", recursive=True) +
                       glob.glob("tests/testdata/*.hlo")):
        put("hlo_parser", open(path).read())

    # Indexing maps: the indexing-analysis documentation's maps and both sides of the simplifier
    # examples, plus the one-line XLA form.
    for path in ["xla_index/core/testdata/seed_000_maps.txt",
                 "xla_index/core/testdata/seed_000_simplify.txt"]:
        for block in blocks(path, "----", "#"):
            for part in block.split("\n====\n"):
                put("indexing_map_text", part)
    put("indexing_map_text",
        "(d0, d1)[s0]{rt0} -> (d0 + rt0, s0), domain: d0 in [0, 9], "
        "d1 in [0, 3], s0 in [0, 5], rt0 in [0, 3], d0 + s0 in [0, 5]")
    put("indexing_map_text", "UNDEFINED")
    put("indexing_map_text", "KNOWN EMPTY")
    # The hostile maps (int64 limits, wrapped constants, negative divisors)
    # that fit the fuzzer's 4,096-byte limit, and the open findings' maps that
    # give a wrong map but no crash (constraint_coefficient_int64_min aborts
    # in Simplify: it would stop every campaign until fixed).
    for path in sorted(
            glob.glob("tests/hostile/indexing_map/*.txt") +
            glob.glob("tests/fuzz/open_findings/hostile/indexing_map/*.txt")):
        if ("constraint_coefficient_int64_min" in path or
                os.path.getsize(path) > 4096):
            continue
        put("indexing_map_text", open(path, "rb").read())

    # Shapes: every quoted shape in the shape and layout tests (valid and
    # invalid ones), each also with an index line.
    shape_re = re.compile(r'"(\s*\(?[A-Za-z][A-Za-z0-9]*\[(?:[^"\\]|\\.)*)"')
    for path in sorted(glob.glob("hlo/shape_test.cc") +
                       glob.glob("layout/*_test.cc")):
        for m in shape_re.finditer(open(path).read()):
            text = m.group(1).encode().decode("unicode_escape")
            put("shape_layout", text)
            dims = re.match(r"\s*[A-Za-z0-9]+\[([0-9, ]*)\]", text)
            if dims and re.fullmatch(r"[0-9]+(\s*,\s*[0-9]+)*",
                                     dims.group(1).strip()):
                last = [str(max(int(x) - 1, 0))
                        for x in dims.group(1).split(",")]
                put("shape_layout", text + "\n" + ",".join(last))

    # Sparse encodings: the SparseTensor documentation's encodings and the rejected ones.
    for path in ["sparse/testdata/seed_encodings.mlir",
                 "sparse/testdata/invalid_encodings.mlir"]:
        for block in blocks(path, "// -----", "//"):
            put("sparse_encoding", block)

    # Simplifier: the input decodes to a map, so random bytes are as good a
    # start as any; a fixed seed keeps the corpus stable.
    rng = random.Random(8)
    for n in range(64):
        put("simplifier", bytes(rng.randrange(256)
                                for _ in range(rng.randrange(8, 96))))


if __name__ == "__main__":
    main()

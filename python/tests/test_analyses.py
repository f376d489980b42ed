"""coalescing, utilization, tile, report, layout and sparse return the CLI's
--json as dicts; the pictures are the CLI's page and SVGs; errors are the
CLI's messages; the GIL is released while an analysis runs."""
import glob
import os
import re
import threading
import time
import xml.etree.ElementTree as ET

import pytest
import xla_index as xi

from conftest import FUSED_MODULE, REPO, SNIPPET, without_timing

TESTDATA = sorted(glob.glob(os.path.join(REPO, "xla_index", "analysis",
                                         "testdata", "*.hlo")))


def modules():
    """(id, text) of the inputs: the analysis testdata and the texts here."""
    out = [(os.path.basename(p), open(p).read()) for p in TESTDATA]
    out += [("fused_module", FUSED_MODULE), ("snippet", SNIPPET)]
    return out


def cli_or_error(run_cli, *args):
    proc = run_cli.run(*args, ok=False)
    if proc.returncode == 0:
        import json
        return without_timing(json.loads(proc.stdout)), None
    return None, proc.stderr.strip().split(": ", 1)[1]


def py_or_error(function, *args, **kwargs):
    try:
        return without_timing(function(*args, **kwargs)), None
    except ValueError as e:
        return None, str(e)


def same(run_cli, path, function, target, flags, *args, **kwargs):
    expected, error = cli_or_error(run_cli, *flags, path, "--json")
    got, got_error = py_or_error(function, target, *args, **kwargs)
    assert got == expected
    if error is not None:
        # The CLI's message, with "PATH: " before parse-independent ones.
        assert got_error is not None and error.endswith(got_error)
    return expected is not None


@pytest.mark.parametrize("name,text", modules())
def test_module_analyses_match_the_cli(run_cli, name, text):
    path = run_cli.file(text)
    m = xi.parse_module(text)
    answered = 0
    answered += same(run_cli, path, xi.coalescing, m, ["coalescing"])
    answered += same(run_cli, path, xi.coalescing, m,
                     ["coalescing", "--block=64", "--unroll=2"],
                     block=64, unroll=2)
    answered += same(run_cli, path, xi.coalescing, m,
                     ["coalescing", "--device=h100"], device="h100")
    answered += same(run_cli, path, xi.coalescing, m,
                     ["coalescing", "--sample-points=4"], sample_points=4)
    answered += same(run_cli, path, xi.report, m,
                     ["report", "--device=h100", "--block=64"],
                     device="h100", block=64)
    answered += same(run_cli, path, xi.utilization, m, ["utilization"])
    answered += same(run_cli, path, xi.report, m, ["report", "--worst=3"],
                     worst=3)
    answered += same(run_cli, path, xi.report, m,
                     ["report", "--sample-points=1"], sample_points=1)
    root = m.entry.root
    rank = root.shape.count(",") + 1 if "[]" not in root.shape else 0
    if not root.shape.startswith("(") and rank > 0:
        sizes = [2] * rank
        answered += same(run_cli, path, xi.tile, m,
                         ["tile", "--tile=" + ",".join(map(str, sizes))], sizes)
    # A tuple root is refused by coalescing (the same message as the CLI's,
    # checked above); the report answers every module.
    assert answered >= 1, name


def test_instruction_analyses_match_the_cli(run_cli):
    path = run_cli.file(FUSED_MODULE)
    m = xi.parse_module(FUSED_MODULE)
    checked = 0
    for inst in [m.entry["scaled"], m.entry["sums"], m.entry["dot.21"],
                 m.instruction("transpose.3"), m.instruction("reduce.11")]:
        flag = "--instruction=" + inst.computation.name + "." + inst.name
        checked += same(run_cli, path, xi.coalescing, inst, ["coalescing", flag])
        checked += same(run_cli, path, xi.utilization, inst, ["utilization", flag])
    assert checked == 10


def test_report_is_a_dict_with_the_page(run_cli, tmp_path):
    path = run_cli.file(FUSED_MODULE)
    m = xi.parse_module(FUSED_MODULE)
    report = xi.report(m)
    assert isinstance(report, dict) and isinstance(report, xi.Report)
    page_path = tmp_path / "page.xhtml"
    run_cli.run("report", path, "--html=" + str(page_path))
    page = report._repr_html_()
    ET.fromstring(page)  # well-formed XHTML
    # The same page but for the times measured (every decimal fraction is
    # masked: the times are; integers and text are compared).
    times = re.compile(r"[0-9]+\.[0-9]+(e[+-]?[0-9]+)?")
    assert times.sub("T", page) == times.sub("T", page_path.read_text())
    assert report._repr_html_() is page  # computed once


def test_layout_and_sparse_match_the_cli(run_cli, tmp_path):
    shape = "f32[6,10]{0,1:T(2,4)}"
    svg = tmp_path / "layout.svg"
    expected = run_cli.json("layout", shape, "--json", "--index=3,5",
                            "--svg=" + str(svg))
    layout = xi.layout(shape, index=[3, 5])
    assert layout == expected and isinstance(layout, xi.Layout)
    assert layout._repr_html_() == svg.read_text()
    ET.fromstring(layout._repr_html_())

    encoding = ("#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : "
                "dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : "
                "dense) }>")
    coo_path = os.path.join(REPO, "tests", "testdata", "bsr_2x2.coo")
    svg = tmp_path / "sparse.svg"
    expected = run_cli.json("sparse", encoding, "--shape=4x6",
                            "--coo=" + coo_path, "--json", "--svg=" + str(svg))
    sparse = xi.sparse(encoding, shape="4x6", coo=open(coo_path).read())
    assert without_timing(sparse) == without_timing(expected)
    assert isinstance(sparse, xi.Sparse)
    assert sparse._repr_html_() == svg.read_text()
    assert xi.sparse(encoding) == run_cli.json("sparse", encoding, "--json")


def test_errors_are_the_cli_messages(run_cli):
    path = run_cli.file(FUSED_MODULE)
    m = xi.parse_module(FUSED_MODULE)
    proc = run_cli.run("tile", path, "--tile=4", "--instruction=scaled",
                       ok=False)
    with pytest.raises(ValueError) as raised:
        xi.tile(m.entry["scaled"], [4])
    assert proc.stderr.strip().endswith(str(raised.value))
    proc = run_cli.run("report", path, "--worst=-1", ok=False)
    with pytest.raises(ValueError) as raised:
        xi.report(m, worst=-1)
    assert proc.stderr.strip().endswith(str(raised.value))
    with pytest.raises(ValueError, match="SHAPE:"):
        xi.layout("f32[4,")
    with pytest.raises(ValueError):
        xi.sparse("#sparse_tensor.encoding<{ map = (i) -> (i : bogus) }>")
    proc = run_cli.run("coalescing", path, "--device=abacus", ok=False)
    with pytest.raises(ValueError) as raised:
        xi.coalescing(m, device="abacus")
    assert proc.stderr.strip().endswith(str(raised.value))
    with pytest.raises(TypeError):
        xi.coalescing("not a module")


def big_module(fusions):
    """A module of `fusions` transposing fusions, slow enough to time."""
    lines = ["HloModule big", "%t (p: f32[96,80]) -> f32[80,96] {",
             "  %p = f32[96,80]{1,0} parameter(0)",
             "  ROOT %r = f32[80,96]{1,0} transpose(%p), dimensions={1,0}",
             "}", "ENTRY %e (a: f32[96,80]) -> f32[80,96] {",
             "  %a = f32[96,80]{1,0} parameter(0)"]
    for k in range(fusions):
        lines.append(f"  %f{k} = f32[80,96]{{1,0}} fusion(%a), kind=kLoop, calls=%t")
    lines.append(f"  ROOT %last = f32[80,96]{{1,0}} copy(%f{fusions - 1})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_the_gil_is_released_during_an_analysis():
    m = xi.parse_module(big_module(2000))
    start = time.perf_counter()
    xi.report(m)
    alone = time.perf_counter() - start
    assert alone > 0.05, "the module must take a while to analyze"
    done = threading.Event()
    ticks = 0

    def analyze():
        xi.report(m)
        done.set()

    thread = threading.Thread(target=analyze)
    thread.start()
    # With the GIL held by the analysis this loop would stall for its whole
    # time; released, it keeps counting (sleep-free, so only the GIL stops
    # it).
    while not done.is_set():
        ticks += 1
    thread.join()
    assert ticks > 1000

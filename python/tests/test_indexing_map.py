"""IndexingMap: parse/str, simplify, compose, equal, is_empty, the domain
tuples and evaluate, against the CLI (simplify, compose, equal, empty) and
against brute-force evaluation written here."""
import itertools

import pytest
import xla_index as xi

MAPS = [
    "(d0, d1) -> (d0 * 4 + d1 floordiv 8, d1 mod 8)\ndomain:\nd0 in [0, 3]\nd1 in [0, 15]",
    "(d0)[s0] -> (d0 + s0 * 2)\ndomain:\nd0 in [0, 1]\ns0 in [0, 5]\nd0 + s0 in [1, 4]",
    "(d0, d1) -> ((d0 * 6 + d1) floordiv 3, (d0 * 6 + d1) mod 3)\ndomain:\nd0 in [0, 2]\nd1 in [0, 5]",
    "(d0) -> (d0 floordiv 5)\ndomain:\nd0 in [0, 4]",
]


def box(bounds):
    return itertools.product(*[range(lo, hi + 1) for _, lo, hi in bounds])


def image(m):
    """{(dims, results)} by enumeration of the domain (bounds, then the
    constraints evaluated with Python's own floor arithmetic)."""
    out = set()
    for d in box(m.dims):
        for s in box(m.symbols):
            env = {f"d{i}": v for i, v in enumerate(d)}
            env.update({f"s{i}": v for i, v in enumerate(s)})
            ok = all(lo <= eval_expr(e, env) <= hi for e, lo, hi in m.constraints)
            if ok:
                out.add((d, m.evaluate(list(d), list(s))))
    return out


def eval_expr(text, env):
    # The text format's operators in Python: floordiv and mod are Python's
    # // and % for positive divisors (the only ones used here).
    return eval(text.replace("floordiv", "//").replace("mod", "%"), {}, env)


@pytest.mark.parametrize("text", MAPS)
def test_parse_and_str(text):
    m = xi.IndexingMap.parse(text)
    assert xi.IndexingMap.parse(str(m)) == m
    assert eval(repr(m), {"IndexingMap": xi.IndexingMap}) == m


@pytest.mark.parametrize("text", MAPS)
def test_simplify_as_the_cli(run_cli, text):
    m = xi.IndexingMap.parse(text)
    expected = run_cli.json("simplify", text, "--json")
    s = m.simplify()
    assert str(s) == expected["text"]
    assert str(m) == str(xi.IndexingMap.parse(text))  # m is unchanged
    # The domain tuples are the CLI's dims, symbols and constraints.
    assert s.dims == tuple((d["name"], d["lo"], d["hi"]) for d in expected["dims"])
    assert s.symbols == tuple((d["name"], d["lo"], d["hi"]) for d in expected["symbols"])
    assert sorted(s.constraints) == sorted(
        (c["expr"], c["lo"], c["hi"]) for c in expected["constraints"])
    # And simplification keeps the relation (brute force).
    assert image(s) == image(m)


@pytest.mark.parametrize("text", MAPS)
def test_xla_head_syntax_as_the_cli(run_cli, text):
    m = xi.IndexingMap.parse(text)
    printed = run_cli.run("simplify", text, "--syntax=xla-head").stdout
    assert m.simplify().to_string(syntax="xla-head") + "\n" == printed
    assert m.to_string() == str(m)
    # The one-line form reads back as the same map.
    assert xi.IndexingMap.parse(m.to_string(syntax="xla-head")) == m
    with pytest.raises(ValueError, match="syntax must be"):
        m.to_string(syntax="mlir")


def test_domain_tuples():
    m = xi.IndexingMap.parse(MAPS[1])
    assert m.dims == (("d0", 0, 1),)
    assert m.symbols == (("s0", 0, 5),)
    assert m.constraints == (("d0 + s0", 1, 4),)


def test_evaluate_by_hand():
    m = xi.IndexingMap.parse(MAPS[0])
    for d0, d1 in box(m.dims):
        assert m.evaluate([d0, d1]) == (d0 * 4 + d1 // 8, d1 % 8)
    assert xi.IndexingMap.parse(MAPS[1]).evaluate([1], [3]) == (7,)


def test_compose_as_the_cli(run_cli):
    first = "(d0, d1) -> (d1, d0)\ndomain:\nd0 in [0, 3]\nd1 in [0, 5]"
    second = "(d0, d1) -> (d0 * 4 + d1)\ndomain:\nd0 in [0, 5]\nd1 in [0, 3]"
    a, b = xi.IndexingMap.parse(first), xi.IndexingMap.parse(second)
    c = a.compose(b)
    assert str(c) == run_cli.json("compose", first, second, "--json")["text"]
    for d0, d1 in box(a.dims):
        assert c.evaluate([d0, d1]) == b.evaluate(list(a.evaluate([d0, d1])))


@pytest.mark.parametrize("first,second", [
    (MAPS[2], "(d0, d1) -> (d0 * 2 + d1 floordiv 3, d1 mod 3)\ndomain:\nd0 in [0, 2]\nd1 in [0, 5]"),
    ("(d0) -> (d0 floordiv 2)\ndomain:\nd0 in [0, 7]", "(d0) -> (d0 floordiv 4)\ndomain:\nd0 in [0, 7]"),
    (MAPS[3], "(d0) -> (0)\ndomain:\nd0 in [0, 4]"),
    (MAPS[1], "(d0)[s0] -> (d0 + s0 * 2)\ndomain:\nd0 in [0, 1]\ns0 in [0, 4]"),
])
def test_equal_as_the_cli(run_cli, first, second):
    a, b = xi.IndexingMap.parse(first), xi.IndexingMap.parse(second)
    expected = run_cli.run("equal", first, second, "--json", ok=False)
    assert expected.returncode in (0, 1)
    import json
    expected = json.loads(expected.stdout)
    answer = a.equal(b)
    assert bool(answer) == expected["equal"]
    assert (image(a) == image(b)) == expected["equal"]  # brute force
    if expected["equal"]:
        assert answer is True
        return
    assert answer == False  # noqa: E712 (an Inequality compares to False)
    w = answer.witness
    cli = expected["witness"]
    assert (w["in"], w["not_in"]) == (
        {"MAP1": "self", "MAP2": "other"}[cli["in"]],
        {"MAP1": "self", "MAP2": "other"}[cli["not_in"]])
    assert (list(w["dims"]), list(w["symbols"]), list(w["results"])) == (
        cli["dims"], cli["symbols"], cli["results"])
    holder, other = (a, b) if w["in"] == "self" else (b, a)
    pair = (tuple(w["dims"]), tuple(w["results"]))
    assert pair in image(holder) and pair not in image(other)


@pytest.mark.parametrize("text", MAPS + [
    "(d0) -> (d0)\ndomain:\nd0 in [0, 9]\nd0 mod 4 in [5, 6]",
    "(d0, d1) -> (d0)\ndomain:\nd0 in [0, 3]\nd1 in [0, 3]\nd0 * 2 - d1 * 2 in [1, 1]",
])
def test_is_empty_as_the_cli(run_cli, text):
    m = xi.IndexingMap.parse(text)
    proc = run_cli.run("empty", text, "--json", ok=False)
    import json
    expected = json.loads(proc.stdout)["empty"]
    assert m.is_empty() == expected
    assert m.is_empty() == (not image(m))


def test_bad_text_raises_the_cli_message(run_cli):
    text = "(d0, d1) -> (d0 +)\ndomain:\nd0 in [0, 1]"
    with pytest.raises(ValueError) as raised:
        xi.IndexingMap.parse(text)
    proc = run_cli.run("simplify", text, ok=False)
    # "xla-index simplify: MAP:LINE:COLUMN: what"
    assert "MAP:" + str(raised.value) in proc.stderr
    assert str(raised.value).startswith("1:")


def test_errors():
    a = xi.IndexingMap.parse(MAPS[0])
    with pytest.raises(ValueError, match="2 results but the other has 1"):
        a.compose(xi.IndexingMap.parse(MAPS[3]))
    with pytest.raises(ValueError, match="takes 2 dims and 0 symbols"):
        a.evaluate([1])
    with pytest.raises(ValueError, match="must be a constant"):
        xi.IndexingMap.parse("(d0, d1) -> (d0 * d1)")
    undefined = xi.IndexingMap.parse("UNDEFINED")
    assert undefined.is_undefined
    with pytest.raises(ValueError, match="UNDEFINED map has no relation"):
        undefined.equal(a)
    with pytest.raises(ValueError, match="UNDEFINED map has no relation"):
        undefined.is_empty()
    with pytest.raises(ValueError, match="no values"):
        xi.IndexingMap.parse("UNDEFINED").evaluate([])
    with pytest.raises(TypeError):
        a.compose("not a map")

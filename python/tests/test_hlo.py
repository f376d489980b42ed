"""parse_module, the Module/Computation/Instruction lookups and
output_to_input / input_to_output, against `xla-index analyze --json`."""
import pytest
import xla_index as xi

from conftest import FUSED_MODULE, SNIPPET


def test_lookups_by_name():
    m = xi.parse_module(FUSED_MODULE)
    assert m.is_full_module
    assert m.name == "jit_scaled_softmax_like"
    assert list(m.computations) == ["fused_transpose", "add_f32",
                                    "fused_reduce", "main.12"]
    assert m.entry.name == "main.12" and m.entry.is_entry
    assert m.entry.root.name == "tuple.22"
    assert m.entry.root.opcode == "tuple"
    assert [o.name for o in m.entry.root.operands] == ["scaled", "sums",
                                                       "dot.21"]
    fused = m.computations["fused_transpose"]
    assert fused.root.name == "multiply.5" and not fused.is_entry
    assert [p.name for p in fused.parameters] == ["param_0.1", "param_1.2"]
    assert fused["transpose.3"].shape == "f32[64,16]{1,0}"
    assert m.instruction("transpose.3") == fused["transpose.3"]
    assert m.instruction("fused_reduce.reduce.11").computation.name == \
        "fused_reduce"
    assert list(m.entry.instructions)[:3] == ["Arg_0.13", "Arg_1.14", "scaled"]


def test_snippet():
    m = xi.parse_module(SNIPPET)
    assert not m.is_full_module
    assert m.entry.root.name == "r"


def test_lookup_errors():
    m = xi.parse_module(FUSED_MODULE)
    with pytest.raises(KeyError):
        m.entry["nothing"]
    with pytest.raises(ValueError, match="no instruction named 'nothing'"):
        m.instruction("nothing")


@pytest.mark.parametrize("text", [
    "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] negat(p)\n}\n",
    "HloModule m\nENTRY e {\n  p = f32[4 parameter(0)\n}\n",
    "p = f32[8] parameter(1)\nROOT r = f32[8] negate(p)\n",
    "HloModule m\nHloModule n\n",
])
def test_bad_text_raises_the_cli_message(run_cli, text):
    with pytest.raises(ValueError) as raised:
        xi.parse_module(text)
    path = run_cli.file(text)
    proc = run_cli.run("analyze", path, ok=False)
    assert proc.returncode != 0
    # The CLI writes "xla-index analyze: PATH:LINE:COLUMN: what".
    expected = proc.stderr.strip().split(path + ":", 1)[1]
    assert str(raised.value) == expected
    assert str(raised.value).split(":")[0].isdigit()


def analyze(run_cli, path, name, direction):
    return run_cli.json("analyze", path, "--json", "--instruction=" + name,
                        "--direction=" + direction)


def test_output_to_input_matches_the_cli(run_cli):
    m = xi.parse_module(FUSED_MODULE)
    path = run_cli.file(FUSED_MODULE)
    checked = 0
    for name, instruction in m.entry.instructions.items():
        if name == "tuple.22":
            continue  # the CLI joins a tuple's outputs; see below
        expected = analyze(run_cli, path, name, "output-to-input")
        got = xi.output_to_input(instruction)
        assert len(got) == len(expected["operands"]), name
        for maps, operand in zip(got, expected["operands"]):
            assert [str(x) for x in maps] == \
                [x["text"] for x in operand["maps"]], name
            checked += len(maps)
    assert checked >= 12


def test_input_to_output_matches_the_cli(run_cli):
    m = xi.parse_module(FUSED_MODULE)
    path = run_cli.file(FUSED_MODULE)
    for name, instruction in m.entry.instructions.items():
        if name == "tuple.22":
            continue  # tuple: several outputs, the CLI lists one
        expected = analyze(run_cli, path, name, "input-to-output")
        for k, operand in enumerate(expected["operands"]):
            got = xi.input_to_output(instruction, k)
            assert [str(x) for x in got[0]] == \
                [x["text"] for x in operand["maps"]], (name, k)


def test_output_id_of_a_tuple():
    m = xi.parse_module(FUSED_MODULE)
    root = m.entry.root
    # Output 1 of the tuple is operand 1 (sums) through the identity.
    maps = xi.output_to_input(root, output_id=1)
    assert [len(x) for x in maps] == [0, 1, 0]
    assert maps[1][0].evaluate([5]) == (5,)
    # An output that does not exist: UNDEFINED, not a crash.
    assert all(x[0].is_undefined for x in xi.output_to_input(root, 7))


def test_maps_evaluate_as_the_ops_read():
    # Independent truth: the element each op reads, written here from the
    # op's definition (XLA's operation semantics), at every output point.
    m = xi.parse_module(FUSED_MODULE)
    e = m.entry.instructions
    (reverse,), = xi.output_to_input(e["reverse.19"])
    (lhs,), (rhs,) = xi.output_to_input(e["concatenate.18"])
    (strided,), = xi.output_to_input(e["slice.15"])
    for i in range(96):
        for j in range(16):
            assert reverse.evaluate([i, j]) == (95 - i, 15 - j)
            if i < 32:
                assert strided.evaluate([i, j]) == (2 * i, j)
            if i >= 64:
                assert rhs.evaluate([i, j]) == (i - 64, j)

"""Shared fixtures of the Python module's tests: the CLI (bazel-bin/tools/
xla-index, or $XLA_INDEX_CLI) whose output every result is checked against,
and the HLO texts the tests use (written here, JAX-dump style)."""
import json
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# A module as `jax.jit(f).lower(x).compile().as_text()` prints one: fusions,
# layouts, metadata.
FUSED_MODULE = """HloModule jit_scaled_softmax_like, entry_computation_layout={(f32[16,64]{1,0}, f32[64]{0})->(f32[64,16]{1,0}, f32[64]{0}, f32[64,96]{1,0})}

%fused_transpose (param_0.1: f32[16,64], param_1.2: f32[64]) -> f32[64,16] {
  %param_0.1 = f32[16,64]{1,0} parameter(0)
  %transpose.3 = f32[64,16]{1,0} transpose(f32[16,64]{1,0} %param_0.1), dimensions={1,0}
  %param_1.2 = f32[64]{0} parameter(1)
  %broadcast.4 = f32[64,16]{1,0} broadcast(f32[64]{0} %param_1.2), dimensions={0}
  ROOT %multiply.5 = f32[64,16]{1,0} multiply(f32[64,16]{1,0} %transpose.3, f32[64,16]{1,0} %broadcast.4), metadata={op_name="jit(f)/mul"}
}

%add_f32 (x.6: f32[], y.7: f32[]) -> f32[] {
  %x.6 = f32[] parameter(0)
  %y.7 = f32[] parameter(1)
  ROOT %add.8 = f32[] add(f32[] %x.6, f32[] %y.7)
}

%fused_reduce (param_0.9: f32[64,16]) -> f32[64] {
  %param_0.9 = f32[64,16]{1,0} parameter(0)
  %constant.10 = f32[] constant(0)
  ROOT %reduce.11 = f32[64]{0} reduce(f32[64,16]{1,0} %param_0.9, f32[] %constant.10), dimensions={1}, to_apply=%add_f32
}

ENTRY %main.12 (Arg_0.13: f32[16,64], Arg_1.14: f32[64]) -> (f32[64,16], f32[64], f32[64,96]) {
  %Arg_0.13 = f32[16,64]{1,0} parameter(0)
  %Arg_1.14 = f32[64]{0} parameter(1)
  %scaled = f32[64,16]{1,0} fusion(f32[16,64]{1,0} %Arg_0.13, f32[64]{0} %Arg_1.14), kind=kLoop, calls=%fused_transpose
  %sums = f32[64]{0} fusion(f32[64,16]{1,0} %scaled), kind=kInput, calls=%fused_reduce
  %slice.15 = f32[32,16]{1,0} slice(f32[64,16]{1,0} %scaled), slice={[0:64:2], [0:16]}
  %pad.16 = f32[64,16]{1,0} pad(f32[32,16]{1,0} %slice.15, f32[] %constant.17), padding=0_32x0_0
  %constant.17 = f32[] constant(1)
  %concatenate.18 = f32[96,16]{1,0} concatenate(f32[64,16]{1,0} %pad.16, f32[32,16]{1,0} %slice.15), dimensions={0}
  %reverse.19 = f32[96,16]{1,0} reverse(f32[96,16]{1,0} %concatenate.18), dimensions={0,1}
  %bitcast.20 = f32[16,96]{0,1} bitcast(f32[96,16]{1,0} %reverse.19)
  %dot.21 = f32[64,96]{1,0} dot(f32[64,16]{1,0} %scaled, f32[16,96]{0,1} %bitcast.20), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %tuple.22 = (f32[64,16]{1,0}, f32[64]{0}, f32[64,96]{1,0}) tuple(%scaled, %sums, %dot.21)
}
"""

# A bare instruction list, as XLA's indexing-analysis documentation writes
# fusions.
SNIPPET = """p0 = f32[12,10] parameter(0)
p1 = f32[10,12] parameter(1)
t = f32[10,12] transpose(p0), dimensions={1,0}
ROOT r = f32[10,12] subtract(t, p1)
"""


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("XLA_INDEX_CLI",
                          os.path.join(REPO, "bazel-bin", "tools", "xla-index"))
    assert os.access(path, os.X_OK), (
        f"{path}: build it with `bazel build -c opt //tools:xla-index`")
    return path


class Cli:
    def __init__(self, path, tmp_path):
        self.path = path
        self.tmp_path = tmp_path

    def file(self, text, name="input.hlo"):
        path = self.tmp_path / name
        path.write_text(text)
        return str(path)

    def run(self, *args, ok=True):
        proc = subprocess.run([self.path] + [str(a) for a in args],
                              capture_output=True, text=True, timeout=120)
        if ok:
            assert proc.returncode == 0, proc.stderr
        return proc

    def json(self, *args):
        return json.loads(self.run(*args).stdout)


@pytest.fixture
def run_cli(cli, tmp_path):
    return Cli(cli, tmp_path)


def without_timing(value):
    """`value` with every "microseconds" entry dropped (times differ from run
    to run); everything else is compared as it is."""
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items()
                if k != "microseconds"}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value

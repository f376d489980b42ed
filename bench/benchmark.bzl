"""xi_cc_benchmark: a Google Benchmark binary and its CI smoke test."""

load("//bazel:xla_index.bzl", "xi_cc_binary")

def xi_cc_benchmark(name, srcs, deps, smoke_args = []):
    """The binary `name` (`bazel run -c opt` it to measure) and the test
    `name_smoke_test`, which runs each benchmark once (bench/smoke_test.sh)
    with the extra flags `smoke_args`."""
    xi_cc_binary(name = name, srcs = srcs, deps = deps)
    native.sh_test(
        name = name + "_smoke_test",
        srcs = ["//bench:smoke_test.sh"],
        args = ["$(rootpath :%s)" % name] + smoke_args,
        data = [":" + name],
    )

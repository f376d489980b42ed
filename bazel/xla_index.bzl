"""C++ rules that build xla_index the same way from any workspace.

Bazel 4.2.3's auto-configured gcc toolchain compiles C++ with -std=c++0x, and
a cc_library cannot pass a language standard on to the targets that depend
on it (there is no "usage requirement" for copts, and the toolchain cannot be
changed from a dependency). The library's own .bazelrc sets
--cxxopt=-std=c++17, but a consumer workspace does not read it. So every
target of the library carries the flags itself: target copts come after the
toolchain's flags and after --cxxopt on the command line, so they win.

A consumer's own code that includes xla_index headers needs C++17 too: put
`build --cxxopt=-std=c++17` in the consumer's .bazelrc (README.md).
"""

# The flags of every xla_index compile action. -Wno-deprecated-declarations
# quiets LLVM/MLIR 22 headers.
XI_COPTS = [
    "-std=c++17",
    "-Wno-deprecated-declarations",
]

def _copts(kwargs):
    return XI_COPTS + kwargs.pop("copts", [])

def xi_cc_library(**kwargs):
    """native.cc_library with XI_COPTS first in copts."""
    native.cc_library(copts = _copts(kwargs), **kwargs)

def xi_cc_binary(**kwargs):
    """native.cc_binary with XI_COPTS first in copts."""
    native.cc_binary(copts = _copts(kwargs), **kwargs)

def xi_cc_test(**kwargs):
    """native.cc_test with XI_COPTS first in copts."""
    native.cc_test(copts = _copts(kwargs), **kwargs)

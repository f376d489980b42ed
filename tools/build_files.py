"""Reads the targets of the repository's BUILD and CMakeLists.txt files.

Shared by tools/check_build_parity.py (Bazel and CMake name the same
targets, sources and deps), tools/target_graph.py (the target graph of
docs/ARCHITECTURE.md) and tools/check_layers.py.

Only the project's own rules are read: xi_cc_library, xi_cc_test,
xi_cc_binary and xi_cc_benchmark in BUILD (Starlark, parsed as Python);
the same functions, xi_fuzz_target and xi_umbrella in CMakeLists.txt.
A Bazel target //a/b:c is the CMake target a_b_c (cmake/xla_index.cmake);
the groups of the top-level BUILD (//:core) are xla_index_group_core.
"""
import ast
import os
import re

RULES = ("xi_cc_library", "xi_cc_test", "xi_cc_binary", "xi_cc_benchmark")
SKIP_DIRS = {"third_party", ".git", ".ci", "cmake", "docs", "examples"}

# Third-party Bazel labels and their CMake counterparts.
THIRD_PARTY = {
    "//third_party:absl": "xi_absl",
    "@llvm_mlir//:mlir": "xi_mlir",
    "//third_party:gtest": "xi_gtest",
    "//third_party:gtest_main": "xi_gtest_main",
    "//third_party:benchmark_main": "benchmark::benchmark_main",
}
# Deps that a CMake rule adds by itself, so they are not written in
# CMakeLists.txt: xi_cc_test links xi_gtest_main, xi_cc_benchmark links
# benchmark_main.
IMPLIED = {
    "xi_cc_test": {"//third_party:gtest_main"},
    "xi_cc_benchmark": {"//third_party:benchmark_main"},
}


class Target:
    def __init__(self, label, kind, srcs=(), hdrs=(), deps=(), visibility=None,
                 testonly=False):
        self.label = label
        self.kind = kind
        self.srcs = list(srcs)
        self.hdrs = list(hdrs)
        self.deps = list(deps)
        self.visibility = visibility
        self.testonly = testonly

    @property
    def package(self):
        return self.label[2:].split(":")[0]

    @property
    def name(self):
        return self.label.split(":")[1]


def build_folders(root):
    """Folders (relative to root, "" for root) that have a BUILD file."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and
                         not d.startswith(("bazel-", "build")))
        if "BUILD" in files:
            rel = os.path.relpath(folder, root)
            out.append("" if rel == "." else rel)
    return sorted(out)


def normalize_label(dep, package):
    """`:x` -> //package:x, //a/b -> //a/b:b; third-party labels as given."""
    if dep.startswith(":"):
        return f"//{package}:{dep[1:]}"
    if dep.startswith("//") and ":" not in dep:
        return f"{dep}:{dep.rsplit('/', 1)[-1]}"
    return dep


def _value(node):
    """A Starlark literal: strings, lists, `a + b`, True/False; a call such
    as glob(...) or select(...) reads as an empty list."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.List):
        return [_value(e) for e in node.elts]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _value(node.left) + _value(node.right)
    if isinstance(node, ast.Name):
        return {"True": True, "False": False}.get(node.id)
    return []


def bazel_targets(root, package):
    """The project rules of `package`'s BUILD file, in order, with package
    default visibility applied."""
    path = os.path.join(root, package, "BUILD")
    tree = ast.parse(open(path).read(), path)
    default_visibility = None
    targets = []
    for statement in tree.body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not isinstance(call, ast.Call) or not isinstance(call.func,
                                                           ast.Name):
            continue
        args = {k.arg: _value(k.value) for k in call.keywords}
        if call.func.id == "package":
            default_visibility = args.get("default_visibility")
        if call.func.id not in RULES:
            continue
        label = f"//{package}:{args['name']}"
        targets.append(Target(
            label, call.func.id, args.get("srcs", []), args.get("hdrs", []),
            [normalize_label(d, package) for d in args.get("deps", [])],
            args.get("visibility", default_visibility),
            bool(args.get("testonly", False))))
    return targets


def cmake_name(label, kind=None):
    """The CMake target of a Bazel label, as a dep of a `kind` rule (None:
    the CMake rule adds it by itself)."""
    if label in IMPLIED.get(kind, ()):
        return None
    if label in THIRD_PARTY:
        return THIRD_PARTY[label]
    package, name = label[2:].split(":")
    if package == "":
        return f"xla_index_group_{name}"
    return package.replace("/", "_") + "_" + name


_CMAKE_CALL = re.compile(r"^\s*(xi_cc_library|xi_cc_test|xi_cc_binary|"
                         r"xi_cc_benchmark|xi_fuzz_target|xi_umbrella)\(",
                         re.M)
_KEYWORDS = {"NAME", "SRCS", "HDRS", "DEPS", "TARGET", "SRC", "SMOKE_ARGS",
             "OUTPUT_NAME"}


def cmake_targets(root, package):
    """{CMake target name: set of its DEPS} of `package`'s CMakeLists.txt."""
    path = os.path.join(root, package, "CMakeLists.txt")
    if not os.path.exists(path):
        return {}
    text = re.sub(r"#.*", "", open(path).read())
    prefix = package.replace("/", "_") + "_" if package else ""
    out = {}
    for match in _CMAKE_CALL.finditer(text):
        end = text.index(")", match.end())
        words = text[match.end():end].split()
        fields, key = {}, None
        if match.group(1) == "xi_umbrella":
            out[f"xla_index_group_{words[0]}"] = set(words[1:])
            continue
        for word in words:
            if word in _KEYWORDS:
                key = word
                fields.setdefault(key, [])
            elif key:
                fields[key].append(word)
        # Link options such as a library's path are not targets.
        deps = {d for d in fields.get("DEPS", []) if not d.startswith("/")}
        if "${" in " ".join(fields.get("NAME", fields.get("TARGET", []))):
            continue  # inside a function definition
        if match.group(1) == "xi_fuzz_target":
            out[f"{prefix}{fields['TARGET'][0]}_fuzzer_replay_test"] = deps
        else:
            out[prefix + fields["NAME"][0]] = deps
    return out

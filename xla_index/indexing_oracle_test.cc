// Property tests of the indexing rules against the reference evaluator's
// tracing mode (hlo/evaluator.h), which records, for every output element,
// the input elements XLA's operation semantics read to compute it.
//
// For random shapes and attributes of every op with a rule, and for random
// fusions, the operand elements a map names for an output element
// (enumerating range variables over their intervals and the constraints,
// runtime variables bound to the traced values after the clamping rule)
// must equal the traced set. The only exceptions are the documented
// over-approximations of the rules: dynamic-update-slice's operand (read
// everywhere, although updated elements do not read it) and pad's padding
// value (read everywhere, although only padding positions read it); there
// the traced set must be contained in the map's set. Input-to-output is
// checked the same way on the inverted trace, for every operand with an
// input-to-output rule (all but dynamic-update-slice's and gather's
// operand 0). Gather is generated in the general form (any start_index_map,
// collapsed dims, index_vector_dim; with and without batching dims), and
// dynamic-slice, dynamic-update-slice and gather also with offsets and indices
// computed from constants and iotas (runtime variables that fold into the maps,
// or must not).
//
// Random fusions chain 2-8 of: exp, add, transpose, reverse, slice, reshape,
// broadcast, reduce, variadic reduce + get-tuple-element, pad (constant
// padding value), concatenate and dynamic-slice (offsets are parameters);
// every other fusion is wrapped in a fusion instruction and traced as one.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlo/evaluator.h"
#include "hlo/literal.h"
#include "hlo/module.h"
#include "hlo/parser.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/fusion_indexing.h"
#include "xla_index/input_to_output_indexing.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index {
namespace {

using Dims = std::vector<int64_t>;

// ---------------------------------------------------------------------------
// Index helpers, written independently of the library under test.

int64_t Product(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

Dims MultiIndex(const Dims& dims, int64_t linear) {
  Dims index(dims.size());
  for (int64_t k = static_cast<int64_t>(dims.size()) - 1; k >= 0; --k) {
    index[k] = linear % dims[k];
    linear /= dims[k];
  }
  return index;
}

// Row-major linear index, or -1 when out of bounds.
int64_t Linear(const Dims& dims, const std::vector<int64_t>& index) {
  if (index.size() != dims.size()) return -1;
  int64_t linear = 0;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (index[k] < 0 || index[k] >= dims[k]) return -1;
    linear = linear * dims[k] + index[k];
  }
  return linear;
}

Dims DimsOf(const Shape& shape) {
  return Dims(shape.dimensions().begin(), shape.dimensions().end());
}

// ---------------------------------------------------------------------------
// The set of operand elements the maps name at one point of their domain.

// Values of runtime variables: the literal each runtime variable's
// instruction holds, and the clamping interval of the op that reads it
// (XLA's operation semantics: start indices are clamped to
// [0, dim - size]), per component of the index vector (one entry for a
// scalar offset, one per start_index_map entry for gather indices, whose
// component is the index at `vector_position`, gather's index_vector_dim;
// -1 for one component). The map's own feasible interval may be
// tighter (the simplifier tightens it from constraints); a clamped value
// outside it means the map names no element.
struct RuntimeBinding {
  const Literal* literal = nullptr;
  std::vector<Interval> clamp;
  int64_t vector_position = -1;
};
using RuntimeValues = absl::flat_hash_map<const void*, RuntimeBinding>;

// Calls `visit` with every symbol assignment of `map` (range variables over
// their intervals; runtime variables bound to their clamped value). Returns
// false if a runtime variable cannot be bound.
bool ForEachSymbolAssignment(
    const IndexingMap& map, const std::vector<int64_t>& dims,
    const RuntimeValues& values,
    const std::function<void(const std::vector<int64_t>&)>& visit) {
  const int64_t ranges = map.GetRangeVarsCount();
  std::vector<int64_t> symbols(map.GetSymbolCount(), 0);
  for (int64_t r = 0; r < map.GetRuntimeVarsCount(); ++r) {
    const RuntimeVar& var = map.GetRuntimeVars()[r];
    auto found = values.find(var.hlo);
    if (found == values.end()) return false;
    const Literal& literal = *found->second.literal;
    std::vector<int64_t> at;
    for (mlir::AffineExpr e : var.access.getResults()) {
      std::optional<int64_t> v = EvaluateAffineExpr(e, dims, {});
      if (!v) return false;
      at.push_back(*v);
    }
    int64_t linear = Linear(DimsOf(literal.shape()), at);
    if (linear < 0) return false;
    const int64_t position = found->second.vector_position;
    int64_t column = position >= 0 ? at[position] : 0;
    if (column >= static_cast<int64_t>(found->second.clamp.size())) {
      return false;
    }
    Interval clamp = found->second.clamp[column];
    int64_t value =
        std::clamp(literal.GetInt(linear), clamp.lower, clamp.upper);
    if (!var.feasible_values.Contains(value)) return true;
    symbols[ranges + r] = value;
  }
  for (int64_t s = 0; s < ranges; ++s) {
    Interval b = map.GetSymbolBound(s);
    if (b.IsEmpty()) return true;
    symbols[s] = b.lower;
  }
  while (true) {
    visit(symbols);
    int64_t s = ranges - 1;
    for (; s >= 0; --s) {
      if (++symbols[s] <= map.GetSymbolBound(s).upper) break;
      symbols[s] = map.GetSymbolBound(s).lower;
    }
    if (s < 0) return true;
  }
}

// Linear indices (within `target_dims`) that `maps` name at `dims`.
// Sets *ok to false (with a message) on Undefined maps or unbound runtime
// variables.
std::set<int64_t> NamedElements(const IndexingMapSet& maps,
                                const std::vector<int64_t>& dims,
                                const Dims& target_dims,
                                const RuntimeValues& values,
                                std::string* error) {
  std::set<int64_t> named;
  for (const IndexingMap& map : maps) {
    if (map.IsUndefined()) {
      *error = "UNDEFINED map";
      return named;
    }
    if (map.IsKnownEmpty()) continue;
    bool bound = ForEachSymbolAssignment(
        map, dims, values, [&](const std::vector<int64_t>& symbols) {
          if (!map.ConstraintsSatisfied(dims, symbols)) return;
          std::optional<std::vector<int64_t>> results =
              map.Evaluate(dims, symbols);
          if (!results) return;
          int64_t linear = Linear(target_dims, *results);
          if (linear >= 0) named.insert(linear);
        });
    if (!bound) {
      *error = "unbound runtime variable in " + ToString(map);
      return named;
    }
  }
  return named;
}

// ---------------------------------------------------------------------------
// Comparing maps with a trace.

struct Checker {
  int64_t points = 0;
  int64_t failures = 0;
  std::string first_failure;

  void Fail(const std::string& message) {
    if (failures++ == 0) first_failure = message;
  }
};

std::string Describe(const std::set<int64_t>& s) {
  return "{" + absl::StrJoin(s, ", ") + "}";
}

// Compares `expected` (traced) with `named` (maps): equal, or for an
// over-approximating rule, traced within named.
void Compare(const std::set<int64_t>& traced, const std::set<int64_t>& named,
             bool over_approximation, const std::string& where,
             Checker& checker) {
  ++checker.points;
  bool ok = over_approximation ? std::includes(named.begin(), named.end(),
                                               traced.begin(), traced.end())
                               : named == traced;
  if (!ok) {
    checker.Fail(absl::StrCat(where, ": traced ", Describe(traced),
                              ", maps name ", Describe(named)));
  }
}

// reads[t][i] restricted to operand k: linear indices.
std::set<int64_t> TracedOf(const ReadSet& reads, int64_t operand) {
  std::set<int64_t> out;
  for (const ElementId& e : reads) {
    if (e.operand == operand) out.insert(e.linear_index);
  }
  return out;
}

// Output-to-input: for every output t, element i and operand k.
void CheckOutputToInput(
    const std::function<const IndexingMapSet&(int64_t t, int64_t k)>& maps,
    const TracedValue& traced, const std::vector<Dims>& output_dims,
    const std::vector<Dims>& operand_dims, const RuntimeValues& values,
    const std::function<bool(int64_t k)>& over_approximation,
    const std::string& hlo, Checker& checker) {
  for (size_t t = 0; t < output_dims.size(); ++t) {
    for (int64_t i = 0; i < Product(output_dims[t]); ++i) {
      Dims o = MultiIndex(output_dims[t], i);
      for (size_t k = 0; k < operand_dims.size(); ++k) {
        std::string error;
        std::set<int64_t> named =
            NamedElements(maps(t, k), o, operand_dims[k], values, &error);
        if (!error.empty()) {
          checker.Fail(absl::StrCat(error, " for operand ", k, " in\n", hlo));
          return;
        }
        Compare(TracedOf(traced.reads[t][i], k), named, over_approximation(k),
                absl::StrCat("output ", t, " element (", absl::StrJoin(o, ","),
                             "), operand ", k, " in\n", hlo),
                checker);
        if (checker.failures > 0) return;
      }
    }
  }
}

// Input-to-output: for every operand k and element, the output elements of
// output t that read it.
void CheckInputToOutput(
    const std::function<const IndexingMapSet&(int64_t k, int64_t t)>& maps,
    const TracedValue& traced, const std::vector<Dims>& output_dims,
    const std::vector<Dims>& operand_dims, const RuntimeValues& values,
    const std::function<bool(int64_t k)>& over_approximation,
    const std::string& hlo, Checker& checker,
    const std::function<bool(int64_t k)>& has_map = nullptr) {
  // inverse[k][t][l] = output elements i of output t that read element l.
  std::vector<std::vector<std::map<int64_t, std::set<int64_t>>>> inverse(
      operand_dims.size(),
      std::vector<std::map<int64_t, std::set<int64_t>>>(output_dims.size()));
  for (size_t t = 0; t < output_dims.size(); ++t) {
    for (int64_t i = 0; i < Product(output_dims[t]); ++i) {
      for (const ElementId& e : traced.reads[t][i]) {
        if (e.operand < static_cast<int64_t>(operand_dims.size())) {
          inverse[e.operand][t][e.linear_index].insert(i);
        }
      }
    }
  }
  for (size_t k = 0; k < operand_dims.size(); ++k) {
    if (has_map && !has_map(k)) continue;
    for (size_t t = 0; t < output_dims.size(); ++t) {
      for (int64_t l = 0; l < Product(operand_dims[k]); ++l) {
        std::string error;
        std::set<int64_t> named =
            NamedElements(maps(k, t), MultiIndex(operand_dims[k], l),
                          output_dims[t], values, &error);
        if (!error.empty()) {
          checker.Fail(absl::StrCat(error, " for operand ", k, " in\n", hlo));
          return;
        }
        Compare(inverse[k][t][l], named, over_approximation(k),
                absl::StrCat("input-to-output: operand ", k, " element ", l,
                             " to output ", t, " in\n", hlo),
                checker);
        if (checker.failures > 0) return;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Random HLO.

class Random {
 public:
  explicit Random(uint32_t seed) : engine_(seed) {}
  int64_t Int(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine_);
  }
  bool Bool() { return Int(0, 1) == 1; }
  Dims RandomDims(int64_t rank, int64_t lo = 1, int64_t hi = 4) {
    Dims dims;
    for (int64_t i = 0; i < rank; ++i) dims.push_back(Int(lo, hi));
    return dims;
  }
  std::vector<int64_t> Permutation(int64_t n) {
    std::vector<int64_t> p(n);
    for (int64_t i = 0; i < n; ++i) p[i] = i;
    std::shuffle(p.begin(), p.end(), engine_);
    return p;
  }
  // A random subset of [0, n) in increasing order.
  std::vector<int64_t> Subset(int64_t n) {
    std::vector<int64_t> s;
    for (int64_t i = 0; i < n; ++i) {
      if (Bool()) s.push_back(i);
    }
    return s;
  }
  // Random dims with `count` elements (a random factorization).
  Dims Factorize(int64_t count) {
    Dims dims;
    while (count > 1) {
      std::vector<int64_t> divisors;
      for (int64_t d = 2; d <= count; ++d) {
        if (count % d == 0) divisors.push_back(d);
      }
      int64_t d = divisors[Int(0, divisors.size() - 1)];
      dims.push_back(d);
      count /= d;
      if (Int(0, 4) == 0) dims.push_back(1);
    }
    if (dims.empty() || Int(0, 5) == 0) dims.insert(dims.begin(), 1);
    std::shuffle(dims.begin(), dims.end(), engine_);
    return dims;
  }

 private:
  std::mt19937 engine_;
};

std::string ShapeText(const std::string& type, const Dims& dims) {
  return absl::StrCat(type, "[", absl::StrJoin(dims, ","), "]");
}
std::string F32(const Dims& dims) { return ShapeText("f32", dims); }
std::string List(const std::vector<int64_t>& v) {
  return absl::StrCat("{", absl::StrJoin(v, ","), "}");
}

constexpr absl::string_view kReducers = R"(HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

add2 {
  a0 = f32[] parameter(0)
  a1 = f32[] parameter(1)
  b0 = f32[] parameter(2)
  b1 = f32[] parameter(3)
  s0 = f32[] add(a0, b0)
  s1 = f32[] add(a1, b1)
  ROOT t = (f32[], f32[]) tuple(s0, s1)
}

)";

// One generated single-instruction case: the parameters (operand k is
// parameter k) and the root.
struct OpCase {
  std::vector<std::string> parameter_shapes;
  std::string root;  // "SHAPE OPCODE(p0, p1, ...), attributes"
  // Integer parameters get values in [lo, hi] (offsets, indices), by
  // parameter number.
  std::map<int64_t, std::pair<int64_t, int64_t>> int_ranges;
  // Instructions between the parameters and the root (offsets and indices
  // computed from constants and iotas).
  std::vector<std::string> lines;
};

std::string ModuleText(const OpCase& c) {
  std::string text(kReducers);
  absl::StrAppend(&text, "ENTRY e {\n");
  for (size_t k = 0; k < c.parameter_shapes.size(); ++k) {
    absl::StrAppend(&text, "  p", k, " = ", c.parameter_shapes[k],
                    " parameter(", k, ")\n");
  }
  for (const std::string& line : c.lines) {
    absl::StrAppend(&text, "  ", line, "\n");
  }
  absl::StrAppend(&text, "  ROOT r = ", c.root, "\n}\n");
  return text;
}

std::string Operands(int64_t n) {
  std::vector<std::string> names;
  for (int64_t k = 0; k < n; ++k) names.push_back(absl::StrCat("p", k));
  return absl::StrJoin(names, ", ");
}

Literal RandomLiteral(const Shape& shape, Random& random,
                      std::pair<int64_t, int64_t> int_range) {
  if (shape.IsTuple()) {
    Literal tuple(shape);
    for (size_t i = 0; i < shape.tuple_shapes().size(); ++i) {
      tuple.tuple_elements()[i] =
          RandomLiteral(shape.tuple_shapes(i), random, int_range);
    }
    return tuple;
  }
  Literal literal(shape);
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    if (!IsFloatingPoint(shape.element_type())) {
      literal.SetInt(i, random.Int(int_range.first, int_range.second));
    } else {
      literal.SetDouble(i, static_cast<double>(random.Int(-3, 3)));
    }
  }
  return literal;
}

// ---- Generators, one per op. ----

OpCase Elementwise(Random& r) {
  Dims d = r.RandomDims(r.Int(0, 3));
  OpCase c;
  switch (r.Int(0, 5)) {
    case 0:
      c.parameter_shapes = {F32(d)};
      c.root = F32(d) + " exponential(p0)";
      break;
    case 1:
      c.parameter_shapes = {F32(d), F32(d)};
      c.root = F32(d) + " add(p0, p1)";
      break;
    case 2:
      c.parameter_shapes = {F32(d), F32(d)};
      c.root = ShapeText("pred", d) + " compare(p0, p1), direction=LT";
      break;
    case 3:
      c.parameter_shapes = {ShapeText("pred", d), F32(d), F32(d)};
      c.root = F32(d) + " select(p0, p1, p2)";
      break;
    case 4:
      c.parameter_shapes = {"f32[]", F32(d), "f32[]"};
      c.root = F32(d) + " clamp(p0, p1, p2)";
      break;
    default:
      c.parameter_shapes = {F32(d)};
      c.root = ShapeText("s32", d) + " convert(p0)";
      break;
  }
  return c;
}

OpCase Broadcast(Random& r) {
  Dims out = r.RandomDims(r.Int(1, 4));
  std::vector<int64_t> dims = r.Subset(out.size());
  Dims in;
  for (int64_t d : dims) in.push_back(out[d]);
  return {{F32(in)}, F32(out) + " broadcast(p0), dimensions=" + List(dims)};
}

// The attributes of a random gather in the general form (any
// start_index_map order, collapsed dims, index_vector_dim anywhere, offset
// dims anywhere in the output); batching dims only when asked
// (GatherBatching).
struct RandomGather {
  Dims operand, indices, out, slice_sizes;
  std::vector<int64_t> offset_dims, collapsed, start_index_map;
  std::vector<int64_t> operand_batching, indices_batching;
  int64_t index_vector_dim = 0;

  static bool Has(const std::vector<int64_t>& v, int64_t x) {
    return std::count(v.begin(), v.end(), x) > 0;
  }

  explicit RandomGather(Random& r, bool batching = false) {
    operand = r.RandomDims(r.Int(batching ? 2 : 1, 3), 1, 5);
    const int64_t rank = operand.size();
    if (batching) {
      std::vector<int64_t> perm = r.Permutation(rank);
      operand_batching.assign(perm.begin(), perm.begin() + r.Int(1, rank - 1));
      std::sort(operand_batching.begin(), operand_batching.end());
    }
    std::vector<int64_t> free;  // neither batching nor collapsed yet
    for (int64_t d = 0; d < rank; ++d) {
      if (Has(operand_batching, d)) continue;
      if (r.Bool()) {
        collapsed.push_back(d);
      }
      free.push_back(d);
    }
    for (int64_t d = 0; d < rank; ++d) {
      const bool unit = Has(collapsed, d) || Has(operand_batching, d);
      slice_sizes.push_back(unit ? 1 : r.Int(1, operand[d]));
    }
    std::vector<int64_t> perm = r.Permutation(free.size());
    for (int64_t k = 0, n = r.Int(1, free.size()); k < n; ++k) {
      start_index_map.push_back(free[perm[k]]);
    }
    const int64_t length = start_index_map.size();
    // Batch entries of the indices: one per batching dim (its index into
    // operand_batching), plus free ones (-1), in random order.
    std::vector<int64_t> entries(operand_batching.size());
    for (size_t i = 0; i < entries.size(); ++i) entries[i] = i;
    for (int64_t k = r.Int(0, batching ? 1 : 2); k > 0; --k) {
      entries.push_back(-1);
    }
    std::vector<int64_t> order = r.Permutation(entries.size());
    Dims batch;
    std::vector<int64_t> batch_entry;
    for (int64_t o : order) {
      const int64_t e = entries[o];
      batch_entry.push_back(e);
      batch.push_back(e >= 0 ? operand[operand_batching[e]] : r.Int(1, 3));
    }
    const int64_t b = batch.size();
    indices = batch;
    if (length == 1 && r.Bool()) {
      index_vector_dim = b;  // implicit trailing dim of size 1
    } else {
      index_vector_dim = r.Int(0, b);
      indices.insert(indices.begin() + index_vector_dim, length);
    }
    indices_batching.assign(operand_batching.size(), 0);
    for (int64_t j = 0; j < b; ++j) {
      if (batch_entry[j] >= 0) {
        indices_batching[batch_entry[j]] = j < index_vector_dim ? j : j + 1;
      }
    }
    Dims offset_sizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!Has(collapsed, d) && !Has(operand_batching, d)) {
        offset_sizes.push_back(slice_sizes[d]);
      }
    }
    const int64_t out_rank = b + offset_sizes.size();
    std::vector<int64_t> positions = r.Permutation(out_rank);
    offset_dims.assign(positions.begin(),
                       positions.begin() + offset_sizes.size());
    std::sort(offset_dims.begin(), offset_dims.end());
    size_t next_batch = 0, next_offset = 0;
    for (int64_t d = 0; d < out_rank; ++d) {
      out.push_back(Has(offset_dims, d) ? offset_sizes[next_offset++]
                                        : batch[next_batch++]);
    }
  }
  std::string Root(const std::string& indices_name) const {
    std::string batching;
    if (!operand_batching.empty()) {
      batching = absl::StrCat(
          ", operand_batching_dims=", List(operand_batching),
          ", start_indices_batching_dims=", List(indices_batching));
    }
    return absl::StrCat(F32(out), " gather(p0, ", indices_name,
                        "), offset_dims=", List(offset_dims),
                        ", collapsed_slice_dims=", List(collapsed), batching,
                        ", start_index_map=", List(start_index_map),
                        ", index_vector_dim=", index_vector_dim,
                        ", slice_sizes=", List(slice_sizes));
  }
};

OpCase GatherWith(Random& r, bool batching) {
  RandomGather g(r, batching);
  OpCase c;
  c.parameter_shapes = {F32(g.operand), ShapeText("s32", g.indices)};
  c.int_ranges[1] = {-2, *std::max_element(g.operand.begin(), g.operand.end())};
  c.root = g.Root("p1");
  return c;
}

OpCase Gather(Random& r) { return GatherWith(r, /*batching=*/false); }
OpCase GatherBatching(Random& r) { return GatherWith(r, /*batching=*/true); }

// ---- Offsets and indices computed from constants and iotas: the runtime
// variables that fold (and some that must not). ----

// Appends to `c` the lines of a scalar s32 offset for a dim of size `size`
// named `name`, and returns its name: a parameter, a constant (possibly out
// of range: it clamps), a chain of convert/broadcast/multiply/add/clamp, an
// element of an iota, subtract/negate/divide, or arithmetic on a parameter;
// only a parameter unless `computed`.
std::string RandomOffset(Random& r, OpCase& c, int64_t size,
                         const std::string& name, bool computed) {
  auto line = [&](const std::string& suffix, const std::string& text) {
    c.lines.push_back(absl::StrCat(name, suffix, " = ", text));
    return name + suffix;
  };
  auto parameter = [&]() {
    const int64_t number = c.parameter_shapes.size();
    c.parameter_shapes.push_back("s32[]");
    c.int_ranges[number] = {-2, size + 1};
    return absl::StrCat("p", number);
  };
  switch (computed ? r.Int(0, 6) : 0) {
    case 0:
      return parameter();
    case 1:
      return line("",
                  absl::StrCat("s32[] constant(", r.Int(-3, size + 3), ")"));
    case 2: {
      std::string a =
          line("a", absl::StrCat("s32[] constant(", r.Int(-2, 2), ")"));
      std::string b = line("b", "s32[] broadcast(" + a + "), dimensions={}");
      std::string v = line("v", "s64[] convert(" + b + ")");
      std::string m =
          line("m", absl::StrCat("s64[] constant(", r.Int(-2, 3), ")"));
      std::string p = line("p", "s64[] multiply(" + v + ", " + m + ")");
      std::string k =
          line("k", absl::StrCat("s64[] constant(", r.Int(0, size), ")"));
      std::string s = line("s", "s64[] add(" + p + ", " + k + ")");
      std::string lo = line("lo", "s64[] constant(0)");
      std::string hi =
          line("hi", absl::StrCat("s64[] constant(", r.Int(0, size + 2), ")"));
      std::string cl =
          line("c", "s64[] clamp(" + lo + ", " + s + ", " + hi + ")");
      return line("", "s32[] convert(" + cl + ")");
    }
    case 3: {
      const int64_t n = r.Int(1, size + 3), at = r.Int(0, n - 1);
      std::string i =
          line("i", absl::StrCat("s32[", n, "] iota(), iota_dimension=0"));
      std::string e = line("e", absl::StrCat("s32[1] slice(", i, "), slice={[",
                                             at, ":", at + 1, "]}"));
      return line("", "s32[] reshape(" + e + ")");
    }
    case 4: {
      std::string a =
          line("a", absl::StrCat("s32[] constant(", r.Int(0, 20), ")"));
      std::string b =
          line("b", absl::StrCat("s32[] constant(", r.Int(0, 20), ")"));
      std::string d = line("d", "s32[] subtract(" + a + ", " + b + ")");
      std::string n = line("n", "s32[] negate(" + d + ")");
      std::string q =
          line("q", absl::StrCat("s32[] constant(", r.Int(1, 3), ")"));
      return line("", "s32[] divide(" + n + ", " + q + ")");
    }
    case 5: {
      std::string p = parameter();
      std::string one = line("o", "s32[] constant(1)");
      return line("", "s32[] add(" + p + ", " + one + ")");
    }
    default:
      return line("", absl::StrCat("s8[] constant(", r.Int(-3, 3), ")"));
  }
}

// dynamic-slice with parameter offsets, or (`computed`) offsets from
// RandomOffset.
OpCase DynamicSliceCase(Random& r, bool computed) {
  Dims in = r.RandomDims(r.Int(1, 3), 1, 5);
  Dims sizes;
  for (int64_t d : in) sizes.push_back(r.Int(1, d));
  OpCase c;
  c.parameter_shapes = {F32(in)};
  std::vector<std::string> operands = {"p0"};
  for (size_t i = 0; i < in.size(); ++i) {
    operands.push_back(
        RandomOffset(r, c, in[i], absl::StrCat("o", i), computed));
  }
  c.root =
      absl::StrCat(F32(sizes), " dynamic-slice(", absl::StrJoin(operands, ", "),
                   "), dynamic_slice_sizes=", List(sizes));
  return c;
}
OpCase DynamicSlice(Random& r) { return DynamicSliceCase(r, false); }
OpCase FoldedDynamicSlice(Random& r) { return DynamicSliceCase(r, true); }

OpCase DynamicUpdateSliceCase(Random& r, bool computed) {
  Dims in = r.RandomDims(r.Int(1, 3), 1, 5);
  Dims update;
  for (int64_t d : in) update.push_back(r.Int(1, d));
  OpCase c;
  c.parameter_shapes = {F32(in), F32(update)};
  std::vector<std::string> operands = {"p0", "p1"};
  for (size_t i = 0; i < in.size(); ++i) {
    operands.push_back(
        RandomOffset(r, c, in[i], absl::StrCat("o", i), computed));
  }
  c.root = absl::StrCat(F32(in), " dynamic-update-slice(",
                        absl::StrJoin(operands, ", "), ")");
  return c;
}
OpCase DynamicUpdateSlice(Random& r) {
  return DynamicUpdateSliceCase(r, false);
}
OpCase FoldedDynamicUpdateSlice(Random& r) {
  return DynamicUpdateSliceCase(r, true);
}

// A general gather whose indices are an iota (plus a constant): start
// indices that are functions of the output index, folded where they stay
// inside the clamping range.
OpCase GatherIotaIndices(Random& r) {
  RandomGather g(r);
  OpCase c;
  c.parameter_shapes = {F32(g.operand)};
  const int64_t rank = std::max<int64_t>(g.indices.size(), 1);
  Dims indices = g.indices.empty() ? Dims{1} : g.indices;
  std::string iota =
      absl::StrCat(ShapeText("s32", indices),
                   " iota(), iota_dimension=", r.Int(0, rank - 1));
  if (g.indices.empty()) {
    c.lines.push_back("iota = " + iota);
    c.lines.push_back("idx = s32[] reshape(iota)");
  } else if (r.Bool()) {
    c.lines.push_back("idx = " + iota);
  } else {
    c.lines.push_back("iota = " + iota);
    c.lines.push_back(absl::StrCat("k = s32[] constant(", r.Int(-2, 2), ")"));
    c.lines.push_back(absl::StrCat("kb = ", ShapeText("s32", indices),
                                   " broadcast(k), dimensions={}"));
    c.lines.push_back(
        absl::StrCat("idx = ", ShapeText("s32", indices), " add(iota, kb)"));
  }
  c.root = g.Root("idx");
  return c;
}

OpCase Transpose(Random& r) {
  Dims in = r.RandomDims(r.Int(1, 4));
  std::vector<int64_t> perm = r.Permutation(in.size());
  Dims out;
  for (int64_t p : perm) out.push_back(in[p]);
  return {{F32(in)}, F32(out) + " transpose(p0), dimensions=" + List(perm)};
}

OpCase Reverse(Random& r) {
  Dims in = r.RandomDims(r.Int(1, 4));
  return {{F32(in)},
          F32(in) + " reverse(p0), dimensions=" + List(r.Subset(in.size()))};
}

OpCase Reduce(Random& r) {
  Dims in = r.RandomDims(r.Int(1, 3));
  std::vector<int64_t> reduced = r.Subset(in.size());
  if (reduced.empty()) reduced = {r.Int(0, in.size() - 1)};
  Dims out;
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
    if (!std::count(reduced.begin(), reduced.end(), d)) out.push_back(in[d]);
  }
  if (r.Bool()) {
    return {{F32(in), F32(in), "f32[]", "f32[]"},
            absl::StrCat("(", F32(out), ", ", F32(out),
                         ") reduce(p0, p1, p2, p3), dimensions=", List(reduced),
                         ", to_apply=add2")};
  }
  return {{F32(in), "f32[]"},
          absl::StrCat(F32(out), " reduce(p0, p1), dimensions=", List(reduced),
                       ", to_apply=add")};
}

OpCase Slice(Random& r) {
  Dims in = r.RandomDims(r.Int(1, 3), 1, 7);
  Dims out;
  std::vector<std::string> parts;
  for (int64_t d : in) {
    int64_t start = r.Int(0, (d - 1) / 2);
    int64_t limit = r.Int(start + 1, d);
    int64_t stride = r.Int(1, 3);
    out.push_back((limit - start + stride - 1) / stride);
    parts.push_back(absl::StrCat("[", start, ":", limit, ":", stride, "]"));
  }
  return {{F32(in)},
          absl::StrCat(F32(out), " slice(p0), slice={",
                       absl::StrJoin(parts, ", "), "}")};
}

OpCase Reshape(Random& r) {
  Dims in = r.Factorize(r.Int(1, 48));
  Dims out = r.Factorize(Product(in));
  return {{F32(in)}, F32(out) + " reshape(p0)"};
}

OpCase Bitcast(Random& r) {
  // The evaluator reads a bitcast in row-major order (layouts are data in
  // hlo/), so default layouts here; layouts are checked by brute force
  // below (BitcastWithLayouts).
  Dims in = r.Factorize(r.Int(1, 36));
  Dims out = r.Factorize(Product(in));
  return {{F32(in)}, F32(out) + " bitcast(p0)"};
}

OpCase Concatenate(Random& r) {
  int64_t rank = r.Int(1, 3);
  Dims base = r.RandomDims(rank);
  int64_t dim = r.Int(0, rank - 1);
  int64_t n = r.Int(1, 3);
  OpCase c;
  Dims out = base;
  out[dim] = 0;
  for (int64_t k = 0; k < n; ++k) {
    Dims d = base;
    d[dim] = r.Int(1, 3);
    out[dim] += d[dim];
    c.parameter_shapes.push_back(F32(d));
  }
  c.root = absl::StrCat(F32(out), " concatenate(", Operands(n),
                        "), dimensions={", dim, "}");
  return c;
}

OpCase Dot(Random& r) {
  int64_t batch = r.Int(0, 2), contracting = r.Int(0, 2);
  int64_t lhs_free = r.Int(0, 2), rhs_free = r.Int(0, 2);
  Dims batch_sizes = r.RandomDims(batch, 1, 3);
  Dims contracting_sizes = r.RandomDims(contracting, 1, 3);
  Dims lhs_free_sizes = r.RandomDims(lhs_free, 1, 3);
  Dims rhs_free_sizes = r.RandomDims(rhs_free, 1, 3);
  // Place batch, contracting and free dims at random positions.
  auto layout = [&](const Dims& free_sizes, std::vector<int64_t>* batch_dims,
                    std::vector<int64_t>* contracting_dims) {
    int64_t rank = batch + contracting + free_sizes.size();
    std::vector<int64_t> perm = r.Permutation(rank);
    Dims dims(rank);
    for (int64_t i = 0; i < batch; ++i) {
      batch_dims->push_back(perm[i]);
      dims[perm[i]] = batch_sizes[i];
    }
    for (int64_t i = 0; i < contracting; ++i) {
      contracting_dims->push_back(perm[batch + i]);
      dims[perm[batch + i]] = contracting_sizes[i];
    }
    // Free dims keep their relative order in the output: assign the
    // remaining positions in increasing order.
    std::vector<int64_t> rest(perm.begin() + batch + contracting, perm.end());
    std::sort(rest.begin(), rest.end());
    for (size_t i = 0; i < rest.size(); ++i) dims[rest[i]] = free_sizes[i];
    return dims;
  };
  std::vector<int64_t> lb, lc, rb, rc;
  Dims lhs = layout(lhs_free_sizes, &lb, &lc);
  Dims rhs = layout(rhs_free_sizes, &rb, &rc);
  Dims out = batch_sizes;
  out.insert(out.end(), lhs_free_sizes.begin(), lhs_free_sizes.end());
  out.insert(out.end(), rhs_free_sizes.begin(), rhs_free_sizes.end());
  return {{F32(lhs), F32(rhs)},
          absl::StrCat(F32(out), " dot(p0, p1), lhs_batch_dims=", List(lb),
                       ", rhs_batch_dims=", List(rb), ", lhs_contracting_dims=",
                       List(lc), ", rhs_contracting_dims=", List(rc))};
}

OpCase Pad(Random& r) {
  while (true) {
    Dims in = r.RandomDims(r.Int(1, 3));
    Dims out;
    std::vector<std::string> parts;
    bool ok = true;
    for (int64_t d : in) {
      int64_t low = r.Int(-2, 2), high = r.Int(-2, 2), interior = r.Int(0, 2);
      int64_t size = low + high + d + (d - 1) * interior;
      if (size < 1) ok = false;
      out.push_back(size);
      parts.push_back(absl::StrCat(low, "_", high, "_", interior));
    }
    if (!ok) continue;
    return {{F32(in), "f32[]"},
            absl::StrCat(F32(out),
                         " pad(p0, p1), padding=", absl::StrJoin(parts, "x"))};
  }
}

// One window dimension: size, stride, pads and dilations such that the
// output has at least one element; returns the output size.
struct RandomWindow {
  std::vector<std::string> size, stride, pad, lhs_dilate, rhs_dilate, reversal;
  Dims out;
  bool Add(Random& r, int64_t in, int64_t window_size) {
    int64_t stride_v = r.Int(1, 2), low = r.Int(0, 2), high = r.Int(0, 2);
    int64_t base = r.Int(1, 2), dilation = r.Int(1, 2);
    int64_t padded = (in - 1) * base + 1 + low + high;
    int64_t span = (window_size - 1) * dilation + 1;
    if (padded < span) return false;
    out.push_back((padded - span) / stride_v + 1);
    size.push_back(absl::StrCat(window_size));
    stride.push_back(absl::StrCat(stride_v));
    pad.push_back(absl::StrCat(low, "_", high));
    lhs_dilate.push_back(absl::StrCat(base));
    rhs_dilate.push_back(absl::StrCat(dilation));
    reversal.push_back(r.Bool() ? "1" : "0");
    return true;
  }
  std::string Text(bool with_reversal) const {
    std::string text =
        absl::StrCat("window={size=", absl::StrJoin(size, "x"),
                     " stride=", absl::StrJoin(stride, "x"),
                     " pad=", absl::StrJoin(pad, "x"),
                     " lhs_dilate=", absl::StrJoin(lhs_dilate, "x"),
                     " rhs_dilate=", absl::StrJoin(rhs_dilate, "x"));
    if (with_reversal) {
      absl::StrAppend(&text, " rhs_reversal=", absl::StrJoin(reversal, "x"));
    }
    return text + "}";
  }
};

OpCase ReduceWindow(Random& r) {
  while (true) {
    Dims in = r.RandomDims(r.Int(1, 3));
    RandomWindow w;
    bool ok = true;
    for (int64_t d : in) ok = ok && w.Add(r, d, r.Int(1, 3));
    if (!ok) continue;
    return {{F32(in), "f32[]"},
            absl::StrCat(F32(w.out), " reduce-window(p0, p1), ", w.Text(false),
                         ", to_apply=add")};
  }
}

OpCase Convolution(Random& r) {
  while (true) {
    int64_t spatial = r.Int(1, 2);
    int64_t fgc = 1, bgc = 1;
    int64_t group_kind = r.Int(0, 2);
    int64_t groups = r.Int(1, 2);
    if (group_kind == 1) fgc = groups;
    if (group_kind == 2) bgc = groups;
    int64_t out_batch = r.Int(1, 2);
    int64_t in_batch = out_batch * bgc;
    int64_t kernel_in = r.Int(1, 2);
    int64_t in_features = kernel_in * fgc;
    int64_t out_features = r.Int(1, 2) * fgc * bgc;
    Dims in_spatial = r.RandomDims(spatial, 1, 4);
    Dims kernel_spatial = r.RandomDims(spatial, 1, 2);
    RandomWindow w;
    bool ok = true;
    for (int64_t s = 0; s < spatial; ++s) {
      ok = ok && w.Add(r, in_spatial[s], kernel_spatial[s]);
    }
    if (!ok) continue;
    // b0f / b01f input, 0io / 01io kernel, b0f / b01f output.
    Dims lhs = {in_batch}, rhs = kernel_spatial, out = {out_batch};
    lhs.insert(lhs.end(), in_spatial.begin(), in_spatial.end());
    lhs.push_back(in_features);
    rhs.push_back(kernel_in);
    rhs.push_back(out_features);
    out.insert(out.end(), w.out.begin(), w.out.end());
    out.push_back(out_features);
    std::string labels = spatial == 1 ? "b0f_0io->b0f" : "b01f_01io->b01f";
    return {{F32(lhs), F32(rhs)},
            absl::StrCat(F32(out), " convolution(p0, p1), ", w.Text(true),
                         ", dim_labels=", labels, ", feature_group_count=", fgc,
                         ", batch_group_count=", bgc)};
  }
}

OpCase Tuple(Random& r) {
  Dims a = r.RandomDims(r.Int(1, 2)), b = r.RandomDims(r.Int(0, 2));
  return {{F32(a), F32(b)},
          absl::StrCat("(", F32(a), ", ", F32(b), ") tuple(p0, p1)")};
}

// The clamping interval of the start indices that operand k of `op` holds
// (the clamping rule of XLA's operation semantics), per index column;
// empty for other operands.
std::vector<Interval> ClampIntervals(const HloInstruction& op, int64_t k) {
  const Dims in = DimsOf(op.operand(0)->shape());
  switch (op.opcode()) {
    case HloOpcode::kDynamicSlice:
      if (k >= 1) {
        return {Interval{0, in[k - 1] - op.shape().dimensions(k - 1)}};
      }
      return {};
    case HloOpcode::kDynamicUpdateSlice:
      if (k >= 2) {
        return {
            Interval{0, in[k - 2] - op.operand(1)->shape().dimensions(k - 2)}};
      }
      return {};
    case HloOpcode::kGather: {
      if (k != 1) return {};
      std::vector<Interval> columns;
      for (int64_t d : op.gather_dimension_numbers().start_index_map) {
        columns.push_back({0, in[d] - op.gather_slice_sizes()[d]});
      }
      return columns;
    }
    default:
      return {};
  }
}

// ---------------------------------------------------------------------------
// The single-op property test.

struct OpKind {
  const char* name;
  OpCase (*generate)(Random&);
  // Operands whose output-to-input map over-approximates.
  std::function<bool(const HloInstruction&, int64_t)> over_approximation;
  // Operands with an input-to-output map.
  bool (*has_input_to_output)(int64_t k);
};

bool Never(const HloInstruction&, int64_t) { return false; }
bool All(int64_t) { return true; }
bool None(int64_t) { return false; }
// Gather: the indices (operand 1); the operand's is UNDEFINED.
bool IndicesOnly(int64_t k) { return k == 1; }

// The value of `instruction` in a generated case: parameters get random
// literals (integers in the case's range for their number), other
// instructions are evaluated on their operands' values.
const Literal& ValueOf(const HloInstruction* instruction, const OpCase& c,
                       Random& random,
                       std::map<const HloInstruction*, Literal>& values) {
  auto found = values.find(instruction);
  if (found != values.end()) return found->second;
  Literal value;
  if (instruction->opcode() == HloOpcode::kParameter) {
    const int64_t number = instruction->parameter_number();
    auto range = c.int_ranges.count(number) ? c.int_ranges.at(number)
                                            : std::pair<int64_t, int64_t>{0, 1};
    value = RandomLiteral(instruction->shape(), random, range);
  } else {
    std::vector<Literal> operands;
    for (const HloInstruction* operand : instruction->operands()) {
      operands.push_back(ValueOf(operand, c, random, values));
    }
    auto evaluated = EvaluateInstruction(*instruction, operands);
    EXPECT_TRUE(evaluated.ok()) << evaluated.status();
    if (evaluated.ok()) value = std::move(*evaluated);
  }
  return values.emplace(instruction, std::move(value)).first->second;
}

// Where gather's indices hold the index vector component (-1: one).
int64_t VectorPosition(const HloInstruction& op) {
  if (op.opcode() != HloOpcode::kGather) return -1;
  const int64_t dim = op.gather_dimension_numbers().index_vector_dim;
  return dim == op.operand(1)->shape().rank() ? -1 : dim;
}

void PrintTo(const OpKind& kind, std::ostream* os) { *os << kind.name; }

class IndexingOracleTest : public ::testing::TestWithParam<OpKind> {};

constexpr int kCasesPerOp = 200;

TEST_P(IndexingOracleTest, MapsNameExactlyTheTracedElements) {
  const OpKind& kind = GetParam();
  Random random(std::hash<std::string>()(kind.name) & 0xffffff);
  mlir::MLIRContext context;
  Checker out_to_in, in_to_out;
  int64_t cases = 0;
  for (int iteration = 0; iteration < kCasesPerOp; ++iteration) {
    OpCase c = kind.generate(random);
    std::string text = ModuleText(c);
    auto module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.status() << "\n" << text;
    const HloComputation& entry = *(*module)->entry_computation();
    const HloInstruction& root = *entry.root();
    std::vector<Literal> operands;
    RuntimeValues values;
    std::vector<Dims> operand_dims;
    std::map<const HloInstruction*, Literal> computed;
    for (int64_t k = 0; k < root.operand_count(); ++k) {
      operands.push_back(ValueOf(root.operand(k), c, random, computed));
      operand_dims.push_back(DimsOf(root.operand(k)->shape()));
    }
    for (int64_t k = 0; k < root.operand_count(); ++k) {
      values[root.operand(k)] = {&operands[k], ClampIntervals(root, k),
                                 VectorPosition(root)};
    }
    auto traced = TraceInstruction(root, operands);
    ASSERT_TRUE(traced.ok()) << traced.status() << "\n" << text;
    std::vector<Dims> output_dims;
    if (root.shape().IsTuple()) {
      for (const Shape& s : root.shape().tuple_shapes()) {
        output_dims.push_back(DimsOf(s));
      }
    } else {
      output_dims.push_back(DimsOf(root.shape()));
    }
    ++cases;

    std::vector<HloInstructionIndexing> per_output;
    for (size_t t = 0; t < output_dims.size(); ++t) {
      per_output.push_back(ComputeOutputToInputIndexing(&root, t, &context));
      ASSERT_EQ(per_output.back().indexing_maps.size(), root.operand_count());
    }
    auto over = [&](int64_t k) { return kind.over_approximation(root, k); };
    CheckOutputToInput(
        [&](int64_t t, int64_t k) -> const IndexingMapSet& {
          return per_output[t].indexing_maps[k];
        },
        *traced, output_dims, operand_dims, values, over, text, out_to_in);
    ASSERT_EQ(out_to_in.failures, 0) << out_to_in.first_failure;

    if (kind.has_input_to_output == None) continue;
    std::vector<HloInstructionIndexing> per_operand;
    for (int64_t k = 0; k < root.operand_count(); ++k) {
      per_operand.push_back(ComputeInputToOutputIndexing(&root, k, &context));
      ASSERT_EQ(per_operand.back().indexing_maps.size(), output_dims.size());
    }
    CheckInputToOutput(
        [&](int64_t k, int64_t t) -> const IndexingMapSet& {
          return per_operand[k].indexing_maps[t];
        },
        *traced, output_dims, operand_dims, values, over, text, in_to_out,
        kind.has_input_to_output);
    ASSERT_EQ(in_to_out.failures, 0) << in_to_out.first_failure;
  }
  EXPECT_GE(cases, kCasesPerOp);
  std::cout << kind.name << ": " << cases << " cases, " << out_to_in.points
            << " output-to-input and " << in_to_out.points
            << " input-to-output comparisons\n";
  RecordProperty("cases", cases);
  RecordProperty("output_to_input_points", out_to_in.points);
  RecordProperty("input_to_output_points", in_to_out.points);
}

INSTANTIATE_TEST_SUITE_P(
    PerOp, IndexingOracleTest,
    ::testing::Values(
        OpKind{"Elementwise", Elementwise, Never, All},
        OpKind{"Broadcast", Broadcast, Never, All},
        OpKind{"DynamicSlice", DynamicSlice, Never, All},
        OpKind{"DynamicUpdateSlice", DynamicUpdateSlice,
               [](const HloInstruction&, int64_t k) { return k == 0; }, None},
        OpKind{"Gather", Gather, Never, IndicesOnly},
        OpKind{"GatherBatching", GatherBatching, Never, IndicesOnly},
        OpKind{"GatherIotaIndices", GatherIotaIndices, Never, IndicesOnly},
        OpKind{"FoldedDynamicSlice", FoldedDynamicSlice, Never, All},
        OpKind{"FoldedDynamicUpdateSlice", FoldedDynamicUpdateSlice,
               [](const HloInstruction&, int64_t k) { return k == 0; }, None},
        OpKind{"Transpose", Transpose, Never, All},
        OpKind{"Reverse", Reverse, Never, All},
        OpKind{"Reduce", Reduce, Never, All},
        OpKind{"Slice", Slice, Never, All},
        OpKind{"Reshape", Reshape, Never, All},
        OpKind{"Bitcast", Bitcast, Never, All},
        OpKind{"Concatenate", Concatenate, Never, All},
        OpKind{"Dot", Dot, Never, All},
        OpKind{"Pad", Pad,
               [](const HloInstruction&, int64_t k) { return k == 1; }, All},
        OpKind{"ReduceWindow", ReduceWindow, Never, All},
        OpKind{"Convolution", Convolution, Never, All},
        OpKind{"Tuple", Tuple, Never, All}),
    [](const ::testing::TestParamInfo<OpKind>& info) {
      return std::string(info.param.name);
    });

// ---------------------------------------------------------------------------
// Random fusions of 2-8 ops, compared with TraceComputation.

struct FusionBuilder {
  Random& random;
  std::vector<std::string> lines;
  std::vector<std::pair<std::string, Dims>> values;  // Array values.
  std::vector<Shape> parameter_shapes;
  std::map<int64_t, std::pair<int64_t, int64_t>> int_ranges;
  std::map<int64_t, Interval> clamps;  // Offset parameter -> clamp range.
  bool has_dynamic_slice = false;
  int64_t next = 0;

  std::string Name() { return absl::StrCat("v", next++); }
  std::string Parameter(const std::string& shape_text, const Dims& dims,
                        bool is_array_value) {
    int64_t number = parameter_shapes.size();
    std::string name = absl::StrCat("p", number);
    lines.push_back(
        absl::StrCat(name, " = ", shape_text, " parameter(", number, ")"));
    parameter_shapes.push_back(*ParseShape(shape_text));
    if (is_array_value) values.push_back({name, dims});
    return name;
  }
  void Add(const Dims& dims, const std::string& rhs) {
    std::string name = Name();
    lines.push_back(absl::StrCat(name, " = ", F32(dims), " ", rhs));
    values.push_back({name, dims});
  }
  // A value, preferring recent ones.
  const std::pair<std::string, Dims>& Pick() {
    int64_t n = values.size();
    return values[std::max<int64_t>(0, n - 1 - random.Int(0, 2))];
  }

  // Appends one random op reading existing values; false if it did not fit.
  bool AddRandomOp() {
    const auto [v, dims] = Pick();
    const int64_t rank = dims.size();
    switch (random.Int(0, 11)) {
      case 0:
        Add(dims, absl::StrCat("exponential(", v, ")"));
        return true;
      case 11: {
        // A variadic reduce read through a get-tuple-element.
        if (rank == 0) return false;
        std::vector<int64_t> reduced = random.Subset(rank);
        if (reduced.empty()) reduced = {random.Int(0, rank - 1)};
        Dims out;
        for (int64_t d = 0; d < rank; ++d) {
          if (!std::count(reduced.begin(), reduced.end(), d)) {
            out.push_back(dims[d]);
          }
        }
        std::string other = v;
        for (const auto& [name, d] : values) {
          if (d == dims && random.Bool()) other = name;
        }
        std::string tuple = Name();
        lines.push_back(absl::StrCat(
            tuple, " = (", F32(out), ", ", F32(out), ") reduce(", v, ", ",
            other, ", zero, zero), dimensions=", List(reduced),
            ", to_apply=add2"));
        Add(out, absl::StrCat("get-tuple-element(", tuple,
                              "), index=", random.Int(0, 1)));
        return true;
      }
      case 1: {
        std::string other = v;
        for (const auto& [name, d] : values) {
          if (d == dims && random.Bool()) other = name;
        }
        Add(dims, absl::StrCat("add(", v, ", ", other, ")"));
        return true;
      }
      case 2: {
        std::vector<int64_t> perm = random.Permutation(rank);
        Dims out;
        for (int64_t p : perm) out.push_back(dims[p]);
        Add(out, absl::StrCat("transpose(", v, "), dimensions=", List(perm)));
        return true;
      }
      case 3:
        Add(dims, absl::StrCat("reverse(", v,
                               "), dimensions=", List(random.Subset(rank))));
        return true;
      case 4: {
        if (rank == 0) return false;
        Dims out;
        std::vector<std::string> parts;
        for (int64_t d : dims) {
          int64_t start = random.Int(0, d - 1);
          int64_t limit = random.Int(start + 1, d);
          int64_t stride = random.Int(1, 2);
          out.push_back((limit - start + stride - 1) / stride);
          parts.push_back(
              absl::StrCat("[", start, ":", limit, ":", stride, "]"));
        }
        Add(out, absl::StrCat("slice(", v, "), slice={",
                              absl::StrJoin(parts, ", "), "}"));
        return true;
      }
      case 5: {
        Dims out = random.Factorize(Product(dims));
        if (out.size() > 4) return false;
        Add(out, absl::StrCat("reshape(", v, ")"));
        return true;
      }
      case 6: {
        if (rank >= 3 || Product(dims) > 16) return false;
        int64_t position = random.Int(0, rank);
        Dims out = dims;
        out.insert(out.begin() + position, random.Int(1, 3));
        std::vector<int64_t> kept;
        for (int64_t d = 0; d <= rank; ++d) {
          if (d != position) kept.push_back(d);
        }
        Add(out, absl::StrCat("broadcast(", v, "), dimensions=", List(kept)));
        return true;
      }
      case 7: {
        if (rank == 0) return false;
        std::vector<int64_t> reduced = random.Subset(rank);
        if (reduced.empty()) reduced = {random.Int(0, rank - 1)};
        Dims out;
        for (int64_t d = 0; d < rank; ++d) {
          if (!std::count(reduced.begin(), reduced.end(), d)) {
            out.push_back(dims[d]);
          }
        }
        Add(out, absl::StrCat("reduce(", v, ", zero), dimensions=",
                              List(reduced), ", to_apply=add"));
        return true;
      }
      case 8: {
        if (rank == 0) return false;
        Dims out;
        std::vector<std::string> parts;
        for (int64_t d : dims) {
          int64_t low = random.Int(-1, 2), high = random.Int(-1, 2);
          int64_t interior = random.Int(0, 1);
          int64_t size = low + high + d + (d - 1) * interior;
          if (size < 1) return false;
          out.push_back(size);
          parts.push_back(absl::StrCat(low, "_", high, "_", interior));
        }
        if (Product(out) > 64) return false;
        Add(out, absl::StrCat("pad(", v,
                              ", zero), padding=", absl::StrJoin(parts, "x")));
        return true;
      }
      case 9: {
        if (rank == 0 || Product(dims) > 32) return false;
        int64_t dim = random.Int(0, rank - 1);
        Dims out = dims;
        out[dim] *= 2;
        Add(out, absl::StrCat("concatenate(", v, ", ", v, "), dimensions={",
                              dim, "}"));
        return true;
      }
      default: {
        if (rank == 0) return false;
        Dims sizes;
        std::vector<std::string> offsets;
        for (int64_t d = 0; d < rank; ++d) {
          sizes.push_back(random.Int(1, dims[d]));
          int64_t number = parameter_shapes.size();
          offsets.push_back(Parameter("s32[]", {}, false));
          int_ranges[number] = {-1, dims[d]};
          clamps[number] = {0, dims[d] - sizes.back()};
        }
        has_dynamic_slice = true;
        Add(sizes, absl::StrCat("dynamic-slice(", v, ", ",
                                absl::StrJoin(offsets, ", "),
                                "), dynamic_slice_sizes=", List(sizes)));
        return true;
      }
    }
  }

  // The ops as the entry computation, or (as_fusion) as a fused
  // computation called by a fusion instruction of the entry.
  std::string Module(bool as_fusion) const {
    std::string text(kReducers);
    absl::StrAppend(&text, as_fusion ? "fused {\n" : "ENTRY fusion {\n");
    for (size_t i = 0; i < lines.size(); ++i) {
      absl::StrAppend(&text, i + 1 == lines.size() ? "  ROOT " : "  ", lines[i],
                      "\n");
    }
    absl::StrAppend(&text, "}\n");
    if (!as_fusion) return text;
    absl::StrAppend(&text, "\nENTRY e {\n");
    std::vector<std::string> operands;
    for (size_t k = 0; k < parameter_shapes.size(); ++k) {
      absl::StrAppend(&text, "  a", k, " = ",
                      parameter_shapes[k].ToString(false), " parameter(", k,
                      ")\n");
      operands.push_back(absl::StrCat("a", k));
    }
    absl::StrAppend(&text, "  ROOT f = ", F32(values.back().second), " fusion(",
                    absl::StrJoin(operands, ", "),
                    "), kind=kLoop, calls=fused\n}\n");
    return text;
  }
};

constexpr int kRandomFusions = 300;

TEST(FusionOracleTest, ComposedMapsNameExactlyTheTracedElements) {
  Random random(20261122);
  mlir::MLIRContext context;
  Checker out_to_in, in_to_out;
  int64_t fusions = 0, ops = 0;
  for (int iteration = 0; iteration < kRandomFusions; ++iteration) {
    FusionBuilder b{random};
    int64_t parameters = random.Int(1, 2);
    for (int64_t k = 0; k < parameters; ++k) {
      Dims dims = random.RandomDims(random.Int(1, 3), 1, 4);
      b.Parameter(F32(dims), dims, true);
    }
    b.lines.push_back("zero = f32[] constant(0)");
    int64_t count = random.Int(2, 8), added = 0;
    for (int attempt = 0; added < count && attempt < 100; ++attempt) {
      if (b.AddRandomOp()) ++added;
    }
    ASSERT_GE(added, 2);
    // Odd iterations wrap the ops in a fusion instruction, so that the
    // fusion's operands, its fused computation and its trace are compared.
    const bool as_fusion = iteration % 2 == 1;
    std::string text = b.Module(as_fusion);
    auto module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.status() << "\n" << text;
    const HloComputation& entry = *(*module)->entry_computation();
    const HloComputation& body =
        as_fusion ? *entry.root()->fused_computation() : entry;
    const HloInstruction* root = body.root();
    std::vector<Literal> arguments;
    std::vector<Dims> parameter_dims;
    RuntimeValues values;
    for (size_t k = 0; k < b.parameter_shapes.size(); ++k) {
      auto range = b.int_ranges.count(k) ? b.int_ranges[k]
                                         : std::pair<int64_t, int64_t>{0, 1};
      arguments.push_back(RandomLiteral(b.parameter_shapes[k], random, range));
      parameter_dims.push_back(DimsOf(b.parameter_shapes[k]));
    }
    for (size_t k = 0; k < arguments.size(); ++k) {
      RuntimeBinding binding{&arguments[k], {}};
      if (b.clamps.count(k)) binding.clamp = {b.clamps[k]};
      values[body.parameter(k)] = binding;
    }
    auto traced = as_fusion ? TraceInstruction(*entry.root(), arguments)
                            : TraceComputation(entry, arguments);
    ASSERT_TRUE(traced.ok()) << traced.status() << "\n" << text;
    ++fusions;
    ops += added;
    std::vector<Dims> output_dims = {DimsOf(root->shape())};
    auto exact = [](int64_t) { return false; };

    HloInstructionIndexing maps =
        as_fusion
            ? ComputeOutputToInputIndexing(entry.root(), 0, &context)
            : ComputeComputationOutputToInputIndexing(entry, root, 0, &context);
    ASSERT_EQ(maps.indexing_maps.size(), parameter_dims.size());
    CheckOutputToInput(
        [&](int64_t, int64_t k) -> const IndexingMapSet& {
          return maps.indexing_maps[k];
        },
        *traced, output_dims, parameter_dims, values, exact, text, out_to_in);
    ASSERT_EQ(out_to_in.failures, 0) << out_to_in.first_failure;

    std::vector<HloInstructionIndexing> per_parameter;
    for (size_t k = 0; k < parameter_dims.size(); ++k) {
      per_parameter.push_back(
          as_fusion ? ComputeInputToOutputIndexing(entry.root(), k, &context)
                    : ComputeInputToOutputIndexingThroughComputation(
                          entry, entry.parameter(k), root, &context));
    }
    CheckInputToOutput(
        [&](int64_t k, int64_t t) -> const IndexingMapSet& {
          return per_parameter[k].indexing_maps[t];
        },
        *traced, output_dims, parameter_dims, values, exact, text, in_to_out);
    ASSERT_EQ(in_to_out.failures, 0) << in_to_out.first_failure;
  }
  std::cout << "fusions: " << fusions << " random fusions (" << ops << " ops), "
            << out_to_in.points << " output-to-input and " << in_to_out.points
            << " input-to-output comparisons\n";
  EXPECT_GE(fusions, kRandomFusions);
}

// ---------------------------------------------------------------------------
// Bitcast with layouts, by brute force: output element o and input element
// e are the same element when their physical (layout-ordered) linear
// positions agree.

int64_t PhysicalPosition(const Dims& dims, const std::vector<int64_t>& m2m,
                         const Dims& index) {
  int64_t linear = 0;
  for (auto it = m2m.rbegin(); it != m2m.rend(); ++it) {
    linear = linear * dims[*it] + index[*it];
  }
  return linear;
}

TEST(BitcastOracleTest, LayoutsPreserveThePhysicalPosition) {
  Random random(7);
  mlir::MLIRContext context;
  int64_t cases = 0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    Dims in = random.Factorize(random.Int(1, 36));
    Dims out = random.Factorize(Product(in));
    std::vector<int64_t> in_m2m = random.Permutation(in.size());
    std::vector<int64_t> out_m2m = random.Permutation(out.size());
    std::string text = absl::StrCat("p0 = ", F32(in), List(in_m2m),
                                    " parameter(0)\nb = ", F32(out),
                                    List(out_m2m), " bitcast(p0)\n");
    auto module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.status() << "\n" << text;
    const HloInstruction* root = (*module)->entry_computation()->root();
    HloInstructionIndexing indexing =
        ComputeOutputToInputIndexing(root, 0, &context);
    HloInstructionIndexing inverse =
        ComputeInputToOutputIndexing(root, 0, &context);
    // in_at[p] = the input element at physical position p.
    std::vector<int64_t> in_at(Product(in));
    for (int64_t l = 0; l < Product(in); ++l) {
      in_at[PhysicalPosition(in, in_m2m, MultiIndex(in, l))] = l;
    }
    for (int64_t l = 0; l < Product(out); ++l) {
      Dims o = MultiIndex(out, l);
      int64_t expected = in_at[PhysicalPosition(out, out_m2m, o)];
      std::string error;
      std::set<int64_t> named =
          NamedElements(indexing.indexing_maps[0], o, in, {}, &error);
      ASSERT_EQ(error, "") << text;
      ASSERT_EQ(named, std::set<int64_t>{expected})
          << text << ToString(indexing.indexing_maps[0][0]);
      std::set<int64_t> back = NamedElements(
          inverse.indexing_maps[0], MultiIndex(in, expected), out, {}, &error);
      ASSERT_EQ(back, std::set<int64_t>{l}) << text;
    }
    ++cases;
  }
  std::cout << "bitcast with layouts: " << cases << " cases\n";
}

}  // namespace
}  // namespace xla_index

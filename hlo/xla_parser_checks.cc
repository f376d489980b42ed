#include "hlo/xla_parser_checks.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/checked_arithmetic.h"
#include "hlo/module.h"
#include "hlo/replica_groups.h"
#include "hlo/shape.h"
#include "hlo/shape_parser.h"
#include "hlo/text_cursor.h"

namespace xla_index {
namespace {

std::string Named(const HloInstruction& inst, absl::string_view what) {
  return absl::StrCat(inst.opcode_name(), " '", inst.name(), "' ", what);
}

// HloParserImpl::ParseInstructionRhs (kAllGather, kReduceScatter): the
// dimensions attribute is required and has one entry.
std::string CheckGatherDimension(const HloInstruction& inst) {
  if (inst.attribute("dimensions").has_value() &&
      inst.dimensions().size() == 1) {
    return "";
  }
  return Named(inst, "needs dimensions={d} with exactly one dimension");
}

// kConditional: an operand, the first a scalar branch index; pred[] picks
// true_computation/false_computation, s32[] one of branch_computations.
std::string CheckConditional(const HloInstruction& inst) {
  if (inst.operand_count() < 1) {
    return Named(inst, "requires at least one operand, its branch index");
  }
  const Shape& index = inst.operand(0)->shape();
  if (!index.IsScalar()) {
    return Named(inst, absl::StrCat("needs a scalar first operand, not ",
                                    index.ToString(false)));
  }
  if (index.element_type() == PrimitiveType::kPred) {
    if (!inst.attribute("true_computation").has_value() ||
        !inst.attribute("false_computation").has_value()) {
      return Named(inst,
                   "with a pred[] index needs true_computation= and "
                   "false_computation=");
    }
    return "";
  }
  if (index.element_type() != PrimitiveType::kS32) {
    return Named(inst, absl::StrCat("needs a pred[] or s32[] first operand, "
                                    "not ",
                                    index.ToString(false)));
  }
  if (!inst.attribute("branch_computations").has_value()) {
    return Named(inst, "with an s32[] index needs branch_computations=");
  }
  return "";
}

// kDynamicReshape: the operand, then one size operand per result
// dimension, and as many elements (at the bounds) as the operand.
std::string CheckDynamicReshape(const HloInstruction& inst) {
  if (inst.operand_count() < 1) {
    return Named(inst, "requires at least one operand");
  }
  const Shape& out = inst.shape();
  const Shape& in = inst.operand(0)->shape();
  if (!out.IsArray() || !in.IsArray()) return "";
  if (inst.operand_count() != out.rank() + 1) {
    return Named(inst, absl::StrCat("expects one dim size operand per result "
                                    "dimension; the result has ",
                                    out.rank(), " dimensions and ",
                                    inst.operand_count() - 1,
                                    " size operands are given"));
  }
  if (in.HasUnboundedDimension() || out.HasUnboundedDimension()) return "";
  std::optional<int64_t> in_count = CheckedProduct(in.dimensions());
  std::optional<int64_t> out_count = CheckedProduct(out.dimensions());
  if (in_count != out_count) {
    return Named(inst, absl::StrCat("expects the same number of elements in "
                                    "result shape ",
                                    out.ToString(false), " as in operand ",
                                    in.ToString(false)));
  }
  return "";
}

// kCustomCall: a known api_version, and operand_layout_constraints with one
// shape per operand, each compatible with its operand.
std::string CheckCustomCall(const HloInstruction& inst) {
  if (std::optional<absl::string_view> version =
          inst.attribute("api_version")) {
    if (*version != "API_VERSION_ORIGINAL" &&
        *version != "API_VERSION_STATUS_RETURNING" &&
        *version != "API_VERSION_STATUS_RETURNING_UNIFIED" &&
        *version != "API_VERSION_TYPED_FFI") {
      return Named(inst, absl::StrCat("has an unknown api_version ", *version));
    }
  }
  std::optional<absl::string_view> constraints =
      inst.attribute("operand_layout_constraints");
  if (!constraints.has_value()) return "";
  TextCursor c(*constraints);
  std::vector<Shape> shapes;
  if (!c.TryConsume('{'))
    return Named(inst, "operand_layout_constraints={...}");
  if (!c.TryConsume('}')) {
    do {
      absl::StatusOr<Shape> shape = ParseShapeAtCursor(c);
      if (!shape.ok()) {
        return Named(inst, absl::StrCat("operand_layout_constraints: ",
                                        shape.status().message()));
      }
      shapes.push_back(*std::move(shape));
    } while (c.TryConsume(','));
    if (!c.TryConsume('}')) {
      return Named(inst, "operand_layout_constraints: expected '}'");
    }
  }
  if (static_cast<int64_t>(shapes.size()) != inst.operand_count()) {
    return Named(inst,
                 absl::StrCat("has ", inst.operand_count(), " operands but ",
                              shapes.size(), " operand_layout_constraints"));
  }
  for (int64_t k = 0; k < inst.operand_count(); ++k) {
    if (!shapes[k].CompatibleWith(inst.operand(k)->shape())) {
      return Named(
          inst,
          absl::StrCat("operand_layout_constraints ", shapes[k].ToString(false),
                       " is incompatible with operand ", k, " ",
                       inst.operand(k)->shape().ToString(false)));
    }
  }
  return "";
}

// The unary ops that take result_accuracy (ParseInstructionRhs:
// create_unary_instruction_with_result_accuracy).
bool TakesResultAccuracy(absl::string_view op) {
  for (absl::string_view name :
       {"acos",  "acosh",        "asin",
        "asinh", "atanh",        "exponential-minus-one",
        "log",   "log-plus-one", "logistic",
        "sqrt",  "cbrt",         "rsqrt",
        "tanh",  "erf",          "sine",
        "sinh",  "cosine",       "cosh",
        "tan",   "exponential"}) {
    if (op == name) return true;
  }
  return false;
}

// HloParserImpl::ParseResultAccuracy: `{mode=default|highest}` or
// `{tolerance={rtol=r, atol=a, ulps=n}}`.
std::string CheckResultAccuracy(const HloInstruction& inst,
                                absl::string_view value) {
  if (!TakesResultAccuracy(inst.opcode_name())) {
    return Named(inst, "does not take result_accuracy");
  }
  TextCursor c(value);
  std::string bad =
      Named(inst, absl::StrCat("has an invalid result_accuracy ", value,
                               " (expected {mode=default|highest} or "
                               "{tolerance={rtol=r, atol=a, ulps=n}})"));
  if (!c.TryConsume('{')) return bad;
  absl::string_view field = c.ParseWord();
  if (!c.TryConsume('=')) return bad;
  if (field == "mode") {
    std::string mode = absl::AsciiStrToLower(c.ParseWord());
    if (mode != "default" && mode != "highest") return bad;
  } else if (field == "tolerance") {
    if (!c.TryConsume('{')) return bad;
    while (!c.TryConsume('}')) {
      c.TryConsume(',');
      absl::string_view key = c.ParseWord();
      if ((key != "rtol" && key != "atol" && key != "ulps") ||
          !c.TryConsume('=')) {
        return bad;
      }
      absl::string_view number = c.ParseWord();
      double parsed = 0;
      if (number.empty() || !absl::SimpleAtod(number, &parsed)) return bad;
      if (c.AtEnd()) return bad;
    }
  } else {
    return bad;
  }
  if (!c.TryConsume('}') || !c.AtEnd()) return bad;
  return "";
}

// `[d0,d1,...]`: the integers of a bracketed list; nullopt when malformed.
std::optional<std::vector<int64_t>> BracketedInts(TextCursor& c) {
  std::vector<int64_t> values;
  if (!c.TryConsume('[')) return std::nullopt;
  if (c.TryConsume(']')) return values;
  do {
    absl::StatusOr<int64_t> v = c.ParseInt("value");
    if (!v.ok()) return std::nullopt;
    values.push_back(*v);
  } while (c.TryConsume(','));
  if (!c.TryConsume(']')) return std::nullopt;
  return values;
}

// HloParserImpl::ParseTileAssignment, for each `devices=[dims]...` of a
// sharding: the devices listed, or the iota size `<=[...]`, must be the
// tile assignment's product.
std::string CheckSharding(const HloInstruction& inst, absl::string_view text) {
  for (size_t at = text.find("devices=["); at != absl::string_view::npos;
       at = text.find("devices=[", at + 1)) {
    TextCursor c(text.substr(at + 8));
    std::optional<std::vector<int64_t>> dims = BracketedInts(c);
    if (!dims.has_value()) continue;
    std::optional<int64_t> tiles = CheckedProduct(*dims);
    if (!tiles.has_value()) return Named(inst, "sharding overflows int64");
    int64_t devices = 0;
    if (c.TryConsume("<=")) {
      std::optional<std::vector<int64_t>> reshape = BracketedInts(c);
      if (!reshape.has_value()) continue;
      std::optional<int64_t> size = CheckedProduct(*reshape);
      if (!size.has_value()) return Named(inst, "sharding overflows int64");
      devices = *size;
    } else {
      do {
        c.SkipSpace();
        char next = c.PeekRaw();
        if (next < '0' || next > '9') break;
        if (!c.ParseInt("device").ok()) break;
        ++devices;
      } while (c.TryConsume(','));
    }
    if (devices != *tiles) {
      return Named(inst, absl::StrCat("has a sharding of ", devices,
                                      " devices that does not match the tile "
                                      "assignment size ",
                                      *tiles));
    }
  }
  return "";
}

// `control-predecessors={%a, %b}` names instructions of the computation
// (HloParserImpl::ParseInstruction: "instruction does not exist").
std::string CheckControlPredecessors(const HloInstruction& inst,
                                     absl::string_view value) {
  TextCursor c(value);
  if (!c.TryConsume('{')) return Named(inst, "control-predecessors={...}");
  if (c.TryConsume('}')) return "";
  do {
    c.TryConsume('%');
    absl::string_view name = c.ParseWord();
    if (name.empty()) return Named(inst, "control-predecessors={%name, ...}");
    if (inst.parent() == nullptr ||
        inst.parent()->GetInstruction(name) == nullptr) {
      return absl::StrCat("control predecessor '", name, "' of '", inst.name(),
                          "' is not an instruction of its computation");
    }
  } while (c.TryConsume(','));
  if (!c.TryConsume('}') || !c.AtEnd()) {
    return Named(inst, "control-predecessors={%name, ...}");
  }
  return "";
}

int64_t LeafCount(const Shape& shape) {
  if (!shape.IsTuple()) return 1;
  int64_t n = 0;
  for (const Shape& element : shape.tuple_shapes()) n += LeafCount(element);
  return n;
}

}  // namespace

std::string CheckAttributeAsXlaParserDoes(const HloInstruction& inst,
                                          absl::string_view name,
                                          absl::string_view value) {
  // Most attributes (metadata, backend_config, ...) are none of these.
  const char first = name.empty() ? '\0' : name[0];
  if (first != 'r' && first != 's' && first != 'p') return "";
  if (name == "result_accuracy") return CheckResultAccuracy(inst, value);
  if (name == "sharding") return CheckSharding(inst, value);
  if (name == "replica_groups" &&
      (absl::StartsWith(value, "[") || absl::StartsWith(value, "mesh") ||
       absl::StartsWith(value, "maximal_mesh"))) {
    // HloParserImpl::ParseCollectiveDeviceListBase: the iota form's size
    // must be the product of its groups and their size; the mesh form's
    // axes must exist.
    absl::StatusOr<int64_t> size = ParseReplicaGroupSize(value);
    if (!size.ok()) return Named(inst, size.status().message());
  }
  if (name == "parameter_replication" &&
      inst.opcode() == HloOpcode::kParameter) {
    int64_t entries = 1 + std::count(value.begin(), value.end(), ',');
    int64_t leaves = LeafCount(inst.shape());
    if (entries != leaves) {
      return Named(inst, absl::StrCat("has ", leaves,
                                      " leaf buffers, but "
                                      "parameter_replication has ",
                                      entries, " elements"));
    }
  }
  return "";
}

std::string CheckOperandsAsXlaParserDoes(const HloInstruction& inst,
                                         bool control_predecessors) {
  if (control_predecessors) {
    std::string error = CheckControlPredecessors(
        inst, inst.attribute("control-predecessors").value_or("{}"));
    if (!error.empty()) return error;
  }
  switch (inst.opcode()) {
    case HloOpcode::kUnknown:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kReduceScatter:
      break;
    default:
      return "";  // The ops below are these.
  }
  absl::string_view op = inst.opcode_name();
  if (op == "all-gather" || op == "all-gather-start" ||
      op == "reduce-scatter") {
    return CheckGatherDimension(inst);
  }
  if (op == "conditional") return CheckConditional(inst);
  if (op == "rng-bit-generator" && inst.operand_count() != 1) {
    return Named(inst, "takes one operand, its state");
  }
  if (op == "recv" &&
      (!inst.shape().IsTuple() || inst.shape().tuple_shapes().empty())) {
    return Named(inst, "must have a non-empty tuple shape");
  }
  // ParseInstructionRhs kInfeed: the result is the tuple (data, token).
  if (op == "infeed" && !inst.shape().IsTuple()) {
    return Named(inst, "must have a non-empty tuple shape (data, token)");
  }
  if (op == "dynamic-reshape") return CheckDynamicReshape(inst);
  if (op == "custom-call") return CheckCustomCall(inst);
  return "";
}

}  // namespace xla_index

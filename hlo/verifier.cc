#include "hlo/verifier.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "hlo/replica_group_verifier.h"
#include "hlo/shape_inference.h"

namespace xla_index {
namespace {

absl::Status InstructionError(const HloInstruction& inst,
                              absl::string_view message) {
  // Parsed instructions carry their position, so the error names the
  // line:column like a parse error does.
  std::string where =
      inst.source_line() > 0
          ? absl::StrCat(inst.source_line(), ":", inst.source_column(), ": ")
          : "";
  return absl::InvalidArgumentError(absl::StrCat(
      where, "instruction '", inst.name(), "' in '",
      inst.parent() != nullptr ? inst.parent()->name() : "?", "': ", message));
}

// Reducers and comparators take scalars and return scalars (or a tuple of
// scalars for variadic reduce).
absl::Status CheckScalarComputation(const HloInstruction& inst,
                                    const HloComputation& callee) {
  for (const HloInstruction* parameter : callee.parameters()) {
    if (!parameter->shape().IsScalar()) {
      return InstructionError(
          inst,
          absl::StrCat("computation '", callee.name(),
                       "' must take scalars, parameter '", parameter->name(),
                       "' is ", parameter->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

// Reduce and reduce-window (XLA's operation-semantics documentation): the
// computation maps (T_0..T_{N-1}, T_0..T_{N-1}) to Collate(T_0..T_{N-1}), a T_0
// scalar for N = 1 and a tuple of scalars otherwise; sort's comparator returns
// pred.
absl::Status CheckReducerResult(const HloInstruction& inst,
                                const HloComputation& f) {
  const Shape& result = f.root()->shape();
  if (inst.opcode() == HloOpcode::kSort) {
    if (!result.IsScalar() || result.element_type() != PrimitiveType::kPred) {
      return InstructionError(inst,
                              absl::StrCat("comparator '", f.name(),
                                           "' must return pred[], returns ",
                                           result.ToString(false)));
    }
    return absl::OkStatus();
  }
  if (inst.opcode() != HloOpcode::kReduce &&
      inst.opcode() != HloOpcode::kReduceWindow) {
    return absl::OkStatus();
  }
  int64_t n = inst.operand_count() / 2;
  std::vector<Shape> expected;
  for (int64_t k = 0; k < n; ++k) {
    expected.emplace_back(inst.operand(k)->shape().element_type(),
                          std::vector<int64_t>{});
  }
  Shape want = n == 1 ? expected[0] : Shape::MakeTuple(expected);
  if (!result.CompatibleWith(want)) {
    return InstructionError(
        inst, absl::StrCat("computation '", f.name(), "' must return ",
                           want.ToString(false), ", returns ",
                           result.ToString(false)));
  }
  return absl::OkStatus();
}

absl::Status VerifyInstruction(const HloInstruction& inst) {
  absl::StatusOr<Shape> inferred = InferShape(inst);
  if (!inferred.ok())
    return InstructionError(inst, inferred.status().message());
  if (!inst.shape().CompatibleWith(*inferred)) {
    return InstructionError(
        inst, absl::StrCat("written shape ", inst.shape().ToString(false),
                           " differs from ", inferred->ToString(false),
                           ", the shape its operands and attributes give"));
  }
  if (inst.opcode() == HloOpcode::kConstant &&
      !inst.literal().shape().CompatibleWith(inst.shape())) {
    return InstructionError(inst, "literal does not match the shape");
  }
  // Replica groups of collectives (XLA's CheckReplicaGroups).
  if (absl::Status groups = CheckReplicaGroupsAsXlaVerifierDoes(inst);
      !groups.ok()) {
    return InstructionError(inst, groups.message());
  }
  switch (inst.opcode()) {
    case HloOpcode::kReduce:
    case HloOpcode::kReduceWindow:
    case HloOpcode::kScatter:
    case HloOpcode::kSort:
    case HloOpcode::kMap:
      if (const HloComputation* f = inst.to_apply()) {
        XI_RETURN_IF_ERROR(CheckScalarComputation(inst, *f));
        return CheckReducerResult(inst, *f);
      }
      break;
    default:
      break;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyModule(const HloModule& module) {
  if (module.entry_computation() == nullptr) {
    return absl::InvalidArgumentError("module has no entry computation");
  }
  for (const auto& computation : module.computations()) {
    if (computation->root() == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("computation '", computation->name(), "' has no root"));
    }
    // Post order: an operand's error is reported before its users'.
    for (const HloInstruction* inst : computation->PostOrder()) {
      XI_RETURN_IF_ERROR(VerifyInstruction(*inst));
    }
  }
  // The call graph must be acyclic: depth-first search with colours. Each
  // edge remembers the calling instruction, so the error can point at it.
  using Edge = std::pair<const HloComputation*, const HloInstruction*>;
  auto callees = [](const HloComputation* c) {
    std::vector<Edge> out;
    for (const auto& inst : c->instructions()) {
      for (const CalledComputation& called : inst->called_computations()) {
        if (called.computation != nullptr) {
          out.push_back({called.computation, inst.get()});
        }
      }
    }
    return out;
  };
  absl::flat_hash_map<const HloComputation*, int> state;
  std::vector<std::pair<const HloComputation*, std::vector<Edge>>> stack;
  for (const auto& start : module.computations()) {
    if (state[start.get()] != 0) continue;
    state[start.get()] = 1;
    stack.push_back({start.get(), callees(start.get())});
    while (!stack.empty()) {
      auto& [node, pending] = stack.back();
      if (pending.empty()) {
        state[node] = 2;
        stack.pop_back();
        continue;
      }
      auto [next, caller] = pending.back();
      pending.pop_back();
      int& s = state[next];
      if (s == 1) {
        return InstructionError(
            *caller, absl::StrCat("calls computation '", next->name(),
                                  "', which is already being called: the "
                                  "call graph has a cycle"));
      }
      if (s == 0) {
        s = 1;
        stack.push_back({next, callees(next)});
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace xla_index

#include "hlo/verifier.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
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
  switch (inst.opcode()) {
    case HloOpcode::kReduce:
    case HloOpcode::kReduceWindow:
    case HloOpcode::kScatter:
    case HloOpcode::kSort:
    case HloOpcode::kMap:
      if (const HloComputation* f = inst.to_apply()) {
        return CheckScalarComputation(inst, *f);
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
      if (auto s = VerifyInstruction(*inst); !s.ok()) return s;
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

#include "hlo/module.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace xla_index {

HloInstruction* HloComputation::AddInstruction(
    std::unique_ptr<HloInstruction> instruction) {
  instruction->set_parent(this);
  instructions_.push_back(std::move(instruction));
  HloInstruction* added = instructions_.back().get();
  by_name_.emplace(added->name(), added);
  return added;
}

HloInstruction* HloComputation::PrependInstruction(
    std::unique_ptr<HloInstruction> instruction) {
  instruction->set_parent(this);
  instructions_.insert(instructions_.begin(), std::move(instruction));
  HloInstruction* added = instructions_.front().get();
  by_name_.emplace(added->name(), added);
  return added;
}

void HloComputation::PrependInstructions(
    std::vector<std::unique_ptr<HloInstruction>> instructions) {
  for (const std::unique_ptr<HloInstruction>& instruction : instructions) {
    instruction->set_parent(this);
    by_name_.emplace(instruction->name(), instruction.get());
  }
  instructions_.insert(instructions_.begin(),
                       std::make_move_iterator(instructions.begin()),
                       std::make_move_iterator(instructions.end()));
}

void HloComputation::RenameInstruction(HloInstruction* instruction,
                                       std::string name) {
  auto it = by_name_.find(instruction->name());
  bool indexed = it != by_name_.end() && it->second == instruction;
  if (indexed) by_name_.erase(it);
  std::string old_name = std::move(instruction->name_);
  instruction->name_ = std::move(name);
  by_name_.emplace(instruction->name(), instruction);
  if (!indexed) return;
  for (const auto& other : instructions_) {
    if (other->name() == old_name) {
      by_name_.emplace(other->name(), other.get());
      return;
    }
  }
}

HloInstruction* HloComputation::GetInstruction(absl::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::vector<HloInstruction*> HloComputation::parameters() const {
  std::vector<HloInstruction*> out;
  for (const auto& instruction : instructions_) {
    if (instruction->opcode() == HloOpcode::kParameter) {
      out.push_back(instruction.get());
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const HloInstruction* a, const HloInstruction* b) {
                     return a->parameter_number() < b->parameter_number();
                   });
  return out;
}

HloInstruction* HloComputation::parameter(int64_t n) const {
  for (const auto& instruction : instructions_) {
    if (instruction->opcode() == HloOpcode::kParameter &&
        instruction->parameter_number() == n) {
      return instruction.get();
    }
  }
  return nullptr;
}

std::vector<HloInstruction*> HloComputation::PostOrder() const {
  // Iterative DFS so that long chains cannot overflow the stack. Assumes no
  // cycles (the parser rejects them).
  std::vector<HloInstruction*> order;
  absl::flat_hash_set<const HloInstruction*> visited;
  std::vector<std::pair<HloInstruction*, int64_t>> stack;
  for (const auto& start : instructions_) {
    if (visited.contains(start.get())) continue;
    visited.insert(start.get());
    stack.push_back({start.get(), 0});
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->operand_count()) {
        HloInstruction* operand = node->operand(next++);
        if (visited.insert(operand).second) stack.push_back({operand, 0});
      } else {
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  return order;
}

std::string HloComputation::ToString() const {
  // XLA's lexer reads the stack-frame table names as keywords, so a
  // computation of such a name is written as a '%' name to read back.
  const bool keyword = name_ == "FileNames" || name_ == "FunctionNames" ||
                       name_ == "FileLocations" || name_ == "StackFrames";
  std::string out = absl::StrCat(is_entry_ ? "ENTRY " : "", keyword ? "%" : "",
                                 name_, " {\n");
  for (const auto& instruction : instructions_) {
    absl::StrAppend(&out, "  ", instruction.get() == root_ ? "ROOT " : "",
                    instruction->ToString(), "\n");
  }
  return out + "}\n";
}

HloComputation* HloModule::AddComputation(
    std::unique_ptr<HloComputation> computation) {
  computation->set_parent(this);
  computations_.push_back(std::move(computation));
  return computations_.back().get();
}

HloComputation* HloModule::GetComputation(absl::string_view name) const {
  for (const auto& computation : computations_) {
    if (computation->name() == name) return computation.get();
  }
  return nullptr;
}

namespace {

// What only a snippet may hold: a call of a computation it does not define
// (`to_apply=max` in XLA's indexing-analysis documentation) or parameters
// not numbered 0..n-1 (one quoted parameter, `parameter(1)`).
bool IsSnippetOnly(const HloComputation& computation) {
  int64_t parameters = 0;
  for (const auto& instruction : computation.instructions()) {
    if (instruction->opcode() == HloOpcode::kParameter) ++parameters;
    for (const CalledComputation& called : instruction->called_computations()) {
      if (called.computation == nullptr) return true;
    }
  }
  for (const auto& instruction : computation.instructions()) {
    if (instruction->opcode() == HloOpcode::kParameter &&
        (instruction->parameter_number() < 0 ||
         instruction->parameter_number() >= parameters)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string HloModule::ToString() const {
  // A module with snippet-only content prints as bare computations, the
  // form the parser reads leniently, so that printing still round-trips.
  bool snippet_only = false;
  for (const auto& computation : computations_) {
    snippet_only = snippet_only || IsSnippetOnly(*computation);
  }
  if (snippet_only) {
    std::string out;
    for (const auto& computation : computations_) {
      if (!out.empty()) out += "\n";
      out += computation->ToString();
    }
    return out;
  }
  std::string out = absl::StrCat("HloModule ", name_);
  for (const HloAttribute& attribute : attributes_) {
    absl::StrAppend(&out, ", ", attribute.name, "=", attribute.value);
  }
  out += "\n";
  for (const auto& computation : computations_) {
    absl::StrAppend(&out, "\n", computation->ToString());
  }
  return out;
}

absl::StatusOr<const HloInstruction*> EntryRoot(const HloModule& module) {
  const HloComputation* entry = module.entry_computation();
  if (entry == nullptr || entry->root() == nullptr) {
    return absl::InvalidArgumentError("module has no entry root instruction");
  }
  return entry->root();
}

}  // namespace xla_index

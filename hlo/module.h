#ifndef XLA_INDEX_HLO_MODULE_H_
#define XLA_INDEX_HLO_MODULE_H_

// Computations (a list of instructions with a root) and modules (a list of
// computations with an entry). Instructions are kept in the order they were
// written; operands may refer to instructions written later, and
// PostOrder() gives an order where operands come first.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/instruction.h"

namespace xla_index {

class HloModule;

class HloComputation {
 public:
  explicit HloComputation(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  bool is_entry() const { return is_entry_; }
  void set_is_entry(bool entry) { is_entry_ = entry; }
  HloModule* parent() const { return parent_; }
  void set_parent(HloModule* parent) { parent_ = parent; }

  /// Takes ownership; returns the stored pointer.
  HloInstruction* AddInstruction(std::unique_ptr<HloInstruction> instruction);
  /// Puts an instruction first (the parser's implicit parameters).
  HloInstruction* PrependInstruction(
      std::unique_ptr<HloInstruction> instruction);
  /// Puts `instructions` first, in their order, in one pass (one
  /// PrependInstruction per instruction moves all the others each time).
  void PrependInstructions(
      std::vector<std::unique_ptr<HloInstruction>> instructions);

  /// In written order.
  const std::vector<std::unique_ptr<HloInstruction>>& instructions() const {
    return instructions_;
  }
  int64_t instruction_count() const {
    return static_cast<int64_t>(instructions_.size());
  }
  /// Null if no instruction has that name. Constant time (a name index).
  HloInstruction* GetInstruction(absl::string_view name) const;

  HloInstruction* root() const { return root_; }
  /// XLA's spelling of root(), so a pass ports by changing namespaces.
  HloInstruction* root_instruction() const { return root_; }
  void set_root(HloInstruction* root) { root_ = root; }

  /// The parameter instructions ordered by parameter number.
  std::vector<HloInstruction*> parameters() const;
  /// Parameter number `n`, or null.
  HloInstruction* parameter(int64_t n) const;

  /// Operands before users; every instruction once.
  std::vector<HloInstruction*> PostOrder() const;

  /// `[ENTRY ]name {\n  inst\n  ROOT inst\n}`.
  std::string ToString() const;

 private:
  std::string name_;
  bool is_entry_ = false;
  HloModule* parent_ = nullptr;
  std::vector<std::unique_ptr<HloInstruction>> instructions_;
  // Keys view the instructions' own names, which live as long as they do.
  absl::flat_hash_map<absl::string_view, HloInstruction*> by_name_;
  HloInstruction* root_ = nullptr;
};

class HloModule {
 public:
  explicit HloModule(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  /// `HloModule name, attr=value, ...` header attributes, kept as written.
  std::vector<HloAttribute>* mutable_attributes() { return &attributes_; }
  const std::vector<HloAttribute>& attributes() const { return attributes_; }

  HloComputation* AddComputation(std::unique_ptr<HloComputation> computation);
  const std::vector<std::unique_ptr<HloComputation>>& computations() const {
    return computations_;
  }
  HloComputation* GetComputation(absl::string_view name) const;

  /// XLA's HloModuleConfig replica_count and num_partitions, from the
  /// header's `replica_count=N` and `num_partitions=M`. A header that leaves
  /// one out means XLA's default 1 (XLA prints them only when not 1); a
  /// snippet without an `HloModule` header does not state them (nullopt).
  std::optional<int64_t> replica_count() const { return replica_count_; }
  std::optional<int64_t> num_partitions() const { return num_partitions_; }
  void set_replica_count(std::optional<int64_t> count) {
    replica_count_ = count;
  }
  void set_num_partitions(std::optional<int64_t> count) {
    num_partitions_ = count;
  }

  HloComputation* entry_computation() const { return entry_; }
  void set_entry_computation(HloComputation* entry) { entry_ = entry; }

  /// `HloModule name` then each computation, callees first as written.
  std::string ToString() const;

 private:
  std::string name_;
  std::vector<HloAttribute> attributes_;
  std::optional<int64_t> replica_count_;
  std::optional<int64_t> num_partitions_;
  std::vector<std::unique_ptr<HloComputation>> computations_;
  HloComputation* entry_ = nullptr;
};

/// The root of `module`'s entry computation: what the analyses of a whole
/// module analyze. InvalidArgument "module has no entry root instruction"
/// when the module has no entry computation or the entry has no root.
absl::StatusOr<const HloInstruction*> EntryRoot(const HloModule& module);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_MODULE_H_

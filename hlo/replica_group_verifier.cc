#include "hlo/replica_group_verifier.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/module.h"
#include "hlo/replica_groups.h"

namespace xla_index {
namespace {

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// Whether XLA's verifier checks the replica groups of this op, and whether
// it lets them differ in size (ShapeVerifier::HandleAllReduce,
// HandleAllReduceStart and HandleCollectiveReduce pass
// uniform_replica_group_size=false; HandleAllGather, HandleAllGatherStart
// (CheckCommonAllGatherInvariants), HandleReduceScatter, HandleAllToAll and
// HandleRaggedAllToAll keep the default, true).
struct CheckedCollective {
  bool checked = false;
  bool uniform = true;
};

CheckedCollective Classify(const HloInstruction& inst) {
  absl::string_view op = inst.opcode_name();
  if (op == "all-reduce" || op == "all-reduce-start" ||
      op == "collective-reduce") {
    return {true, false};
  }
  if (op == "all-gather" || op == "all-gather-start" ||
      op == "reduce-scatter" || op == "all-to-all" ||
      op == "ragged-all-to-all") {
    return {true, true};
  }
  return {};
}

absl::string_view ModeName(CollectiveGroupMode mode) {
  switch (mode) {
    case CollectiveGroupMode::kCrossReplica:
      return "cross_replica";
    case CollectiveGroupMode::kCrossPartition:
      return "cross_partition";
    case CollectiveGroupMode::kCrossReplicaAndPartition:
      return "cross_replica_and_partition";
    case CollectiveGroupMode::kFlattenedId:
      return "flattened_id";
  }
  return "?";
}

// n must be the count of what the mode's ids number, unless that count is 1
// (XLA's default when the module config does not state it; an HLO text
// without a header states neither, so both are 1).
absl::Status CheckIdCount(const HloInstruction& inst, CollectiveGroupMode mode,
                          int64_t n) {
  const HloModule* module =
      inst.parent() != nullptr ? inst.parent()->parent() : nullptr;
  int64_t replicas = 1;
  int64_t partitions = 1;
  if (module != nullptr) {
    replicas = module->replica_count().value_or(1);
    partitions = module->num_partitions().value_or(1);
  }
  int64_t expected = replicas;
  absl::string_view what = "replicas";
  if (mode == CollectiveGroupMode::kCrossPartition) {
    expected = partitions;
    what = "partitions";
  } else if (mode == CollectiveGroupMode::kFlattenedId) {
    std::optional<int64_t> product = CheckedMul(replicas, partitions);
    // A product past int64 cannot be n, which counts written or generated
    // ids; -1 keeps it apart from every n and from 1.
    expected = product.value_or(-1);
    what = "flattened ids (replica_count x num_partitions)";
  }
  if (expected == 1 || n == expected) return absl::OkStatus();
  return Invalid(absl::StrCat(
      "in ", ModeName(mode), " mode, replica groups should contain ",
      expected < 0 ? std::string("more than int64 can hold")
                   : absl::StrCat(expected),
      " ", what, ", but found ", n));
}

// The explicit form, in CheckReplicaGroups' order: empty groups (n is
// summed first), then ids in [0, n) and unrepeated, then the count, then
// equal sizes. n is at most the number of ids written, so `seen` is bounded
// by the text.
absl::Status CheckListedGroups(
    const HloInstruction& inst, CollectiveGroupMode mode, bool uniform,
    const std::vector<std::vector<int64_t>>& groups) {
  int64_t n = 0;
  for (const std::vector<int64_t>& group : groups) {
    if (group.empty()) return Invalid("a replica group is empty");
    n += static_cast<int64_t>(group.size());
  }
  std::vector<bool> seen(n, false);
  for (const std::vector<int64_t>& group : groups) {
    for (int64_t id : group) {
      if (id < 0 || id >= n) {
        return Invalid(absl::StrCat("replica ", id,
                                    " is out of range (should be in [0, ", n,
                                    ")) in replica_groups"));
      }
      if (seen[id]) {
        return Invalid(
            absl::StrCat("replica ", id, " is repeated in replica_groups"));
      }
      seen[id] = true;
    }
  }
  XI_RETURN_IF_ERROR(CheckIdCount(inst, mode, n));
  if (uniform) {
    for (const std::vector<int64_t>& group : groups) {
      if (group.size() != groups[0].size()) {
        return Invalid(absl::StrCat("replica groups must be of one size for ",
                                    inst.opcode_name(), " (a group of ",
                                    groups[0].size(), " and a group of ",
                                    group.size(), ")"));
      }
    }
  }
  return absl::OkStatus();
}

// The iota and mesh forms: their ids are 0..id_count-1 once each in groups
// of group_size (none empty, all of one size), so only the count can be
// wrong, and maximal_mesh's one device {N} is out of [0, 1) unless N = 0.
absl::Status CheckGeneratedGroups(const HloInstruction& inst,
                                  CollectiveGroupMode mode,
                                  const GeneratedReplicaGroups& groups) {
  if (groups.sole_id.has_value() && *groups.sole_id != 0) {
    return Invalid(absl::StrCat("replica ", *groups.sole_id,
                                " is out of range (should be in [0, 1)) in "
                                "replica_groups"));
  }
  return CheckIdCount(inst, mode, groups.id_count);
}

// How many times an id may be a source (and a target) of a
// collective-permute (CheckDuplicatedSourceOrTarget): once, or for the
// in-place form (slice_sizes=, operands input, output and their offsets) as
// many times as there are offsets: the elements of operand 2 (of its first
// element when the buffers are tuples). 0 when the in-place operands do not
// have that form (XLA's CheckInplaceCollectivePermute refuses them; that
// check is not made here, so the pairs are left unchecked).
int64_t AllowedUsesOfAnId(const HloInstruction& inst) {
  if (!inst.attribute("slice_sizes").has_value()) return 1;
  if (inst.operand_count() != 4) return 0;
  const Shape& offsets = inst.operand(2)->shape();
  if (!offsets.IsTuple()) return 0;
  if (!inst.operand(0)->shape().IsTuple()) {
    return static_cast<int64_t>(offsets.tuple_shapes().size());
  }
  if (offsets.tuple_shapes().empty() || !offsets.tuple_shapes(0).IsTuple()) {
    return 0;
  }
  return static_cast<int64_t>(offsets.tuple_shapes(0).tuple_shapes().size());
}

// collective-permute(-start)'s source_target_pairs, as XLA's
// CheckDuplicatedSourceOrTarget reads them: pairs of two ids, each id in
// [0, limit) with limit the replica_count (no channel_id) or num_partitions
// (channel_id), or, when that count is 1, one more than the largest id;
// no source and no target used more than AllowedUsesOfAnId times. The
// counts are kept per id written (not in an array of `limit` entries: the
// count is user-given).
absl::Status CheckSourceTargetPairs(const HloInstruction& inst) {
  std::optional<absl::string_view> text = inst.attribute("source_target_pairs");
  if (!text.has_value()) return absl::OkStatus();
  absl::StatusOr<WrittenReplicaGroups> parsed =
      ParseWrittenReplicaGroups(*text);
  if (!parsed.ok()) {
    return Invalid(
        absl::StrCat("source_target_pairs: ", parsed.status().message()));
  }
  if (parsed->generated.has_value()) {
    return Invalid("source_target_pairs must be {{source,target},...}");
  }
  const std::vector<std::vector<int64_t>>& pairs = parsed->listed;
  for (const std::vector<int64_t>& pair : pairs) {
    if (pair.size() != 2) {
      return Invalid("source_target_pairs must be a list of pairs");
    }
  }
  const int64_t allowed = AllowedUsesOfAnId(inst);
  if (allowed == 0) return absl::OkStatus();
  const HloModule* module =
      inst.parent() != nullptr ? inst.parent()->parent() : nullptr;
  const bool partitions = inst.attribute("channel_id").has_value();
  int64_t limit = 1;
  if (module != nullptr) {
    limit = (partitions ? module->num_partitions() : module->replica_count())
                .value_or(1);
  }
  // A count of 1 makes XLA's limit one past the largest id, which every id
  // is under: only the sign is checked then.
  const bool bounded = limit != 1;
  absl::flat_hash_map<int64_t, int64_t> uses[2];
  for (const std::vector<int64_t>& pair : pairs) {
    for (int end = 0; end < 2; ++end) {
      const char* what = end == 0 ? "source" : "target";
      const int64_t id = pair[end];
      if (id < 0 || (bounded && id >= limit)) {
        return Invalid(absl::StrCat(
            what, " ", id, " in source_target_pairs must be ",
            bounded ? absl::StrCat("in [0, ", limit, ")") : ">= 0"));
      }
      if (++uses[end][id] > allowed) {
        return Invalid(absl::StrCat(
            what, " ", id, " appears more than ",
            allowed == 1 ? "once" : absl::StrCat(allowed, " times"),
            " in source_target_pairs"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckReplicaGroupsAsXlaVerifierDoes(const HloInstruction& inst) {
  absl::string_view op = inst.opcode_name();
  if (op == "collective-permute" || op == "collective-permute-start") {
    return CheckSourceTargetPairs(inst);
  }
  const CheckedCollective kind = Classify(inst);
  if (!kind.checked) return absl::OkStatus();
  // GetCollectiveGroupMode's one error (XLA's GetCollectiveOpGroupMode:
  // "Cannot have use_global_device_ids=true without channel_id"), said
  // without naming the instruction again.
  absl::StatusOr<CollectiveGroupMode> group_mode = GetCollectiveGroupMode(inst);
  if (!group_mode.ok()) {
    return Invalid("use_global_device_ids=true needs a channel_id");
  }
  const CollectiveGroupMode mode = *group_mode;
  WrittenReplicaGroups written;
  if (std::optional<absl::string_view> text =
          inst.attribute("replica_groups")) {
    absl::StatusOr<WrittenReplicaGroups> parsed =
        ParseWrittenReplicaGroups(*text);
    if (!parsed.ok()) {
      return Invalid(
          absl::StrCat("replica_groups: ", parsed.status().message()));
    }
    written = *std::move(parsed);
  }
  if (written.generated.has_value()) {
    return CheckGeneratedGroups(inst, mode, *written.generated);
  }
  if (written.listed.empty()) {
    // No groups: one group of every replica (or partition), which
    // flattened-id mode cannot express.
    if (mode == CollectiveGroupMode::kFlattenedId) {
      return Invalid(
          "replica groups must be specified in flattened-id mode "
          "(use_global_device_ids=true)");
    }
    return absl::OkStatus();
  }
  return CheckListedGroups(inst, mode, kind.uniform, written.listed);
}

}  // namespace xla_index

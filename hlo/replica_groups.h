#ifndef XLA_INDEX_HLO_REPLICA_GROUPS_H_
#define XLA_INDEX_HLO_REPLICA_GROUPS_H_

// The replica groups of a collective and the pairs of a collective-permute,
// read from their attribute text (the parser keeps these attributes as
// text). XLA's operation-semantics documentation (AllGather, AllReduce,
// AllToAll, ReduceScatter, CollectivePermute) defines them:
//
//   replica_groups={}                  one group of every replica, 0..N-1
//   replica_groups={{0,2},{1,3}}       explicit groups; the order inside a
//                                      group is the order of the pieces
//   replica_groups=[2,2]<=[4]          the iota form: iota(4) reshaped to
//                                      [groups, group size]
//   replica_groups=[2,2]<=[2,2]T(1,0)  iota reshaped to [2,2], transposed
//                                      by (1,0), then reshaped to [2,2]
//   source_target_pairs={{0,1},{1,0}}  (source, target) replica ids
//
//   replica_groups=mesh['x'=2,'y'=4] {'y'}
//                                      XLA's mesh axes: devices laid out on
//                                      a 2x4 mesh, a group per value of the
//                                      axes not listed; read for its group
//                                      size only (ParseReplicaGroupSize)

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/instruction.h"

namespace xla_index {

/// Replica groups; `groups` is empty for `{}` (one group of all replicas,
/// whose count is the module's: GetCollectiveGroupSize).
struct ReplicaGroups {
  std::vector<std::vector<int64_t>> groups;

  bool all_replicas() const { return groups.empty(); }
  /// The size of every group (the groups are checked to be equal in size),
  /// 0 for all_replicas().
  int64_t group_size() const {
    return groups.empty() ? 0 : static_cast<int64_t>(groups[0].size());
  }
};

/// The most replica ids ParseReplicaGroups lists for an iota form (which
/// can describe huge lists in a few characters).
inline constexpr int64_t kMaxReplicaIds = int64_t{1} << 20;

/// Parses the text of a `replica_groups=` attribute. Errors: malformed
/// text, an empty group, groups of unequal sizes, a negative or repeated
/// replica id, an iota form whose sizes do not match or whose
/// permutation is not one, more than kMaxReplicaIds ids.
absl::StatusOr<ReplicaGroups> ParseReplicaGroups(absl::string_view text);

/// The size of every group of a `replica_groups=` text (the mesh form
/// too: the product of the sizes of the axes it lists), 0 for `{}` (every
/// replica), with the checks of ParseReplicaGroups; the iota form is read
/// without listing its ids (they are a permutation of 0..G*S-1, so distinct
/// and in groups of S), hence in time of its text and with no
/// kMaxReplicaIds limit.
absl::StatusOr<int64_t> ParseReplicaGroupSize(absl::string_view text);

/// The groups of the iota and mesh forms, described without listing them:
/// the ids 0..id_count-1 each once, in groups of group_size; or, for
/// `maximal_mesh[device_id=N] {}`, the one group {N} (id_count 1,
/// group_size 1, sole_id N).
struct GeneratedReplicaGroups {
  int64_t id_count = 0;
  int64_t group_size = 0;
  std::optional<int64_t> sole_id;
};

/// A `replica_groups=` text as written: `listed` for the explicit form (the
/// ids unchecked: negative, repeated or out-of-range ids, empty groups and
/// groups of unequal sizes are kept, for the verifier to report as XLA's
/// HloVerifier does), `generated` for the iota and mesh forms (read in time
/// of their text, with the checks of ParseReplicaGroupSize). Errors:
/// malformed text.
struct WrittenReplicaGroups {
  std::vector<std::vector<int64_t>> listed;
  std::optional<GeneratedReplicaGroups> generated;
};
absl::StatusOr<WrittenReplicaGroups> ParseWrittenReplicaGroups(
    absl::string_view text);

/// Parses `{{s,t},...}` of a `source_target_pairs=` attribute. Errors:
/// malformed text, a pair without two ids, a negative id, a repeated
/// source or a repeated target.
absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> ParseSourceTargetPairs(
    absl::string_view text);

/// How a collective forms its groups (XLA's CollectiveOpGroupMode), from
/// `channel_id` and `use_global_device_ids` (an attribute of all-reduce,
/// all-gather and reduce-scatter, of their `-start` forms and of
/// collective-reduce):
///   no channel_id                       kCrossReplica: groups of replicas
///   channel_id, op without the flag     kCrossPartition: groups of partitions
///   channel_id, use_global_device_ids=false
///                                       kCrossReplicaAndPartition: groups of
///                                       replicas, each across every partition
///   channel_id, use_global_device_ids=true
///                                       kFlattenedId: groups of device ids
enum class CollectiveGroupMode {
  kCrossReplica,
  kCrossPartition,
  kCrossReplicaAndPartition,
  kFlattenedId,
};

/// The group mode of `collective` (XLA's GetCollectiveOpGroupMode). Error,
/// naming the instruction: use_global_device_ids=true without channel_id.
absl::StatusOr<CollectiveGroupMode> GetCollectiveGroupMode(
    const HloInstruction& collective);

/// The number of devices in each group of a collective, and why it is not
/// known when it is not.
struct CollectiveGroupSize {
  CollectiveGroupMode mode = CollectiveGroupMode::kCrossReplica;
  /// Devices per group; 0 when the HLO does not state it.
  int64_t size = 0;
  /// Why `size` is 0, naming the instruction.
  std::string unknown_reason;
};

/// The group size of `collective`: the size of its replica groups
/// (kCrossReplicaAndPartition: times num_partitions); for
/// `replica_groups={}` (or none) every replica (kCrossReplica), every
/// partition (kCrossPartition) or every replica of every partition, read
/// from the module's replica_count and num_partitions (HloModule), unknown
/// when the module does not state them. Errors, naming the instruction:
/// malformed replica_groups, use_global_device_ids=true without
/// channel_id, empty groups with use_global_device_ids=true (XLA requires
/// them), a size that overflows int64.
absl::StatusOr<CollectiveGroupSize> GetCollectiveGroupSize(
    const HloInstruction& collective);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_REPLICA_GROUPS_H_

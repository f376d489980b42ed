#ifndef XLA_INDEX_HLO_REPLICA_GROUP_VERIFIER_H_
#define XLA_INDEX_HLO_REPLICA_GROUP_VERIFIER_H_

// The replica-group checks of XLA's HloVerifier (CheckReplicaGroups in
// xla/service/hlo_verifier.cc, which HloVerifierOpts runs by default:
// check_replica_groups = true), on the collectives XLA checks them on:
// all-reduce, all-reduce-start, collective-reduce (groups may differ in
// size), all-gather, all-gather-start, reduce-scatter, all-to-all and
// ragged-all-to-all (groups of one size). collective-broadcast's replica
// groups are not checked (HandleCollectiveBroadcast). collective-permute
// and collective-permute-start have source_target_pairs instead, checked as
// XLA's CheckDuplicatedSourceOrTarget does (always, not only with
// check_replica_groups): pairs of two ids, no id negative, each below the
// replica_count (no channel_id) or num_partitions (channel_id) unless that
// count is 1, no source and no target repeated (an in-place permute may
// use one as often as it has offsets).
//
// With n the number of ids written in the groups:
//   - no group is empty;
//   - every id is in [0, n) and appears once (so the ids are 0..n-1);
//   - n is the module's replica_count (cross-replica and
//     cross-replica-and-partition modes), num_partitions (cross-partition)
//     or their product (flattened-id), unless that count is 1 (XLA's default
//     when the config does not state it);
//   - the groups have one size, except where XLA allows otherwise;
//   - `replica_groups={}` (every replica) is refused in flattened-id mode.
// The group mode is XLA's GetCollectiveOpGroupMode (hlo/replica_groups.h,
// CollectiveGroupMode). The iota and mesh forms are checked from their
// description (their ids are 0..n-1 in equal groups by construction), so
// `[1,1000000000]<=[1000000000]` costs the time of its text.

#include "absl/status/status.h"
#include "hlo/instruction.h"

namespace xla_index {

/// OK for an instruction that is not such a collective, or whose replica
/// groups (source_target_pairs) pass; else InvalidArgument saying what is wrong
/// (the caller adds where: VerifyModule names the instruction and its
/// line:column).
absl::Status CheckReplicaGroupsAsXlaVerifierDoes(const HloInstruction& inst);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_REPLICA_GROUP_VERIFIER_H_

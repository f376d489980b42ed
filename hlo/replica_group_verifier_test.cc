// The replica-group checks of ParseAndVerifyHloModule against XLA's
// HloVerifier (CheckReplicaGroups in xla/service/hlo_verifier.cc, run by
// default: HloVerifierOpts::check_replica_groups is true). Each case says
// whether XLA accepts the module; the generated forms (iota, mesh) are also
// checked against their groups listed out, and the explicit form against a
// brute-force reading of CheckReplicaGroups' rules over random groups.

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/parser.h"
#include "hlo/replica_groups.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

// A module whose entry applies one collective `op_text` to a parameter
// f32[12,6] named `x`; `header` holds the module attributes.
std::string Module(absl::string_view header, absl::string_view op_text) {
  return absl::StrCat("HloModule rgcheck", header, R"(

plus_f32 {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT s = f32[] add(lhs, rhs)
}

ENTRY body {
  x = f32[12,6] parameter(0)
  ROOT coll = )",
                      op_text, "\n}\n");
}

// An all-reduce of x over `groups`, with `extra` attributes.
std::string AllReduce(absl::string_view groups, absl::string_view extra = "") {
  return absl::StrCat("f32[12,6] all-reduce(x), replica_groups=", groups, extra,
                      ", to_apply=plus_f32");
}

absl::Status Verify(const std::string& text) {
  return ParseAndVerifyHloModule(text).status();
}

void ExpectRefused(const std::string& text, absl::string_view why) {
  absl::Status status = Verify(text);
  ASSERT_FALSE(status.ok()) << text;
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr(why)) << text;
  // Where and which instruction, as the verifier's other errors.
  EXPECT_THAT(std::string(status.message()),
              MatchesRegex("^[0-9]+:[0-9]+: instruction 'coll' in 'body': .*"))
      << text;
}

TEST(ReplicaGroupVerifierTest, CrossReplicaAllReduceWithItsReplicaCount) {
  // XLA accepts: ids 0..3 once each, n = 4 = replica_count.
  EXPECT_TRUE(
      Verify(Module(", replica_count=4", AllReduce("{{0,2},{1,3}}"))).ok());
  // No groups: one group of every replica (XLA accepts outside flattened-id).
  EXPECT_TRUE(Verify(Module(", replica_count=4", AllReduce("{}"))).ok());
}

TEST(ReplicaGroupVerifierTest, AllReduceMayHaveGroupsOfDifferentSizes) {
  // XLA accepts: HandleAllReduce passes uniform_replica_group_size=false.
  EXPECT_TRUE(
      Verify(Module(", replica_count=5", AllReduce("{{0,1,2},{3,4}}"))).ok());
  EXPECT_TRUE(Verify(Module(", replica_count=5",
                            "f32[12,6] all-reduce-start(x), "
                            "replica_groups={{4},{0,1,2,3}}, "
                            "to_apply=plus_f32"))
                  .ok());
}

TEST(ReplicaGroupVerifierTest, AllGatherGroupsMustHaveOneSize) {
  // CheckReplicaGroups via CheckCommonAllGatherInvariants: "Replica groups
  // expected to be of uniform size".
  ExpectRefused(Module(", replica_count=5",
                       "f32[36,6] all-gather(x), replica_groups={{0,1,2},"
                       "{3,4}}, dimensions={0}"),
                "must be of one size");
  // CheckReplicaGroups via HandleAllToAll, likewise.
  ExpectRefused(Module("",
                       "f32[12,6] all-to-all(x), replica_groups={{0},"
                       "{1,2}}, dimensions={0}"),
                "must be of one size");
}

TEST(ReplicaGroupVerifierTest, IdsMustBeInRangeAndOnce) {
  // CheckReplicaGroups: "Replica 5 is out of range (should be in [0, 4)
  // range)", whatever the replica count (none stated here).
  ExpectRefused(Module("", AllReduce("{{0,1},{2,5}}")),
                "replica 5 is out of range (should be in [0, 4))");
  ExpectRefused(Module("", AllReduce("{{-1,0}}")),
                "replica -1 is out of range");
  // CheckReplicaGroups: "Replica 1 is repeated".
  ExpectRefused(Module("", AllReduce("{{0,1},{1,2}}")),
                "replica 1 is repeated");
}

TEST(ReplicaGroupVerifierTest, NoGroupMayBeEmpty) {
  // CheckReplicaGroups: "Instruction cannot have an empty replica group".
  ExpectRefused(Module("", AllReduce("{{0,1},{}}")),
                "a replica group is empty");
  ExpectRefused(Module("", AllReduce("{{}}")), "a replica group is empty");
}

TEST(ReplicaGroupVerifierTest, IdCountFollowsTheGroupMode) {
  const std::string counts = ", replica_count=2, num_partitions=3";
  // Cross-replica (no channel_id): n = replica_count = 2. XLA accepts
  // {{0,1}} and refuses {{0,1,2}} (CheckReplicaGroups, TF_RET_CHECK "In
  // cross_replica mode, replica groups should contain 2 replicas").
  EXPECT_TRUE(Verify(Module(counts, AllReduce("{{0},{1}}"))).ok());
  ExpectRefused(Module(counts, AllReduce("{{0,1,2}}")),
                "in cross_replica mode, replica groups should contain 2 "
                "replicas, but found 3");
  // Cross-replica-and-partition (channel_id, use_global_device_ids=false):
  // the groups are replicas, n = 2.
  EXPECT_TRUE(
      Verify(Module(counts, AllReduce("{{0,1}}", ", channel_id=7"))).ok());
  ExpectRefused(
      Module(counts, AllReduce("{{0,1,2}}",
                               ", channel_id=7, "
                               "use_global_device_ids=false")),
      "in cross_replica_and_partition mode, replica groups should contain 2");
  // Cross-partition (channel_id, an op without use_global_device_ids):
  // n = num_partitions = 3.
  EXPECT_TRUE(Verify(Module(counts,
                            "f32[12,6] all-to-all(x), channel_id=2, "
                            "replica_groups={{2},{0},{1}}, dimensions={1}"))
                  .ok());
  ExpectRefused(Module(counts,
                       "f32[12,6] all-to-all(x), channel_id=2, "
                       "replica_groups={{0,1}}, dimensions={1}"),
                "in cross_partition mode, replica groups should contain 3 "
                "partitions, but found 2");
  // Flattened ids (channel_id, use_global_device_ids=true): n =
  // replica_count x num_partitions = 6.
  EXPECT_TRUE(Verify(Module(counts,
                            "f32[4,6] reduce-scatter(x), channel_id=1, "
                            "use_global_device_ids=true, replica_groups="
                            "{{0,2,4},{1,3,5}}, dimensions={0}, "
                            "to_apply=plus_f32"))
                  .ok());
  ExpectRefused(Module(counts,
                       "f32[6,6] reduce-scatter(x), channel_id=1, "
                       "use_global_device_ids=true, replica_groups="
                       "{{0,1},{2,3}}, dimensions={0}, to_apply=plus_f32"),
                "in flattened_id mode, replica groups should contain 6");
  // A count of 1 (unstated) is not checked: XLA skips that part.
  EXPECT_TRUE(
      Verify(Module(", num_partitions=3", AllReduce("{{0,1,2,3}}"))).ok());
  EXPECT_TRUE(Verify(Module("", AllReduce("{{0,1,2},{3,4,5}}",
                                          ", channel_id=4, "
                                          "use_global_device_ids=true")))
                  .ok());
}

TEST(ReplicaGroupVerifierTest, FlattenedIdModeNeedsGroups) {
  // CheckReplicaGroups: "Replica groups must be specified in flattened-id
  // mode", for `{}` and for no replica_groups at all.
  const std::string flattened = ", channel_id=3, use_global_device_ids=true";
  ExpectRefused(Module(", replica_count=2", AllReduce("{}", flattened)),
                "replica groups must be specified in flattened-id mode");
  ExpectRefused(
      Module("", absl::StrCat("f32[24,6] all-gather(x), dimensions={0}",
                              flattened)),
      "replica groups must be specified in flattened-id mode");
}

TEST(ReplicaGroupVerifierTest, GlobalDeviceIdsNeedAChannel) {
  // GetCollectiveOpGroupMode: "Cannot have use_global_device_ids=true
  // without channel_id" (XLA's parser for all-reduce, its verifier through
  // CheckCommonAllGatherInvariants for all-gather).
  ExpectRefused(Module("", AllReduce("{{0}}", ", use_global_device_ids=true")),
                "use_global_device_ids=true needs a channel_id");
  ExpectRefused(Module("",
                       "f32[12,6] all-gather(x), replica_groups={{0}}, "
                       "use_global_device_ids=true, dimensions={0}"),
                "use_global_device_ids=true needs a channel_id");
}

TEST(ReplicaGroupVerifierTest, OpsXlaDoesNotCheckAreLeftAlone) {
  // collective-broadcast has replica groups HandleCollectiveBroadcast does
  // not check; XLA accepts these.
  EXPECT_TRUE(Verify(Module(", replica_count=4",
                            "f32[12,6] collective-broadcast(x), "
                            "replica_groups={{0,1,2}}"))
                  .ok());
}

// A collective-permute of x over `pairs`, with `extra` attributes.
std::string Permute(absl::string_view pairs, absl::string_view extra = "") {
  return absl::StrCat(
      "f32[12,6] collective-permute(x), source_target_pairs=", pairs, extra);
}

TEST(ReplicaGroupVerifierTest, PermutePairsAsCheckDuplicatedSourceOrTarget) {
  // XLA accepts a cycle over replica_count=3, and any ids when the count is
  // 1 (its limit becomes one past the largest id).
  EXPECT_TRUE(
      Verify(Module(", replica_count=3", Permute("{{0,1},{1,2},{2,0}}"))).ok());
  EXPECT_TRUE(Verify(Module("", Permute("{{0,9},{9,40}}"))).ok());
  // CheckDuplicatedSourceOrTarget: "Source 3 ... must be < 3" (no
  // channel_id: the replica count), "Target 2 ... must be < 2" (channel_id:
  // the partition count).
  ExpectRefused(Module(", replica_count=3", Permute("{{3,0}}")),
                "source 3 in source_target_pairs must be in [0, 3)");
  ExpectRefused(Module(", replica_count=3, num_partitions=2",
                       Permute("{{0,2}}", ", channel_id=5")),
                "target 2 in source_target_pairs must be in [0, 2)");
  ExpectRefused(Module("", Permute("{{0,-1}}")),
                "target -1 in source_target_pairs must be >= 0");
  // "Source 1 appears more than once", "Target 0 appears more than once".
  ExpectRefused(Module("", Permute("{{1,0},{1,2}}")),
                "source 1 appears more than once");
  ExpectRefused(Module("", Permute("{{1,0},{2,0}}")),
                "target 0 appears more than once");
  // HloParserImpl: "expects 'source_target_pairs=' to be a list of pairs".
  ExpectRefused(Module("", Permute("{{0,1,2}}")), "a list of pairs");
}

TEST(ReplicaGroupVerifierTest, InPlacePermuteMayReuseAnIdPerOffset) {
  // The in-place form with two offsets per buffer: XLA allows each source
  // and target twice (allowed_seen_count = 2), not three times.
  auto text = [](absl::string_view pairs) {
    return absl::StrCat(R"(HloModule inplace_perm, replica_count=4

ENTRY body {
  src = f32[16,8] parameter(0)
  dst = f32[16,8] parameter(1)
  from = ((s32[], s32[]), (s32[], s32[])) parameter(2)
  to = ((s32[], s32[]), (s32[], s32[])) parameter(3)
  ROOT coll = f32[16,8] collective-permute(src, dst, from, to), source_target_pairs=)",
                        pairs, R"(, slice_sizes={{8,8},{8,8}}
}
)");
  };
  EXPECT_TRUE(Verify(text("{{0,1},{0,1}}")).ok())
      << Verify(text("{{0,1},{0,1}}"));
  ExpectRefused(text("{{0,1},{0,2},{0,3}}"),
                "source 0 appears more than 2 times");
}

// The iota and mesh forms are checked from their description; the verdict
// must be the one on their groups written out (ParseReplicaGroups expands
// the iota form independently of the check).
TEST(ReplicaGroupVerifierTest, IotaFormAgreesWithItsGroupsListed) {
  const std::vector<std::string> forms = {
      "[2,4]<=[8]", "[4,2]<=[2,4]T(1,0)", "[3,2]<=[2,3]T(1,0)",
      "[1,6]<=[6]", "[6,1]<=[3,2]T(1,0)", "[2,6]<=[3,2,2]T(2,0,1)",
      "[8,1]<=[8]", "[1,4]<=[2,2]T(1,0)"};
  for (const std::string& form : forms) {
    absl::StatusOr<ReplicaGroups> groups = ParseReplicaGroups(form);
    ASSERT_TRUE(groups.ok()) << form;
    std::vector<std::string> listed;
    for (const std::vector<int64_t>& group : groups->groups) {
      listed.push_back(absl::StrCat("{", absl::StrJoin(group, ","), "}"));
    }
    const std::string explicit_form =
        absl::StrCat("{", absl::StrJoin(listed, ","), "}");
    for (int replicas : {1, 4, 6, 8, 12}) {
      const std::string header = absl::StrCat(", replica_count=", replicas);
      for (const char* op : {"all-reduce", "all-gather"}) {
        auto text = [&](const std::string& g) {
          return Module(
              header, absl::StrCat("f32[12,6] ", op, "(x), replica_groups=", g,
                                   std::string(op) == "all-reduce"
                                       ? ", to_apply=plus_f32"
                                       : ", dimensions={1}"));
        };
        EXPECT_EQ(Verify(text(form)).ok(), Verify(text(explicit_form)).ok())
            << form << " vs " << explicit_form << " " << op << header;
      }
    }
  }
}

TEST(ReplicaGroupVerifierTest, MeshFormHasItsDevicesAsIds) {
  // mesh['a'=2,'b'=3] has 6 devices, in groups along 'b': n = 6 (XLA's
  // MeshAxesReplicaGroupList lists them for CheckReplicaGroups).
  const std::string mesh = "mesh['a'=2,'b'=3] {'b'}";
  EXPECT_TRUE(Verify(Module(", replica_count=6", AllReduce(mesh))).ok());
  ExpectRefused(Module(", replica_count=3", AllReduce(mesh)),
                "should contain 3 replicas, but found 6");
  // maximal_mesh[device_id=N] {} is the one group {N}: N must be 0
  // (CheckReplicaGroups: out of range [0, 1)).
  EXPECT_TRUE(
      Verify(Module("", AllReduce("maximal_mesh[device_id=0] {}"))).ok());
  ExpectRefused(Module("", AllReduce("maximal_mesh[device_id=2] {}")),
                "replica 2 is out of range (should be in [0, 1))");
}

TEST(ReplicaGroupVerifierTest, HugeIotaFormIsAnsweredFromItsText) {
  // A billion ids: XLA accepts with no counts stated, refuses against
  // replica_count=8; neither may list the ids.
  const absl::Time start = absl::Now();
  EXPECT_TRUE(
      Verify(Module("", AllReduce("[1,1000000000]<=[1000000000]"))).ok());
  EXPECT_TRUE(
      Verify(Module("", AllReduce("[1000,1000000]<=[1000000,1000]T(1,0)")))
          .ok());
  ExpectRefused(
      Module(", replica_count=8", AllReduce("[1,1000000000]<=[1000000000]")),
      "should contain 8 replicas, but found 1000000000");
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
}

// CheckReplicaGroups' rules, read directly: the ids sorted must be 0..n-1
// (n their number), no group empty, the count rule, and (all-gather) one
// group size.
bool XlaWouldAccept(const std::vector<std::vector<int64_t>>& groups,
                    int64_t replicas, bool uniform) {
  if (groups.empty()) return true;
  std::vector<int64_t> ids;
  for (const auto& group : groups) {
    if (group.empty()) return false;
    ids.insert(ids.end(), group.begin(), group.end());
  }
  std::sort(ids.begin(), ids.end());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != static_cast<int64_t>(i)) return false;
  }
  if (replicas != 1 && static_cast<int64_t>(ids.size()) != replicas) {
    return false;
  }
  for (const auto& group : groups) {
    if (uniform && group.size() != groups[0].size()) return false;
  }
  return true;
}

TEST(ReplicaGroupVerifierTest, RandomExplicitGroupsMatchTheRules) {
  std::mt19937 rng(20261129);
  int accepted = 0;
  for (int trial = 0; trial < 600; ++trial) {
    std::vector<std::vector<int64_t>> groups(rng() % 4);
    for (auto& group : groups) {
      group.resize(rng() % 4);
      for (int64_t& id : group) id = static_cast<int64_t>(rng() % 8) - 1;
    }
    // Often a permutation, so that acceptance is exercised too.
    if (trial % 2 == 0 && !groups.empty()) {
      int64_t next = 0;
      for (auto& group : groups) {
        for (int64_t& id : group) id = next++;
      }
      for (auto& group : groups) std::shuffle(group.begin(), group.end(), rng);
    }
    const int64_t replicas = 1 + static_cast<int64_t>(rng() % 8);
    std::vector<std::string> listed;
    for (const auto& group : groups) {
      listed.push_back(absl::StrCat("{", absl::StrJoin(group, ","), "}"));
    }
    const std::string text = absl::StrCat("{", absl::StrJoin(listed, ","), "}");
    const std::string header = absl::StrCat(", replica_count=", replicas);
    const bool reduce_ok = Verify(Module(header, AllReduce(text))).ok();
    EXPECT_EQ(reduce_ok, XlaWouldAccept(groups, replicas, false))
        << text << header;
    const bool gather_ok =
        Verify(Module(header, absl::StrCat("f32[12,6] all-gather(x), "
                                           "replica_groups=",
                                           text, ", dimensions={1}")))
            .ok();
    EXPECT_EQ(gather_ok, XlaWouldAccept(groups, replicas, true))
        << text << header;
    accepted += reduce_ok;
  }
  EXPECT_GT(accepted, 30);  // Both verdicts occur.
}

}  // namespace
}  // namespace xla_index

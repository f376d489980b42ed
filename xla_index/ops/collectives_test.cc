// Collectives: both directions, with their replica-id maps. The exact maps
// of XLA's all-gather example, and a brute-force check of every op against
// a simulation of the collective over all replicas (written from XLA's
// operation-semantics documentation: pieces placed by concatenation, chunks
// scattered, pairs sent), for several group layouts.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlo/replica_groups.h"
#include "xla_index/core/box_points.h"
#include "xla_index/ops/op_test_util.h"

namespace xla_index {
namespace {

using ::testing::HasSubstr;
using CollectivesIndexingTest = OpIndexingTest;

// XLA's indexing-analysis test of all-gather (2 replicas, along dim 1).
constexpr absl::string_view kAllGather = R"(
p0 = f32[10,128] parameter(0)
ROOT ag = f32[10,256] all-gather(p0), replica_groups={{0,1}}, dimensions={1}
)";

TEST_F(CollectivesIndexingTest, AllGatherOutputToInputHasReplicaMap) {
  const HloInstruction* root = Parse(kAllGather);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(ComputeOutputToInputIndexing(root, 0, &context_).ToString(),
            Text(R"(
operand id = 0
(d0, d1) -> (d0, d1 mod 128)
domain:
d0 in [0, 9]
d1 in [0, 255]
replica id:
(d0, d1) -> (d1 floordiv 128)
domain:
d0 in [0, 9]
d1 in [0, 255]
)"));
}

TEST_F(CollectivesIndexingTest, AllGatherInputToOutput) {
  const HloInstruction* root = Parse(kAllGather);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(ComputeInputToOutputIndexing(root, 0, &context_).ToString(),
            Text(R"(
operand id = 0
(d0, d1)[s0, s1] -> (d0, d1 + s1 * 128)
domain:
d0 in [0, 9]
d1 in [0, 127]
s0 in [0, 1]
s1 in [0, 1]
  hlo: replica position in the groups of 'ag'
  (d0, d1) -> ()
replica id:
(d0, d1)[s0, s1] -> (s0)
domain:
d0 in [0, 9]
d1 in [0, 127]
s0 in [0, 1]
s1 in [0, 1]
  hlo: replica position in the groups of 'ag'
  (d0, d1) -> ()
)"));
}

// The replica map composes with the consumer's map, as the element map
// does: transpose after the all-gather, and before it.
TEST_F(CollectivesIndexingTest, AllGatherComposesThroughFusions) {
  const HloInstruction* after = Parse(R"(
p0 = f32[10,128] parameter(0)
ag = f32[10,256] all-gather(p0), replica_groups={{0,1}}, dimensions={1}
ROOT t = f32[256,10] transpose(ag), dimensions={1,0}
)");
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(
      AnalyzeIndexing(*after, IndexingDirection::kOutputToInput, &context_)
          .indexing.ToString(),
      Text(R"(
operand id = 0
(d0, d1) -> (d1, d0 mod 128)
domain:
d0 in [0, 255]
d1 in [0, 9]
replica id:
(d0, d1) -> (d0 floordiv 128)
domain:
d0 in [0, 255]
d1 in [0, 9]
)"));
  const HloInstruction* before = Parse(R"(
p0 = f32[128,10] parameter(0)
t = f32[10,128] transpose(p0), dimensions={1,0}
ROOT ag = f32[10,256] all-gather(t), replica_groups={{0,1}}, dimensions={1}
)");
  ASSERT_NE(before, nullptr);
  EXPECT_EQ(
      AnalyzeIndexing(*before, IndexingDirection::kOutputToInput, &context_)
          .indexing.ToString(),
      Text(R"(
operand id = 0
(d0, d1) -> (d1 mod 128, d0)
domain:
d0 in [0, 9]
d1 in [0, 255]
replica id:
(d0, d1) -> (d1 floordiv 128)
domain:
d0 in [0, 9]
d1 in [0, 255]
)"));
}

TEST_F(CollectivesIndexingTest, AllReduceReadsEveryReplicaOfTheGroup) {
  const HloInstruction* root = Parse(R"(
add { a = f32[] parameter(0)  b = f32[] parameter(1)
      ROOT s = f32[] add(a, b) }
ENTRY e {
  p0 = f32[4,8] parameter(0)
  ROOT ar = f32[4,8] all-reduce(p0), replica_groups=[2,2]<=[4], to_apply=add
})");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(ComputeOutputToInputIndexing(root, 0, &context_).ToString(),
            Text(R"(
operand id = 0
(d0, d1)[s0] -> (d0, d1)
domain:
d0 in [0, 3]
d1 in [0, 7]
s0 in [0, 1]
replica id:
(d0, d1)[s0] -> (s0)
domain:
d0 in [0, 3]
d1 in [0, 7]
s0 in [0, 1]
)"));
}

TEST_F(CollectivesIndexingTest, UndefinedWithReasons) {
  struct Case {
    const char* hlo;
    const char* reason;
  };
  const Case cases[] = {
      {R"(
add { a = f32[] parameter(0)  b = f32[] parameter(1)
      ROOT s = f32[] add(a, b) }
ENTRY e { p0 = f32[4] parameter(0)
  ROOT ar = f32[4] all-reduce(p0), replica_groups={}, to_apply=add })",
       "has no HloModule header to state it"},
      {R"(
p0 = f32[4,6] parameter(0)
ROOT ag = f32[4,12] all-gather(p0), replica_groups={{0,1,2},{3,4}},
  dimensions={1})",
       "replica groups differ in size"},
      {R"(
p0 = f32[4,6] parameter(0)
ROOT ag = f32[4,12] all-gather(p0), replica_groups={{0,1,2}}, dimensions={1})",
       "attributes do not fit"},
      {R"(
p0 = f32[4] parameter(0)
p1 = f32[4] parameter(1)
ROOT a2a = (f32[4], f32[4]) all-to-all(p0, p1), replica_groups={{0,1}})",
       "tuple form"},
      {R"(
p0 = f32[4] parameter(0)
ROOT cp = f32[4] collective-permute(p0), source_target_pairs={{0,1},{0,2}})",
       "share a source"},
  };
  for (const Case& c : cases) {
    const HloInstruction* root = Parse(c.hlo);
    ASSERT_NE(root, nullptr) << c.hlo;
    for (bool forward : {true, false}) {
      HloInstructionIndexing indexing =
          forward ? ComputeOutputToInputIndexing(root, 0, &context_)
                  : ComputeInputToOutputIndexing(root, 0, &context_);
      ASSERT_FALSE(indexing.indexing_maps.empty());
      ASSERT_EQ(indexing.indexing_maps[0].size(), 1);
      EXPECT_TRUE(indexing.indexing_maps[0][0].IsUndefined()) << c.hlo;
      EXPECT_THAT(indexing.indexing_maps[0][0].undefined_reason(),
                  HasSubstr(c.reason));
    }
  }
}

// The group size of every group mode (XLA's CollectiveOpGroupMode): the
// module's replica_count and num_partitions fill in `{}`, and a channel_id
// without use_global_device_ids=true spans every partition.
TEST_F(CollectivesIndexingTest, GroupSizeFollowsTheGroupMode) {
  struct Case {
    const char* header;
    const char* attributes;
    int64_t size;  // 0: unknown; -1: an error
    const char* message;
  };
  const Case cases[] = {
      {"HloModule m, replica_count=4", "replica_groups={}", 4, ""},
      {"HloModule m", "replica_groups={}", 1, ""},
      {"", "replica_groups={}", 0, "replica_groups={} (every replica)"},
      {"", "replica_groups={{0,1,2}}", 3, ""},
      {"HloModule m, replica_count=4, num_partitions=2",
       "replica_groups={{0,1}}, channel_id=1", 4, ""},
      {"HloModule m, replica_count=4, num_partitions=2",
       "replica_groups={}, channel_id=1", 8, ""},
      {"", "replica_groups={{0,1}}, channel_id=1", 0, "num_partitions"},
      {"HloModule m, replica_count=4, num_partitions=2",
       "replica_groups={{0,1,2,3,4,5,6,7}}, channel_id=1, "
       "use_global_device_ids=true",
       8, ""},
      {"HloModule m, replica_count=4, num_partitions=2",
       "replica_groups={}, channel_id=1, use_global_device_ids=true", -1,
       "explicit replica_groups"},
      {"HloModule m", "replica_groups={{0,1}}, use_global_device_ids=true", -1,
       "needs a channel_id"},
      {"HloModule m, replica_count=9223372036854775807, num_partitions=2",
       "replica_groups={}, channel_id=1", -1, "overflows int64"},
      // The iota form's size is read without listing its 2^40 ids.
      {"HloModule m", "replica_groups=[1024,1073741824]<=[1099511627776]",
       1073741824, ""},
  };
  for (const Case& c : cases) {
    const std::string text = absl::StrCat(
        c.header,
        "\nadd { a = f32[] parameter(0)  b = f32[] parameter(1)\n"
        "  ROOT s = f32[] add(a, b) }\nENTRY e { p0 = f32[4] parameter(0)\n"
        "  ROOT ar = f32[4] all-reduce(p0), to_apply=add, ",
        c.attributes, " }");
    const HloInstruction* root = Parse(text);
    ASSERT_NE(root, nullptr) << text;
    absl::StatusOr<CollectiveGroupSize> size = GetCollectiveGroupSize(*root);
    if (c.size < 0) {
      ASSERT_FALSE(size.ok()) << text;
      EXPECT_THAT(std::string(size.status().message()), HasSubstr(c.message));
      continue;
    }
    ASSERT_TRUE(size.ok()) << text << ": " << size.status();
    EXPECT_EQ(size->size, c.size) << text;
    EXPECT_THAT(size->unknown_reason, HasSubstr(c.message)) << text;
  }
  // An iota form whose sizes disagree is refused by the parser, as XLA's
  // HloParserImpl::ParseCollectiveDeviceListBase refuses it.
  absl::StatusOr<std::unique_ptr<HloModule>> mismatched = ParseHloModule(
      "HloModule m\nadd { a = f32[] parameter(0)  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b) }\nENTRY e { p0 = f32[4] parameter(0)\n"
      "  ROOT ar = f32[4] all-reduce(p0), to_apply=add, "
      "replica_groups=[2,3]<=[5] }");
  ASSERT_FALSE(mismatched.ok());
  EXPECT_THAT(std::string(mismatched.status().message()),
              HasSubstr("different numbers"));
  // A count that is not a positive integer is a parse error.
  for (const char* header :
       {"HloModule m, replica_count=0", "HloModule m, num_partitions=x"}) {
    EXPECT_FALSE(ParseHloModule(absl::StrCat(header,
                                             "\nENTRY e { ROOT p = f32[] "
                                             "parameter(0) }"))
                     .ok())
        << header;
  }
}

TEST_F(CollectivesIndexingTest, ACollectiveOfACollectiveIsUndefined) {
  const HloInstruction* root = Parse(R"(
add { a = f32[] parameter(0)  b = f32[] parameter(1)
      ROOT s = f32[] add(a, b) }
ENTRY e {
  p0 = f32[4,8] parameter(0)
  ag = f32[4,16] all-gather(p0), replica_groups={{0,1}}, dimensions={1}
  ROOT ar = f32[4,16] all-reduce(ag), replica_groups={{0,1}}, to_apply=add
})");
  ASSERT_NE(root, nullptr);
  HloInstructionIndexing indexing =
      AnalyzeIndexing(*root, IndexingDirection::kOutputToInput, &context_)
          .indexing;
  ASSERT_EQ(indexing.indexing_maps[0].size(), 1);
  EXPECT_THAT(indexing.indexing_maps[0][0].undefined_reason(),
              HasSubstr("a collective reads the result of a collective"));
}

TEST(ReplicaGroupsTest, ParsesEveryForm) {
  using Groups = std::vector<std::vector<int64_t>>;
  const std::pair<const char*, Groups> cases[] = {
      {"{}", {}},
      {"{{0,2},{1,3}}", {{0, 2}, {1, 3}}},
      {"[2,2]<=[4]", {{0, 1}, {2, 3}}},
      {"[2,2]<=[2,2]T(1,0)", {{0, 2}, {1, 3}}},
      {"[1,6]<=[2,3]T(1,0)", {{0, 3, 1, 4, 2, 5}}},
  };
  for (const auto& [text, groups] : cases) {
    absl::StatusOr<ReplicaGroups> parsed = ParseReplicaGroups(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
    EXPECT_EQ(parsed->groups, groups) << text;
  }
  for (const char* bad :
       {"{{0,1},{1,2}}", "{{0},{1,2}}", "{{}}", "{{0,-1}}", "[2,2]<=[3]",
        "[2,2]<=[2,2]T(0,0)", "[4]<=[4]", "mesh[x=2,y=4]{x}", "{{0,1}",
        "[1048577,2]<=[2097154]"}) {
    EXPECT_FALSE(ParseReplicaGroups(bad).ok()) << bad;
  }
  // ParseReplicaGroupSize agrees with the listed groups, and refuses what
  // ParseReplicaGroups refuses, except an iota form too long to list.
  for (const auto& [text, groups] : cases) {
    absl::StatusOr<int64_t> size = ParseReplicaGroupSize(text);
    ASSERT_TRUE(size.ok()) << text << ": " << size.status();
    EXPECT_EQ(*size, groups.empty() ? 0 : groups[0].size()) << text;
  }
  for (const char* bad :
       {"{{0,1},{1,2}}", "{{0},{1,2}}", "{{}}", "{{0,-1}}", "[2,2]<=[3]",
        "[2,2]<=[2,2]T(0,0)", "[4]<=[4]", "mesh[x=2,y=4]{x}", "{{0,1}",
        "[2,2]<=[4] x", "[2,2]<=[4]T(1)"}) {
    EXPECT_FALSE(ParseReplicaGroupSize(bad).ok()) << bad;
  }
  absl::StatusOr<int64_t> long_iota =
      ParseReplicaGroupSize("[1048577,2]<=[2097154]");
  ASSERT_TRUE(long_iota.ok()) << long_iota.status();
  EXPECT_EQ(*long_iota, 2);
  EXPECT_FALSE(ParseSourceTargetPairs("{{0,1},{2,1}}").ok());
  EXPECT_FALSE(ParseSourceTargetPairs("{{0,1,2}}").ok());
  auto pairs = ParseSourceTargetPairs("{{0,1},{1,0}}");
  ASSERT_TRUE(pairs.ok());
  EXPECT_EQ(pairs->size(), 2);
}

// ---- Brute force against a simulation of the collective. ----

using Index = std::vector<int64_t>;
// (replica id or position, element index)
using Located = std::pair<int64_t, Index>;

std::vector<Index> AllIndices(absl::Span<const int64_t> dims) {
  std::vector<Index> all;
  ForEachBoxPoint(ShapeBox(dims), int64_t{1} << 20,
                  [&](const Index& point) { all.push_back(point); });
  return all;
}

// trace[r][output index]: the (replica id, operand index) elements that
// output element of replica r is made of.
using Trace = std::map<int64_t, std::map<Index, std::set<Located>>>;

// The simulation of `op` (its opcode name) over `groups` (or, for
// collective-permute, `pairs`), along `dim`, with operand dims `in`.
Trace Simulate(absl::string_view op,
               const std::vector<std::vector<int64_t>>& groups,
               const std::vector<std::pair<int64_t, int64_t>>& pairs,
               int64_t dim, const Index& in) {
  Trace trace;
  if (op == "collective-permute") {
    for (const auto& [source, target] : pairs) {
      for (const Index& j : AllIndices(in))
        trace[target][j].insert({source, j});
    }
    return trace;
  }
  const int64_t n = groups[0].size();
  for (const std::vector<int64_t>& group : groups) {
    for (int64_t q = 0; q < n; ++q) {  // the receiving replica's position
      auto& out = trace[group[q]];
      for (int64_t p = 0; p < n; ++p) {  // the sending replica's position
        for (const Index& j : AllIndices(in)) {
          Index i = j;
          if (op == "all-gather") {
            // Concatenation in group order: piece p after p pieces.
            i[dim] += p * in[dim];
            out[i].insert({group[p], j});
          } else if (op == "all-reduce") {
            out[i].insert({group[p], j});
          } else if (op == "reduce-scatter") {
            // The reduced array split in n chunks; position q keeps chunk q.
            const int64_t chunk = in[dim] / n;
            if (j[dim] < q * chunk || j[dim] >= (q + 1) * chunk) continue;
            i[dim] -= q * chunk;
            out[i].insert({group[p], j});
          } else if (op == "all-to-all") {
            // p splits its operand in n pieces and sends piece q to q, which
            // places it as its piece p.
            const int64_t piece = in[dim] / n;
            if (j[dim] < q * piece || j[dim] >= (q + 1) * piece) continue;
            i[dim] += (p - q) * piece;
            out[i].insert({group[p], j});
          }
        }
      }
    }
  }
  return trace;
}

// The (replica result, element results) of entry `k` of `set` at `dims`,
// range variables enumerated, every runtime variable at `runtime`.
std::set<Located> MapImage(const IndexingMapSet& set, int64_t k,
                           const Index& dims, int64_t runtime) {
  IndexingMap joint = JoinReplicaMap(set[k], set.replica_map(k));
  std::vector<Interval> box = joint.GetSymbolBounds();
  for (size_t s = 0; s < box.size(); ++s) {
    if (joint.IsRuntimeSymbol(s)) box[s] = box[s].Intersect({runtime, runtime});
  }
  std::set<Located> image;
  ForEachBoxPoint(box, int64_t{1} << 20, [&](const Index& symbols) {
    if (!joint.ConstraintsSatisfied(dims, symbols)) return;
    std::optional<std::vector<int64_t>> results = joint.Evaluate(dims, symbols);
    if (!results.has_value()) return;
    image.insert(
        {results->back(), Index(results->begin(), results->end() - 1)});
  });
  return image;
}

struct SimCase {
  std::string hlo;  // the root is the collective, its operand p0
  std::string op;
  std::vector<std::vector<int64_t>> groups;
  std::vector<std::pair<int64_t, int64_t>> pairs;
  int64_t dim;
};

// Position of `replica` in its group (its id for collective-permute), and
// the replica at position `position` of that group.
int64_t PositionOf(const SimCase& c, int64_t replica) {
  for (const auto& group : c.groups) {
    for (size_t p = 0; p < group.size(); ++p) {
      if (group[p] == replica) return p;
    }
  }
  return replica;
}

// The runtime variable's value on `replica`, or nullopt where the maps do
// not apply (a permute replica that is no target, or no source).
std::optional<int64_t> RuntimeValue(const SimCase& c, int64_t replica,
                                    bool output_to_input) {
  if (c.op != "collective-permute") return PositionOf(c, replica);
  for (const auto& [source, target] : c.pairs) {
    if (output_to_input && target == replica) return source;
    if (!output_to_input && source == replica) return target;
  }
  return std::nullopt;
}

// `o2i`: the maps from an element of the collective's result (of dims
// `out`) to its operand (of dims `in`); `i2o` the other way.
void CheckSetsAgainstSimulation(const SimCase& c, const Index& in,
                                absl::Span<const int64_t> out,
                                const IndexingMapSet& o2i,
                                const IndexingMapSet& i2o) {
  Trace trace = Simulate(c.op, c.groups, c.pairs, c.dim, in);
  ASSERT_EQ(o2i.size(), 1) << c.hlo;
  ASSERT_EQ(i2o.size(), 1) << c.hlo;
  // Input to output, expected: every (receiver, output index) an operand
  // element of a replica ends up in.
  std::map<std::pair<int64_t, Index>, std::set<Located>> sent;
  for (const auto& [receiver, outputs] : trace) {
    for (const auto& [i, sources] : outputs) {
      for (const auto& [source, j] : sources) {
        sent[{source, j}].insert({PositionOf(c, receiver), i});
      }
    }
  }
  int64_t checked = 0;
  for (const auto& [replica, outputs] : trace) {
    std::optional<int64_t> rt = RuntimeValue(c, replica, true);
    if (!rt.has_value()) continue;
    for (const Index& i : AllIndices(out)) {
      std::set<Located> expected;
      auto found = outputs.find(i);
      if (found != outputs.end()) {
        for (const auto& [source, j] : found->second) {
          expected.insert({PositionOf(c, source), j});
        }
      }
      EXPECT_EQ(MapImage(o2i, 0, i, *rt), expected)
          << c.hlo << "\nreplica " << replica << " output "
          << absl::StrJoin(i, ",");
      ++checked;
    }
  }
  for (const auto& [replica, unused] : trace) {
    std::optional<int64_t> rt = RuntimeValue(c, replica, false);
    if (!rt.has_value()) continue;
    for (const Index& j : AllIndices(in)) {
      const std::set<Located>& expected = sent[std::make_pair(replica, j)];
      EXPECT_EQ(MapImage(i2o, 0, j, *rt), expected)
          << c.hlo << "\nreplica " << replica << " operand "
          << absl::StrJoin(j, ",");
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

void CheckAgainstSimulation(const SimCase& c, const HloInstruction* root,
                            mlir::MLIRContext* context) {
  const Shape& in = root->operand(0)->shape();
  HloInstructionIndexing o2i = ComputeOutputToInputIndexing(root, 0, context);
  HloInstructionIndexing i2o = ComputeInputToOutputIndexing(root, 0, context);
  CheckSetsAgainstSimulation(
      c, Index(in.dimensions().begin(), in.dimensions().end()),
      root->shape().dimensions(), o2i.indexing_maps[0], i2o.indexing_maps[0]);
}

TEST_F(CollectivesIndexingTest, BothDirectionsMatchTheSimulation) {
  const std::string add =
      "add { a = f32[] parameter(0)  b = f32[] parameter(1) ROOT s = f32[] "
      "add(a, b) }\n";
  // Groups in the explicit form, a shuffled group, the iota forms, and
  // `{}`: every replica of the module's replica_count, or (with a
  // channel_id, cross-partition for all-to-all) every partition.
  struct Layout {
    std::string text;
    int64_t n;
    std::string header;
  };
  const std::vector<Layout> layouts = {
      {"{{0,1},{2,3}}", 2, ""},
      {"{{2,0,1}}", 3, ""},
      {"[2,2]<=[4]", 2, ""},
      {"[2,2]<=[2,2]T(1,0)", 2, ""},
      {"{}", 3, "HloModule m, replica_count=3\n"},
      {"{}", 1, "HloModule m\n"},
      {"{}", 2, "HloModule m, replica_count=2, num_partitions=4\n"}};
  std::vector<SimCase> cases;
  for (const auto& [text, n, header] : layouts) {
    absl::StatusOr<ReplicaGroups> groups = ParseReplicaGroups(text);
    ASSERT_TRUE(groups.ok()) << groups.status();
    if (groups->all_replicas()) {
      groups->groups.emplace_back();
      for (int64_t r = 0; r < n; ++r) groups->groups[0].push_back(r);
    }
    for (int64_t dim : {0, 1}) {
      Index in = {3, 2};
      Index gathered = in, scattered = {3 * n, 2 * n}, scattered_out = in;
      gathered[dim] *= n;
      scattered_out = scattered;
      scattered_out[dim] /= n;
      auto shape = [](const Index& d) {
        return absl::StrCat("f32[", absl::StrJoin(d, ","), "]");
      };
      auto entry = [&](const Index& operand, const std::string& root) {
        return absl::StrCat(header, add, "ENTRY e {\n  p0 = ", shape(operand),
                            " parameter(0)\n  ROOT c = ", root, "\n}");
      };
      const std::string attrs =
          absl::StrCat("replica_groups=", text, ", dimensions={", dim, "}");
      cases.push_back(
          {entry(in, absl::StrCat(shape(gathered), " all-gather(p0), ", attrs)),
           "all-gather",
           groups->groups,
           {},
           dim});
      cases.push_back({entry(scattered, absl::StrCat(shape(scattered_out),
                                                     " reduce-scatter(p0), ",
                                                     attrs, ", to_apply=add")),
                       "reduce-scatter",
                       groups->groups,
                       {},
                       dim});
      cases.push_back(
          {entry(scattered,
                 absl::StrCat(shape(scattered), " all-to-all(p0), ", attrs)),
           "all-to-all",
           groups->groups,
           {},
           dim});
    }
    cases.push_back({absl::StrCat(header, add,
                                  "ENTRY e {\n  p0 = f32[3,2] parameter(0)\n"
                                  "  ROOT c = f32[3,2] all-reduce(p0), "
                                  "replica_groups=",
                                  text, ", to_apply=add\n}"),
                     "all-reduce",
                     groups->groups,
                     {},
                     0});
  }
  // all-to-all with a channel_id groups partitions: `{}` is every one.
  cases.push_back({R"(HloModule m, replica_count=8, num_partitions=2
ENTRY e {
  p0 = f32[4,2] parameter(0)
  ROOT c = f32[4,2] all-to-all(p0), channel_id=1, replica_groups={},
    dimensions={0}
})",
                   "all-to-all",
                   {{0, 1}},
                   {},
                   0});
  cases.push_back({R"(
p0 = f32[3,2] parameter(0)
ROOT c = f32[3,2] collective-permute(p0), source_target_pairs={{0,1},{1,3},{3,0}})",
                   "collective-permute",
                   {},
                   {{0, 1}, {1, 3}, {3, 0}},
                   0});
  for (const SimCase& c : cases) {
    const HloInstruction* root = Parse(c.hlo);
    ASSERT_NE(root, nullptr) << c.hlo;
    CheckAgainstSimulation(c, root, &context_);
  }
}

// The asynchronous forms against the same simulation: the -start's
// output 1 (the collective's result) has the synchronous maps, and the
// -done composed back through its start has them too; the start's output
// 0 is its operand, read in place.
TEST_F(CollectivesIndexingTest, AsyncFormsMatchTheSimulation) {
  const std::string header =
      "HloModule m, replica_count=4\nadd { a = f32[] parameter(0)  b = f32[] "
      "parameter(1) ROOT s = f32[] add(a, b) }\n";
  struct AsyncCase {
    SimCase sim;
    std::string start, done;
    std::string called = "";  // the computation an async-start calls
  };
  const std::vector<std::vector<int64_t>> pair_groups = {{1, 0}, {3, 2}};
  const AsyncCase cases[] = {
      {{"", "all-gather", pair_groups, {}, 1},
       "s = (f32[3,2], f32[3,4]) all-gather-start(p0), "
       "replica_groups={{1,0},{3,2}}, dimensions={1}",
       "ROOT c = f32[3,4] all-gather-done(s)"},
      {{"", "all-gather", {{0, 1, 2, 3}}, {}, 0},
       "s = (f32[3,2], f32[12,2]) all-gather-start(p0), replica_groups={}, "
       "dimensions={0}",
       "ROOT c = f32[12,2] all-gather-done(s)"},
      {{"", "all-reduce", {{0, 1, 2, 3}}, {}, 0},
       "s = f32[3,2] all-reduce-start(p0), replica_groups={}, to_apply=add",
       "ROOT c = f32[3,2] all-reduce-done(s)"},
      {{"", "collective-permute", {}, {{0, 1}, {1, 3}, {3, 0}}, 0},
       "s = (f32[3,2], f32[3,2], u32[], u32[]) collective-permute-start(p0), "
       "source_target_pairs={{0,1},{1,3},{3,0}}",
       "ROOT c = f32[3,2] collective-permute-done(s)"},
      // XLA's generic async wrapper around an all-gather.
      {{"", "all-gather", pair_groups, {}, 1},
       "s = ((f32[3,2]), f32[3,4], s32[]) async-start(p0), calls=wrapped",
       "ROOT c = f32[3,4] async-done(s)",
       "wrapped { p = f32[3,2] parameter(0)\n  ROOT ag = f32[3,4] "
       "all-gather(p), replica_groups={{1,0},{3,2}}, dimensions={1} }\n"},
  };
  for (const AsyncCase& a : cases) {
    SimCase c = a.sim;
    c.hlo = absl::StrCat(header, a.called,
                         "ENTRY e {\n  p0 = f32[3,2] parameter(0)\n  ", a.start,
                         "\n  ", a.done, "\n}");
    absl::StatusOr<std::unique_ptr<HloModule>> verified =
        ParseAndVerifyHloModule(c.hlo);
    ASSERT_TRUE(verified.ok()) << verified.status() << "\n" << c.hlo;
    const HloInstruction* done = Parse(c.hlo);
    ASSERT_NE(done, nullptr) << c.hlo;
    const HloInstruction* start = done->operand(0);
    const Index in = {3, 2};
    const bool tuple = start->shape().IsTuple();
    const int64_t result_id = tuple ? 1 : 0;
    HloInstructionIndexing o2i =
        ComputeOutputToInputIndexing(start, result_id, &context_);
    HloInstructionIndexing i2o =
        ComputeInputToOutputIndexing(start, 0, &context_);
    ASSERT_EQ(i2o.indexing_maps.size(), OutputCount(start)) << c.hlo;
    CheckSetsAgainstSimulation(c, in, done->shape().dimensions(),
                               o2i.indexing_maps[0],
                               i2o.indexing_maps[result_id]);
    if (tuple && start->opcode() != HloOpcode::kAsyncStart) {
      // Output 0 is the operand itself; the contexts read nothing.
      const IndexingMap identity = CreateIdentityMap(in, &context_);
      HloInstructionIndexing alias =
          ComputeOutputToInputIndexing(start, 0, &context_);
      ASSERT_EQ(alias.indexing_maps[0].size(), 1);
      EXPECT_EQ(alias.indexing_maps[0][0], identity) << c.hlo;
      EXPECT_FALSE(alias.indexing_maps[0].has_replica_maps());
      ASSERT_EQ(i2o.indexing_maps[0].size(), 1);
      EXPECT_EQ(i2o.indexing_maps[0][0], identity) << c.hlo;
    }
    for (int64_t k = 2; k < OutputCount(start); ++k) {
      EXPECT_EQ(ComputeOutputToInputIndexing(start, k, &context_)
                    .indexing_maps[0]
                    .size(),
                0);
      EXPECT_EQ(i2o.indexing_maps[k].size(), 0);
    }
    if (start->opcode() == HloOpcode::kAsyncStart) {
      // Element 0 is the operands' tuple: no element map.
      EXPECT_THAT(ComputeOutputToInputIndexing(start, 0, &context_)
                      .indexing_maps[0][0]
                      .undefined_reason(),
                  HasSubstr("tuple of its operands"));
    }
    // The done, composed back through its start to p0.
    AnalyzedIndexing composed_o2i =
        AnalyzeIndexing(*done, IndexingDirection::kOutputToInput, &context_);
    AnalyzedIndexing composed_i2o =
        AnalyzeIndexing(*done, IndexingDirection::kInputToOutput, &context_);
    ASSERT_EQ(composed_o2i.indexing.indexing_maps.size(), 1) << c.hlo;
    ASSERT_EQ(composed_i2o.indexing.indexing_maps.size(), 1) << c.hlo;
    CheckSetsAgainstSimulation(c, in, done->shape().dimensions(),
                               composed_o2i.indexing.indexing_maps[0],
                               composed_i2o.indexing.indexing_maps[0]);
  }
}

// XLA's tuple of a -start; a start of several operands nests tuples, which
// a flat output id cannot name: UNDEFINED with the reason.
TEST_F(CollectivesIndexingTest, AsyncFormsAreChecked) {
  for (const char* bad : {
           "p0 = f32[4] parameter(0)\ns = f32[8] all-gather-start(p0), "
           "replica_groups={{0,1}}, dimensions={0}",
           "p0 = f32[4] parameter(0)\ns = (f32[5], f32[8]) "
           "all-gather-start(p0), replica_groups={{0,1}}, dimensions={0}",
           "p0 = f32[4] parameter(0)\ns = (f32[4], f32[8], u32[]) "
           "all-gather-start(p0), replica_groups={{0,1}}, dimensions={0}",
           "p0 = f32[4] parameter(0)\ns = (f32[5], f32[4], u32[], u32[]) "
           "collective-permute-start(p0), source_target_pairs={{0,1}}",
           "p0 = f32[4] parameter(0)\ns = (f32[4], f32[8]) "
           "all-gather-start(p0), replica_groups={{0,1}}, dimensions={0}\n"
           "d = f32[4] all-gather-done(s)",
       }) {
    EXPECT_FALSE(ParseAndVerifyHloModule(bad).ok()) << bad;
  }
  const HloInstruction* variadic = Parse(R"(
p0 = f32[4] parameter(0)
p1 = f32[2] parameter(1)
ROOT s = ((f32[4], f32[2]), (f32[8], f32[4])) all-gather-start(p0, p1),
  replica_groups={{0,1}}, dimensions={0})");
  ASSERT_NE(variadic, nullptr);
  HloInstructionIndexing indexing =
      ComputeOutputToInputIndexing(variadic, 1, &context_);
  ASSERT_EQ(indexing.indexing_maps.size(), 2);
  EXPECT_THAT(indexing.indexing_maps[0][0].undefined_reason(),
              HasSubstr("one array operand"));
  // Unverified text whose done does not fit its start: UNDEFINED, also
  // when composed.
  for (const char* hlo : {
           "p0 = f32[4] parameter(0)\ns = (f32[4], f32[8]) "
           "all-gather-start(p0), replica_groups={{0,1}}, dimensions={0}\n"
           "ROOT d = f32[5] all-gather-done(s)",
           "w { p = f32[4] parameter(0)\n ROOT n = f32[4] negate(p) }\n"
           "ENTRY e { p0 = f32[4] parameter(0)\n s = ((f32[4]), f32[6], "
           "s32[]) async-start(p0), calls=w\n ROOT d = f32[6] async-done(s) }",
       }) {
    const HloInstruction* done = Parse(hlo);
    ASSERT_NE(done, nullptr) << hlo;
    for (IndexingDirection direction : {IndexingDirection::kOutputToInput,
                                        IndexingDirection::kInputToOutput}) {
      HloInstructionIndexing composed =
          AnalyzeIndexing(*done, direction, &context_).indexing;
      ASSERT_FALSE(composed.indexing_maps.empty()) << hlo;
      ASSERT_GT(composed.indexing_maps[0].size(), 0) << hlo;
      for (const IndexingMapSet& set : composed.indexing_maps) {
        for (int64_t k = 0; k < set.size(); ++k) {
          EXPECT_TRUE(set[k].IsUndefined()) << hlo << "\n"
                                            << composed.ToString();
        }
      }
    }
  }
}

}  // namespace
}  // namespace xla_index

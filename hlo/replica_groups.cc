#include "hlo/replica_groups.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/module.h"
#include "hlo/text_cursor.h"

namespace xla_index {
namespace {

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// `{a, b, ...}` (possibly `{}`), non-negative integers unless
// `allow_negative` (the verifier's reading reports them as out of range).
absl::StatusOr<std::vector<int64_t>> ParseIdList(TextCursor& c,
                                                 bool allow_negative = false) {
  XI_RETURN_IF_ERROR(c.Expect('{', "to open a list of replica ids"));
  std::vector<int64_t> ids;
  if (c.TryConsume('}')) return ids;
  do {
    const char* at = c.pos();
    XI_ASSIGN_OR_RETURN(int64_t id, c.ParseInt("a replica id"));
    if (id < 0 && !allow_negative) {
      return c.ErrorAt(at, "a replica id must be >= 0");
    }
    ids.push_back(id);
  } while (c.TryConsume(','));
  XI_RETURN_IF_ERROR(c.Expect('}', "to close a list of replica ids"));
  return ids;
}

// `{{...}, {...}}`: a list of id lists.
absl::StatusOr<std::vector<std::vector<int64_t>>> ParseNestedLists(
    TextCursor& c, bool allow_negative = false) {
  XI_RETURN_IF_ERROR(c.Expect('{', "to open the list"));
  std::vector<std::vector<int64_t>> lists;
  if (c.TryConsume('}')) return lists;
  do {
    XI_ASSIGN_OR_RETURN(std::vector<int64_t> ids,
                        ParseIdList(c, allow_negative));
    lists.push_back(std::move(ids));
  } while (c.TryConsume(','));
  XI_RETURN_IF_ERROR(c.Expect('}', "to close the list"));
  return lists;
}

// `[a,b,...]`: positive sizes.
absl::StatusOr<std::vector<int64_t>> ParseSizes(TextCursor& c) {
  XI_RETURN_IF_ERROR(c.Expect('[', "to open the sizes of the iota form"));
  std::vector<int64_t> sizes;
  do {
    const char* at = c.pos();
    XI_ASSIGN_OR_RETURN(int64_t size, c.ParseInt("a size"));
    if (size < 1) return c.ErrorAt(at, "a size must be >= 1");
    sizes.push_back(size);
  } while (c.TryConsume(','));
  XI_RETURN_IF_ERROR(c.Expect(']', "to close the sizes of the iota form"));
  return sizes;
}

// The iota form `[G,S]<=[d...]` or `[G,S]<=[d...]T(perm)`: the ids
// iota(prod d) laid out as an array of dims d, transposed by perm (output
// dim i is input dim perm[i]), read in row-major order into G groups of S.
// Its ids are a permutation of 0..G*S-1: distinct, in groups of one size.
struct IotaForm {
  int64_t group_count = 0;
  int64_t group_size = 0;
  std::vector<int64_t> dims;
  std::vector<int64_t> perm;
};

absl::StatusOr<IotaForm> ParseIotaForm(TextCursor& c) {
  XI_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ParseSizes(c));
  if (shape.size() != 2) {
    return Invalid("the iota form needs [groups, group size] before '<='");
  }
  if (!c.TryConsume("<=")) return c.Error("expected '<=' in the iota form");
  IotaForm form{shape[0], shape[1], {}, {}};
  XI_ASSIGN_OR_RETURN(form.dims, ParseSizes(c));
  form.perm.resize(form.dims.size());
  std::iota(form.perm.begin(), form.perm.end(), 0);
  if (c.TryConsume('T')) {
    XI_RETURN_IF_ERROR(c.Expect('(', "after 'T'"));
    form.perm.clear();
    do {
      XI_ASSIGN_OR_RETURN(int64_t p, c.ParseInt("a dimension"));
      form.perm.push_back(p);
    } while (c.TryConsume(','));
    XI_RETURN_IF_ERROR(c.Expect(')', "to close the permutation"));
  }
  std::vector<int64_t> sorted = form.perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] != static_cast<int64_t>(i) ||
        form.perm.size() != form.dims.size()) {
      return Invalid("the iota form's T(...) is not a permutation of its dims");
    }
  }
  std::optional<int64_t> count = CheckedProduct(form.dims);
  std::optional<int64_t> groups_count = CheckedProduct(shape);
  if (!count.has_value() || !groups_count.has_value() ||
      *count != *groups_count) {
    return Invalid(
        "the iota form's [groups, group size] and its dims hold "
        "different numbers of ids");
  }
  return form;
}

// The groups of an iota form, at most kMaxReplicaIds ids.
absl::StatusOr<std::vector<std::vector<int64_t>>> ExpandIota(
    const IotaForm& form) {
  const std::vector<int64_t>& dims = form.dims;
  const std::vector<int64_t>& perm = form.perm;
  // ParseIotaForm checked that the product fits in int64.
  const int64_t count = form.group_count * form.group_size;
  if (count > kMaxReplicaIds) {
    return Invalid(absl::StrCat("the iota form lists more than ",
                                kMaxReplicaIds, " replica ids"));
  }
  // Row-major strides of the untransposed array, permuted.
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  std::vector<int64_t> index(dims.size(), 0);  // over the transposed dims
  std::vector<std::vector<int64_t>> groups(form.group_count);
  for (int64_t k = 0; k < count; ++k) {
    int64_t id = 0;
    for (size_t i = 0; i < perm.size(); ++i) id += index[i] * strides[perm[i]];
    groups[k / form.group_size].push_back(id);
    for (int64_t i = static_cast<int64_t>(perm.size()) - 1; i >= 0; --i) {
      if (++index[i] < dims[perm[i]]) break;
      index[i] = 0;
    }
  }
  return groups;
}

absl::Status CheckGroups(const std::vector<std::vector<int64_t>>& groups) {
  absl::flat_hash_set<int64_t> seen;
  int64_t total = 0;
  for (const std::vector<int64_t>& group : groups) {
    if (group.empty()) return Invalid("a replica group is empty");
    if (group.size() != groups[0].size()) {
      return Invalid("replica groups differ in size");
    }
    total += static_cast<int64_t>(group.size());
    if (total > kMaxReplicaIds) {
      return Invalid(absl::StrCat("more than ", kMaxReplicaIds,
                                  " replica ids in replica_groups"));
    }
    for (int64_t id : group) {
      if (!seen.insert(id).second) {
        return Invalid(absl::StrCat("replica ", id,
                                    " is in more than one place of "
                                    "replica_groups"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status ExpectEnd(TextCursor& c) {
  if (!c.AtEnd()) return c.Error("unexpected text after the list");
  return absl::OkStatus();
}

}  // namespace

namespace {

absl::Status UnknownForm(absl::string_view text) {
  return Invalid(absl::StrCat(
      "replica_groups '", text,
      "': expected {{...},...} or the iota form [G,S]<=[N] (the mesh form "
      "mesh[...]{...} gives only the size of its groups)"));
}

// The explicit form `{{...},...}`, checked (CheckGroups).
absl::StatusOr<std::vector<std::vector<int64_t>>> ParseExplicitGroups(
    TextCursor& c) {
  XI_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> groups,
                      ParseNestedLists(c));
  XI_RETURN_IF_ERROR(ExpectEnd(c));
  XI_RETURN_IF_ERROR(CheckGroups(groups));
  return groups;
}

}  // namespace

absl::StatusOr<ReplicaGroups> ParseReplicaGroups(absl::string_view text) {
  TextCursor c(text);
  ReplicaGroups result;
  if (c.Peek() == '[') {
    XI_ASSIGN_OR_RETURN(IotaForm form, ParseIotaForm(c));
    XI_RETURN_IF_ERROR(ExpectEnd(c));
    XI_ASSIGN_OR_RETURN(result.groups, ExpandIota(form));
  } else if (c.Peek() == '{') {
    XI_ASSIGN_OR_RETURN(result.groups, ParseExplicitGroups(c));
  } else {
    return UnknownForm(text);
  }
  return result;
}

namespace {

// A quoted name, 'x' or "x" (XLA's lexer reads both as a string).
absl::StatusOr<std::string> ParseQuoted(TextCursor& c) {
  char quote = c.Peek();
  if (quote != '\'' && quote != '"') {
    return Invalid(
        absl::StrCat("expected a quoted axis name, found ", DescribeNext(c)));
  }
  const char* open = c.pos();
  const char* close = open + 1;
  while (close < c.end() && *close != quote) ++close;
  if (close >= c.end()) return Invalid("unterminated axis name");
  c.set_pos(close + 1);
  return std::string(open + 1, close);
}

// Listed mesh device ids (not the iota form) must be a permutation of
// 0..n-1 other than the identity (Mesh::Validate, which XLA's Mesh
// constructor CHECKs: XLA cannot build such a mesh).
absl::Status CheckMeshDeviceIds(std::vector<int64_t> ids) {
  if (std::is_sorted(ids.begin(), ids.end()) && !ids.empty() &&
      ids.front() == 0 && ids.back() == static_cast<int64_t>(ids.size()) - 1 &&
      std::adjacent_find(ids.begin(), ids.end()) == ids.end()) {
    return Invalid(
        "mesh device_ids 0,1,2,... in order: write the mesh without them");
  }
  std::sort(ids.begin(), ids.end());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != static_cast<int64_t>(i)) {
      return Invalid(absl::StrCat(
          "mesh device_ids must be a permutation of 0..", ids.size() - 1));
    }
  }
  return absl::OkStatus();
}

// `mesh['a'=2,'b'=4(, device_ids=(...))?]`: the axis names and sizes; the
// device ids, when listed, must be as many as the mesh has devices
// (HloParserImpl::ParseMesh).
absl::Status ParseMeshAxes(TextCursor& c, std::vector<std::string>& names,
                           std::vector<int64_t>& sizes) {
  if (!c.TryConsume('[')) return Invalid("expected '[' after mesh");
  if (c.TryConsume(']')) return absl::OkStatus();
  std::vector<int64_t> ids;
  while (true) {
    c.SkipSpace();
    if (c.TryConsumeWord("device_ids")) {
      if (!c.TryConsume('=') || !c.TryConsume('(')) {
        return Invalid("expected device_ids=(...)");
      }
      std::optional<int64_t> devices = CheckedProduct(sizes);
      if (!devices.has_value()) return Invalid("mesh size overflows int64");
      int64_t listed = 0;
      if (c.TryConsume('[')) {
        // Iota ids `[r1,r2,...]T(p1,p2,...)`: as many as the product.
        listed = 1;
        do {
          XI_ASSIGN_OR_RETURN(int64_t dim, c.ParseInt("device_ids size"));
          std::optional<int64_t> product = CheckedMul(listed, dim);
          if (dim < 0 || !product.has_value()) {
            return Invalid("bad device_ids iota size");
          }
          listed = *product;
        } while (c.TryConsume(','));
        if (!c.TryConsume(']')) return Invalid("expected ']' in device_ids");
        if (c.TryConsume('T')) {
          if (!c.TryConsume('(')) return Invalid("expected '(' after T");
          do {
            XI_RETURN_IF_ERROR(c.ParseInt("permutation entry").status());
          } while (c.TryConsume(','));
          if (!c.TryConsume(')')) return Invalid("expected ')' after T(...");
        }
      } else if (!c.TryConsume(')')) {
        do {
          XI_ASSIGN_OR_RETURN(int64_t id, c.ParseInt("device id"));
          ids.push_back(id);
        } while (c.TryConsume(','));
        listed = static_cast<int64_t>(ids.size());
      } else {
        c.set_pos(c.pos() - 1);
      }
      if (!c.TryConsume(')')) return Invalid("expected ')' after device_ids");
      if (listed != *devices) {
        return Invalid(absl::StrCat("expected ", *devices,
                                    " device_ids based on mesh axes, but got ",
                                    listed));
      }
      XI_RETURN_IF_ERROR(CheckMeshDeviceIds(std::move(ids)));
      break;
    }
    XI_ASSIGN_OR_RETURN(std::string name, ParseQuoted(c));
    if (!c.TryConsume('=')) return Invalid("expects '=' after axis name");
    XI_ASSIGN_OR_RETURN(int64_t size, c.ParseInt("axis size"));
    if (size < 1) return Invalid("mesh axis sizes must be positive");
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Invalid(absl::StrCat("mesh axis '", name, "' is named twice"));
    }
    names.push_back(std::move(name));
    sizes.push_back(size);
    if (!c.TryConsume(',')) break;
  }
  if (!c.TryConsume(']')) return Invalid("expected ']' to end mesh axes");
  return absl::OkStatus();
}

// An axis reference `'x'` (the whole axis) or `'x':(pre)size`, the sub-axis
// of `size` devices whose stride along the axis is `pre` (XLA's AxisRef).
struct MeshAxisRef {
  int64_t index;
  int64_t pre_size;
  int64_t size;
  bool sub;
  int64_t next_pre_size() const { return pre_size * size; }
};

// XLA's AxisRef constructor (pre-size >= 1, size > 1) and AxisRef::Validate
// (pre-size x size divides the axis, size < the axis), which XLA CHECKs when
// it builds the replica groups.
absl::Status CheckSubAxis(const MeshAxisRef& axis, int64_t axis_size) {
  if (axis.pre_size < 1 || axis.size < 2) {
    return Invalid("a sub-axis needs pre-size >= 1 and size > 1");
  }
  std::optional<int64_t> next = CheckedMul(axis.pre_size, axis.size);
  if (!next.has_value() || axis_size % *next != 0 || axis.size >= axis_size) {
    return Invalid(absl::StrCat("sub-axis :(", axis.pre_size, ")", axis.size,
                                " does not fit in an axis of size ", axis_size,
                                " (pre-size x size must divide it, size must "
                                "be smaller)"));
  }
  return absl::OkStatus();
}

// XLA's ValidateSpanOfAxes: no two references may overlap on one axis (a
// whole axis overlaps any other reference to it), sub-axes of one axis must
// coexist (the larger pre-size a multiple of the smaller next pre-size), and
// neighbours that join into one sub-axis must be written as one.
absl::Status CheckAxesApart(const std::vector<MeshAxisRef>& refs) {
  for (size_t i = 0; i < refs.size(); ++i) {
    for (size_t j = i + 1; j < refs.size(); ++j) {
      const MeshAxisRef& a = refs[i];
      const MeshAxisRef& b = refs[j];
      if (a.index != b.index) continue;
      const bool overlap =
          !a.sub || !b.sub ||
          (a.next_pre_size() > b.pre_size && b.next_pre_size() > a.pre_size);
      if (overlap || std::max(a.pre_size, b.pre_size) %
                             std::min(a.next_pre_size(), b.next_pre_size()) !=
                         0) {
        return Invalid(absl::StrCat("axes ", i, " and ", j,
                                    " of the group overlap or cannot coexist "
                                    "on mesh axis ",
                                    a.index));
      }
    }
  }
  for (size_t i = 0; i + 1 < refs.size(); ++i) {
    const MeshAxisRef& a = refs[i];
    const MeshAxisRef& b = refs[i + 1];
    if (a.index == b.index && a.sub && b.sub &&
        a.next_pre_size() == b.pre_size) {
      return Invalid(absl::StrCat("axes ", i, " and ", i + 1,
                                  " of the group can be merged into one "
                                  "sub-axis"));
    }
  }
  return absl::OkStatus();
}

// The mesh-axes form (HloParserImpl::ParseCollectiveDeviceListBase with
// ParseMesh and ParseAxisRefList): `mesh[axes] {refs}`, each ref an axis
// name or index, with `:(pre)size` for a sub-axis; the devices of a group
// vary the referenced axes, so a group holds the product of their sizes.
// `maximal_mesh[device_id=N] {}` is one device, N.
absl::StatusOr<GeneratedReplicaGroups> ParseMeshForm(TextCursor& c) {
  if (c.TryConsumeWord("maximal_mesh")) {
    if (!c.TryConsume('[') || !c.TryConsumeWord("device_id") ||
        !c.TryConsume('=')) {
      return Invalid("expected maximal_mesh[device_id=N]");
    }
    XI_ASSIGN_OR_RETURN(int64_t device, c.ParseInt("device id"));
    if (!c.TryConsume(']')) return Invalid("expected ']' to end maximal_mesh");
    if (!c.TryConsume('{') || !c.TryConsume('}')) {
      return Invalid("expected {} after maximal_mesh[...]");
    }
    return GeneratedReplicaGroups{1, 1, device};
  }
  if (!c.TryConsumeWord("mesh")) return Invalid("expected mesh[...]");
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  XI_RETURN_IF_ERROR(ParseMeshAxes(c, names, sizes));
  std::optional<int64_t> devices = CheckedProduct(sizes);
  if (!devices.has_value()) return Invalid("mesh size overflows int64");
  if (!c.TryConsume('{')) return Invalid("expected '{' after the mesh");
  std::vector<MeshAxisRef> refs;
  if (!c.TryConsume('}')) {
    do {
      XI_ASSIGN_OR_RETURN(std::string ref, ParseQuoted(c));
      auto it = std::find(names.begin(), names.end(), ref);
      int64_t index = it - names.begin();
      if (it == names.end() && !absl::SimpleAtoi(ref, &index)) {
        return Invalid(absl::StrCat("axis '", ref,
                                    "' is not a valid axis name or index in "
                                    "the mesh"));
      }
      if (index < 0 || index >= static_cast<int64_t>(names.size())) {
        return Invalid(absl::StrCat("axis index ", index,
                                    " is out of bounds for mesh which has ",
                                    names.size(), " axes"));
      }
      MeshAxisRef axis{index, 1, sizes[index], false};
      if (c.TryConsume(':')) {
        if (!c.TryConsume('(')) return Invalid("expected '(' in a sub-axis");
        XI_ASSIGN_OR_RETURN(axis.pre_size, c.ParseInt("sub-axis pre-size"));
        if (!c.TryConsume(')')) return Invalid("expected ')' in a sub-axis");
        XI_ASSIGN_OR_RETURN(axis.size, c.ParseInt("sub-axis size"));
        axis.sub = true;
        XI_RETURN_IF_ERROR(CheckSubAxis(axis, sizes[index]));
      }
      refs.push_back(axis);
    } while (c.TryConsume(','));
    if (!c.TryConsume('}')) return Invalid("expected '}' to end the axes");
  }
  XI_RETURN_IF_ERROR(CheckAxesApart(refs));
  // Apart, the axes' sizes multiply (sub-axes of one axis divide it, so
  // their product does too, and the group fits in the mesh).
  int64_t group = 1;
  for (const MeshAxisRef& axis : refs) {
    std::optional<int64_t> product = CheckedMul(group, axis.size);
    if (!product.has_value()) return Invalid("group size overflows int64");
    group = *product;
  }
  // The mesh's devices are 0..devices-1 (listed ids are checked to be a
  // permutation of them), split into devices/group groups of `group`.
  return GeneratedReplicaGroups{*devices, group, std::nullopt};
}

}  // namespace

absl::StatusOr<int64_t> ParseReplicaGroupSize(absl::string_view text) {
  TextCursor c(text);
  if (absl::StartsWith(text, "mesh") ||
      absl::StartsWith(text, "maximal_mesh")) {
    XI_ASSIGN_OR_RETURN(GeneratedReplicaGroups mesh, ParseMeshForm(c));
    XI_RETURN_IF_ERROR(ExpectEnd(c));
    return mesh.group_size;
  }
  if (c.Peek() == '[') {
    XI_ASSIGN_OR_RETURN(IotaForm form, ParseIotaForm(c));
    XI_RETURN_IF_ERROR(ExpectEnd(c));
    return form.group_size;
  }
  if (c.Peek() != '{') return UnknownForm(text);
  XI_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> groups,
                      ParseExplicitGroups(c));
  return groups.empty() ? 0 : static_cast<int64_t>(groups[0].size());
}

absl::StatusOr<WrittenReplicaGroups> ParseWrittenReplicaGroups(
    absl::string_view text) {
  TextCursor c(text);
  WrittenReplicaGroups result;
  if (absl::StartsWith(text, "mesh") ||
      absl::StartsWith(text, "maximal_mesh")) {
    XI_ASSIGN_OR_RETURN(result.generated, ParseMeshForm(c));
  } else if (c.Peek() == '[') {
    XI_ASSIGN_OR_RETURN(IotaForm form, ParseIotaForm(c));
    // ParseIotaForm checked that G*S fits in int64 and equals the product of
    // the dims, so the ids are a permutation of 0..G*S-1.
    result.generated = GeneratedReplicaGroups{
        form.group_count * form.group_size, form.group_size, std::nullopt};
  } else if (c.Peek() == '{') {
    XI_ASSIGN_OR_RETURN(result.listed,
                        ParseNestedLists(c, /*allow_negative=*/true));
  } else {
    return UnknownForm(text);
  }
  XI_RETURN_IF_ERROR(ExpectEnd(c));
  return result;
}

absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> ParseSourceTargetPairs(
    absl::string_view text) {
  TextCursor c(text);
  XI_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> lists,
                      ParseNestedLists(c));
  XI_RETURN_IF_ERROR(ExpectEnd(c));
  std::vector<std::pair<int64_t, int64_t>> pairs;
  absl::flat_hash_set<int64_t> sources, targets;
  for (const std::vector<int64_t>& pair : lists) {
    if (pair.size() != 2) {
      return Invalid("a source-target pair needs exactly two replica ids");
    }
    if (!sources.insert(pair[0]).second || !targets.insert(pair[1]).second) {
      return Invalid("two source-target pairs share a source or a target");
    }
    pairs.push_back({pair[0], pair[1]});
  }
  return pairs;
}

namespace {

// all-reduce, all-gather and reduce-scatter (and their -start forms) and
// collective-reduce (XLA's HloAllReduceInstructionBase) carry
// use_global_device_ids; all-to-all and collective-permute do not.
bool HasGlobalDeviceIdsFlag(const HloInstruction& collective) {
  absl::string_view name = collective.opcode_name();
  return absl::StartsWith(name, "all-reduce") ||
         absl::StartsWith(name, "all-gather") ||
         absl::StartsWith(name, "reduce-scatter") ||
         name == "collective-reduce";
}

absl::Status CollectiveError(const HloInstruction& collective,
                             absl::string_view message) {
  return Invalid(absl::StrCat(collective.opcode_name(), " '", collective.name(),
                              "': ", message));
}

}  // namespace

absl::StatusOr<CollectiveGroupMode> GetCollectiveGroupMode(
    const HloInstruction& collective) {
  const bool channel = collective.attribute("channel_id").has_value();
  const bool global =
      collective.attribute("use_global_device_ids").value_or("false") == "true";
  if (!channel) {
    if (global) {
      return CollectiveError(collective,
                             "use_global_device_ids=true needs a channel_id");
    }
    return CollectiveGroupMode::kCrossReplica;
  }
  if (!HasGlobalDeviceIdsFlag(collective)) {
    return CollectiveGroupMode::kCrossPartition;
  }
  return global ? CollectiveGroupMode::kFlattenedId
                : CollectiveGroupMode::kCrossReplicaAndPartition;
}

absl::StatusOr<CollectiveGroupSize> GetCollectiveGroupSize(
    const HloInstruction& collective) {
  CollectiveGroupSize result;
  XI_ASSIGN_OR_RETURN(result.mode, GetCollectiveGroupMode(collective));
  int64_t size = 0;  // 0: replica_groups={} or none, every replica.
  if (std::optional<absl::string_view> text =
          collective.attribute("replica_groups")) {
    absl::StatusOr<int64_t> parsed = ParseReplicaGroupSize(*text);
    if (!parsed.ok()) {
      return CollectiveError(
          collective,
          absl::StrCat("replica_groups: ", parsed.status().message()));
    }
    size = *parsed;
  }
  const bool all_replicas = size == 0;
  const HloModule* module =
      collective.parent() != nullptr ? collective.parent()->parent() : nullptr;
  std::optional<int64_t> replicas, partitions;
  if (module != nullptr) {
    replicas = module->replica_count();
    partitions = module->num_partitions();
  }
  auto unknown = [&](absl::string_view what) {
    result.size = 0;
    result.unknown_reason = absl::StrCat(
        collective.opcode_name(), " '", collective.name(), "': ", what,
        ", and the HLO has no HloModule header to state it");
    return result;
  };
  switch (result.mode) {
    case CollectiveGroupMode::kFlattenedId:
      if (all_replicas) {
        return CollectiveError(collective,
                               "use_global_device_ids=true needs explicit "
                               "replica_groups of device ids");
      }
      break;
    case CollectiveGroupMode::kCrossPartition:
      if (all_replicas) {
        if (!partitions) {
          return unknown("replica_groups={} (every partition)");
        }
        size = *partitions;
      }
      break;
    case CollectiveGroupMode::kCrossReplica:
    case CollectiveGroupMode::kCrossReplicaAndPartition:
      if (all_replicas) {
        if (!replicas) return unknown("replica_groups={} (every replica)");
        size = *replicas;
      }
      if (result.mode == CollectiveGroupMode::kCrossReplicaAndPartition) {
        if (!partitions) {
          return unknown(
              "channel_id without use_global_device_ids=true spans every "
              "partition (num_partitions)");
        }
        std::optional<int64_t> product = CheckedMul(size, *partitions);
        if (!product) {
          return CollectiveError(collective, "the group size overflows int64");
        }
        size = *product;
      }
      break;
  }
  result.size = size;
  return result;
}

}  // namespace xla_index

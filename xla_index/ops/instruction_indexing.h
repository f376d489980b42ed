#ifndef XLA_INDEX_OPS_INSTRUCTION_INDEXING_H_
#define XLA_INDEX_OPS_INSTRUCTION_INDEXING_H_

// The result type of every indexing rule: for each operand (or output) of an
// instruction, a duplicate-free list of indexing maps.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"
#include "xla_index/core/indexing_map.h"

namespace xla_index {

class HloInstruction;
class Shape;

/// A duplicate-free list of indexing maps, in insertion order (so printing
/// is deterministic). One operand may be read through several maps, e.g. p0
/// in `add(p0, transpose(p0))` is read at (d0, d1) and at (d1, d0).
///
/// A map of a collective (all-gather, all-reduce, ...) comes with a
/// replica-id map: besides which element is read, from which replica of the
/// group it is read (output to input) or to which replica it goes (input to
/// output). The replica-id map has one result, the position of that replica
/// in the executing replica's group (replica_groups order), and the same
/// variables (dims, symbols, constraints) as its element map: together they
/// are one relation, domain point -> (element index, group position). For
/// XLA's all-gather along dim 1 of f32[10,128] over 2 replicas:
///   element map  (d0, d1) -> (d0, d1 mod 128)
///   replica id   (d0, d1) -> (d1 floordiv 128)
/// Iterating the set gives the element maps; replica_map(i) gives the
/// replica-id map of entry i (nullopt for an op that stays on its replica).
class IndexingMapSet {
 public:
  IndexingMapSet() = default;
  IndexingMapSet(std::initializer_list<IndexingMap> maps) {
    for (const IndexingMap& map : maps) Insert(map);
  }

  /// Adds `map` (with replica-id map `replica_map`, see above) unless an
  /// equal entry is present: equal element maps and equal (or both absent)
  /// replica-id maps. Returns true if it was added.
  bool Insert(IndexingMap map,
              std::optional<IndexingMap> replica_map = std::nullopt);
  void InsertAll(const IndexingMapSet& other) {
    for (int64_t i = 0; i < other.size(); ++i) {
      Insert(other.maps_[i], other.replica_map(i));
    }
  }

  int64_t size() const { return static_cast<int64_t>(maps_.size()); }
  bool empty() const { return maps_.empty(); }
  const IndexingMap& operator[](int64_t i) const { return maps_[i]; }
  /// The replica-id map of entry i, or nullopt.
  const std::optional<IndexingMap>& replica_map(int64_t i) const {
    return replica_maps_.empty() ? kNoReplicaMap : replica_maps_[i];
  }
  /// True if some entry has a replica-id map.
  bool has_replica_maps() const { return !replica_maps_.empty(); }
  std::vector<IndexingMap>::const_iterator begin() const {
    return maps_.begin();
  }
  std::vector<IndexingMap>::const_iterator end() const { return maps_.end(); }
  const std::vector<IndexingMap>& maps() const { return maps_; }

 private:
  static const std::optional<IndexingMap> kNoReplicaMap;

  std::vector<IndexingMap> maps_;
  // One per entry once any entry has a replica-id map, else empty (most
  // sets never have one, and the walks build many small sets).
  std::vector<std::optional<IndexingMap>> replica_maps_;
  std::vector<size_t> hashes_;
};

/// The element map and the replica-id map of one entry as one map whose
/// last result is the replica position (the two share their variables, see
/// IndexingMapSet). Without a replica-id map, `map` itself.
IndexingMap JoinReplicaMap(const IndexingMap& map,
                           const std::optional<IndexingMap>& replica_map);
/// The inverse of JoinReplicaMap for a joint map with a replica result:
/// (the element map of the first `element_results` results, the replica-id
/// map of the last). Undefined and KnownEmpty split into two such maps.
std::pair<IndexingMap, IndexingMap> SplitReplicaMap(const IndexingMap& joint,
                                                    int64_t element_results);

/// `second` after `first` (ComposeIndexingMaps, then simplified with unused
/// symbols removed), carrying the replica-id maps: a replica-id map of
/// `second` is composed with `first`; one of `first` passes through
/// `second`. Both present (a collective reading a collective's result) has
/// no single group position: Undefined, with a reason, as in XLA.
std::pair<IndexingMap, std::optional<IndexingMap>> ComposeWithReplicaMaps(
    const IndexingMap& first, const std::optional<IndexingMap>& first_replica,
    const IndexingMap& second,
    const std::optional<IndexingMap>& second_replica);

/// Indexing of one instruction in one direction: `indexing_maps[k]` holds
/// the maps of operand k (output-to-input: from an output element to the
/// elements of operand k it reads) or of output k (input-to-output: from an
/// element of the chosen operand to the elements of output k it feeds).
struct HloInstructionIndexing {
  std::vector<IndexingMapSet> indexing_maps;

  /// One set with one map per entry of `maps`.
  static HloInstructionIndexing FromIndexingMaps(
      absl::Span<const IndexingMap> maps);
  /// `count` sets, each holding only the Undefined map (carrying `reason`):
  /// no rule is known.
  static HloInstructionIndexing Undefined(int64_t count,
                                          absl::string_view reason = "");

  /// Simplifies every map and removes its unused symbols (re-deduplicating).
  void Simplify();

  /// "operand id = K" followed by each map of operand K, for every K; a map
  /// with a replica-id map is followed by "replica id:" and that map, as XLA
  /// prints it. With `undefined_reasons` (what `xla-index analyze` prints),
  /// an UNDEFINED map is followed by its reason in parentheses, as operator<<
  /// of an IndexingMap prints it.
  std::string ToString(const std::string& label = "operand id",
                       bool undefined_reasons = false) const;
};

/// Streams indexing.ToString(): "operand id = K" then the maps of operand K,
/// for every K, as XLA's operator<< for HloInstructionIndexing does.
/// Undefined maps print "UNDEFINED", without their reason (`xla-index
/// analyze` prints ToString(label, /*undefined_reasons=*/true)).
std::ostream& operator<<(std::ostream& out,
                         const HloInstructionIndexing& indexing);

/// The number of outputs of `instruction`: the element count of a tuple
/// shape, 1 for any other shape. Output-to-input indexing takes an output id
/// in [0, OutputCount); input-to-output indexing has one entry per output.
int64_t OutputCount(const HloInstruction* instruction);

/// No rule is known, or the instruction's attributes do not fit its
/// operands: one set holding only the Undefined map per operand (the shape
/// of an output-to-input answer), each carrying `reason`.
HloInstructionIndexing UndefinedForEachOperand(
    const HloInstruction* instruction, absl::string_view reason = "");

/// The same per output, OutputCount(instruction) sets (the shape of an
/// input-to-output answer).
HloInstructionIndexing UndefinedForEachOutput(const HloInstruction* instruction,
                                              absl::string_view reason = "");

/// The reason a rule gives when its attribute checks fail:
/// "OPCODE 'NAME': attributes do not fit the operands", e.g.
/// "transpose 't': attributes do not fit the operands".
std::string AttributesDoNotFitReason(const HloInstruction* instruction);

/// UndefinedForEachOperand / UndefinedForEachOutput with
/// AttributesDoNotFitReason(instruction): the answer of a rule whose
/// attribute checks fail, in either direction.
HloInstructionIndexing AttributesDoNotFitEachOperand(
    const HloInstruction* instruction);
HloInstructionIndexing AttributesDoNotFitEachOutput(
    const HloInstruction* instruction);

/// (d0, ..., dn-1) -> (d0, ..., dn-1) over the dimensions of `shape` (an
/// array shape). A scalar gives `() -> ()`.
IndexingMap CreateIdentityMap(absl::Span<const int64_t> dims,
                              mlir::MLIRContext* context);
IndexingMap CreateIdentityMap(const Shape& shape, mlir::MLIRContext* context);

/// Simplify() then RemoveUnusedSymbols(): the normal form of composed maps
/// (and of rule maps whose construction leaves something to simplify).
void SimplifyAndRemoveUnusedSymbols(IndexingMap& map);

/// The text of a runtime variable's instruction as XLA prints it: arrays
/// carry their layout, the default {n-1, ..., 0} when none was written
/// (as in the gather example of XLA's indexing-analysis documentation:
/// "indices = s32[1806,2]{1,0} parameter(1)"; scalars have none:
/// "of1 = s32[] parameter(1)").
std::string RuntimeVarHloText(const HloInstruction& instruction);

/// A runtime variable holding a start index read from `source` at `access`
/// (a map from the owning map's dims to an element of `source`), with
/// feasible values [0, max_value] (the clamping rule of dynamic-slice,
/// dynamic-update-slice and gather).
RuntimeVar MakeRuntimeVar(const HloInstruction* source, int64_t max_value,
                          mlir::AffineMap access);

}  // namespace xla_index

#endif  // XLA_INDEX_OPS_INSTRUCTION_INDEXING_H_

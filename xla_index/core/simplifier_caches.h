#ifndef XLA_INDEX_CORE_SIMPLIFIER_CACHES_H_
#define XLA_INDEX_CORE_SIMPLIFIER_CACHES_H_

// What the affine simplifier remembers between rewrites, kept apart from
// the rewrites themselves: none of it changes a result, only how fast it
// comes. Every cache holds forms of one LinearForms pool and is cleared
// with it; those that depend on atom ranges are cleared (or marked stale)
// when a constraint tightens a range.

#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineExpr.h"
#include "xla_index/core/linear_form.h"

namespace xla_index {

struct SimplifierCaches {
  /// Linear forms of visited division numerators, by MLIR node: a composed
  /// map divides the same linear index by each stride.
  /// A map has a few numerators: they are scanned in a list (no hash table
  /// to initialize, hash and destroy per Simplify), indexed by a hash table
  /// only past kVisitedScan entries (a map built in code may have
  /// thousands).
  static constexpr size_t kVisitedScan = 32;
  llvm::SmallVector<const void*, 16> visited_nodes;
  llvm::SmallVector<LinearForm, 16> visited_forms;
  llvm::DenseMap<const void*, uint32_t> visited_index;  // Past the scan.
  const LinearForm* FindVisited(const void* node) const {
    if (visited_nodes.size() > kVisitedScan) {
      auto it = visited_index.find(node);
      return it == visited_index.end() ? nullptr : &visited_forms[it->second];
    }
    for (size_t i = 0; i < visited_nodes.size(); ++i) {
      if (visited_nodes[i] == node) return &visited_forms[i];
    }
    return nullptr;
  }
  /// Records `lin` for `node`, which FindVisited did not find. (No node is
  /// visited within its own visit: an expression is no subexpression of
  /// itself, so nothing adds `node` in between.)
  void AddVisited(const void* node, const LinearForm& lin) {
    assert(FindVisited(node) == nullptr && "visited twice");
    visited_nodes.push_back(node);
    visited_forms.push_back(lin);
    if (visited_nodes.size() == kVisitedScan + 1) {
      for (size_t i = 0; i < visited_nodes.size(); ++i) {
        visited_index[visited_nodes[i]] = i;
      }
    } else if (visited_nodes.size() > kVisitedScan + 1) {
      visited_index[node] = visited_nodes.size() - 1;
    }
  }
  /// Set when an atom's range changed since the `visited` entries were
  /// made: a simplification must not use them (their bounds are looser),
  /// an atom lookup may (SetAtomRange).
  bool visited_stale = false;

  /// Results of `numerator floordiv divisor` / `numerator mod divisor` in a
  /// composition chain (each map of a chain of reshapes divides the same
  /// linear index by its strides again), keyed by a hash of (kind, divisor,
  /// numerator and its bounds).
  struct Division {
    AtomKind kind;
    int64_t divisor;
    LinearForm numerator;
    LinearForm result;
  };
  llvm::DenseMap<uint64_t, Division> divisions;

  /// For a mod atom `x mod c`, the atom that `x floordiv c` simplifies to
  /// (`quotients`), and for a floordiv atom the atom `x mod c` simplifies
  /// to (`remainders`), or nullopt when that is not a single atom; absent
  /// when not computed yet (the sum rules pair digits and ask repeatedly).
  /// (Lists: a map has a few division atoms, and a hash table's allocation
  /// or initialization per simplification would cost more than the scan.)
  struct Digit {
    int32_t division;
    std::optional<int32_t> other;
  };
  llvm::SmallVector<Digit, 4> quotients, remainders;
  static const std::optional<int32_t>* Find(llvm::ArrayRef<Digit> digits,
                                            int32_t division) {
    for (const Digit& d : digits) {
      if (d.division == division) return &d.other;
    }
    return nullptr;
  }

  /// Numerators of floordiv/mod atoms already built as MLIR: `x floordiv c`
  /// and `x mod c` come in pairs (digits), and x is built once.
  llvm::SmallVector<std::pair<LinearForm, mlir::AffineExpr>, 4> built_args;

  /// Constants already uniqued by MLIR (they do not depend on the box).
  llvm::SmallVector<std::pair<int64_t, mlir::AffineExpr>, 8> constants;

  void ClearVisited() {
    visited_nodes.clear();
    visited_forms.clear();
    visited_index.clear();
    visited_stale = false;
  }
  void ForgetStaleVisits() {
    if (visited_stale) ClearVisited();
  }
  /// After an atom's range tightened: derived results may now simplify
  /// further.
  void AtomRangeChanged() {
    quotients.clear();
    remainders.clear();
    divisions.clear();
    visited_stale = true;
  }
  /// After the pool was reset.
  void Clear() {
    divisions.clear();
    quotients.clear();
    remainders.clear();
    built_args.clear();
    ClearVisited();
  }
};

}  // namespace xla_index

#endif  // XLA_INDEX_CORE_SIMPLIFIER_CACHES_H_

#ifndef XLA_INDEX_HLO_SHAPE_H_
#define XLA_INDEX_HLO_SHAPE_H_

// Shapes and layouts of HLO values, kept as data exactly as XLA writes them:
//
//   bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}
//   ^^^^ ^^^^^^^^^^^^^^  ^^^^^^^  ^^^^^^^^^^^^^^^^
//   type dimensions      minor_to_major  tiles, memory space, ...
//
// (XLA's tiled-layout and shapes-and-layout documentation). The tiling math
// lives in layout/; here a layout is only parsed, printed and compared.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlo/primitive_type.h"

namespace xla_index {

class Shape;

/// One tile of a tiled layout, `(8,128)` or `(*,*,2,*,3)`. Entries are most
/// major first; a `*` entry (kCombined) merges that dimension into the next
/// more minor one before tiling (XLA's tiled-layout documentation).
struct Tile {
  /// The value that stands for `*`; XLA's tiled-layout documentation: "a
  /// subsumed dimension is represented by a value of -1, which is not valid as
  /// a tile size".
  static constexpr int64_t kCombined = -1;

  std::vector<int64_t> dimensions;

  bool operator==(const Tile& other) const {
    return dimensions == other.dimensions;
  }
  bool operator!=(const Tile& other) const { return !(*this == other); }
};

/// `SC(dimension:index,index,...)`: where a dimension is split into chunks.
struct SplitConfig {
  int64_t dimension = 0;
  std::vector<int64_t> split_indices;

  bool operator==(const SplitConfig& other) const {
    return dimension == other.dimension && split_indices == other.split_indices;
  }
};

/// The `{...}` after the dimensions of an array shape. Every field XLA prints
/// is kept, so printing gives back the same text:
///   {m2m : D(levels) T(tile)(tile) L(n) #(type) *(type) E(n) S(n) SC(..)
///          P(shape) M(n)}
struct Layout {
  /// Dimension numbers from the fastest-varying (minor) to the slowest.
  std::vector<int64_t> minor_to_major;
  /// Sparse level types as written inside D(...), e.g. "D", "C", "S+", "H~".
  std::vector<std::string> dim_level_types;
  /// Tiles, applied one after the other (XLA's tiled-layout documentation).
  std::vector<Tile> tiles;
  /// L(n): the tiled array is padded at the end to a multiple of n elements.
  int64_t tail_padding_alignment_in_elements = 1;
  /// #(type): element type of sparse index arrays; kInvalid when absent.
  PrimitiveType index_primitive_type = PrimitiveType::kInvalid;
  /// *(type): element type of sparse pointer arrays; kInvalid when absent.
  PrimitiveType pointer_primitive_type = PrimitiveType::kInvalid;
  /// E(n): bits per element when packed (e.g. E(4) for s4); 0 when absent.
  int64_t element_size_in_bits = 0;
  /// S(n): memory space; 0 (device HBM) when absent, 1 is VMEM, 5 host.
  int64_t memory_space = 0;
  std::vector<SplitConfig> split_configs;
  /// P(shape): the physical shape of a sparse array; null when absent.
  std::shared_ptr<const Shape> physical_shape;
  /// M(n): bytes of dynamic-shape metadata before the data.
  int64_t dynamic_shape_metadata_prefix_bytes = 0;

  /// True when something follows the minor_to_major list (a `:` part).
  bool HasAttributes() const;
  /// `1,0:T(2,2)` (without braces).
  std::string ToString() const;

  bool operator==(const Layout& other) const;
  bool operator!=(const Layout& other) const { return !(*this == other); }
};

/// The shape of an HLO value: an array (element type + dimensions, optional
/// layout), a tuple of shapes, a token or an opaque value.
class Shape {
 public:
  /// An invalid shape (element type kInvalid); parsing never returns one.
  Shape() = default;
  /// Array of `type` with the given dimension sizes, no layout.
  Shape(PrimitiveType type, std::vector<int64_t> dimensions);

  static Shape MakeTuple(std::vector<Shape> elements);
  static Shape MakeToken();

  PrimitiveType element_type() const { return element_type_; }
  void set_element_type(PrimitiveType type) { element_type_ = type; }

  bool IsArray() const { return IsArrayType(element_type_); }
  bool IsTuple() const { return element_type_ == PrimitiveType::kTuple; }
  bool IsToken() const { return element_type_ == PrimitiveType::kToken; }
  bool IsScalar() const { return IsArray() && dimensions_.empty(); }

  /// Number of dimensions (0 for scalars and non-arrays).
  int64_t rank() const { return static_cast<int64_t>(dimensions_.size()); }
  absl::Span<const int64_t> dimensions() const { return dimensions_; }
  int64_t dimensions(int64_t i) const { return dimensions_[i]; }
  void set_dimensions(std::vector<int64_t> dimensions);
  /// The size of an unbounded dynamic dimension, written `?` (XLA's
  /// value). Such a shape has no element count (ElementCount saturates) and
  /// the verifier refuses it wherever the entry's result depends on it.
  static constexpr int64_t kUnboundedSize = std::numeric_limits<int64_t>::min();
  /// True when a dimension is `?`.
  bool HasUnboundedDimension() const;
  /// XLA's buffer shape `b(f32[8])`: an array held in a buffer; everything
  /// else about it is the array's.
  bool is_buffer() const { return is_buffer_; }
  void set_buffer(bool buffer) { is_buffer_ = buffer; }
  /// `<=n` dimensions: n is the bound, the runtime size may be smaller.
  bool is_dynamic_dimension(int64_t i) const { return dynamic_[i]; }
  void set_dynamic_dimension(int64_t i, bool dynamic) { dynamic_[i] = dynamic; }

  const std::vector<Shape>& tuple_shapes() const { return tuple_shapes_; }
  std::vector<Shape>* mutable_tuple_shapes() { return &tuple_shapes_; }
  const Shape& tuple_shapes(int64_t i) const { return tuple_shapes_[i]; }

  bool has_layout() const { return layout_.has_value(); }
  /// Requires has_layout().
  const Layout& layout() const { return *layout_; }
  Layout* mutable_layout();
  void set_layout(Layout layout) { layout_ = std::move(layout); }
  void clear_layout() { layout_.reset(); }

  /// Product of the dimension sizes (1 for a scalar); 0 for non-arrays.
  int64_t ElementCount() const;

  /// XLA's text: `f32[2,3]{1,0}`, `(f32[], s32[4])`, `token[]`. Tuples print
  /// their elements' layouts too.
  std::string ToString(bool print_layout = true) const;

  /// Equal element types, dimensions, dynamic flags and tuple elements;
  /// layouts are ignored (XLA's ShapeUtil::Compatible).
  bool CompatibleWith(const Shape& other) const;
  /// Like CompatibleWith but element types are not compared either.
  bool SameDimensions(const Shape& other) const;

  /// Full equality, layouts included.
  bool operator==(const Shape& other) const;
  bool operator!=(const Shape& other) const { return !(*this == other); }

 private:
  PrimitiveType element_type_ = PrimitiveType::kInvalid;
  std::vector<int64_t> dimensions_;
  std::vector<bool> dynamic_;
  std::vector<Shape> tuple_shapes_;
  std::optional<Layout> layout_;
  bool is_buffer_ = false;
};

/// Parses one shape in XLA's syntax, the whole text (surrounding spaces
/// allowed), e.g. "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
/// "(f32[10], s32[])", "f32[<=16,4]", "F32[3,5]{1,0:T(2,2)}" (the upper-case
/// type names of XLA's tiled-layout documentation are accepted). Errors name
/// line:column, e.g. "1:9: expected ']' or ',' in dimension list".
absl::StatusOr<Shape> ParseShape(absl::string_view text);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_SHAPE_H_

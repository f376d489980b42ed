#include "hlo/parser.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/checked_arithmetic.h"
#include "base/status_macros.h"
#include "hlo/attributes.h"
#include "hlo/literal.h"
#include "hlo/module.h"
#include "hlo/opcode.h"
#include "hlo/shape.h"
#include "hlo/shape_inference.h"
#include "hlo/shape_parser.h"
#include "hlo/text_cursor.h"
#include "hlo/verifier.h"
#include "hlo/xla_parser_checks.h"

namespace xla_index {
namespace {

// Attribute names whose value names one computation.
bool IsComputationRole(absl::string_view name) {
  return name == "to_apply" || name == "calls" || name == "condition" ||
         name == "body" || name == "select" || name == "scatter" ||
         name == "true_computation" || name == "false_computation" ||
         name == "comparator";
}

// Attribute names whose value is a list of computations `{%a, %b}`.
bool IsComputationListRole(absl::string_view name) {
  return name == "branch_computations" || name == "called_computations";
}

// The attributes XLA's parser requires of an op (it refuses the op
// without them): the ones naming computations, and those without which the
// op has no meaning (a compare's direction, a reduce's dimensions).
absl::Span<const absl::string_view> RequiredAttributes(HloOpcode op) {
  static constexpr absl::string_view kDirection[] = {"direction"};
  static constexpr absl::string_view kToApply[] = {"to_apply"};
  static constexpr absl::string_view kReduce[] = {"dimensions", "to_apply"};
  static constexpr absl::string_view kFusion[] = {"kind", "calls"};
  static constexpr absl::string_view kDimensions[] = {"dimensions"};
  static constexpr absl::string_view kIndex[] = {"index"};
  static constexpr absl::string_view kSlice[] = {"slice"};
  static constexpr absl::string_view kPadding[] = {"padding"};
  static constexpr absl::string_view kIota[] = {"iota_dimension"};
  static constexpr absl::string_view kDynamicSlice[] = {"dynamic_slice_sizes"};
  switch (op) {
    case HloOpcode::kCompare:
      return kDirection;
    case HloOpcode::kReduceWindow:
    case HloOpcode::kMap:
    case HloOpcode::kScatter:
    case HloOpcode::kCall:
      return kToApply;
    case HloOpcode::kReduce:
    case HloOpcode::kSort:
      return kReduce;
    case HloOpcode::kFusion:
      return kFusion;
    case HloOpcode::kTranspose:
    case HloOpcode::kConcatenate:
      return kDimensions;
    case HloOpcode::kGetTupleElement:
      return kIndex;
    case HloOpcode::kSlice:
      return kSlice;
    case HloOpcode::kPad:
      return kPadding;
    case HloOpcode::kIota:
      return kIota;
    case HloOpcode::kDynamicSlice:
      return kDynamicSlice;
    default:
      return {};
  }
}

// What the text says about an instruction until its computation is read
// whole. Names view the text (or a nested instruction's own name); shapes
// are the interned ones, null when not written.
struct PendingOperand {
  absl::string_view name;
  const char* position;
  std::shared_ptr<const Shape> written_shape;
};

struct PendingInstruction {
  HloInstruction* instruction;
  const char* position;
  std::vector<PendingOperand> operands;
  bool has_shape = false;
  // control-predecessors= is written (checked once the names are known).
  bool has_control_predecessors = false;
  std::shared_ptr<const Shape> leading_shape;
};

struct PendingCall {
  HloInstruction* instruction;
  size_t index;  // into called_computations()
  const char* position;
};

class Parser {
 public:
  explicit Parser(absl::string_view text) : cursor_(text) {}

  absl::StatusOr<std::unique_ptr<HloModule>> Run();

 private:
  absl::Status ParseModuleBody(HloModule& module);
  absl::Status ParseComputation(HloModule& module);
  absl::Status ParseInstructionList(HloComputation& computation,
                                    char terminator);
  absl::Status ParseInstruction(HloComputation& computation,
                                std::vector<PendingInstruction>& pending,
                                const char** root_position,
                                HloInstruction** root);
  absl::StatusOr<HloInstruction*> ParseInstructionRhs(
      HloComputation& computation, std::vector<PendingInstruction>& pending,
      const char* start, std::string name, std::shared_ptr<const Shape> shape,
      std::shared_ptr<const Shape> leading_shape, bool allow_attributes);
  absl::Status ParseInstructionArguments(
      HloComputation& computation, std::vector<PendingInstruction>& pending,
      PendingInstruction& entry, const char* opcode_start);
  absl::Status ParseOperands(HloComputation& computation,
                             std::vector<PendingInstruction>& pending,
                             PendingInstruction& entry);
  absl::Status ReadCompactTupleElement(HloComputation& computation,
                                       std::vector<PendingInstruction>& pending,
                                       PendingOperand& operand);
  void RenameCollidingElements(HloComputation& computation,
                               const std::vector<PendingInstruction>& pending);
  bool NestedInstructionFollows();
  bool NamedDefinitionFollows();
  std::string FreshName(absl::string_view opcode_name);
  absl::Status FinishComputation(HloComputation& computation,
                                 std::vector<PendingInstruction>& pending);
  absl::StatusOr<int64_t> CheckNamesAndParameters(
      const HloComputation& computation,
      const std::vector<PendingInstruction>& pending);
  absl::Status ResolveOperands(HloComputation& computation,
                               std::vector<PendingInstruction>& pending,
                               int64_t next_parameter);
  absl::Status CheckAcyclic(const HloComputation& computation,
                            const std::vector<PendingInstruction>& pending);
  absl::StatusOr<std::vector<PendingInstruction*>> OperandsFirstOrder(
      const HloComputation& computation,
      std::vector<PendingInstruction>& pending);
  absl::Status CheckAsyncPairs(const std::vector<PendingInstruction>& pending);
  absl::Status CheckAndInferShapes(absl::Span<PendingInstruction* const> order);
  // `seen` indexes the instruction's attribute names once it has many
  // (AttributeGivenTwice).
  absl::Status ParseAttribute(HloInstruction& instruction,
                              absl::flat_hash_set<std::string>& seen);
  absl::StatusOr<HloComputation*> ReadInlineComputation(
      const HloInstruction& instruction, absl::string_view role);
  bool InlineListFollows();
  absl::Status ParseInlineComputation(HloInstruction& instruction,
                                      absl::string_view role, const char* start,
                                      absl::flat_hash_set<std::string>& seen);
  absl::Status ApplyTypedAttribute(HloInstruction& instruction,
                                   absl::string_view name,
                                   absl::string_view value);
  absl::Status ApplyComputationAttribute(HloInstruction& instruction,
                                         absl::string_view name,
                                         TextCursor& value);
  absl::Status ResolveCalls(bool final_pass);
  bool AtStackFrameSection();
  absl::Status CheckModuleAttribute(absl::string_view name,
                                    absl::string_view value);
  absl::Status CheckNotSecondModule();
  absl::Status CheckNotStackFrameTable();
  bool AtWord(absl::string_view word);
  absl::Status ExpectWord(absl::string_view word);
  absl::Status ReadStackFrameIndex();
  absl::Status ReadStackFrameStrings();
  absl::Status ReadStackFrameRecords(
      absl::Span<const absl::string_view> fields);

  // Name with optional '%' (a view of the text); error naming `what` when
  // missing.
  absl::StatusOr<absl::string_view> ParseName(absl::string_view what);
  absl::StatusOr<absl::string_view> ScanRawValue(absl::string_view name);
  absl::StatusOr<absl::string_view> ScanLiteralValue();
  absl::Status ReadCustomCallLiteral(int depth);
  absl::Status SkipBalanced(char open, char close);

  // Nested operands recurse; hostile text must not exhaust the stack.
  static constexpr int kMaxNesting = 64;

  TextCursor cursor_;
  ShapeInterner shapes_;
  bool snippet_ = false;
  // Names of the computation being read, for FreshName; they view the
  // instructions' own names.
  absl::flat_hash_set<absl::string_view> used_names_;
  // The get-tuple-elements made for compact operands in the computation
  // being read, by `name#i#j...`, and in the order made.
  // A compact operand's name views its key here (node-based: keys stay put),
  // which holds '#' as no instruction name does; it is resolved through
  // this map, since the element's own name may still change
  // (RenameCollidingElements).
  absl::node_hash_map<std::string, HloInstruction*> compact_elements_;
  std::vector<HloInstruction*> compact_elements_made_;
  int64_t next_fresh_name_ = 0;
  int nesting_depth_ = 0;
  // Inline computations being read around the cursor; operands written as
  // bare shapes are read only outside them (HloParserImpl::ParseOperands:
  // scoped_name_tables_.size() == 1).
  int inline_depth_ = 0;
  // ParseAttribute read control-predecessors= for the instruction being read.
  bool saw_control_predecessors_ = false;
  // Names made for operands written as bare shapes (viewed by operands).
  std::deque<std::string> made_names_;
  // What the broadcast scalars of the whole text may still materialize
  // (`f32[N] constant(0)`), so that a few bytes per line cannot ask for
  // megabytes per line (hlo/literal.h).
  int64_t broadcast_elements_left_ = kMaxBroadcastElements;
  HloModule* module_ = nullptr;
  std::vector<PendingCall> calls_;
  absl::flat_hash_map<std::string, HloComputation*> computations_by_name_;
  // Per NAME.ROLE of an inline computation, the suffix K to try next.
  absl::flat_hash_map<std::string, int64_t> next_inline_suffix_;
};

absl::StatusOr<absl::string_view> Parser::ParseName(absl::string_view what) {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  cursor_.TryConsume('%');  // XLA's sigil is not part of the name.
  absl::string_view word = cursor_.ParseWord();
  if (word.empty()) {
    cursor_.set_pos(start);
    return cursor_.Error(
        absl::StrCat("expected ", what, ", found ", DescribeNext(cursor_)));
  }
  if (word == "ROOT") {
    // Printed without the sigil, `ROOT = ...` would read as the keyword.
    cursor_.set_pos(start);
    return cursor_.Error(
        absl::StrCat("expected ", what, ", found the keyword 'ROOT'"));
  }
  return word;
}

absl::Status Parser::SkipBalanced(char open, char close) {
  const char* start = cursor_.pos();
  int64_t depth = 0;
  for (const char* p = cursor_.pos(); p < cursor_.end(); ++p) {
    if (*p == open) ++depth;
    if (*p == close && --depth == 0) {
      cursor_.set_pos(p + 1);
      return absl::OkStatus();
    }
  }
  return cursor_.ErrorAt(
      start, absl::StrCat("unterminated '", std::string(1, open), "'"));
}

// The bytes at which ScanRawValue must look: quotes, brackets, and the
// separators that end a value outside brackets. Every other byte is skipped.
struct RawValueStops {
  bool stop[256] = {};
  constexpr RawValueStops() {
    for (char c : {'"', '(', ')', '{', '}', '[', ']', ',', ' ', '\t', '\n',
                   '\r', '\f', '\v'}) {
      stop[static_cast<unsigned char>(c)] = true;
    }
  }
};
constexpr RawValueStops kRawValueStops;

// The closing '"' of the string whose opening quote is at `open`, or null:
// a quote preceded by an odd number of backslashes is escaped.
const char* StringEnd(const char* open, const char* end) {
  for (const char* p = open + 1; p < end; ++p) {
    p = static_cast<const char*>(std::memchr(p, '"', end - p));
    if (p == nullptr) return nullptr;
    const char* q = p;
    while (q > open + 1 && q[-1] == '\\') --q;
    if ((p - q) % 2 == 0) return p;
  }
  return nullptr;
}

absl::StatusOr<absl::string_view> Parser::ScanRawValue(absl::string_view name) {
  const char* before_space = cursor_.pos();
  cursor_.SkipSpace();
  if (cursor_.pos() >= cursor_.end() || cursor_.PeekRaw() == ',') {
    return cursor_.ErrorAt(
        before_space,
        absl::StrCat("expected a value for attribute '", name, "'"));
  }
  const char* start = cursor_.pos();
  const char* end = cursor_.end();
  const char* p = start;
  absl::InlinedVector<char, 16> closers;
  while (p < end) {
    if (!kRawValueStops.stop[static_cast<unsigned char>(*p)]) {
      ++p;
      continue;
    }
    char c = *p;
    if (c == '"') {
      const char* q = StringEnd(p, end);
      if (q == nullptr) {
        return cursor_.ErrorAt(p, absl::StrCat("unterminated string in "
                                               "attribute '",
                                               name, "'"));
      }
      p = q + 1;
      continue;
    }
    if (c == '(' || c == '{' || c == '[') {
      closers.push_back(c == '(' ? ')' : c == '{' ? '}' : ']');
    } else if (c == ')' || c == '}' || c == ']') {
      if (closers.empty()) break;
      if (closers.back() != c) {
        return cursor_.ErrorAt(p,
                               absl::StrCat("mismatched '", std::string(1, c),
                                            "' in attribute '", name, "'"));
      }
      closers.pop_back();
    } else if (closers.empty()) {
      break;  // ',' or a space outside brackets ends the value.
    }
    ++p;
  }
  if (!closers.empty()) {
    return cursor_.ErrorAt(start, absl::StrCat("unterminated value of "
                                               "attribute '",
                                               name, "'"));
  }
  if (p == start) {
    return cursor_.ErrorAt(
        start, absl::StrCat("expected a value for attribute '", name, "'"));
  }
  cursor_.set_pos(p);
  return absl::string_view(start, p - start);
}

// ---- Typed attribute values. Each reads from `c`, positioned at the
// value's start; the caller checks that the whole value was consumed. ----

absl::StatusOr<std::vector<int64_t>> ParseIntList(TextCursor& c) {
  std::vector<int64_t> values;
  XI_RETURN_IF_ERROR(c.Expect('{', "to open a list of integers"));
  if (c.TryConsume('}')) return values;
  do {
    XI_ASSIGN_OR_RETURN(int64_t v, c.ParseInt("list element"));
    values.push_back(v);
  } while (c.TryConsume(','));
  XI_RETURN_IF_ERROR(c.Expect('}', "or ',' in a list of integers"));
  return values;
}

absl::StatusOr<int64_t> ParseSingleInt(TextCursor& c) {
  return c.ParseInt("attribute value");
}

absl::StatusOr<bool> ParseBool(TextCursor& c) {
  if (c.TryConsumeWord("true")) return true;
  if (c.TryConsumeWord("false")) return false;
  return c.Error(
      absl::StrCat("expected true or false, found ", DescribeNext(c)));
}

absl::StatusOr<std::vector<SliceDimension>> ParseSliceRanges(TextCursor& c) {
  std::vector<SliceDimension> ranges;
  XI_RETURN_IF_ERROR(c.Expect('{', "to open the slice ranges"));
  if (c.TryConsume('}')) return ranges;
  do {
    SliceDimension d;
    XI_RETURN_IF_ERROR(
        c.Expect('[', "to open a slice range [start:limit:stride]"));
    XI_ASSIGN_OR_RETURN(d.start, c.ParseInt("slice start"));
    XI_RETURN_IF_ERROR(c.Expect(':', "after the slice start"));
    XI_ASSIGN_OR_RETURN(d.limit, c.ParseInt("slice limit"));
    if (c.TryConsume(':')) {
      XI_ASSIGN_OR_RETURN(d.stride, c.ParseInt("slice stride"));
    }
    XI_RETURN_IF_ERROR(c.Expect(']', "to close a slice range"));
    ranges.push_back(d);
  } while (c.TryConsume(','));
  XI_RETURN_IF_ERROR(c.Expect('}', "or ',' in the slice ranges"));
  return ranges;
}

// `low_high[_interior]` entries joined by 'x'.
absl::StatusOr<PaddingConfig> ParsePadding(TextCursor& c, bool allow_interior) {
  PaddingConfig config;
  do {
    PaddingDimension d;
    XI_ASSIGN_OR_RETURN(d.low, c.ParseInt("low padding"));
    XI_RETURN_IF_ERROR(c.Expect('_', "between low and high padding"));
    XI_ASSIGN_OR_RETURN(d.high, c.ParseInt("high padding"));
    if (allow_interior && c.PeekRaw() == '_') {
      c.set_pos(c.pos() + 1);
      XI_ASSIGN_OR_RETURN(d.interior, c.ParseInt("interior padding"));
    }
    config.push_back(d);
  } while (c.PeekRaw() == 'x' && (c.set_pos(c.pos() + 1), true));
  return config;
}

absl::StatusOr<std::vector<int64_t>> ParseXSeparated(TextCursor& c,
                                                     absl::string_view what) {
  std::vector<int64_t> values;
  do {
    XI_ASSIGN_OR_RETURN(int64_t v, c.ParseInt(what));
    values.push_back(v);
  } while (c.PeekRaw() == 'x' && (c.set_pos(c.pos() + 1), true));
  return values;
}

absl::StatusOr<Window> ParseWindow(TextCursor& c) {
  const char* start = c.pos();
  XI_RETURN_IF_ERROR(c.Expect('{', "to open the window"));
  std::vector<int64_t> size, stride, lhs_dilate, rhs_dilate, reversal;
  PaddingConfig pad;
  bool has_size = false;
  while (!c.TryConsume('}')) {
    c.SkipSpace();
    const char* key_start = c.pos();
    absl::string_view key = c.ParseWord();
    if (key.empty()) {
      return c.Error(
          absl::StrCat("expected a window field (size, stride, "
                       "pad, lhs_dilate, rhs_dilate, "
                       "rhs_reversal) or '}', found ",
                       DescribeNext(c)));
    }
    XI_RETURN_IF_ERROR(c.Expect('=', absl::StrCat("after window field ", key)));
    if (key == "pad") {
      XI_ASSIGN_OR_RETURN(pad, ParsePadding(c, false));
      continue;
    }
    XI_ASSIGN_OR_RETURN(std::vector<int64_t> values, ParseXSeparated(c, key));
    if (key == "size") {
      size = values;
      has_size = true;
    } else if (key == "stride") {
      stride = values;
    } else if (key == "lhs_dilate") {
      lhs_dilate = values;
    } else if (key == "rhs_dilate") {
      rhs_dilate = values;
    } else if (key == "rhs_reversal") {
      reversal = values;
    } else {
      return c.ErrorAt(key_start,
                       absl::StrCat("unknown window field '", key, "'"));
    }
  }
  if (!has_size) return c.ErrorAt(start, "window without size=");
  size_t rank = size.size();
  auto check = [&](size_t n, absl::string_view what) -> absl::Status {
    if (n != 0 && n != rank) {
      return c.ErrorAt(start, absl::StrCat("window ", what, " has ", n,
                                           " entries but size has ", rank));
    }
    return absl::OkStatus();
  };
  for (auto [n, what] : std::vector<std::pair<size_t, absl::string_view>>{
           {stride.size(), "stride"},
           {pad.size(), "pad"},
           {lhs_dilate.size(), "lhs_dilate"},
           {rhs_dilate.size(), "rhs_dilate"},
           {reversal.size(), "rhs_reversal"}}) {
    XI_RETURN_IF_ERROR(check(n, what));
  }
  Window window;
  window.dimensions.resize(rank);
  for (size_t i = 0; i < rank; ++i) {
    WindowDimension& d = window.dimensions[i];
    d.size = size[i];
    if (!stride.empty()) d.stride = stride[i];
    if (!pad.empty()) {
      d.padding_low = pad[i].low;
      d.padding_high = pad[i].high;
    }
    if (!lhs_dilate.empty()) d.base_dilation = lhs_dilate[i];
    if (!rhs_dilate.empty()) d.window_dilation = rhs_dilate[i];
    if (!reversal.empty()) d.window_reversal = reversal[i] != 0;
  }
  return window;
}

// `b01f_01io->b01f`: position k of each label is dimension k of the input,
// kernel and output; 'b'/'f' (input, output) and 'i'/'o' (kernel) name the
// batch and feature dimensions and digit n the n-th spatial dimension.
absl::StatusOr<ConvolutionDimensionNumbers> ParseDimLabels(
    TextCursor& c, absl::string_view value) {
  const char* start = c.pos();
  size_t underscore = value.find('_');
  size_t arrow = value.find("->");
  if (underscore == absl::string_view::npos ||
      arrow == absl::string_view::npos || arrow < underscore) {
    return c.ErrorAt(start, "dim_labels must look like b01f_01io->b01f");
  }
  absl::string_view input = value.substr(0, underscore);
  absl::string_view kernel =
      value.substr(underscore + 1, arrow - underscore - 1);
  absl::string_view output = value.substr(arrow + 2);
  ConvolutionDimensionNumbers dnums;
  int64_t spatial = static_cast<int64_t>(input.size()) - 2;
  if (spatial < 0 || static_cast<int64_t>(kernel.size()) != spatial + 2 ||
      static_cast<int64_t>(output.size()) != spatial + 2) {
    return c.ErrorAt(start,
                     "dim_labels parts must have the same length "
                     "(spatial dimensions + 2)");
  }
  auto parse_part = [&](absl::string_view part, char first, char second,
                        int64_t* first_dim, int64_t* second_dim,
                        std::vector<int64_t>* spatial_dims) -> absl::Status {
    spatial_dims->assign(spatial, -1);
    bool seen_first = false, seen_second = false;
    for (size_t k = 0; k < part.size(); ++k) {
      char ch = part[k];
      if (ch == first && !seen_first) {
        *first_dim = k;
        seen_first = true;
      } else if (ch == second && !seen_second) {
        *second_dim = k;
        seen_second = true;
      } else if (ch >= '0' && ch <= '9' && ch - '0' < spatial &&
                 (*spatial_dims)[ch - '0'] == -1) {
        (*spatial_dims)[ch - '0'] = k;
      } else {
        return c.ErrorAt(part.data() + k,
                         absl::StrCat("unexpected '", std::string(1, ch),
                                      "' in dim_labels part '", part, "'"));
      }
    }
    return absl::OkStatus();
  };
  XI_RETURN_IF_ERROR(parse_part(input, 'b', 'f', &dnums.input_batch_dimension,
                                &dnums.input_feature_dimension,
                                &dnums.input_spatial_dimensions));
  XI_RETURN_IF_ERROR(parse_part(kernel, 'i', 'o',
                                &dnums.kernel_input_feature_dimension,
                                &dnums.kernel_output_feature_dimension,
                                &dnums.kernel_spatial_dimensions));
  XI_RETURN_IF_ERROR(parse_part(output, 'b', 'f', &dnums.output_batch_dimension,
                                &dnums.output_feature_dimension,
                                &dnums.output_spatial_dimensions));
  c.set_pos(value.data() + value.size());
  return dnums;
}

absl::StatusOr<ComparisonDirection> ParseDirection(TextCursor& c) {
  c.SkipSpace();
  const char* start = c.pos();
  absl::string_view word = c.ParseWord();
  static constexpr std::pair<absl::string_view, ComparisonDirection>
      kDirections[] = {
          {"EQ", ComparisonDirection::kEq}, {"NE", ComparisonDirection::kNe},
          {"GE", ComparisonDirection::kGe}, {"GT", ComparisonDirection::kGt},
          {"LE", ComparisonDirection::kLe}, {"LT", ComparisonDirection::kLt}};
  for (const auto& [name, direction] : kDirections) {
    if (word == name) return direction;
  }
  return c.ErrorAt(start, absl::StrCat("expected a comparison direction (EQ, "
                                       "NE, GE, GT, LE, LT), found '",
                                       word, "'"));
}

// The setters of the attributes whose value is a list of integers, an
// integer or a boolean, by attribute name; each stores the value in the
// instruction's typed fields. index_vector_dim is shared by gather and
// scatter, whichever the instruction is.
using IntListSetter = void (*)(HloInstruction&, std::vector<int64_t>);
using IntSetter = void (*)(HloInstruction&, int64_t);
using BoolSetter = void (*)(HloInstruction&, bool);

IntListSetter FindIntListSetter(absl::string_view name) {
  static const auto* const kSetters = new absl::flat_hash_map<absl::string_view,
                                                              IntListSetter>{
      {"dimensions",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.set_dimensions(std::move(v));
       }},
      {"lhs_batch_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_dot_dimension_numbers()->lhs_batch_dimensions = std::move(v);
       }},
      {"rhs_batch_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_dot_dimension_numbers()->rhs_batch_dimensions = std::move(v);
       }},
      {"lhs_contracting_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_dot_dimension_numbers()->lhs_contracting_dimensions =
             std::move(v);
       }},
      {"rhs_contracting_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_dot_dimension_numbers()->rhs_contracting_dimensions =
             std::move(v);
       }},
      {"offset_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_gather_dimension_numbers()->offset_dims = std::move(v);
       }},
      {"collapsed_slice_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_gather_dimension_numbers()->collapsed_slice_dims =
             std::move(v);
       }},
      {"start_index_map",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_gather_dimension_numbers()->start_index_map = std::move(v);
       }},
      {"operand_batching_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_gather_dimension_numbers()->operand_batching_dims =
             std::move(v);
       }},
      {"start_indices_batching_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_gather_dimension_numbers()->start_indices_batching_dims =
             std::move(v);
       }},
      {"slice_sizes",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.set_gather_slice_sizes(std::move(v));
       }},
      {"update_window_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_scatter_dimension_numbers()->update_window_dims =
             std::move(v);
       }},
      {"inserted_window_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_scatter_dimension_numbers()->inserted_window_dims =
             std::move(v);
       }},
      {"scatter_dims_to_operand_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_scatter_dimension_numbers()->scatter_dims_to_operand_dims =
             std::move(v);
       }},
      {"input_batching_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_scatter_dimension_numbers()->input_batching_dims =
             std::move(v);
       }},
      {"scatter_indices_batching_dims",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.mutable_scatter_dimension_numbers()->scatter_indices_batching_dims =
             std::move(v);
       }},
      {"dynamic_slice_sizes",
       [](HloInstruction& i, std::vector<int64_t> v) {
         i.set_dynamic_slice_sizes(std::move(v));
       }},
  };
  auto it = kSetters->find(name);
  return it == kSetters->end() ? nullptr : it->second;
}

// The int-list setter of `name` for `op`: slice_sizes is a gather's list;
// collective-permute's in-place form writes a list of lists under the same
// name (HloParserImpl::ParseInstructionRhs, kCollectivePermute), kept as
// text.
IntListSetter FindIntListSetter(absl::string_view name, HloOpcode op) {
  if (name == "slice_sizes" && op != HloOpcode::kGather) return nullptr;
  return FindIntListSetter(name);
}

IntSetter FindIntSetter(absl::string_view name, HloOpcode op) {
  // `index` is an attribute of other ops too (as text); only
  // get-tuple-element's is its tuple index.
  if (name == "index") {
    if (op != HloOpcode::kGetTupleElement) return nullptr;
    return [](HloInstruction& i, int64_t v) { i.set_tuple_index(v); };
  }
  static const auto* const kSetters =
      new absl::flat_hash_map<absl::string_view, IntSetter>{
          {"feature_group_count",
           [](HloInstruction& i, int64_t v) { i.set_feature_group_count(v); }},
          {"batch_group_count",
           [](HloInstruction& i, int64_t v) { i.set_batch_group_count(v); }},
          {"index_vector_dim",
           [](HloInstruction& i, int64_t v) {
             i.mutable_gather_dimension_numbers()->index_vector_dim = v;
             i.mutable_scatter_dimension_numbers()->index_vector_dim = v;
           }},
          {"iota_dimension",
           [](HloInstruction& i, int64_t v) { i.set_iota_dimension(v); }},
          {"exponent_bits",
           [](HloInstruction& i, int64_t v) { i.set_exponent_bits(v); }},
          {"mantissa_bits",
           [](HloInstruction& i, int64_t v) { i.set_mantissa_bits(v); }},
      };
  auto it = kSetters->find(name);
  return it == kSetters->end() ? nullptr : it->second;
}

BoolSetter FindBoolSetter(absl::string_view name) {
  if (name == "indices_are_sorted") {
    return [](HloInstruction& i, bool v) { i.set_indices_are_sorted(v); };
  }
  if (name == "unique_indices") {
    return [](HloInstruction& i, bool v) { i.set_unique_indices(v); };
  }
  if (name == "is_stable") {
    return [](HloInstruction& i, bool v) { i.set_is_stable(v); };
  }
  return nullptr;
}

// `%name` or, for the list roles, `{%a, %b}`: the names with where each
// is written.
absl::StatusOr<std::vector<std::pair<std::string, const char*>>>
ParseComputationNames(TextCursor& c, bool list) {
  std::vector<std::pair<std::string, const char*>> names;
  auto parse_one = [&]() -> absl::Status {
    c.SkipSpace();
    const char* p = c.pos();
    c.TryConsume('%');
    absl::string_view word = c.ParseWord();
    if (word.empty()) return c.Error("expected a computation name");
    names.push_back({std::string(word), p});
    return absl::OkStatus();
  };
  if (!list) {
    XI_RETURN_IF_ERROR(parse_one());
    return names;
  }
  XI_RETURN_IF_ERROR(c.Expect('{', "to open a list of computations"));
  if (c.TryConsume('}')) return names;
  do {
    XI_RETURN_IF_ERROR(parse_one());
  } while (c.TryConsume(','));
  XI_RETURN_IF_ERROR(c.Expect('}', "to close a list of computations"));
  return names;
}

// Computation references are recorded for every op, known or not, so that
// the module's call graph is complete; they are resolved by ResolveCalls.
absl::Status Parser::ApplyComputationAttribute(HloInstruction& inst,
                                               absl::string_view name,
                                               TextCursor& c) {
  XI_ASSIGN_OR_RETURN(auto names,
                      ParseComputationNames(c, IsComputationListRole(name)));
  for (auto& [called_name, position] : names) {
    inst.mutable_called_computations()->push_back(
        {std::string(name), called_name, nullptr});
    calls_.push_back({&inst, inst.called_computations().size() - 1, position});
  }
  return absl::OkStatus();
}

// The attributes with a structure of their own (slice ranges, padding,
// window, dim_labels, direction, fusion kind). Returns false, reading
// nothing, for a name that is none of them.
absl::StatusOr<bool> ApplyStructuredAttribute(HloInstruction& inst,
                                              absl::string_view name,
                                              absl::string_view value,
                                              TextCursor& c) {
  HloOpcode op = inst.opcode();
  if (name == "slice" && op == HloOpcode::kSlice) {
    XI_ASSIGN_OR_RETURN(std::vector<SliceDimension> v, ParseSliceRanges(c));
    inst.set_slice(std::move(v));
  } else if (name == "padding" && op == HloOpcode::kPad) {
    XI_ASSIGN_OR_RETURN(PaddingConfig v, ParsePadding(c, true));
    inst.set_padding_config(std::move(v));
  } else if (name == "window") {
    XI_ASSIGN_OR_RETURN(Window v, ParseWindow(c));
    inst.set_window(std::move(v));
  } else if (name == "dim_labels") {
    XI_ASSIGN_OR_RETURN(ConvolutionDimensionNumbers v,
                        ParseDimLabels(c, value));
    inst.set_convolution_dimension_numbers(std::move(v));
  } else if (name == "direction") {
    XI_ASSIGN_OR_RETURN(ComparisonDirection v, ParseDirection(c));
    inst.set_comparison_direction(v);
  } else if (name == "kind") {
    inst.set_fusion_kind(std::string(value));
    c.set_pos(value.data() + value.size());
  } else {
    return false;
  }
  return true;
}

absl::Status Parser::ApplyTypedAttribute(HloInstruction& inst,
                                         absl::string_view name,
                                         absl::string_view value) {
  TextCursor c = cursor_;
  c.set_pos(value.data());
  if (IsComputationRole(name) || IsComputationListRole(name)) {
    XI_RETURN_IF_ERROR(ApplyComputationAttribute(inst, name, c));
  } else if (inst.opcode() == HloOpcode::kUnknown) {
    return absl::OkStatus();  // Opaque op: its attributes stay text.
  } else if (IntListSetter set = FindIntListSetter(name, inst.opcode())) {
    XI_ASSIGN_OR_RETURN(std::vector<int64_t> v, ParseIntList(c));
    set(inst, std::move(v));
  } else if (IntSetter set = FindIntSetter(name, inst.opcode())) {
    XI_ASSIGN_OR_RETURN(int64_t v, ParseSingleInt(c));
    set(inst, v);
  } else if (BoolSetter set = FindBoolSetter(name)) {
    XI_ASSIGN_OR_RETURN(bool v, ParseBool(c));
    set(inst, v);
  } else {
    XI_ASSIGN_OR_RETURN(bool applied,
                        ApplyStructuredAttribute(inst, name, value, c));
    if (!applied) return absl::OkStatus();  // Kept as text only.
  }
  c.SkipSpace();
  if (c.pos() < value.data() + value.size()) {
    return c.Error(absl::StrCat("unexpected ", DescribeNext(c),
                                " in attribute '", name, "'"));
  }
  return absl::OkStatus();
}

// Whether `instruction` already has an attribute `name`. Real instructions
// have a handful, scanned directly; past kScanned the names are indexed in
// `names` (filled on first use), since a scan per attribute made an
// instruction of A attributes cost O(A^2) (80,000 took 5.7 s).
bool AttributeGivenTwice(const HloInstruction& instruction,
                         absl::string_view name,
                         absl::flat_hash_set<std::string>& names) {
  constexpr size_t kScanned = 16;
  const std::vector<HloAttribute>& attributes = instruction.attributes();
  if (attributes.size() < kScanned) {
    return instruction.attribute(name).has_value();
  }
  if (names.empty()) {
    for (const HloAttribute& attribute : attributes) {
      names.insert(attribute.name);
    }
  }
  return !names.insert(std::string(name)).second;
}

// `to_apply={ ... }`: a computation written in place of its name. It is
// read as a computation of its own (named after the instruction and the
// role, made unique), added to the module, and the attribute then names
// it, so that the printed module defines it once and refers to it by name.
absl::StatusOr<HloComputation*> Parser::ReadInlineComputation(
    const HloInstruction& instruction, absl::string_view role) {
  if (++nesting_depth_ > kMaxNesting) {
    return cursor_.Error("inline computations nest too deep");
  }
  // NAME.ROLE, else the first free NAME.ROLE.K (K = 1, 2, ...). Names are
  // never freed, so the search resumes after the suffix used last for this
  // base: instructions of the same name in N computations cost O(N), not
  // O(N^2).
  const std::string base = absl::StrCat(instruction.name(), ".", role);
  int64_t& next_suffix = next_inline_suffix_[base];
  std::string name = base;
  if (next_suffix == 0 && !computations_by_name_.contains(name)) {
    next_suffix = 1;
  } else {
    next_suffix = std::max<int64_t>(next_suffix, 1);
    do {
      name = absl::StrCat(base, ".", next_suffix++);
    } while (computations_by_name_.contains(name));
  }
  HloComputation* computation =
      module_->AddComputation(std::make_unique<HloComputation>(name));
  computations_by_name_[name] = computation;
  XI_RETURN_IF_ERROR(cursor_.Expect('{', "to open an inline computation"));
  ++inline_depth_;
  XI_RETURN_IF_ERROR(ParseInstructionList(*computation, '}'));
  --inline_depth_;
  XI_RETURN_IF_ERROR(cursor_.Expect('}', "to close an inline computation"));
  --nesting_depth_;
  return computation;
}

absl::Status Parser::ParseInlineComputation(
    HloInstruction& instruction, absl::string_view role, const char* start,
    absl::flat_hash_set<std::string>& seen) {
  std::vector<HloComputation*> computations;
  if (IsComputationListRole(role)) {
    // `branch_computations={ {...}, {...} }` (HloParserImpl::
    // ParseComputationList reads a computation in place of each name).
    XI_RETURN_IF_ERROR(cursor_.Expect('{', "to open a list of computations"));
    do {
      XI_ASSIGN_OR_RETURN(HloComputation * computation,
                          ReadInlineComputation(instruction, role));
      computations.push_back(computation);
    } while (cursor_.TryConsume(','));
    XI_RETURN_IF_ERROR(cursor_.Expect('}', "to close a list of computations"));
  } else {
    XI_ASSIGN_OR_RETURN(HloComputation * computation,
                        ReadInlineComputation(instruction, role));
    computations.push_back(computation);
  }
  if (AttributeGivenTwice(instruction, role, seen)) {
    return cursor_.ErrorAt(start,
                           absl::StrCat("attribute '", role, "' given twice"));
  }
  std::vector<std::string> names;
  for (HloComputation* computation : computations) {
    names.push_back(absl::StrCat("%", computation->name()));
    instruction.mutable_called_computations()->push_back(
        {std::string(role), computation->name(), computation});
  }
  instruction.mutable_attributes()->push_back(
      {std::string(role),
       IsComputationListRole(role)
           ? absl::StrCat("{", absl::StrJoin(names, ", "), "}")
           : names[0]});
  return absl::OkStatus();
}

// `{ {` after `branch_computations=`: a list of computations in place.
bool Parser::InlineListFollows() {
  const char* start = cursor_.pos();
  bool list = cursor_.TryConsume('{') && cursor_.Peek() == '{';
  cursor_.set_pos(start);
  return list;
}

// `literal=s32[2] {1, 2}` (custom-call's literal): a shape and a literal of
// it, with spaces, so it is read with the literal grammar and kept as text.
// HloParserImpl::ParseLiteral also reads an untyped tuple of such literals,
// `(s32[2] {1, 2}, (f32[] 0.5))`, nested to any depth up to kMaxNesting.
absl::StatusOr<absl::string_view> Parser::ScanLiteralValue() {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  XI_RETURN_IF_ERROR(ReadCustomCallLiteral(0));
  return absl::string_view(start, cursor_.pos() - start);
}

absl::Status Parser::ReadCustomCallLiteral(int depth) {
  if (depth > kMaxNesting) {
    return cursor_.Error("literal tuples nest too deep");
  }
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  absl::StatusOr<Shape> shape = ParseShapeAtCursor(cursor_);
  if (shape.ok() || start >= cursor_.end() || *start != '(') {
    XI_RETURN_IF_ERROR(shape.status());
    return ParseLiteralAtCursor(cursor_, *shape, &broadcast_elements_left_)
        .status();
  }
  // Not a tuple shape: an untyped tuple of literals.
  cursor_.set_pos(start + 1);
  if (cursor_.TryConsume(')')) return absl::OkStatus();
  do {
    XI_RETURN_IF_ERROR(ReadCustomCallLiteral(depth + 1));
  } while (cursor_.TryConsume(','));
  return cursor_.Expect(')', "to close a tuple of literals");
}

absl::Status Parser::ParseAttribute(HloInstruction& instruction,
                                    absl::flat_hash_set<std::string>& seen) {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  absl::string_view name = cursor_.ParseWord();
  if (name.empty()) {
    return cursor_.Error(absl::StrCat("expected an attribute name, found ",
                                      DescribeNext(cursor_)));
  }
  if (!cursor_.TryConsume('=')) {
    return cursor_.Expect('=',
                          absl::StrCat("after attribute name '", name, "'"));
  }
  if ((IsComputationRole(name) && cursor_.Peek() == '{') ||
      (IsComputationListRole(name) && InlineListFollows())) {
    return ParseInlineComputation(instruction, name, start, seen);
  }
  absl::string_view value;
  if (name == "literal") {
    XI_ASSIGN_OR_RETURN(value, ScanLiteralValue());
  } else {
    XI_ASSIGN_OR_RETURN(value, ScanRawValue(name));
  }
  if (name == "replica_groups" && (absl::StartsWith(value, "mesh[") ||
                                   absl::StartsWith(value, "maximal_mesh["))) {
    // `mesh['x'=2,'y'=2] {'y'}`: the axes follow the mesh, after spaces
    // (HloParserImpl::ParseCollectiveDeviceListBase reads tokens).
    if (cursor_.Peek() == '{') {
      XI_RETURN_IF_ERROR(SkipBalanced('{', '}'));
      value = absl::string_view(value.data(), cursor_.pos() - value.data());
    }
  }
  if (AttributeGivenTwice(instruction, name, seen)) {
    return cursor_.ErrorAt(start,
                           absl::StrCat("attribute '", name, "' given twice"));
  }
  instruction.mutable_attributes()->push_back(
      {std::string(name), std::string(value)});
  // What XLA's parser checks of the attribute alone (result_accuracy,
  // sharding, replica_groups, parameter_replication), while it is at hand.
  std::string error = CheckAttributeAsXlaParserDoes(instruction, name, value);
  if (!error.empty()) return cursor_.ErrorAt(start, error);
  saw_control_predecessors_ =
      saw_control_predecessors_ || name == "control-predecessors";
  return ApplyTypedAttribute(instruction, name, value);
}

// A name for an instruction the text leaves unnamed (`f32[2] negate(p)`, or
// a nested operand): the opcode and a number, as XLA's name uniquer gives,
// skipping the names taken so far in the computation.
std::string Parser::FreshName(absl::string_view opcode_name) {
  std::string name;
  do {
    name = absl::StrCat(opcode_name, ".", next_fresh_name_++);
  } while (used_names_.contains(name));
  return name;
}

// `(p0, f32[10] %p1, f32[10] negate(p2))`: each operand is a name, with an
// optional shape that is checked later, or an unnamed instruction nested in
// place, which is parsed now (without attributes: XLA reads a comma after
// it as the next operand) and comes before the instruction using it.
absl::Status Parser::ParseOperands(HloComputation& computation,
                                   std::vector<PendingInstruction>& pending,
                                   PendingInstruction& entry) {
  if (cursor_.TryConsume(')')) return absl::OkStatus();
  do {
    PendingOperand operand;
    XI_ASSIGN_OR_RETURN(std::shared_ptr<const Shape> shape,
                        shapes_.ParseIfShape(cursor_));
    cursor_.SkipSpace();
    operand.position = cursor_.pos();
    if (NestedInstructionFollows()) {
      if (++nesting_depth_ > kMaxNesting) {
        return cursor_.Error("nested instructions are too deep");
      }
      XI_ASSIGN_OR_RETURN(
          HloInstruction * nested,
          ParseInstructionRhs(computation, pending, operand.position, "",
                              std::move(shape), nullptr, false));
      --nesting_depth_;
      operand.name = nested->name();
    } else if (shape != nullptr && snippet_ && inline_depth_ == 0 &&
               (cursor_.Peek() == ',' || cursor_.Peek() == ')')) {
      // `multiply(f32[2,4], f32[2,4])`: a single-op text's operand given by
      // its shape alone is a parameter (HloParserImpl::ParseOperands, with
      // create_missing_instruction_), numbered in order.
      operand.written_shape = std::move(shape);
      std::string name;
      do {
        name = FreshName("parameter");
      } while (computation.GetInstruction(name) != nullptr);
      made_names_.push_back(std::move(name));
      operand.name = made_names_.back();
      used_names_.insert(operand.name);
    } else {
      operand.written_shape = std::move(shape);
      XI_ASSIGN_OR_RETURN(operand.name, ParseName("an operand name"));
      if (cursor_.Peek() == '#') {
        XI_RETURN_IF_ERROR(
            ReadCompactTupleElement(computation, pending, operand));
      }
    }
    entry.operands.push_back(std::move(operand));
  } while (cursor_.TryConsume(','));
  return cursor_.Expect(')', "or ',' after an operand");
}

// `t#1#0` (HloParserImpl::ParseOperands: `name ('#' integer)*`): each
// index reads one tuple element with a get-tuple-element, made once per
// computation for each distinct prefix (`t#1` serves `t#1` and `t#1#0`),
// added before its user and named as XLA names it, '#' -> '_' (`t_1_0`,
// else `t_1_0.K`). Its shape is inferred, which checks that the operand is
// a tuple with that element; a written shape must be the element's.
absl::Status Parser::ReadCompactTupleElement(
    HloComputation& computation, std::vector<PendingInstruction>& pending,
    PendingOperand& operand) {
  std::string key(operand.name);
  HloInstruction* current = nullptr;  // Null: the named operand itself.
  absl::string_view current_name = operand.name;
  while (true) {
    if (!cursor_.TryConsume('#')) break;
    cursor_.SkipSpace();
    const char* index_at = cursor_.pos();
    XI_ASSIGN_OR_RETURN(int64_t index,
                        cursor_.ParseInt("a tuple element index"));
    if (index < 0) {
      return cursor_.ErrorAt(index_at,
                             "tuple element indices must not be negative");
    }
    absl::StrAppend(&key, "#", index);
    auto [it, inserted] = compact_elements_.try_emplace(key, nullptr);
    if (!inserted) {
      current = it->second;
      current_name = it->first;
      continue;
    }
    std::string name = absl::StrReplaceAll(key, {{"#", "_"}});
    for (int64_t k = 1; used_names_.contains(name); ++k) {
      name = absl::StrCat(absl::StrReplaceAll(key, {{"#", "_"}}), ".", k);
    }
    auto element = std::make_unique<HloInstruction>(
        std::move(name), HloOpcode::kGetTupleElement, "get-tuple-element");
    element->set_tuple_index(index);
    element->mutable_attributes()->push_back({"index", absl::StrCat(index)});
    auto [line, column] = cursor_.LineColumn(operand.position);
    element->set_source_position(line, column);
    PendingOperand tuple;
    tuple.name = current_name;
    tuple.position = operand.position;
    current = element.get();
    current_name = it->first;
    it->second = current;
    used_names_.insert(current->name());
    compact_elements_made_.push_back(current);
    computation.AddInstruction(std::move(element));
    pending.push_back(
        {current, operand.position, {tuple}, false, false, nullptr});
  }
  operand.name = current_name;
  return absl::OkStatus();
}

// A compact operand's get-tuple-element takes its name when it is read; an
// instruction written later with that name keeps it, and the element is
// renamed `NAME.K`.
void Parser::RenameCollidingElements(
    HloComputation& computation,
    const std::vector<PendingInstruction>& pending) {
  if (compact_elements_made_.empty()) return;
  absl::flat_hash_set<const HloInstruction*> made(
      compact_elements_made_.begin(), compact_elements_made_.end());
  absl::flat_hash_set<std::string> written;
  for (const PendingInstruction& p : pending) {
    if (!made.contains(p.instruction)) written.insert(p.instruction->name());
  }
  for (HloInstruction* element : compact_elements_made_) {
    if (!written.contains(element->name())) continue;
    std::string name;
    for (int64_t k = 1;; ++k) {
      name = absl::StrCat(element->name(), ".", k);
      if (!written.contains(name) &&
          computation.GetInstruction(name) == nullptr)
        break;
    }
    used_names_.erase(element->name());
    computation.RenameInstruction(element, std::move(name));
    used_names_.insert(element->name());
  }
}

// A word followed by '(' starts a nested instruction (its opcode is checked
// when it is read); an operand name is never followed by '('.
bool Parser::NestedInstructionFollows() {
  const char* start = cursor_.pos();
  absl::string_view word = cursor_.ParseWord();
  bool nested = !word.empty() && cursor_.Peek() == '(';
  cursor_.set_pos(start);
  return nested;
}

// `parameter(n)`, `constant(literal)` or `(operands)`, after the '('.
absl::Status Parser::ParseInstructionArguments(
    HloComputation& computation, std::vector<PendingInstruction>& pending,
    PendingInstruction& entry, const char* opcode_start) {
  HloInstruction& inst = *entry.instruction;
  if (inst.opcode() == HloOpcode::kParameter) {
    cursor_.SkipSpace();
    const char* number_start = cursor_.pos();
    XI_ASSIGN_OR_RETURN(int64_t number, cursor_.ParseInt("parameter number"));
    if (number < 0) {
      return cursor_.ErrorAt(number_start,
                             "parameter numbers must not be negative");
    }
    inst.set_parameter_number(number);
    XI_RETURN_IF_ERROR(cursor_.Expect(')', "after the parameter number"));
    if (!entry.has_shape) {
      return cursor_.ErrorAt(
          opcode_start,
          absl::StrCat("parameter '", inst.name(), "' needs a written shape"));
    }
    return absl::OkStatus();
  }
  if (inst.opcode() == HloOpcode::kConstant) {
    if (!entry.has_shape) {
      return cursor_.ErrorAt(
          opcode_start,
          absl::StrCat("constant '", inst.name(), "' needs a written shape"));
    }
    XI_ASSIGN_OR_RETURN(
        Literal literal,
        ParseLiteralAtCursor(cursor_, inst.shape(), &broadcast_elements_left_));
    inst.set_literal(std::move(literal));
    return cursor_.Expect(')', "after the constant's value");
  }
  return ParseOperands(computation, pending, entry);
}

// Everything after `name =` (or after the leading shape of an unnamed
// instruction): [shape] opcode '(' arguments ')' [, attribute]*. The
// instruction is added to the computation (after any nested operand).
absl::StatusOr<HloInstruction*> Parser::ParseInstructionRhs(
    HloComputation& computation, std::vector<PendingInstruction>& pending,
    const char* start, std::string name, std::shared_ptr<const Shape> shape,
    std::shared_ptr<const Shape> leading_shape, bool allow_attributes) {
  if (shape == nullptr) {
    XI_ASSIGN_OR_RETURN(shape, shapes_.ParseIfShape(cursor_));
  }
  cursor_.SkipSpace();
  const char* opcode_start = cursor_.pos();
  absl::string_view opcode_name = cursor_.ParseWord();
  if (opcode_name.empty()) {
    return cursor_.Error(absl::StrCat("expected a shape or an opcode after '",
                                      name, " =', found ",
                                      DescribeNext(cursor_)));
  }
  if (cursor_.PeekRaw() == '[') {
    // `f31[10]`: a shape with a type name we do not know.
    return cursor_.ErrorAt(
        opcode_start, absl::StrCat("unknown element type '", opcode_name, "'"));
  }
  if (!cursor_.TryConsume('(')) {
    return cursor_.Expect('(',
                          absl::StrCat("after opcode '", opcode_name, "'"));
  }
  if (!IsXlaOpcodeName(opcode_name)) {
    return cursor_.ErrorAt(opcode_start,
                           absl::StrCat("unknown opcode '", opcode_name, "'"));
  }
  if (name.empty()) name = FreshName(opcode_name);
  HloOpcode opcode = HloOpcodeFromName(opcode_name);
  auto owned = std::make_unique<HloInstruction>(std::move(name), opcode,
                                                std::string(opcode_name));
  HloInstruction* inst = owned.get();
  used_names_.insert(inst->name());
  auto [line, column] = cursor_.LineColumn(start);
  inst->set_source_position(line, column);
  if (shape != nullptr) inst->set_shape(shape);
  PendingInstruction entry{
      inst, start, {}, shape != nullptr, false, std::move(leading_shape)};
  XI_RETURN_IF_ERROR(
      ParseInstructionArguments(computation, pending, entry, opcode_start));
  absl::flat_hash_set<std::string> attribute_names;
  while (allow_attributes && cursor_.TryConsume(',')) {
    XI_RETURN_IF_ERROR(ParseAttribute(*inst, attribute_names));
  }
  entry.has_control_predecessors =
      std::exchange(saw_control_predecessors_, false);
  for (absl::string_view required : RequiredAttributes(opcode)) {
    if (!inst->attribute(required).has_value()) {
      return cursor_.ErrorAt(opcode_start,
                             absl::StrCat(opcode_name, " '", inst->name(),
                                          "' needs ", required, "=..."));
    }
  }
  computation.AddInstruction(std::move(owned));
  pending.push_back(std::move(entry));
  return inst;
}

// True when `name =` follows (after a leading shape, which then belongs to a
// named instruction, not an unnamed one).
bool Parser::NamedDefinitionFollows() {
  const char* start = cursor_.pos();
  cursor_.SkipSpace();
  cursor_.TryConsume('%');
  bool named = !cursor_.ParseWord().empty() && cursor_.Peek() == '=';
  cursor_.set_pos(start);
  return named;
}

// [ROOT] name = [shape] opcode(...), or [ROOT] shape opcode(...) unnamed; a
// snippet may also write `shape name = ...` (a leading shape).
absl::Status Parser::ParseInstruction(HloComputation& computation,
                                      std::vector<PendingInstruction>& pending,
                                      const char** root_position,
                                      HloInstruction** root) {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  bool is_root = cursor_.TryConsumeWord("ROOT");
  cursor_.SkipSpace();
  const char* name_position = cursor_.pos();
  std::shared_ptr<const Shape> leading_shape;
  XI_ASSIGN_OR_RETURN(std::shared_ptr<const Shape> shape,
                      shapes_.ParseIfShape(cursor_));
  if (shape != nullptr && snippet_ && NamedDefinitionFollows()) {
    leading_shape = std::move(shape);
  }
  // HloParserImpl::ParseInstruction reads `name =` first ("expects
  // name"); only a single-instruction text (ParseSingleInstruction) may
  // leave it out, so unnamed instructions are a snippet's leniency.
  if (shape != nullptr && leading_shape == nullptr && !snippet_) {
    return cursor_.ErrorAt(
        name_position,
        "expected an instruction name: in a module every instruction is "
        "written `name = shape opcode(...)`");
  }
  absl::string_view name;
  if (shape == nullptr) {
    XI_ASSIGN_OR_RETURN(name, ParseName("an instruction name"));
    if (!cursor_.TryConsume('=')) {
      return cursor_.Expect(
          '=', absl::StrCat("after instruction name '", name, "'"));
    }
  }
  XI_ASSIGN_OR_RETURN(
      HloInstruction * inst,
      ParseInstructionRhs(computation, pending, start, std::string(name),
                          std::move(shape), std::move(leading_shape), true));
  if (is_root) {
    if (*root != nullptr) {
      return cursor_.ErrorAt(
          start, absl::StrCat("second ROOT '", inst->name(),
                              "' in computation '", computation.name(), "'"));
    }
    *root = inst;
    *root_position = start;
  }
  return absl::OkStatus();
}

// Same-shape elementwise ops: an operand's shape is the result's shape.
bool OperandShapeIsResultShape(HloOpcode op) {
  if (!IsElementwise(op)) return false;
  switch (op) {
    case HloOpcode::kCompare:
    case HloOpcode::kConvert:
    case HloOpcode::kBitcastConvert:
    case HloOpcode::kIsFinite:
    case HloOpcode::kReal:
    case HloOpcode::kImag:
    case HloOpcode::kComplex:
    case HloOpcode::kSelect:
    case HloOpcode::kClamp:
      return false;
    default:
      return true;
  }
}

// Instruction names are unique in a computation (its name index keeps the
// first of two equal names), and the parameters are numbered 0..n-1; the
// result is n, the number the next (implicit) parameter gets.
absl::StatusOr<int64_t> Parser::CheckNamesAndParameters(
    const HloComputation& computation,
    const std::vector<PendingInstruction>& pending) {
  absl::flat_hash_set<int64_t> parameter_numbers;
  for (const PendingInstruction& p : pending) {
    if (computation.GetInstruction(p.instruction->name()) != p.instruction) {
      return cursor_.ErrorAt(
          p.position, absl::StrCat("instruction name '", p.instruction->name(),
                                   "' is defined twice"));
    }
    if (p.instruction->opcode() == HloOpcode::kParameter) {
      int64_t n = p.instruction->parameter_number();
      if (!parameter_numbers.insert(n).second) {
        return cursor_.ErrorAt(
            p.position,
            absl::StrCat("parameter number ", n, " is used twice in '",
                         computation.name(), "'"));
      }
    }
  }
  // XLA numbers a computation's parameters 0..n-1, each once. A snippet
  // may quote one parameter of a larger computation (`parameter(1)` alone),
  // so there the numbers need only be distinct; implicit parameters are
  // numbered after the largest.
  int64_t count = static_cast<int64_t>(parameter_numbers.size());
  if (snippet_) {
    int64_t next = 0;
    for (const PendingInstruction& p : pending) {
      if (p.instruction->opcode() != HloOpcode::kParameter) continue;
      int64_t n = p.instruction->parameter_number();
      std::optional<int64_t> after = CheckedAdd(n, 1);
      if (!after.has_value()) {
        return cursor_.ErrorAt(
            p.position, absl::StrCat("parameter number ", n, " of '",
                                     computation.name(), "' is out of range"));
      }
      next = std::max(next, *after);
    }
    return next;
  }
  for (const PendingInstruction& p : pending) {
    if (p.instruction->opcode() == HloOpcode::kParameter &&
        p.instruction->parameter_number() >= count) {
      return cursor_.ErrorAt(
          p.position,
          absl::StrCat("parameter number ", p.instruction->parameter_number(),
                       " of '", computation.name(), "' is out of range: its ",
                       count, " parameters must be numbered 0 to ", count - 1));
    }
  }
  return count;
}

// Links each operand to its instruction by name. In a snippet an undefined
// name whose shape is known (written with the operand, or the result's for
// a same-shape elementwise op) becomes a parameter numbered from
// `next_parameter` on.
absl::Status Parser::ResolveOperands(HloComputation& computation,
                                     std::vector<PendingInstruction>& pending,
                                     int64_t next_parameter) {
  // Implicit parameters are collected here and put first in one pass at
  // the end: putting each first as it is made moved every instruction once
  // per parameter (a snippet of n undefined operands cost O(n^2)).
  std::vector<std::unique_ptr<HloInstruction>> implicit;
  absl::flat_hash_map<absl::string_view, HloInstruction*> implicit_by_name;
  auto implicit_parameter = [&](const PendingInstruction& p,
                                const PendingOperand& operand) {
    auto it = implicit_by_name.find(operand.name);
    if (it != implicit_by_name.end()) return it->second;
    std::shared_ptr<const Shape> implicit_shape = operand.written_shape;
    if (implicit_shape == nullptr && p.has_shape &&
        OperandShapeIsResultShape(p.instruction->opcode())) {
      implicit_shape = std::make_shared<const Shape>(p.instruction->shape());
    }
    if (implicit_shape == nullptr) return static_cast<HloInstruction*>(nullptr);
    auto parameter = std::make_unique<HloInstruction>(
        std::string(operand.name), HloOpcode::kParameter, "parameter");
    parameter->set_shape(std::move(implicit_shape));
    parameter->set_parameter_number(next_parameter++);
    HloInstruction* made = parameter.get();
    implicit_by_name.emplace(made->name(), made);
    implicit.push_back(std::move(parameter));
    return made;
  };
  absl::Status status = absl::OkStatus();
  for (PendingInstruction& p : pending) {
    for (PendingOperand& operand : p.operands) {
      HloInstruction* target = computation.GetInstruction(operand.name);
      if (target == nullptr &&
          operand.name.find('#') != absl::string_view::npos) {
        auto compact = compact_elements_.find(operand.name);
        if (compact != compact_elements_.end()) target = compact->second;
      }
      if (target == nullptr && snippet_)
        target = implicit_parameter(p, operand);
      if (target == nullptr) {
        status = cursor_.ErrorAt(
            operand.position,
            absl::StrCat("unknown operand '", operand.name,
                         "' of instruction '", p.instruction->name(), "'"));
        break;
      }
      p.instruction->AppendOperand(target);
    }
    if (!status.ok()) break;
  }
  // Each implicit parameter comes before the ones made earlier, the order
  // that putting them first one at a time gave.
  std::reverse(implicit.begin(), implicit.end());
  computation.PrependInstructions(std::move(implicit));
  return status;
}

// Operands must not form a cycle: colour-marking DFS over operands (1 open,
// 2 done), iterative so that long chains cannot overflow the stack.
absl::Status Parser::CheckAcyclic(
    const HloComputation& computation,
    const std::vector<PendingInstruction>& pending) {
  absl::flat_hash_map<const HloInstruction*, int> state;  // 1 open, 2 done
  absl::flat_hash_map<const HloInstruction*, const char*> position;
  for (const PendingInstruction& p : pending) {
    position[p.instruction] = p.position;
  }
  for (const auto& start : computation.instructions()) {
    if (state[start.get()] != 0) continue;
    std::vector<std::pair<HloInstruction*, int64_t>> stack = {{start.get(), 0}};
    state[start.get()] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->operand_count()) {
        HloInstruction* operand = node->operand(next++);
        int& s = state[operand];
        if (s == 1) {
          auto pos = position.find(operand);
          const char* at =
              pos != position.end() ? pos->second : cursor_.text().data();
          return cursor_.ErrorAt(
              at, absl::StrCat("cycle: instruction '", operand->name(),
                               "' depends on itself"));
        }
        if (s == 0) {
          s = 1;
          stack.push_back({operand, 0});
        }
      } else {
        state[node] = 2;
        stack.pop_back();
      }
    }
  }
  return absl::OkStatus();
}

// The collectives and copy that XLA runs asynchronously with opcodes of
// their own (`all-gather-start`/`-done`, ...); every other `<op>-start`,
// `-update`, `-done` is XLA's async wrapper (async-start, or its sugar
// custom-call-start, call-start, ...).
bool IsNativeAsyncBase(absl::string_view base) {
  return base == "all-reduce" || base == "all-gather" ||
         base == "collective-permute" || base == "copy" || base == "send" ||
         base == "recv";
}

// The custom-calls that only annotate sharding, which an async value may
// pass (HloInstruction::IsAllowedAsyncIntermediaryCustomCall).
bool IsShardingAnnotation(const HloInstruction& inst) {
  if (inst.opcode_name() != "custom-call") return false;
  absl::string_view target = inst.attribute("custom_call_target").value_or("");
  for (absl::string_view name :
       {"\"Sharding\"", "\"LocalToGlobalShape\"", "\"GlobalToLocalShape\"",
        "\"xla.sdy.LocalToGlobalShape\"", "\"xla.sdy.GlobalToLocalShape\"",
        "\"xla.sdy.FuncResultSharding\""}) {
    if (target == name) return true;
  }
  return false;
}

// The wrapped op and the step of an async-wrapper instruction:
// `custom-call-update` -> {"custom-call", "update"}; empty for other ops.
std::pair<absl::string_view, absl::string_view> AsyncWrapperParts(
    const HloInstruction& inst) {
  absl::string_view base = inst.opcode_name();
  if (base.empty() || base.back() < 'a' || base.back() > 'z') return {};
  for (auto [suffix, step] :
       {std::pair<absl::string_view, absl::string_view>{"-start", "start"},
        {"-update", "update"},
        {"-done", "done"}}) {
    if (absl::ConsumeSuffix(&base, suffix)) {
      if (IsNativeAsyncBase(base)) return {};
      return {base, step};
    }
  }
  return {};
}

// How many steps the checks of one async update or done follow (real
// chains are a few steps); beyond, the chain is not checked, so that N
// dones at the end of a chain of N copies cost O(N * kMaxAsyncTrace), not
// O(N^2).
constexpr int64_t kMaxAsyncTrace = 256;

// The async op whose result `inst` carries, through the values XLA lets an
// async result pass (HloInstruction::IsAllowedAsyncIntermediary: tuple,
// get-tuple-element, copy, opt-barrier, while, sharding custom-calls; a
// parameter ends the search), as hlo_instruction_utils FindAsyncProducer
// traces it; null when there is none or `budget` steps run out.
const HloInstruction* FindAsyncProducer(const HloInstruction* inst,
                                        int64_t& budget) {
  std::vector<int64_t> elements;  // Tuple indices still to select.
  while (inst != nullptr && budget-- > 0) {
    absl::string_view step = AsyncWrapperParts(*inst).second;
    absl::string_view name = inst->opcode_name();
    if (step == "start" || step == "update" || absl::EndsWith(name, "-start")) {
      return elements.empty() ? inst : nullptr;
    }
    bool pass_through = name == "copy" || name == "opt-barrier" ||
                        name == "while" || IsShardingAnnotation(*inst);
    if (inst->opcode() == HloOpcode::kGetTupleElement) {
      elements.push_back(inst->tuple_index());
    } else if (name == "tuple") {
      if (elements.empty() || elements.back() < 0 ||
          elements.back() >= inst->operand_count()) {
        return nullptr;
      }
      inst = inst->operand(elements.back());
      elements.pop_back();
      continue;
    } else if (!pass_through) {
      return nullptr;
    }
    inst = inst->operand_count() > 0 ? inst->operand(0) : nullptr;
  }
  return nullptr;
}

// A quoted attribute value without its quotes (`"main"` -> main).
absl::string_view Unquoted(absl::string_view value) {
  absl::ConsumePrefix(&value, "\"");
  absl::ConsumeSuffix(&value, "\"");
  return value;
}

// What HloParserImpl::ParseInstructionRhs checks of an async wrapper's
// update or done (`p` is `X-update` or `X-done`) against the chain it
// continues: an operand, the first not an async done; when the first
// leads to an async start or update (FindAsyncProducer), the same wrapped
// op X for the sugar forms, and a written calls= or async_execution_thread
// equal to the start's. Returns the message, empty when it holds.
std::string AsyncContinuationError(const HloInstruction& inst,
                                   absl::string_view wrapped,
                                   absl::string_view step) {
  if (inst.operand_count() < 1 ||
      (step == "done" && inst.operand_count() != 1)) {
    return absl::StrCat(
        inst.opcode_name(), " '", inst.name(),
        "' takes one operand, its start or update",
        step == "update" ? " (then the operands it binds)" : "");
  }
  if (AsyncWrapperParts(*inst.operand(0)).second == "done") {
    return absl::StrCat(inst.opcode_name(), " '", inst.name(),
                        "' cannot take the async done '",
                        inst.operand(0)->name(), "'");
  }
  int64_t budget = kMaxAsyncTrace;
  const HloInstruction* producer = FindAsyncProducer(inst.operand(0), budget);
  if (producer == nullptr || AsyncWrapperParts(*producer).second.empty()) {
    return "";  // Nothing to compare with (XLA's async_producer is null).
  }
  absl::string_view producer_wrapped = AsyncWrapperParts(*producer).first;
  if (wrapped != "async" && producer_wrapped != wrapped) {
    return absl::StrCat(inst.opcode_name(), " '", inst.name(),
                        "' continues the ", producer->opcode_name(), " '",
                        producer->name(), "': expected ", producer_wrapped, "-",
                        step);
  }
  const HloInstruction* start = producer;
  while (start != nullptr && AsyncWrapperParts(*start).second == "update") {
    start = start->operand_count() > 0
                ? FindAsyncProducer(start->operand(0), budget)
                : nullptr;
  }
  if (start == nullptr || AsyncWrapperParts(*start).second != "start") {
    return "";
  }
  std::optional<absl::string_view> calls = inst.attribute("calls");
  std::optional<absl::string_view> start_calls = start->attribute("calls");
  if (calls.has_value() && start_calls.has_value() &&
      absl::StripPrefix(*calls, "%") != absl::StripPrefix(*start_calls, "%")) {
    return absl::StrCat(inst.opcode_name(), " '", inst.name(), "' calls ",
                        *calls, " but its start '", start->name(), "' calls ",
                        *start_calls);
  }
  std::optional<absl::string_view> thread =
      inst.attribute("async_execution_thread");
  absl::string_view start_thread =
      Unquoted(start->attribute("async_execution_thread").value_or("\"main\""));
  if (thread.has_value() && Unquoted(*thread) != start_thread) {
    return absl::StrCat(inst.opcode_name(), " '", inst.name(),
                        "' runs on thread ", *thread, " but its start '",
                        start->name(), "' on \"", start_thread, "\"");
  }
  return "";
}

// An async wrapper's start or update writes its shape as a tuple whose
// first element is a tuple (HloParserImpl::ParseInstructionRhs: "AsyncStart
// and AsyncUpdate expect the shape to be in the form of ((operand0_shape,
// ...), output_shape, ...)").
bool HasAsyncTupleShape(const HloInstruction& inst) {
  const Shape& shape = inst.shape();
  return shape.IsTuple() && shape.tuple_shapes().size() >= 2 &&
         shape.tuple_shapes(0).IsTuple();
}

// XLA's async chains, as its parser checks them: the native pairs
// (all-gather, all-reduce, collective-permute, copy) take their start;
// send-done and recv-done one operand, with the channel_id of a send or
// recv they take; the async wrapper's steps as AsyncContinuationError says.
absl::Status Parser::CheckAsyncPairs(
    const std::vector<PendingInstruction>& pending) {
  for (const PendingInstruction& p : pending) {
    const HloInstruction& inst = *p.instruction;
    // Ops this library models are not async steps, but for these.
    switch (inst.opcode()) {
      case HloOpcode::kUnknown:
      case HloOpcode::kAsyncStart:
      case HloOpcode::kAsyncDone:
      case HloOpcode::kAllGatherDone:
      case HloOpcode::kAllReduceDone:
      case HloOpcode::kCollectivePermuteDone:
        break;
      default:
        continue;
    }
    auto [wrapped, step] = AsyncWrapperParts(inst);
    if (!step.empty()) {
      std::string error;
      if ((step == "start" || step == "update") && !HasAsyncTupleShape(inst)) {
        error = absl::StrCat(
            inst.opcode_name(), " '", inst.name(),
            "' must have the shape ((operand shapes...), result, ...), not ",
            inst.shape().ToString(false));
      } else if (step != "start") {
        error = AsyncContinuationError(inst, wrapped, step);
      }
      if (!error.empty()) return cursor_.ErrorAt(p.position, error);
      continue;
    }
    absl::string_view base = inst.opcode_name();
    bool done = absl::ConsumeSuffix(&base, "-done");
    if (!done && !absl::ConsumeSuffix(&base, "-update")) continue;
    bool channel = base == "send" || base == "recv";
    if (inst.operand_count() < 1 || (done && inst.operand_count() != 1)) {
      return cursor_.ErrorAt(
          p.position,
          absl::StrCat(inst.opcode_name(), " '", inst.name(),
                       "' takes one operand, its ",
                       channel ? base : absl::StrCat(base, "-start")));
    }
    const HloInstruction& operand = *inst.operand(0);
    if (channel) {
      // HloParserImpl::ParseInstructionRhs (kSendDone, kRecvDone): a done
      // of a send or recv has its channel_id.
      if (operand.opcode_name() == base &&
          operand.attribute("channel_id") != inst.attribute("channel_id")) {
        return cursor_.ErrorAt(
            p.position, absl::StrCat(inst.opcode_name(), " '", inst.name(),
                                     "' must have the channel_id of its ", base,
                                     " '", operand.name(), "'"));
      }
      continue;
    }
    std::vector<std::string> expected = {absl::StrCat(base, "-start"),
                                         absl::StrCat(base, "-update")};
    if (std::find(expected.begin(), expected.end(), operand.opcode_name()) ==
        expected.end()) {
      return cursor_.ErrorAt(
          p.position,
          absl::StrCat(inst.opcode_name(), " '", inst.name(), "' must take a ",
                       absl::StrJoin(expected, " or "), ", not the ",
                       operand.opcode_name(), " '", operand.name(), "'"));
    }
  }
  return absl::OkStatus();
}

// HloParserImpl::ParseInstructionRhs (kBroadcast) requires dimensions=
// only when the operand is not a scalar; a scalar's are {}, printed so.
// False when the broadcast has no dimensions= and its operand is not a
// scalar.
bool DefaultBroadcastDimensions(const PendingInstruction& p) {
  HloInstruction& inst = *p.instruction;
  if (inst.opcode() != HloOpcode::kBroadcast ||
      inst.attribute("dimensions").has_value() || inst.operand_count() != 1) {
    return true;
  }
  if (!inst.operand(0)->shape().IsScalar()) return false;
  inst.set_dimensions({});
  inst.mutable_attributes()->push_back({"dimensions", "{}"});
  return true;
}

// Written operand shapes must match the operands'; missing result shapes
// are inferred in post order, so that operands have theirs; a snippet's
// leading shape must agree with the result.
absl::Status Parser::CheckAndInferShapes(
    absl::Span<PendingInstruction* const> order) {
  for (PendingInstruction* pending : order) {
    PendingInstruction& p = *pending;
    HloInstruction* inst = p.instruction;
    for (size_t i = 0; i < p.operands.size(); ++i) {
      const PendingOperand& operand = p.operands[i];
      if (operand.written_shape != nullptr &&
          !operand.written_shape->CompatibleWith(inst->operand(i)->shape())) {
        return cursor_.ErrorAt(
            operand.position,
            absl::StrCat("operand '", operand.name, "' of '", inst->name(),
                         "' is written as ", operand.written_shape->ToString(),
                         " but has shape ",
                         inst->operand(i)->shape().ToString()));
      }
    }
    std::string op_error =
        CheckOperandsAsXlaParserDoes(*inst, p.has_control_predecessors);
    if (!op_error.empty()) return cursor_.ErrorAt(p.position, op_error);
    if (!DefaultBroadcastDimensions(p)) {
      return cursor_.ErrorAt(
          p.position, absl::StrCat("broadcast '", inst->name(),
                                   "' needs dimensions=... (its operand is "
                                   "not a scalar)"));
    }
    if (!p.has_shape) {
      absl::StatusOr<Shape> inferred = InferShape(*inst);
      if (!inferred.ok()) {
        return cursor_.ErrorAt(
            p.position,
            absl::StrCat("cannot infer the shape of '", inst->name(),
                         "': ", inferred.status().message()));
      }
      inst->set_shape(*std::move(inferred));
    }
    if (p.leading_shape != nullptr &&
        !p.leading_shape->CompatibleWith(inst->shape())) {
      return cursor_.ErrorAt(
          p.position,
          absl::StrCat("leading shape ", p.leading_shape->ToString(), " of '",
                       inst->name(), "' differs from its shape ",
                       inst->shape().ToString()));
    }
  }
  return absl::OkStatus();
}

// The pending instructions with operands before users (implicit parameters
// have no entry). Dumps define every operand before its users, and then the
// written order is that order and has no cycle; otherwise the operand
// graph is searched (CheckAcyclic, then a post order).
absl::StatusOr<std::vector<PendingInstruction*>> Parser::OperandsFirstOrder(
    const HloComputation& computation,
    std::vector<PendingInstruction>& pending) {
  absl::flat_hash_map<const HloInstruction*, PendingInstruction*> by_inst;
  by_inst.reserve(pending.size());
  bool written_order_works = true;
  for (PendingInstruction& p : pending) {
    for (HloInstruction* operand : p.instruction->operands()) {
      // Defined before <=> indexed already; implicit parameters never are
      // but come first.
      written_order_works =
          written_order_works && (operand->opcode() == HloOpcode::kParameter ||
                                  by_inst.contains(operand));
    }
    by_inst.emplace(p.instruction, &p);
  }
  std::vector<PendingInstruction*> order;
  order.reserve(pending.size());
  if (written_order_works) {
    for (PendingInstruction& p : pending) order.push_back(&p);
    return order;
  }
  XI_RETURN_IF_ERROR(CheckAcyclic(computation, pending));
  for (HloInstruction* inst : computation.PostOrder()) {
    auto it = by_inst.find(inst);
    if (it != by_inst.end()) order.push_back(it->second);
  }
  return order;
}

absl::Status Parser::FinishComputation(
    HloComputation& computation, std::vector<PendingInstruction>& pending) {
  // Calls to computations defined so far are resolved now: the shape of a
  // call or fusion written without one comes from its computation.
  XI_RETURN_IF_ERROR(ResolveCalls(false));
  RenameCollidingElements(computation, pending);
  XI_ASSIGN_OR_RETURN(int64_t next_parameter,
                      CheckNamesAndParameters(computation, pending));
  XI_RETURN_IF_ERROR(ResolveOperands(computation, pending, next_parameter));
  XI_ASSIGN_OR_RETURN(std::vector<PendingInstruction*> order,
                      OperandsFirstOrder(computation, pending));
  XI_RETURN_IF_ERROR(CheckAsyncPairs(pending));
  return CheckAndInferShapes(order);
}

absl::Status Parser::ParseInstructionList(HloComputation& computation,
                                          char terminator) {
  std::vector<PendingInstruction> pending;
  const char* root_position = nullptr;
  HloInstruction* root = nullptr;
  // Names are per computation; an inline computation is read in the middle
  // of its caller's, whose names come back after it.
  absl::flat_hash_set<absl::string_view> outer_names = std::move(used_names_);
  used_names_.clear();
  auto outer_elements = std::move(compact_elements_);
  compact_elements_.clear();
  std::vector<HloInstruction*> outer_made = std::move(compact_elements_made_);
  compact_elements_made_.clear();
  // The end of the text ends a bare list; a NUL byte is just a character.
  while (!(terminator == '}' && cursor_.Peek() == '}')) {
    if (cursor_.AtEnd()) {
      if (terminator == '\0') break;
      return cursor_.Error(
          absl::StrCat("unexpected end of input in "
                       "computation '",
                       computation.name(), "' (missing '",
                       std::string(1, terminator), "')"));
    }
    XI_RETURN_IF_ERROR(
        ParseInstruction(computation, pending, &root_position, &root));
  }
  if (pending.empty()) {
    return cursor_.Error(absl::StrCat("computation '", computation.name(),
                                      "' has no instructions"));
  }
  XI_RETURN_IF_ERROR(FinishComputation(computation, pending));
  computation.set_root(root != nullptr ? root : pending.back().instruction);
  used_names_ = std::move(outer_names);
  compact_elements_ = std::move(outer_elements);
  compact_elements_made_ = std::move(outer_made);
  return absl::OkStatus();
}

// XLA's ShapeUtil::Compatible: the same element types and sizes, tuple by
// tuple, whatever the layouts and whether a size is a bound `<=n`.
bool SameIgnoringLayoutAndDynamism(const Shape& a, const Shape& b) {
  if (a.element_type() != b.element_type()) return false;
  if (a.IsTuple()) {
    if (a.tuple_shapes().size() != b.tuple_shapes().size()) return false;
    for (size_t i = 0; i < a.tuple_shapes().size(); ++i) {
      if (!SameIgnoringLayoutAndDynamism(a.tuple_shapes()[i],
                                         b.tuple_shapes()[i])) {
        return false;
      }
    }
    return true;
  }
  return a.dimensions() == b.dimensions();
}

absl::Status Parser::ParseComputation(HloModule& module) {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  bool is_entry = cursor_.TryConsumeWord("ENTRY");
  XI_ASSIGN_OR_RETURN(absl::string_view name, ParseName("a computation name"));
  std::optional<Shape> signature_result;
  const char* signature_at = nullptr;
  if (cursor_.Peek() == '(') {
    // XLA's signature `(p: f32[2]) -> f32[2]`; the parameters themselves
    // carry the shapes, so they are skipped after a syntax check.
    XI_RETURN_IF_ERROR(SkipBalanced('(', ')'));
    if (!cursor_.TryConsume("->")) {
      return cursor_.Error("expected '->' after the computation's parameters");
    }
    cursor_.SkipSpace();
    signature_at = cursor_.pos();
    XI_ASSIGN_OR_RETURN(signature_result, ParseShapeAtCursor(cursor_, true));
  }
  XI_RETURN_IF_ERROR(
      cursor_.Expect('{', absl::StrCat("to open computation '", name, "'")));
  if (computations_by_name_.contains(name)) {
    return cursor_.ErrorAt(
        start, absl::StrCat("computation '", name, "' is defined twice"));
  }
  auto owned = std::make_unique<HloComputation>(std::string(name));
  HloComputation* computation = module.AddComputation(std::move(owned));
  computations_by_name_[name] = computation;
  if (is_entry) {
    if (module.entry_computation() != nullptr) {
      return cursor_.ErrorAt(start, "second ENTRY computation");
    }
    computation->set_is_entry(true);
    module.set_entry_computation(computation);
  }
  XI_RETURN_IF_ERROR(ParseInstructionList(*computation, '}'));
  cursor_.TryConsume('}');
  // HloParserImpl::ParseComputation: the signature's result must be
  // ShapeUtil::Compatible with the root's shape (layouts and dynamic-size
  // marks aside).
  if (signature_result.has_value() && computation->root() != nullptr &&
      !SameIgnoringLayoutAndDynamism(*signature_result,
                                     computation->root()->shape())) {
    return cursor_.ErrorAt(
        signature_at,
        absl::StrCat("the signature of computation '", name, "' returns ",
                     signature_result->ToString(false),
                     ", which is not compatible with the shape ",
                     computation->root()->shape().ToString(false),
                     " of its root '", computation->root()->name(), "'"));
  }
  // `}, execution_thread="main"` and similar trailing attributes.
  while (cursor_.TryConsume(',')) {
    absl::string_view attribute = cursor_.ParseWord();
    if (attribute.empty()) return cursor_.Error("expected an attribute name");
    XI_RETURN_IF_ERROR(cursor_.Expect('=', "after the attribute name"));
    XI_RETURN_IF_ERROR(ScanRawValue(attribute).status());
  }
  return absl::OkStatus();
}

// Resolves the pending calls whose computation is defined by now, and keeps
// only the unresolved ones: every computation's end calls this, so scanning
// resolved calls again would make a module of N computations cost O(N^2).
// Dumps define callees before callers, so the list stays short.
absl::Status Parser::ResolveCalls(bool final_pass) {
  size_t unresolved = 0;
  for (size_t i = 0; i < calls_.size(); ++i) {
    const PendingCall& call = calls_[i];
    CalledComputation& called =
        (*call.instruction->mutable_called_computations())[call.index];
    if (called.computation != nullptr) continue;
    auto it = computations_by_name_.find(called.name);
    if (it != computations_by_name_.end()) {
      called.computation = it->second;
      if (it->second == call.instruction->parent()) {
        return cursor_.ErrorAt(
            call.position,
            absl::StrCat("computation '", called.name, "' calls itself"));
      }
      continue;
    }
    if (final_pass && !snippet_) {
      return cursor_.ErrorAt(
          call.position,
          absl::StrCat("unknown computation '", called.name, "'"));
    }
    calls_[unresolved++] = call;
  }
  calls_.resize(unresolved);
  return absl::OkStatus();
}

// The names of the stack-frame tables (keywords of XLA's HloLexer).
bool IsStackFrameSection(absl::string_view word) {
  return word == "FileNames" || word == "FunctionNames" ||
         word == "FileLocations" || word == "StackFrames";
}

bool Parser::AtStackFrameSection() {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  bool section = IsStackFrameSection(cursor_.ParseWord());
  cursor_.set_pos(start);
  return section;
}

// A file holds one module: a second `HloModule` header is refused where it
// starts rather than read as a computation named HloModule.
absl::Status Parser::CheckNotSecondModule() {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  if (cursor_.TryConsumeWord("HloModule")) {
    cursor_.set_pos(start);
    return cursor_.Error(
        "a second HloModule: a text holds one module (the first ends "
        "before this line); separate modules with a line `// -----`");
  }
  return absl::OkStatus();
}

// A stack-frame table where a computation should start: XLA's lexer reads
// the four table names as keywords, which HloParserImpl::ParseName refuses
// as a computation name ("expects name"), so the tables are read only
// between the header and the first computation, FileNames first
// (HloParserImpl::ParseStackFrameIndex).
absl::Status Parser::CheckNotStackFrameTable() {
  if (!AtStackFrameSection()) return absl::OkStatus();
  const char* start = cursor_.pos();
  absl::string_view table = cursor_.ParseWord();
  cursor_.set_pos(start);
  return cursor_.Error(absl::StrCat(
      "expected a computation, found the stack-frame table '", table,
      "': the tables (FileNames, FunctionNames, FileLocations, StackFrames, "
      "in this order) come between the HloModule line and the first "
      "computation"));
}

bool Parser::AtWord(absl::string_view word) {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  bool at = cursor_.ParseWord() == word;
  cursor_.set_pos(start);
  return at;
}

absl::Status Parser::ExpectWord(absl::string_view word) {
  cursor_.SkipSpace();
  const char* start = cursor_.pos();
  if (cursor_.ParseWord() == word) return absl::OkStatus();
  cursor_.set_pos(start);
  return cursor_.Error(
      absl::StrCat("expected '", word, "', found ", DescribeNext(cursor_)));
}

// `<id> "text"` entries (FileNames, FunctionNames).
absl::Status Parser::ReadStackFrameStrings() {
  while (cursor_.Peek() >= '0' && cursor_.Peek() <= '9') {
    XI_RETURN_IF_ERROR(cursor_.ParseInt("stack-frame table id").status());
    if (cursor_.Peek() != '"') {
      return cursor_.Error(
          absl::StrCat("expected a string, found ", DescribeNext(cursor_)));
    }
    const char* close = StringEnd(cursor_.pos(), cursor_.end());
    if (close == nullptr) return cursor_.Error("unterminated string");
    cursor_.set_pos(close + 1);
  }
  return absl::OkStatus();
}

// `<id> {field=int ...}` entries (FileLocations, StackFrames): each of
// `fields` once (HloParserImpl::ParseSubAttributes: "sub-attribute ... is
// expected but not seen"), an int32 each, commas optional.
absl::Status Parser::ReadStackFrameRecords(
    absl::Span<const absl::string_view> fields) {
  while (cursor_.Peek() >= '0' && cursor_.Peek() <= '9') {
    XI_RETURN_IF_ERROR(cursor_.ParseInt("stack-frame table id").status());
    cursor_.SkipSpace();
    const char* open = cursor_.pos();
    XI_RETURN_IF_ERROR(cursor_.Expect('{', "to open a stack-frame entry"));
    std::vector<bool> seen(fields.size(), false);
    while (!cursor_.TryConsume('}')) {
      cursor_.TryConsume(',');
      cursor_.SkipSpace();
      const char* at = cursor_.pos();
      absl::string_view field = cursor_.ParseWord();
      auto it = std::find(fields.begin(), fields.end(), field);
      if (it == fields.end() || seen[it - fields.begin()]) {
        return cursor_.ErrorAt(
            at, absl::StrCat(it == fields.end() ? "unexpected" : "repeated",
                             " stack-frame field '", field, "'"));
      }
      seen[it - fields.begin()] = true;
      XI_RETURN_IF_ERROR(cursor_.Expect('=', "after a stack-frame field"));
      cursor_.SkipSpace();
      const char* value_at = cursor_.pos();
      XI_ASSIGN_OR_RETURN(int64_t value, cursor_.ParseInt(field));
      if (value < INT32_MIN || value > INT32_MAX) {
        return cursor_.ErrorAt(value_at,
                               absl::StrCat(field, " does not fit in s32"));
      }
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (!seen[i]) {
        return cursor_.ErrorAt(open,
                               absl::StrCat("stack-frame field '", fields[i],
                                            "' is expected but not seen"));
      }
    }
  }
  return absl::OkStatus();
}

// HloParserImpl::ParseStackFrameIndex: the four tables in this order, each
// header required once FileNames starts the index. No analysis reads
// source locations, so the entries are checked and dropped.
absl::Status Parser::ReadStackFrameIndex() {
  static constexpr absl::string_view kLocationFields[] = {
      "file_name_id", "function_name_id", "line",
      "end_line",     "column",           "end_column"};
  static constexpr absl::string_view kFrameFields[] = {"file_location_id",
                                                       "parent_frame_id"};
  XI_RETURN_IF_ERROR(ExpectWord("FileNames"));
  XI_RETURN_IF_ERROR(ReadStackFrameStrings());
  XI_RETURN_IF_ERROR(ExpectWord("FunctionNames"));
  XI_RETURN_IF_ERROR(ReadStackFrameStrings());
  XI_RETURN_IF_ERROR(ExpectWord("FileLocations"));
  XI_RETURN_IF_ERROR(ReadStackFrameRecords(kLocationFields));
  XI_RETURN_IF_ERROR(ExpectWord("StackFrames"));
  return ReadStackFrameRecords(kFrameFields);
}

// A shape index `{}` or `{1,0}`: tuple element numbers, outermost first.
absl::Status ParseShapeIndex(TextCursor& c) {
  XI_RETURN_IF_ERROR(c.Expect('{', "to open a shape index"));
  if (c.TryConsume('}')) return absl::OkStatus();
  do {
    c.SkipSpace();
    const char* at = c.pos();
    XI_ASSIGN_OR_RETURN(int64_t index, c.ParseInt("shape index"));
    if (index < 0) return c.ErrorAt(at, "shape indices must not be negative");
  } while (c.TryConsume(','));
  return c.Expect('}', "or ',' in a shape index");
}

// `(parameter, {shape index}[, may-alias|must-alias])`, after the '('
// is read; `kind` tells whether the alias kind may follow.
absl::Status ParseParameterAndIndex(TextCursor& c, bool kind) {
  c.SkipSpace();
  const char* at = c.pos();
  XI_ASSIGN_OR_RETURN(int64_t parameter, c.ParseInt("parameter number"));
  if (parameter < 0) {
    return c.ErrorAt(at, "parameter numbers must not be negative");
  }
  XI_RETURN_IF_ERROR(c.Expect(',', "after the parameter number"));
  XI_RETURN_IF_ERROR(ParseShapeIndex(c));
  if (kind && c.TryConsume(',')) {
    c.SkipSpace();
    const char* kind_at = c.pos();
    absl::string_view word = c.ParseWord();
    if (word != "may-alias" && word != "must-alias") {
      return c.ErrorAt(kind_at, absl::StrCat("expected may-alias or "
                                             "must-alias, found '",
                                             word, "'"));
    }
  }
  return c.Expect(')', "to close the parameter and shape index");
}

// The module attributes with a grammar of their own, as XLA's parser reads
// them:
//   input_output_alias={ {output index}: (parameter, {index}[, kind]), ... }
//   buffer_donor={ (parameter, {index}), ... }
absl::Status Parser::CheckModuleAttribute(absl::string_view name,
                                          absl::string_view value) {
  if (name == "replica_count" || name == "num_partitions") {
    int64_t count = 0;
    if (!absl::SimpleAtoi(value, &count) || count < 1) {
      return cursor_.ErrorAt(
          value.data(),
          absl::StrCat(name, " must be a positive integer, not '", value, "'"));
    }
    if (name == "replica_count") {
      module_->set_replica_count(count);
    } else {
      module_->set_num_partitions(count);
    }
    return absl::OkStatus();
  }
  if (name == "debug_attributes") {
    // HloParserImpl::ParseDebugAttributes: "Invalid debug_log_mode value".
    for (size_t at = value.find("log_mode="); at != absl::string_view::npos;
         at = value.find("log_mode=", at + 1)) {
      TextCursor c = cursor_;
      c.set_pos(value.data() + at + 9);
      absl::string_view mode = c.ParseWord();
      if (mode != "default" && mode != "fusion_debugger") {
        return cursor_.ErrorAt(
            value.data() + at + 9,
            absl::StrCat("invalid debug_log_mode value '", mode,
                         "' (default or fusion_debugger)"));
      }
    }
    return absl::OkStatus();
  }
  bool alias = name == "input_output_alias";
  if (!alias && name != "buffer_donor") return absl::OkStatus();
  TextCursor c = cursor_;
  c.set_pos(value.data());
  XI_RETURN_IF_ERROR(c.Expect('{', absl::StrCat("to open ", name)));
  if (!c.TryConsume('}')) {
    do {
      if (alias) {
        XI_RETURN_IF_ERROR(ParseShapeIndex(c));
        XI_RETURN_IF_ERROR(c.Expect(':', "after the output shape index"));
      }
      XI_RETURN_IF_ERROR(c.Expect('(', "to open a parameter and shape index"));
      XI_RETURN_IF_ERROR(ParseParameterAndIndex(c, alias));
    } while (c.TryConsume(','));
    XI_RETURN_IF_ERROR(c.Expect('}', absl::StrCat("or ',' in ", name)));
  }
  if (c.pos() != value.data() + value.size()) {
    return c.Error(absl::StrCat("unexpected ", DescribeNext(c), " in ", name));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<HloModule>> Parser::Run() {
  cursor_.SkipSpace();
  if (cursor_.TryConsumeWord("HloModule")) {
    XI_ASSIGN_OR_RETURN(absl::string_view name, ParseName("a module name"));
    // XLA's lexer reads a name followed right by ':' as one name token
    // (HloLexer::LexIdentifier), so `HloModule m:` names the module m.
    if (cursor_.PeekRaw() == ':') cursor_.set_pos(cursor_.pos() + 1);
    auto module = std::make_unique<HloModule>(std::string(name));
    module_ = module.get();
    module->set_replica_count(1);
    module->set_num_partitions(1);
    while (cursor_.TryConsume(',')) {
      absl::string_view attribute = cursor_.ParseWord();
      if (attribute.empty()) {
        return cursor_.Error("expected a module attribute name");
      }
      XI_RETURN_IF_ERROR(cursor_.Expect('=', "after the attribute name"));
      XI_ASSIGN_OR_RETURN(absl::string_view value, ScanRawValue(attribute));
      XI_RETURN_IF_ERROR(CheckModuleAttribute(attribute, value));
      module->mutable_attributes()->push_back(
          {std::string(attribute), std::string(value)});
    }
    // HloParserImpl::ParseHloModule reads the stack-frame index
    // (ParseStackFrameIndex) between the header and the computations,
    // where JAX writes it.
    if (AtWord("FileNames")) XI_RETURN_IF_ERROR(ReadStackFrameIndex());
    if (cursor_.AtEnd()) return cursor_.Error("module has no computations");
    // ParseComputations then reads computations to the end of the text.
    while (!cursor_.AtEnd()) {
      XI_RETURN_IF_ERROR(CheckNotSecondModule());
      XI_RETURN_IF_ERROR(CheckNotStackFrameTable());
      XI_RETURN_IF_ERROR(ParseComputation(*module));
    }
    if (module->entry_computation() == nullptr) {
      HloComputation* last = module->computations().back().get();
      last->set_is_entry(true);
      module->set_entry_computation(last);
    }
    XI_RETURN_IF_ERROR(ResolveCalls(true));
    return module;
  }
  // A snippet: decide between computations and a bare instruction list.
  snippet_ = true;
  if (cursor_.AtEnd()) {
    return cursor_.ErrorAt(cursor_.text().data(),
                           "empty input: no HLO to read");
  }
  const char* start = cursor_.pos();
  cursor_.TryConsumeWord("ENTRY");
  bool computations = false;
  if (!LooksLikeShape(cursor_)) {
    cursor_.TryConsume('%');
    cursor_.ParseWord();
    char next = cursor_.Peek();
    computations = next == '{' || next == '(';
  }
  cursor_.set_pos(start);
  if (computations) {
    auto module = std::make_unique<HloModule>("m");
    module_ = module.get();
    while (!cursor_.AtEnd()) {
      XI_RETURN_IF_ERROR(ParseComputation(*module));
      XI_RETURN_IF_ERROR(ResolveCalls(false));
    }
    if (module->entry_computation() == nullptr) {
      HloComputation* last = module->computations().back().get();
      last->set_is_entry(true);
      module->set_entry_computation(last);
    }
    XI_RETURN_IF_ERROR(ResolveCalls(true));
    return module;
  }
  auto module = std::make_unique<HloModule>("m");
  module_ = module.get();
  auto owned = std::make_unique<HloComputation>("main");
  HloComputation* computation = module->AddComputation(std::move(owned));
  computation->set_is_entry(true);
  module->set_entry_computation(computation);
  XI_RETURN_IF_ERROR(ParseInstructionList(*computation, '\0'));
  XI_RETURN_IF_ERROR(ResolveCalls(true));
  return module;
}

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> ParseHloModule(
    absl::string_view text) {
  Parser parser(text);
  return parser.Run();
}

absl::StatusOr<std::unique_ptr<HloModule>> ParseAndVerifyHloModule(
    absl::string_view text) {
  XI_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module, ParseHloModule(text));
  XI_RETURN_IF_ERROR(VerifyModule(*module));
  return module;
}

}  // namespace xla_index

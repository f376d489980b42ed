#ifndef XLA_INDEX_HLO_PARSER_H_
#define XLA_INDEX_HLO_PARSER_H_

// Reads HLO text into an HloModule. Three forms are accepted:
//
//  1. A module, as XLA dumps it:
//       HloModule m, entry_computation_layout={...}
//       max { a = f32[] parameter(0) ... ROOT m = f32[] maximum(a, b) }
//       ENTRY e { ... ROOT r = f32[10] reduce(p, c), dimensions={0},
//                 to_apply=max }
//  2. One or more bare computations `name { ... }` (as the fusions in
//     XLA's indexing-analysis documentation are written);
//     the ENTRY one, else the last one, is the entry.
//  3. A bare list of instructions, as the documentation writes them; the
//     ROOT, else the last instruction, is the root.
//
// Names may carry XLA's '%'. A compact tuple-element operand `%t#1#0`
// reads element 0 of element 1 of t through get-tuple-elements named
// `t_1`, `t_1_0`, added before the first user (as XLA HEAD reads it).
// JAX's stack-frame tables come between the header and the first
// computation, where XLA HEAD reads them (a table after the computations is
// an error, as in XLA HEAD). Operands may be written with their shapes
// (`add(f32[10] %a, f32[10] %b)`), which are then checked, or be unnamed
// instructions nested in place (`add(f32[10] parameter(0), ...)`). In a
// snippet (forms 2 and 3) an instruction may be unnamed (`f32[2]
// negate(x)`), and gets `negate.N`; in a module every instruction is named,
// as XLA HEAD's ParseInstruction requires. Unbounded dimensions `?` are
// read (the analyses give no map for them), and a tuple keeps its written
// shape when it has as many elements as operands (as XLA reads both). A
// missing result shape (`ds = dynamic-slice(...)`) is inferred. A
// computation may be written in place of its name (`to_apply={ ... }`).
// Attributes the analysis does not need (metadata, backend_config,
// sharding, ...) are kept as text. XLA's ops the library does not model
// (collectives, custom-call, while, async `-start`/`-done` pairs, ...) are
// kept with their name (opcode kUnknown); a name that is not an XLA opcode
// is an error. The stack-frame tables are checked and dropped; a second
// `HloModule` is an error.
//
// What XLA refuses is refused too: parameters not numbered 0..n-1 in a
// module, ops without the attributes XLA requires (a compare's direction,
// a reduce-window's to_apply, a fusion's calls, ...), constants out of
// their type's range, pred literals other than true/false/0/1, arrays whose
// size in bytes overflows int64, malformed input_output_alias and
// buffer_donor.
//
// Forms 2 and 3 are snippets and are read leniently, the way the
// documentation writes them: a computation named by `to_apply=`/`calls=` may be
// left undefined, an operand that is not defined becomes an implicit parameter
// when its shape is known (written with the operand, or that of the result
// for a same-shape elementwise op), and a leading `shape %name = ...` (as in
// the bitcast-convert examples of XLA's operation-semantics documentation)
// is accepted. A full module is strict.
//
// Errors are InvalidArgument "line:column: message".

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlo/module.h"

namespace xla_index {

absl::StatusOr<std::unique_ptr<HloModule>> ParseHloModule(
    absl::string_view text);

/// ParseHloModule then VerifyModule (hlo/verifier.h): the entry point for
/// user input, where a semantic error (a written shape that disagrees with
/// the operands, bad dimension numbers) is reported at its line:column too.
/// Like XLA's ParseAndReturnVerifiedModule (a VerifiedHloModule, whose
/// HloVerifier has the default options: check_replica_groups is true), the
/// replica groups of collectives are checked against the header's
/// replica_count and num_partitions (1 when not written).
absl::StatusOr<std::unique_ptr<HloModule>> ParseAndVerifyHloModule(
    absl::string_view text);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_PARSER_H_

// Encodings that must be rejected, one per section between "// -----" lines.
// "// error:" is a part of the message our verifier or parser must give (it
// says why). "// mlir:" is what MLIR 22's own parser/verifier does with the
// same text (checked by the test against the SparseTensor dialect):
// "rejects", or "accepts" where our rules are stricter than MLIR's (the
// comment on the case says why), or "crashes" where MLIR 22 itself crashes
// on the text (the test then does not hand it to MLIR).

// error: unexpected position bitwidth: 7
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 7 }>

// -----
// error: unexpected coordinate bitwidth: 12
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 12 }>

// -----
// error: unexpected position bitwidth: 128
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 128 }>

// -----
// The legacy sub-byte width is only accepted for n:m coordinates.
// error: unexpected coordinate bitwidth: 2
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 2 }>

// -----
// error: expected a 'map' field
// mlir: rejects
#sparse_tensor.encoding<{ posWidth = 8 }>

// -----
// error: unexpected key: 'foo'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), foo = 1 }>

// -----
// error: duplicate field 'map'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), map = (i) -> (i : dense) }>

// -----
// error: unknown level format 'sparse'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : sparse) }>

// -----
// error: unknown level property 'unique'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed(unique)) }>

// -----
// error: duplicate level property 'nonunique'
// mlir: accepts
// MLIR ORs the property bits, so a repeated property is silently ignored.
#sparse_tensor.encoding<{ map = (i) -> (i : compressed(nonunique, nonunique)) }>

// -----
// error: takes no properties
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense(nonunique), j : compressed) }>

// -----
// error: expected n <= m in n_out_of_m
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 2 : dense, j mod 2 : structured[4, 2]) }>

// -----
// A repeated map: MLIR appends the second map's level types to the first's.
// error: duplicate field 'map'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, map = (i) -> (i : compressed) }>

// -----
// Only the last posWidth is verified, and 7 is not a width.
// error: unexpected position bitwidth: 7
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, posWidth = 7 }>

// -----
// error: integer constant out of range
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 300 : i8 }>

// -----
// error: unexpected decimal integer literal for a floating point value
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1 : f32 }>

// -----
// MLIR's lexer reads `1e3` as the integer 1 followed by `e3`.
// error: unexpected 'e3 : f64' after the explicitVal value
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1e3 : f64 }>

// -----
// error: expected a numeric value for implicitVal
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), implicitVal = "zero" }>

// -----
// error: expected a value for explicitVal
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = }>

// -----
// error: expected '['
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured) }>

// -----
// error: SoA is only applicable to singleton
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(soa), j : compressed) }>

// -----
// error: singleton cannot be the first level
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : singleton, j : compressed) }>

// -----
// error: expected compressed or loose_compressed level before singleton level
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : singleton) }>

// -----
// error: same memory layout (SoA vs AoS)
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique, soa), k : singleton) }>

// -----
// error: batch lvlType can only be leading levels
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : batch) }>

// -----
// error: expected n_out_of_m to be the last level type
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (j : structured[2, 4], i : dense) }>

// -----
// error: expected all dense lvlTypes before a n_out_of_m level
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>

// -----
// error: must equal m = 4
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 8 : dense, j mod 8 : structured[2, 4]) }>

// -----
// error: m must fit in 8 bits
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 256 : dense, j mod 256 : structured[2, 256]) }>

// -----
// error: level-rank mismatch
// mlir: rejects
#sparse_tensor.encoding<{ map = {l0, l1} (i = l0) -> (l0 = i : dense) }>

// -----
// error: unexpected dimToLvl mapping from 2 dimensions to only 1 levels
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense) }>

// -----
// error: use of undeclared identifier 'k'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (k : dense) }>

// -----
// error: at least one of the multiply operands
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i * j : dense, j : dense) }>

// -----
// error: right operand of floordiv has to be either a constant or symbolic
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv j : dense, j : dense) }>

// -----
// error: the divisor must be positive
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i floordiv 0 : dense, i mod 0 : dense) }>

// -----
// error: the divisor must be positive
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i floordiv -2 : dense, i mod -2 : dense) }>

// -----
// error: failed to infer lvlToDim
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i + j : dense, j : compressed) }>

// -----
// error: failed to infer lvlToDim
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, i : compressed, j : dense) }>

// -----
// error: failed to infer lvlToDim
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i mod 2 : dense, i floordiv 2 : dense) }>

// -----
// error: failed to infer lvlToDim
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i floordiv 2 : dense, i mod 3 : dense) }>

// -----
// error: failed to infer lvlToDim
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j : compressed) }>

// -----
// error: dimension d1 is not used by any level
// mlir: accepts
// MLIR's block-map check never asks whether every dimension is used; the
// inferred lvlToDim then has fewer results than there are dimensions.
#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, i mod 2 : dense) }>

// -----
// error: does not use any dimension
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (0 : dense, i : dense) }>

// -----
// error: does not use any dimension
// mlir: accepts
// A level that is only a symbol holds one coordinate whose range nothing
// gives; MLIR accepts it because maps with symbols skip the inverse check.
#sparse_tensor.encoding<{ map = [s](i) -> (s : dense, i : dense) }>

// -----
// error: divides by a symbol
// mlir: accepts
// A symbolic divisor cannot give a level size or an inverse.
#sparse_tensor.encoding<{ map = [s](i) -> (i floordiv s : dense, i : dense) }>

// -----
// error: expected lvlToDim to be an inverse of dimToLvl
// mlir: rejects
#sparse_tensor.encoding<{ map = {a, b} (i = b, j = a) -> (a = i : dense, b = j : compressed) }>

// -----
// error: the declaration order requires 'a'
// mlir: rejects
#sparse_tensor.encoding<{ map = {a, b} (i = a, j = b) -> (b = j : dense, a = i : compressed) }>

// -----
// error: has a binding but no level variables were declared
// mlir: rejects
#sparse_tensor.encoding<{ map = (i = 0) -> (i : dense) }>

// -----
// error: has no binding 'j = ...' while others do
// mlir: rejects
#sparse_tensor.encoding<{ map = {a, b} (i = a, j) -> (a = i : dense, b = j : dense) }>

// -----
// error: slices go on every dimension or none
// mlir: accepts
// MLIR silently gives the unsliced dimension slice(0, ?, 1); we ask for a
// slice on every dimension or none, so that a forgotten slice is not read
// as a full dynamic one.
#sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 4, 1)>, j) -> (i : dense, j : compressed) }>

// -----
// error: dimSlices expected dimension-rank to match level-rank
// mlir: rejects
#sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 4, 1)>, j : #sparse_tensor<slice(0, 8, 1)>) -> (i floordiv 2 : dense, j : compressed, i mod 2 : dense) }>

// -----
// error: stride -1 must be positive
// mlir: rejects
#sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 4, -1)>, j : #sparse_tensor<slice(0, 8, 1)>) -> (i : dense, j : compressed) }>

// -----
// error: size 0 must be positive
// mlir: rejects
#sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 0, 1)>, j : #sparse_tensor<slice(0, 8, 1)>) -> (i : dense, j : compressed) }>

// -----
// error: redefinition of variable 'i'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, i) -> (i : dense, i : dense) }>

// -----
// error: is a keyword
// mlir: accepts
// MLIR lets `mod` name a variable; we reserve the affine keywords so that an
// expression like `mod mod 2` cannot appear.
#sparse_tensor.encoding<{ map = (mod) -> (mod : dense) }>

// -----
// error: expected '->'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) (i : dense) }>

// -----
// error: expected ':' between a level expression and its type
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i dense) }>

// -----
// error: expected '>'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : dense) }

// -----
// error: expected '#sparse_tensor.encoding'
// mlir: rejects
#sparse_tensor.encodings<{ map = (i) -> (i : dense) }>

// -----
// error: unexpected character '@'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : dense) @ }>

// -----
// error: does not fit in 64 bits
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i floordiv 99999999999999999999 : dense, i mod 99999999999999999999 : dense) }>

// -----
// error: expected at least one dimension variable
// mlir: rejects
#sparse_tensor.encoding<{ map = () -> (0 : dense) }>

// -----
// error: expected at least one level
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> () }>

// -----
// error: after the encoding
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : dense) }> extra

// -----
// error: a level variable cannot appear in a level expression
// mlir: rejects
#sparse_tensor.encoding<{ map = {a} (i = a) -> (a = a : dense) }>

// -----
// error: unknown level property 'high'
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : loose_compressed(high)) }>

// -----
// error: expected a level type
// mlir: rejects
#sparse_tensor.encoding<{ map = (i) -> (i : ) }>

// -----
// error: a level variable must be declared first
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (a = i : dense, b = j : compressed) }>

// -----
// A dimension blocked by floordiv without its mod level: `j mod 3` is lost,
// so there is no inverse.
// error: failed to infer lvlToDim
// mlir: crashes
// MLIR 22's isBlockSparsity accepts this map (another dimension is blocked
// properly) and inverseBlockSparsity then reads a missing mod component and
// segfaults.
#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense) }>

// -----
// error: failed to infer lvlToDim
// mlir: rejects
#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, i mod 2 : dense, j mod 3 : dense) }>

// -----
// error: expected '>' to close '#sparse_tensor<'
// mlir: accepts
// MLIR's slice parser stops after "slice(0, 8, ?)" and skips the rest of the
// attribute body; we read the slice strictly.
#sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 4, 1)>, j : #sparse_tensor<slice(0, 8, ?) junk>) -> (i : dense, j : compressed) }>

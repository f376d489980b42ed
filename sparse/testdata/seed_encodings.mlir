// The encodings of MLIR's SparseTensor dialect documentation, copied
// verbatim, one per section between "// -----" lines. "// shape:" is the
// tensor type the documentation gives with the example ("?" = dynamic). "// modern:"
// is, for older spellings MLIR 22 no longer parses, the same encoding in
// today's syntax (the MLIR oracle parses that one instead).
// Notes on the documentation's text:
//  - its first BSR example is cut before the closing "}>"; it is completed
//    here (the same encoding appears complete further down);
//  - #BCOO has three dimensions but is shown with tensor<10x10xf32, ...>; the
//    shape here is 10x10x10.

// name: CSR
// shape: 4x4
#CSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j : compressed)
}>

// -----
// name: BSR_2x2
// shape: 4x6
#BSR = #sparse_tensor.encoding<{
  map = ( i, j ) ->
    ( i floordiv 2 : dense
    , j floordiv 2 : compressed
    , i mod 2 : dense
    , j mod 2 : dense
    )
}>

// -----
// name: NV_24
// shape: 16x16
// modern: #sparse_tensor.encoding<{ map = ( i, j ) -> ( i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]), crdWidth = 8 }>
#NV_24 = #sparse_tensor.encoding<{
  map = ( i, j ) -> ( i            : dense,
                      j floordiv 4 : dense,
                      j mod 4      : block2_4),
  crdWidth = 2  // 2-bits for each coordinate
}>

// -----
// name: SparseVector
// shape: ?
#SparseVector = #sparse_tensor.encoding<{
  map = (i) -> (i : compressed)
}>

// -----
// name: SortedCOO
// shape: ?x?
#SortedCOO = #sparse_tensor.encoding<{
  map = (i, j) -> (i : compressed(nonunique), j : singleton)
}>

// -----
// name: BCOO
// shape: 10x10x10
// modern: #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : loose_compressed(nonunique), k : singleton) }>
#BCOO = #sparse_tensor.encoding<{
  map = (i, j, k) -> (i : dense, j : compressed(nonunique, high), k : singleton)
}>

// -----
// name: CSR_100
// shape: 100x100
#CSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j : compressed)
}>

// -----
// name: DCSC
// shape: 8x8
#DCSC = #sparse_tensor.encoding<{
  map = (i, j) -> (j : compressed, i : compressed),
  posWidth = 32,
  crdWidth = 8
}>

// -----
// name: BSR_2x3
// shape: 20x30
#BSR = #sparse_tensor.encoding<{
  map = ( i, j ) ->
  ( i floordiv 2 : dense,
    j floordiv 3 : compressed,
    i mod 2      : dense,
    j mod 3      : dense
  )
}>

// -----
// name: BSR_explicit
// shape: 20x30
#BSR_explicit = #sparse_tensor.encoding<{
  map = { ib, jb, ii, jj }
        ( i = ib * 2 + ii,
          j = jb * 3 + jj) ->
  ( ib = i floordiv 2 : dense,
    jb = j floordiv 3 : compressed,
    ii = i mod 2 : dense,
    jj = j mod 3 : dense)
}>

// -----
// name: ELL
// shape: ?x?
#ELL = #sparse_tensor.encoding<{
  map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed)
}>

// -----
// name: CSR_SLICE
// shape: ?x?
#CSR_SLICE = #sparse_tensor.encoding<{
  map = (i : #sparse_tensor<slice(0, 4, 1)>,
          j : #sparse_tensor<slice(0, 8, ?)>) ->
        (i : dense, j : compressed)
}>

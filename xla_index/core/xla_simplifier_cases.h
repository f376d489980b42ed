#ifndef XLA_INDEX_CORE_XLA_SIMPLIFIER_CASES_H_
#define XLA_INDEX_CORE_XLA_SIMPLIFIER_CASES_H_

// The kinds of map that XLA's simplifier tests exercise
// (xla/hlo/analysis/indexing_map_test.cc, the AffineMapSimplification_* and
// ConstraintIntervalSimplification_* tests of IndexingMapTest), written
// again with other sizes, divisors and names, each with:
//   - `simplest`: the form XLA's IndexingMap::Simplify gives for that kind
//     of map, transcribed to these sizes;
//   - `max_nodes`: the most expression nodes (results and constraints,
//     every node of MLIR's tree) that Simplify may leave, recorded from
//     this simplifier and never above the node count of `simplest`.
// Used by xla_simplifier_cases_test (the bounds, checked by exact
// enumeration) and by bench/core (Simplify per map against MLIR's
// simplifyAffineMap).

namespace xla_index {
namespace xla_simplifier_cases {

struct Case {
  const char* name;
  const char* input;
  const char* simplest;
  int max_nodes;
};

// Each comment names the XLA test whose kind of map the case has.
inline constexpr Case kCases[] = {
    // ConstraintIntervalSimplification_Sum (XLA keeps the constraint, with
    // a TODO: a residue of 6 is never in [17, 21]).
    {"constraint_mod_plus_constant",
     "(d0) -> (d0)\ndomain:\nd0 in [0, 59]\nd0 mod 6 + 3 in [20, 24]",
     "(d0) -> (d0)\ndomain:\nd0 in [0, 59]\nd0 mod 6 in [17, 21]", 0},
    // ConstraintIntervalSimplification_Sum_IndependentOfSymbol.
    {"constraint_sum_bounds_dim",
     "(d0)[s0, s1] -> (d0 * 10 + s0 * 5 + s1)\ndomain:\nd0 in [0, 999]\n"
     "s0 in [0, 1]\ns1 in [0, 4]\nd0 * 10 + s0 * 5 + s1 in [0, 299]",
     "(d0)[s0, s1] -> (d0 * 10 + s0 * 5 + s1)\ndomain:\nd0 in [0, 29]\n"
     "s0 in [0, 1]\ns1 in [0, 4]",
     9},
    // ConstraintIntervalSimplification_Sum_NotIndependentOfSymbol.
    {"constraint_sum_kept",
     "(d0)[s0, s1] -> (d0 * 10 + s0 * 5 + s1)\ndomain:\nd0 in [0, 999]\n"
     "s0 in [0, 1]\ns1 in [0, 4]\nd0 * 10 + s0 * 5 + s1 in [0, 298]",
     "(d0)[s0, s1] -> (d0 * 10 + s0 * 5 + s1)\ndomain:\nd0 in [0, 999]\n"
     "s0 in [0, 1]\ns1 in [0, 4]\nd0 * 10 + s0 * 5 + s1 in [0, 298]",
     18},
    // ConstraintIntervalSimplification_FloorDivPositiveDivisorPositiveBounds.
    {"constraint_floordiv_positive",
     "(d0) -> (d0)\ndomain:\nd0 in [0, 79]\nd0 floordiv 6 in [3, 9]",
     "(d0) -> (d0)\ndomain:\nd0 in [18, 59]", 1},
    // ConstraintIntervalSimplification_FloorDivPositiveDivisorNegativeBounds.
    {"constraint_floordiv_negative_bounds",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [-80, 80]\n"
     "s0 floordiv 4 in [-9, -3]",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [-36, -9]", 1},
    // ConstraintIntervalSimplification_FloorDivNegativeDivisorNegativeBounds.
    {"constraint_floordiv_negative_divisor",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [-80, 80]\n"
     "s0 floordiv -4 in [-9, -3]",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [9, 36]", 1},
    // ConstraintIntervalSimplification_MulPositiveMultiplierPositiveBounds.
    {"constraint_product_positive",
     "(d0) -> (d0)\ndomain:\nd0 in [0, 79]\nd0 * 6 in [10, 40]",
     "(d0) -> (d0)\ndomain:\nd0 in [2, 6]", 1},
    // ConstraintIntervalSimplification_MulPositiveMultiplierNegativeBounds.
    {"constraint_product_negative_bounds",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [-80, 80]\n"
     "s0 * 4 in [-15, -6]",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [-3, -2]", 1},
    // ConstraintIntervalSimplification_MulNegativeMultiplierNegativeBounds.
    {"constraint_product_negative_factor",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [-80, 80]\n"
     "s0 * -4 in [-15, -6]",
     "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [2, 3]", 1},
    // ConstraintMerge_Mod.
    {"constraint_mods_merge",
     "(d0)[s0, s1] -> (d0, s1, s0)\ndomain:\nd0 in [0, 5]\ns0 in [-31, -3]\n"
     "s1 in [0, 14]\nd0 mod 4 in [0, 0]\ns0 mod 2 in [0, 0]\n"
     "s0 mod 5 in [0, 0]\ns1 mod 7 in [2, 2]",
     "(d0)[s0, s1] -> (d0, s1, s0)\ndomain:\nd0 in [0, 5]\ns0 in [-30, -10]\n"
     "s1 in [2, 9]\nd0 mod 4 in [0, 0]\ns0 mod 10 in [0, 0]\n"
     "s1 mod 7 in [2, 2]",
     12},
    // AffineMapSimplification_ConstantDims.
    {"point_dimension", "(d0) -> (d0)\ndomain:\nd0 in [7, 7]",
     "(d0) -> (7)\ndomain:\nd0 in [7, 7]", 1},
    // AffineMapSimplification_SumOrderRegression (XLA only checks that a
    // second Simplify changes nothing; the input is the bound).
    {"sum_order",
     "(d0, d1)[s0, s1] -> ((d0 + d0 mod 5) floordiv 5 + (s0 + (s0 + s0) mod "
     "5) + ((d0 + s0) mod 5 + 0))\ndomain:\nd0 in [0, 7]\nd1 in [0, 3]\n"
     "s0 in [0, 11]\ns1 in [0, 2]",
     "(d0, d1)[s0, s1] -> ((d0 + d0 mod 5) floordiv 5 + (s0 + (s0 + s0) mod "
     "5) + ((d0 + s0) mod 5 + 0))\ndomain:\nd0 in [0, 7]\nd1 in [0, 3]\n"
     "s0 in [0, 11]\ns1 in [0, 2]",
     21},
    // AffineMapSimplification_SumOrderRegression2.
    {"sum_order_floordiv",
     "(d0)[s0] -> (((s0 + d0) + d0) floordiv 4)\ndomain:\nd0 in [0, 7]\n"
     "s0 in [0, 15]",
     "(d0)[s0] -> (((s0 + d0) + d0) floordiv 4)\ndomain:\nd0 in [0, 7]\n"
     "s0 in [0, 15]",
     7},
    // AffineMapSimplification_FloorDivRegression.
    {"floordiv_of_digit_sum",
     "(d0, d1) -> (((d0 floordiv 4) * 4 + d1 floordiv 3) floordiv 8)\n"
     "domain:\nd0 in [0, 23]\nd1 in [0, 11]",
     "(d0, d1) -> (d0 floordiv 8)\ndomain:\nd0 in [0, 23]\nd1 in [0, 11]", 3},
    // AffineMapSimplification_ModIsSub.
    {"mod_is_sub", "(d0) -> (d0 mod 30)\ndomain:\nd0 in [35, 50]",
     "(d0) -> (d0 - 30)\ndomain:\nd0 in [35, 50]", 3},
    // AffineMapSimplification_ModIsAdd.
    {"mod_is_add", "(d0) -> (d0 mod 7)\ndomain:\nd0 in [-7, -1]",
     "(d0) -> (d0 + 7)\ndomain:\nd0 in [-7, -1]", 3},
    // AffineMapSimplification_ModIsNotAdd (two periods: unchanged).
    {"mod_is_not_add_upper", "(d0) -> (d0 mod 7)\ndomain:\nd0 in [-6, 0]",
     "(d0) -> (d0 mod 7)\ndomain:\nd0 in [-6, 0]", 3},
    {"mod_is_not_add_lower", "(d0) -> (d0 mod 7)\ndomain:\nd0 in [-8, -1]",
     "(d0) -> (d0 mod 7)\ndomain:\nd0 in [-8, -1]", 3},
    // AffineMapSimplification_SubIsMod.
    {"sub_is_mod",
     "(d0)[s0] -> (d0 - (s0 floordiv 4) * 4 + s0)\ndomain:\nd0 in [0, 2]\n"
     "s0 in [0, 5]",
     "(d0)[s0] -> (d0 + s0 mod 4)\ndomain:\nd0 in [0, 2]\ns0 in [0, 5]", 5},
    // AffineMapSimplification_SubIsModMultiplied.
    {"sub_is_mod_multiplied",
     "(d0)[s0] -> (d0 - (s0 floordiv 4) * 20 + s0 * 9)\ndomain:\n"
     "d0 in [0, 2]\ns0 in [0, 5]",
     "(d0)[s0] -> (d0 + (s0 mod 4) * 5 + s0 * 4)\ndomain:\nd0 in [0, 2]\n"
     "s0 in [0, 5]",
     11},
    // AffineMapSimplification_SubIsModSum.
    {"sub_is_mod_sum",
     "(d0)[s0] -> (2 + d0 - ((s0 + 2) floordiv 4) * 4 + s0)\ndomain:\n"
     "d0 in [0, 2]\ns0 in [0, 5]",
     "(d0)[s0] -> (d0 + (s0 + 2) mod 4)\ndomain:\nd0 in [0, 2]\n"
     "s0 in [0, 5]",
     7},
    // AffineMapSimplification_DivsAndModsIfSmallerThanDivisor.
    {"digits_within_divisor",
     "(d0, d1) -> (d0 + d1 floordiv 8, d1 mod 8)\ndomain:\nd0 in [0, 4]\n"
     "d1 in [0, 7]",
     "(d0, d1) -> (d0, d1)\ndomain:\nd0 in [0, 4]\nd1 in [0, 7]", 2},
    // AffineMapSimplification_DivsAndModsWithMultipliers.
    {"digits_with_multipliers",
     "(d0, d1, d2) -> ((d0 * 49 + d1 * 7 + d2) floordiv 49, ((d0 * 49 + d1 * "
     "7 + d2) mod 49) floordiv 7, d2 mod 7)\ndomain:\nd0 in [0, 5]\n"
     "d1 in [0, 5]\nd2 in [0, 5]",
     "(d0, d1, d2) -> (d0, d1, d2)\ndomain:\nd0 in [0, 5]\nd1 in [0, 5]\n"
     "d2 in [0, 5]",
     3},
    // AffineMapSimplification_DivsAndModsWithDivisibleMultipliers.
    {"digits_with_divisible_multipliers",
     "(d0, d1, d2) -> ((d0 * 12 + d1 * 3 + d2) floordiv 6, (d0 * 12 + d1 * 3 "
     "+ d2) mod 6)\ndomain:\nd0 in [0, 7]\nd1 in [0, 7]\nd2 in [0, 7]",
     "(d0, d1, d2) -> (d0 * 2 + (d1 * 3 + d2) floordiv 6, (d1 * 3 + d2) mod "
     "6)\ndomain:\nd0 in [0, 7]\nd1 in [0, 7]\nd2 in [0, 7]",
     18},
    // AffineMapSimplification_DivsAndModsWithReverse.
    {"digits_reversed",
     "(d0, d1) -> (-((d0 * -7 - d1 + 48) floordiv 7) + 6, d0 * 7 + d1 + ((d0 "
     "* -7 - d1 + 48) floordiv 7) * 7 - 42)\ndomain:\nd0 in [0, 5]\n"
     "d1 in [0, 6]",
     "(d0, d1) -> (d0, d1)\ndomain:\nd0 in [0, 5]\nd1 in [0, 6]", 2},
    // AffineMapSimplification_SimplifyReshape.
    {"reshape_mod_plus_quotient",
     "(d0)[s0] -> ((s0 * 96) mod 500 + ((s0 * 96) floordiv 500) * 500)\n"
     "domain:\nd0 in [0, 1]\ns0 in [0, 63]",
     "(d0)[s0] -> (s0 * 96)\ndomain:\nd0 in [0, 1]\ns0 in [0, 63]", 3},
    // AffineMapSimplification_SimplifyReshape2.
    {"reshape_two_digits",
     "(d0, d1) -> ((d0 mod 4) * 64 + d1 + (d0 floordiv 4) * 256)\ndomain:\n"
     "d0 in [0, 63]\nd1 in [0, 63]",
     "(d0, d1) -> (d0 * 64 + d1)\ndomain:\nd0 in [0, 63]\nd1 in [0, 63]", 5},
    // AffineMapSimplification_SimplifyReshape3.
    {"reshape_three_digits",
     "(d0, d1) -> (((d1 * 4 + d0 floordiv 32) mod 5) * 128 + (d0 mod 32) * 4 "
     "+ ((d1 * 128 + d0) floordiv 160) * 640)\ndomain:\nd0 in [0, 127]\n"
     "d1 in [0, 29]",
     "(d0, d1) -> (d0 * 4 + d1 * 512)\ndomain:\nd0 in [0, 127]\n"
     "d1 in [0, 29]",
     7},
    // AffineMapSimplification_ModWithNegativeMultiplerDoesNotGetSimplified.
    {"mod_of_negation", "(d0) -> ((-d0) mod 3)\ndomain:\nd0 in [0, 63]",
     "(d0) -> ((-d0) mod 3)\ndomain:\nd0 in [0, 63]", 5},
    // AffineMapSimplification_SimplifyBitcastAndBack: four digits of
    // d0 * 96 + d1 in bases 32, 5, 768 and the rest.
    {"bitcast_and_back",
     "(d0, d1) -> ((d0 floordiv 20) * 480 + (((d0 * 3 + d1 floordiv 2) "
     "floordiv 5) mod 12) * 40 + ((d0 * 3 + d1 floordiv 2) mod 5) * 8 + "
     "(d1 mod 2) * 4)\ndomain:\nd0 in [0, 59]\nd1 in [0, 5]",
     "(d0, d1) -> (d0 * 24 + d1 * 4)\ndomain:\nd0 in [0, 59]\n"
     "d1 in [0, 5]",
     7},
    // AffineMapSimplification_SimplifyReshape_Regression (different
    // multiples of s0: XLA only reorders the sum).
    {"reshape_unrelated_digits",
     "(d0)[s0] -> ((s0 * 96) mod 500 + ((s0 * 48) floordiv 500) * 500)\n"
     "domain:\nd0 in [0, 1]\ns0 in [0, 63]",
     "(d0)[s0] -> (((s0 * 48) floordiv 500) * 500 + (s0 * 96) mod 500)\n"
     "domain:\nd0 in [0, 1]\ns0 in [0, 63]",
     13},
    // AffineMapSimplification_DivsInSequence.
    {"divisions_in_sequence",
     "(d0)[s0] -> (s0 - ((s0 floordiv 3) floordiv 5) * 15 + (s0 floordiv 15) "
     "* 15)\ndomain:\nd0 in [0, 1]\ns0 in [0, 999]",
     "(d0)[s0] -> (s0)\ndomain:\nd0 in [0, 1]\ns0 in [0, 999]", 1},
    // AffineMapSimplification_DivDiv.
    {"floordiv_of_floordiv_sum",
     "(d0)[s0, s1] -> ((s0 * 4 + s1 floordiv 32) floordiv 5)\ndomain:\n"
     "d0 in [0, 1]\ns0 in [0, 29]\ns1 in [0, 127]",
     "(d0)[s0, s1] -> ((s0 * 128 + s1) floordiv 160)\ndomain:\nd0 in [0, 1]\n"
     "s0 in [0, 29]\ns1 in [0, 127]",
     7},
    // AffineMapSimplification_DivSumConstant.
    {"floordiv_common_factor",
     "(d0)[s0] -> ((s0 * 10 + 15) floordiv 30)\ndomain:\nd0 in [0, 1]\n"
     "s0 in [0, 999]",
     "(d0)[s0] -> ((s0 * 2 + 3) floordiv 6)\ndomain:\nd0 in [0, 1]\n"
     "s0 in [0, 999]",
     5},
    // AffineMapSimplification_DivSumDiv (unchanged).
    {"floordiv_of_two_floordivs",
     "(d0)[s0, s1] -> ((s0 floordiv 5 + s1 floordiv 5) floordiv 4)\ndomain:\n"
     "d0 in [0, 1]\ns0 in [0, 59]\ns1 in [0, 39]",
     "(d0)[s0, s1] -> ((s0 floordiv 5 + s1 floordiv 5) floordiv 4)\ndomain:\n"
     "d0 in [0, 1]\ns0 in [0, 59]\ns1 in [0, 39]",
     9},
    // AffineMapSimplification_NegativeDiv (unchanged).
    {"floordiv_by_negative_of_floordiv",
     "(d0)[s0] -> ((s0 floordiv 3) floordiv -5)\ndomain:\nd0 in [0, 1]\n"
     "s0 in [0, 999]",
     "(d0)[s0] -> ((s0 floordiv 3) floordiv -5)\ndomain:\nd0 in [0, 1]\n"
     "s0 in [0, 999]",
     5},
    // AffineMapSimplification_ExtractFromMod.
    {"mod_small_part_leaves",
     "(d0)[s0, s1, s2, s3] -> ((s0 * 229376 + s1 + s2 * 2 + s3 * 256) mod "
     "12000)\ndomain:\nd0 in [0, 0]\ns0 in [0, 3]\ns1 in [0, 1]\n"
     "s2 in [0, 15]\ns3 in [0, 15]",
     "(d0)[s0, s1, s2, s3] -> (((s0 * 114688 + s3 * 128 + s2) mod 6000) * 2 "
     "+ s1)\ndomain:\nd0 in [0, 0]\ns0 in [0, 3]\ns1 in [0, 1]\n"
     "s2 in [0, 15]\ns3 in [0, 15]",
     15},
    // AffineMapSimplification_ExtractFromDiv_NegativeMultiplier.
    {"floordiv_negative_nested_term",
     "(d0)[s0, s1] -> ((s0 * 18 - (s1 floordiv 3) floordiv 2 + (s1 floordiv "
     "6) * 2) floordiv 3)\ndomain:\nd0 in [0, 1]\ns0 in [0, 2]\n"
     "s1 in [0, 107]",
     "(d0)[s0, s1] -> (s0 * 6 + s1 floordiv 18)\ndomain:\nd0 in [0, 1]\n"
     "s0 in [0, 2]\ns1 in [0, 107]",
     7},
};

}  // namespace xla_simplifier_cases
}  // namespace xla_index

#endif  // XLA_INDEX_CORE_XLA_SIMPLIFIER_CASES_H_

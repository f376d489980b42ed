// The Python class IndexingMap: the text format, the simplifier,
// composition, the exact equality and emptiness of xla-index equal/empty,
// the domain as tuples, and evaluation.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/bindings.h"
#include "xla_index/core/exact_map_questions.h"
#include "xla_index/core/indexing_map.h"
#include "xla_index/core/indexing_map_text.h"
#include "xla_index/core/presburger_relation.h"

namespace xla_index::python {
namespace {

namespace py = pybind11;
using Bound = std::tuple<std::string, int64_t, int64_t>;

// The witness of a difference as `xla-index equal --json` writes it, with
// "self"/"other" for MAP1/MAP2.
py::dict DifferenceWitness(const MapDifference& difference) {
  py::dict witness;
  witness["in"] = difference.in_map == 0 ? "self" : "other";
  witness["not_in"] = difference.in_map == 0 ? "other" : "self";
  witness["dims"] = py::tuple(py::cast(difference.point.dims));
  witness["symbols"] = py::tuple(py::cast(difference.point.symbols));
  witness["results"] = py::tuple(py::cast(difference.point.results));
  return witness;
}

std::vector<Bound> Named(const char* prefix,
                         const std::vector<Interval>& bounds) {
  std::vector<Bound> out;
  for (size_t i = 0; i < bounds.size(); ++i) {
    out.emplace_back(absl::StrCat(prefix, i), bounds[i].lower, bounds[i].upper);
  }
  return out;
}

IndexingMap Parse(const std::string& text) {
  std::lock_guard<std::mutex> lock(SharedContextMutex());
  return ValueOrThrow(ParseIndexingMap(text, SharedContext()));
}

IndexingMap Simplified(const IndexingMap& map) {
  std::lock_guard<std::mutex> lock(SharedContextMutex());
  IndexingMap copy = map;
  copy.Simplify();
  return copy;
}

// As `xla-index compose MAP1 MAP2`: `first` then `second`, simplified.
IndexingMap Composed(const IndexingMap& first, const IndexingMap& second) {
  if (!first.IsUndefined() && !second.IsUndefined() &&
      first.GetResultCount() != second.GetDimensionCount()) {
    throw std::invalid_argument(absl::StrCat(
        "this map has ", first.GetResultCount(), " results but the other has ",
        second.GetDimensionCount(), " dimensions; they must be equal"));
  }
  std::lock_guard<std::mutex> lock(SharedContextMutex());
  IndexingMap composed = ComposeAndSimplifyIndexingMaps(first, second);
  composed.RemoveUnusedSymbols();
  return composed;
}

std::vector<int64_t> Evaluate(const IndexingMap& map,
                              const std::vector<int64_t>& dims,
                              const std::vector<int64_t>& symbols) {
  if (map.IsUndefined() || map.IsKnownEmpty()) {
    throw std::invalid_argument(
        absl::StrCat("a ", ToString(map), " map has no values"));
  }
  if (static_cast<int64_t>(dims.size()) != map.GetDimensionCount() ||
      static_cast<int64_t>(symbols.size()) != map.GetSymbolCount()) {
    throw std::invalid_argument(
        absl::StrCat("the map takes ", map.GetDimensionCount(), " dims and ",
                     map.GetSymbolCount(), " symbols; given ", dims.size(),
                     " and ", symbols.size()));
  }
  std::lock_guard<std::mutex> lock(SharedContextMutex());
  std::optional<std::vector<int64_t>> values = map.Evaluate(dims, symbols);
  if (!values.has_value()) {
    throw std::invalid_argument(
        "the map's results at this point overflow int64 or divide by zero");
  }
  return *values;
}

}  // namespace

void DefineIndexingMap(py::module_& m) {
  py::class_<IndexingMap>(
      m, "IndexingMap",
      "An indexing map of XLA's indexing analysis: an affine map with a "
      "domain (dims and symbols in intervals, and constraints).")
      .def_static("parse", &Parse, py::arg("text"),
                  "Parses the text format (str(map)); ValueError "
                  "'line:column: ...' on bad text.")
      .def("__str__", [](const IndexingMap& map) { return ToString(map); })
      .def(
          "to_string",
          [](const IndexingMap& map, const std::string& syntax) {
            if (syntax == "documentation") return ToString(map);
            if (syntax == "xla-head") return ToXlaHeadString(map);
            throw py::value_error(
                "syntax must be 'documentation' or 'xla-head', got '" + syntax +
                "'");
          },
          py::arg("syntax") = "documentation",
          "The text in the documentation's format (str(map)) or, with "
          "syntax='xla-head', in the one-line form XLA HEAD's "
          "ParseIndexingMap reads (as `--syntax=xla-head`).")
      .def("__repr__",
           [](const IndexingMap& map) {
             return std::string(py::repr(py::str(ToString(map))))
                 .insert(0, "IndexingMap.parse(")
                 .append(")");
           })
      .def("__eq__",
           [](const IndexingMap& a, const IndexingMap& b) { return a == b; })
      .def("simplify", &Simplified, py::call_guard<py::gil_scoped_release>(),
           "A simplified copy (as `xla-index simplify`).")
      .def("compose", &Composed, py::arg("other"),
           py::call_guard<py::gil_scoped_release>(),
           "This map, then `other` (as `xla-index compose SELF OTHER`).")
      .def(
          "equal",
          [](const IndexingMap& a, const IndexingMap& b) -> py::object {
            std::optional<MapDifference> difference;
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(SharedContextMutex());
              difference = ValueOrThrow(DecideEquality(a, b)).difference;
            }
            if (!difference.has_value()) return py::bool_(true);
            return py::module_::import("xla_index")
                .attr("Inequality")(DifferenceWitness(*difference));
          },
          py::arg("other"),
          "True when both maps relate the same (dims, results) pairs "
          "(exactly, as `xla-index equal`); else a false Inequality whose "
          ".witness is a pair only one of them relates.")
      .def(
          "is_empty",
          [](const IndexingMap& map) {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(SharedContextMutex());
            return !ValueOrThrow(DecideEmptiness(map)).point.has_value();
          },
          "True when no point meets every bound and constraint (exactly, as "
          "`xla-index empty`).")
      .def_property_readonly(
          "dims",
          [](const IndexingMap& map) {
            return py::tuple(py::cast(Named("d", map.GetDimBounds())));
          },
          "((name, lo, hi), ...) of the dimensions.")
      .def_property_readonly(
          "symbols",
          [](const IndexingMap& map) {
            return py::tuple(py::cast(Named("s", map.GetSymbolBounds())));
          },
          "((name, lo, hi), ...) of the symbols (range, then runtime).")
      .def_property_readonly(
          "constraints",
          [](const IndexingMap& map) {
            std::vector<Bound> out;
            for (const IndexingConstraint& c : map.GetConstraints()) {
              out.emplace_back(AffineExprToString(c.expr), c.interval.lower,
                               c.interval.upper);
            }
            return py::tuple(py::cast(out));
          },
          "((expression, lo, hi), ...) of the constraints.")
      .def_property_readonly("is_undefined", &IndexingMap::IsUndefined)
      .def_property_readonly("is_known_empty", &IndexingMap::IsKnownEmpty)
      .def_property_readonly(
          "undefined_reason",
          [](const IndexingMap& map) { return map.undefined_reason(); })
      .def(
          "evaluate",
          [](const IndexingMap& map, const std::vector<int64_t>& dims,
             const std::vector<int64_t>& symbols) {
            return py::tuple(py::cast(Evaluate(map, dims, symbols)));
          },
          py::arg("dims"), py::arg("symbols") = std::vector<int64_t>{},
          "The results at (dims, symbols) as a tuple of ints.");
}

}  // namespace xla_index::python

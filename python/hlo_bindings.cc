// The Python classes Module, Computation and Instruction, parse_module, and
// the per-instruction indexing maps (output_to_input, input_to_output).

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlo/parser.h"
#include "hlo/text_cursor.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/bindings.h"
#include "tools/hlo_input.h"
#include "xla_index/analysis/fusion_operands.h"
#include "xla_index/input_to_output_indexing.h"
#include "xla_index/ops/instruction_indexing.h"
#include "xla_index/output_to_input_indexing.h"

namespace xla_index::python {
namespace {

namespace py = pybind11;

// As the CLI reads a file of one module (tools/hlo_input.h), errors
// "line:column: what" without a file name.
PyModule ParseModule(const std::string& text) {
  auto loaded = std::make_shared<LoadedHlo>();
  {
    py::gil_scoped_release release;
    loaded->module = ValueOrThrow(ParseAndVerifyHloModule(text));
    absl::Status numbered = CheckParameterNumbers(*loaded->module);
    if (!numbered.ok()) ThrowStatus(numbered);
  }
  loaded->path = "<string>";
  TextCursor cursor(text);
  loaded->is_full_module = cursor.TryConsumeWord("HloModule");
  return PyModule{std::move(loaded)};
}

PyInstruction Wrap(const std::shared_ptr<const LoadedHlo>& loaded,
                   const HloInstruction* instruction) {
  return PyInstruction{loaded, instruction};
}

py::dict InstructionsByName(const PyComputation& c) {
  py::dict out;
  for (const auto& instruction : c.computation->instructions()) {
    out[py::str(instruction->name())] = Wrap(c.loaded, instruction.get());
  }
  return out;
}

// One list of maps per entry of `indexing` (operands or outputs).
std::vector<std::vector<IndexingMap>> MapLists(
    const HloInstructionIndexing& indexing) {
  std::vector<std::vector<IndexingMap>> out;
  for (const IndexingMapSet& set : indexing.indexing_maps) {
    std::vector<IndexingMap> maps;
    for (int64_t i = 0; i < set.size(); ++i) maps.push_back(set[i]);
    out.push_back(std::move(maps));
  }
  return out;
}

void DefineComputation(py::module_& m) {
  py::class_<PyComputation>(m, "Computation", "An HLO computation.")
      .def_property_readonly(
          "name", [](const PyComputation& c) { return c.computation->name(); })
      .def_property_readonly(
          "is_entry",
          [](const PyComputation& c) { return c.computation->is_entry(); })
      .def_property_readonly("instructions", &InstructionsByName,
                             "{name: Instruction} in the text's order.")
      .def_property_readonly(
          "root",
          [](const PyComputation& c) -> py::object {
            if (c.computation->root() == nullptr) return py::none();
            return py::cast(Wrap(c.loaded, c.computation->root()));
          })
      .def_property_readonly(
          "parameters",
          [](const PyComputation& c) {
            py::list out;
            for (const HloInstruction* p : c.computation->parameters()) {
              out.append(Wrap(c.loaded, p));
            }
            return out;
          },
          "The parameters, by number.")
      .def("__getitem__",
           [](const PyComputation& c, const std::string& name) {
             const HloInstruction* found = c.computation->GetInstruction(name);
             if (found == nullptr) {
               throw py::key_error(absl::StrCat("no instruction '", name,
                                                "' in '", c.computation->name(),
                                                "'"));
             }
             return Wrap(c.loaded, found);
           })
      .def("__str__",
           [](const PyComputation& c) { return c.computation->ToString(); })
      .def("__repr__", [](const PyComputation& c) {
        return absl::StrCat("<xla_index.Computation ", c.computation->name(),
                            ">");
      });
}

void DefineInstruction(py::module_& m) {
  py::class_<PyInstruction>(m, "Instruction", "An HLO instruction.")
      .def_property_readonly(
          "name", [](const PyInstruction& i) { return i.instruction->name(); })
      .def_property_readonly(
          "opcode",
          [](const PyInstruction& i) { return i.instruction->opcode_name(); })
      .def_property_readonly("shape",
                             [](const PyInstruction& i) {
                               return i.instruction->shape().ToString();
                             })
      .def_property_readonly(
          "operands",
          [](const PyInstruction& i) {
            py::list out;
            for (int64_t k = 0; k < i.instruction->operand_count(); ++k) {
              out.append(Wrap(i.loaded, i.instruction->operand(k)));
            }
            return out;
          })
      .def_property_readonly(
          "computation",
          [](const PyInstruction& i) {
            return PyComputation{i.loaded, i.instruction->parent()};
          })
      .def("__eq__",
           [](const PyInstruction& a, const PyInstruction& b) {
             return a.instruction == b.instruction;
           })
      .def("__hash__",
           [](const PyInstruction& i) {
             return std::hash<const void*>()(i.instruction);
           })
      .def("__str__",
           [](const PyInstruction& i) { return i.instruction->ToString(); })
      .def("__repr__", [](const PyInstruction& i) {
        return absl::StrCat("<xla_index.Instruction ", i.instruction->name(),
                            ">");
      });
}

void DefineModule(py::module_& m) {
  py::class_<PyModule>(m, "Module", "A parsed HLO module (or snippet).")
      .def_property_readonly(
          "name", [](const PyModule& p) { return p.loaded->module->name(); })
      .def_property_readonly(
          "is_full_module",
          [](const PyModule& p) { return p.loaded->is_full_module; },
          "False for a snippet (a bare computation or instruction list).")
      .def_property_readonly("entry",
                             [](const PyModule& p) -> py::object {
                               const HloComputation* entry =
                                   p.loaded->module->entry_computation();
                               if (entry == nullptr) return py::none();
                               return py::cast(PyComputation{p.loaded, entry});
                             })
      .def_property_readonly(
          "computations",
          [](const PyModule& p) {
            py::dict out;
            for (const auto& c : p.loaded->module->computations()) {
              out[py::str(c->name())] = PyComputation{p.loaded, c.get()};
            }
            return out;
          },
          "{name: Computation} in the text's order.")
      .def(
          "instruction",
          [](const PyModule& p, const std::string& name) {
            return Wrap(p.loaded,
                        ValueOrThrow(FindInstruction(*p.loaded->module, name)));
          },
          py::arg("name"),
          "The instruction NAME (the entry computation first) or "
          "COMPUTATION.NAME, as --instruction of the CLI; ValueError when "
          "there is none.")
      .def("__str__",
           [](const PyModule& p) { return p.loaded->module->ToString(); })
      .def("__repr__", [](const PyModule& p) {
        return absl::StrCat("<xla_index.Module ", p.loaded->module->name(),
                            ">");
      });
}

}  // namespace

void DefineHlo(py::module_& m) {
  DefineComputation(m);
  DefineInstruction(m);
  DefineModule(m);
  m.def("parse_module", &ParseModule, py::arg("text"),
        "Parses and verifies HLO text: a module as XLA dumps it, or a "
        "snippet. ValueError 'line:column: ...' on bad text.");
  m.def(
      "output_to_input",
      [](const PyInstruction& i, int64_t output_id) {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(SharedContextMutex());
        return MapLists(ComputeOutputToInputIndexing(i.instruction, output_id,
                                                     SharedContext()));
      },
      py::arg("instruction"), py::arg("output_id") = 0,
      "For each operand, the maps from an element of output `output_id` to "
      "the operand's elements it reads (XLA's "
      "ComputeOutputToInputIndexing).");
  m.def(
      "input_to_output",
      [](const PyInstruction& i, int64_t operand_id) {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(SharedContextMutex());
        return MapLists(ComputeInputToOutputIndexing(i.instruction, operand_id,
                                                     SharedContext()));
      },
      py::arg("instruction"), py::arg("operand_id"),
      "For each output, the maps from an element of operand `operand_id` to "
      "the output's elements it feeds (XLA's "
      "ComputeInputToOutputIndexing).");
}

}  // namespace xla_index::python

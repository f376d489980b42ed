// The analyses of the Python module: coalescing, utilization, tile and
// report return the dict of the CLI's --json, produced by the same command
// functions (tools/*_command.h) on the parsed module; layout and sparse the
// dict of `xla-index layout/sparse --json`. Report, Layout and Sparse are
// dicts with _repr_html_: the page of `report --html`, the picture of
// `layout --svg` and of `sparse --svg`.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "layout/layout_description.h"
#include "mlir/IR/MLIRContext.h"
#include "pybind11/eval.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/bindings.h"
#include "sparse/sparse_report.h"
#include "sparse/storage_svg.h"
#include "tools/command_line.h"
#include "tools/fusion_analysis_commands.h"
#include "tools/layout_command.h"
#include "tools/report_command.h"
#include "tools/tile_command.h"
#include "xla_index/analysis/fusion_operands.h"

namespace xla_index::python {
namespace {

namespace py = pybind11;

// The Python classes of the results, defined in Python so that they are
// plain dicts (json.dumps, ==, ...) with a notebook picture.
constexpr char kResultClasses[] = R"py(
class _Pictured(dict):
    """A dict shaped like the CLI's --json; a notebook shows its picture."""
    def __init__(self, data, picture):
        super().__init__(data)
        self._picture = picture
        self._html = None
    def _repr_html_(self):
        if self._html is None:
            self._html = self._picture()
        return self._html

class Report(_Pictured):
    """`xla-index report --json` as a dict; _repr_html_ is the page of
    `xla-index report --html`."""

class Layout(_Pictured):
    """`xla-index layout --json` as a dict; _repr_html_ is the SVG picture of
    `xla-index layout --svg`."""

class Sparse(_Pictured):
    """`xla-index sparse --json` as a dict; _repr_html_ is the SVG picture of
    `xla-index sparse --svg`."""

class Inequality:
    """What IndexingMap.equal answers for different maps: false, with a
    witness {"in", "not_in", "dims", "symbols", "results"}: a (dims,
    results) pair that map `in` ("self" or "other") relates (through those
    symbols) and map `not_in` does not."""
    def __init__(self, witness):
        self.witness = witness
    def __bool__(self):
        return False
    def __eq__(self, other):
        return other is False or isinstance(other, Inequality)
    def __repr__(self):
        return "Inequality(%r)" % (self.witness,)
)py";

// The instruction as --instruction=NAME names it for FindInstruction: NAME
// when that finds it, else COMPUTATION.NAME.
std::string InstructionFlag(const PyInstruction& i) {
  const HloModule& module = *i.loaded->module;
  const std::string& name = i.instruction->name();
  absl::StatusOr<const HloInstruction*> found = FindInstruction(module, name);
  if (found.ok() && *found == i.instruction) return name;
  const std::string qualified =
      absl::StrCat(i.instruction->parent()->name(), ".", name);
  found = FindInstruction(module, qualified);
  if (found.ok() && *found == i.instruction) return qualified;
  throw std::invalid_argument(absl::StrCat(
      "instruction '", name, "' cannot be named uniquely in its module"));
}

// The module and --instruction flag of a Module (its entry root) or an
// Instruction.
struct Target {
  std::shared_ptr<const LoadedHlo> loaded;
  std::optional<std::string> instruction;
};

Target TargetOf(const py::object& target) {
  if (py::isinstance<PyModule>(target)) {
    return Target{target.cast<const PyModule&>().loaded, std::nullopt};
  }
  if (py::isinstance<PyInstruction>(target)) {
    const PyInstruction& i = target.cast<const PyInstruction&>();
    return Target{i.loaded, InstructionFlag(i)};
  }
  throw py::type_error("expected an xla_index.Module or Instruction");
}

void SetInteger(CommandLine& command_line, const char* flag,
                const std::optional<int64_t>& value) {
  if (value.has_value()) command_line.flags[flag] = absl::StrCat(*value);
}

// Runs `command` with --json (and `command_line`'s flags) on the target,
// the GIL released; json.loads of its output.
py::object RunJson(HloCommand command, const Target& target,
                   CommandLine command_line) {
  command_line.positional = {"<string>"};
  command_line.flags["json"] = "";
  if (target.instruction)
    command_line.flags["instruction"] = *target.instruction;
  std::ostringstream out, err;
  absl::Status status;
  {
    py::gil_scoped_release release;
    status = command(command_line, *target.loaded, out, err);
  }
  if (!status.ok()) ThrowStatus(status);
  return JsonLoads(out.str());
}

// The page `report --html=FILE` writes with these flags: RunReportCommand
// itself writes it to a temporary file, so the page is the CLI's whatever
// the command's options become.
std::string ReportPage(const LoadedHlo& loaded, CommandLine command_line) {
  py::gil_scoped_release release;
  char path[] = "/tmp/xla_index_report_XXXXXX.xhtml";
  const int fd = mkstemps(path, 6);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  command_line.positional = {"<string>"};
  command_line.flags["html"] = path;
  std::ostringstream out, err;
  const absl::Status status = RunReportCommand(command_line, loaded, out, err);
  std::ifstream file(path, std::ios::binary);
  std::string page((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  std::remove(path);
  if (!status.ok()) ThrowStatus(status);
  return page;
}

// --block, --unroll, --device and --sample-points, when given.
CommandLine LaunchFlags(std::optional<int64_t> block,
                        std::optional<int64_t> unroll,
                        std::optional<std::string> device,
                        std::optional<int64_t> sample_points) {
  CommandLine command_line;
  SetInteger(command_line, "block", block);
  SetInteger(command_line, "unroll", unroll);
  SetInteger(command_line, "sample-points", sample_points);
  if (device) command_line.flags["device"] = *device;
  return command_line;
}

void DefineFusionAnalyses(py::module_& m) {
  m.def(
      "coalescing",
      [](const py::object& target, std::optional<int64_t> block,
         std::optional<int64_t> unroll, std::optional<std::string> device,
         std::optional<int64_t> sample_points) {
        return RunJson(RunCoalescingCommand, TargetOf(target),
                       LaunchFlags(block, unroll, device, sample_points));
      },
      py::arg("target"), py::arg("block") = py::none(),
      py::arg("unroll") = py::none(), py::arg("device") = py::none(),
      py::arg("sample_points") = py::none(),
      "`xla-index coalescing --json [--block] [--unroll] [--device] "
      "[--sample-points]` of a Module (its entry root) or an Instruction, as "
      "a dict.");
  m.def(
      "utilization",
      [](const py::object& target) {
        return RunJson(RunUtilizationCommand, TargetOf(target), {});
      },
      py::arg("target"),
      "`xla-index utilization --json` of a Module or Instruction.");
  m.def(
      "tile",
      [](const py::object& target, const std::vector<int64_t>& sizes) {
        CommandLine command_line;
        command_line.flags["tile"] = absl::StrJoin(sizes, ",");
        return RunJson(RunTileOnHlo, TargetOf(target), command_line);
      },
      py::arg("target"), py::arg("sizes"),
      "`xla-index tile --tile=SIZES --json` of a Module or Instruction.");
  m.def(
      "report",
      [](const PyModule& module, int64_t worst, std::optional<int64_t> block,
         std::optional<int64_t> unroll, std::optional<std::string> device,
         std::optional<int64_t> sample_points) {
        CommandLine command_line =
            LaunchFlags(block, unroll, device, sample_points);
        SetInteger(command_line, "worst", worst);
        py::object data =
            RunJson(RunReportCommand, Target{module.loaded}, command_line);
        std::shared_ptr<const LoadedHlo> loaded = module.loaded;
        py::cpp_function page([loaded, command_line] {
          return ReportPage(*loaded, command_line);
        });
        return py::module_::import("xla_index").attr("Report")(data, page);
      },
      py::arg("module"), py::arg("worst") = 10, py::arg("block") = py::none(),
      py::arg("unroll") = py::none(), py::arg("device") = py::none(),
      py::arg("sample_points") = py::none(),
      "`xla-index report --json` of a Module, as a Report (a dict whose "
      "_repr_html_ is the page of `report --html`).");
}

void DefinePictures(py::module_& m) {
  m.def(
      "layout",
      [](const std::string& shape, std::optional<std::vector<int64_t>> index) {
        CommandLine command_line;
        command_line.positional = {shape};
        command_line.flags["json"] = "";
        if (index) command_line.flags["index"] = absl::StrJoin(*index, ",");
        std::ostringstream out, err;
        absl::Status status;
        {
          py::gil_scoped_release release;
          status = RunLayoutCommand(command_line, out, err);
        }
        if (!status.ok()) ThrowStatus(status);
        py::cpp_function picture(
            [shape] { return ValueOrThrow(LayoutSvg(shape)); });
        return py::module_::import("xla_index")
            .attr("Layout")(JsonLoads(out.str()), picture);
      },
      py::arg("shape"), py::arg("index") = py::none(),
      "`xla-index layout SHAPE --json [--index=...]` as a Layout (a dict "
      "whose _repr_html_ is the picture of `layout --svg`).");
  m.def(
      "sparse",
      [](const std::string& encoding, const std::string& shape,
         std::optional<std::string> coo) {
        auto build = [=](mlir::MLIRContext* context) {
          return ValueOrThrow(
              sparse::BuildSparseReport(encoding, shape, coo, "coo", context));
        };
        std::string json;
        {
          py::gil_scoped_release release;
          mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
          json = sparse::SparseReportToJson(build(&context));
        }
        py::cpp_function picture([build] {
          mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
          return ValueOrThrow(sparse::SparseReportToSvg(build(&context)));
        });
        return py::module_::import("xla_index")
            .attr("Sparse")(JsonLoads(json), picture);
      },
      py::arg("encoding"), py::arg("shape") = "", py::arg("coo") = py::none(),
      "`xla-index sparse ENCODING --json [--shape=AxB] [--coo=FILE]` (here "
      "`coo` is the file's text) as a Sparse (a dict whose _repr_html_ is "
      "the picture of `sparse --svg`).");
}

}  // namespace

void DefineAnalyses(py::module_& m) {
  py::exec(kResultClasses, m.attr("__dict__"));
  DefineFusionAnalyses(m);
  DefinePictures(m);
}

}  // namespace xla_index::python

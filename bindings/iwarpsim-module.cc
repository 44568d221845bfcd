/*
 * _iwarpsim: the Python binding of the scenario runner (helper/scenario/scenario-runner.h).
 *
 *   import _iwarpsim
 *   r = _iwarpsim.run({"stop": "1ms", "topology": {"kind": "two-hosts"}, "workloads": [...]},
 *                     overrides={"workloads.0.size": "4KiB"}, out_dir="results/x")
 *   r["out_dir"]   # the complete results folder (summary.json, messages.csv, host.csv, queues.csv)
 *
 * `scenario` is a dict (written as YAML with yaml-cpp's emitter), YAML text, or the path of a
 * scenario file.  `overrides` is a dict {dot.path: value} or a list of "dot.path=value" strings:
 * the runner's --set syntax.  A bad scenario raises _iwarpsim.ScenarioError (a ValueError) whose
 * message is the one `iwarp-sim run` prints (file:line:col: key.path: detail).
 *
 * ns-3's simulator is a process-wide singleton: one simulation per process at a time.  run()
 * releases the GIL while it simulates and holds a process-wide lock, so a second Python thread
 * calling run() waits for the first.  A run changes none of ns-3's process-wide attribute
 * defaults (the runner gives every setting to the objects it makes), so one scenario's `host`/
 * `rnic` settings and segment sizes cannot leak into the next run in the same process.
 */
#include "common/time-resolution.h"
#include "helper/scenario/key-docs.h"
#include "helper/scenario/scenario-runner.h"
#include "helper/common/units.h"
#include "helper/scenario/workloads/workload-kind.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <mutex>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace ns3;

namespace
{

std::mutex g_simulatorLock; ///< ns-3's Simulator is a singleton: one run per process at a time

/** Emit a Python object (dict, list, tuple, str, bool, int, float, None) as YAML. */
void
EmitPython(YAML::Emitter& out, const py::handle& obj)
{
    if (obj.is_none())
    {
        out << YAML::Null;
    }
    else if (py::isinstance<py::bool_>(obj))
    {
        out << (obj.cast<bool>() ? "true" : "false");
    }
    else if (py::isinstance<py::int_>(obj))
    {
        out << py::str(obj).cast<std::string>();
    }
    else if (py::isinstance<py::float_>(obj))
    {
        out << py::repr(obj).cast<std::string>();
    }
    else if (py::isinstance<py::str>(obj))
    {
        // Quoted so that the text arrives exactly as written ("on", "1448", "0x10" stay text).
        out << YAML::DoubleQuoted << obj.cast<std::string>();
    }
    else if (py::isinstance<py::dict>(obj))
    {
        out << YAML::BeginMap;
        for (const auto& item : obj.cast<py::dict>())
        {
            out << YAML::Key << py::str(item.first).cast<std::string>() << YAML::Value;
            EmitPython(out, item.second);
        }
        out << YAML::EndMap;
    }
    else if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj))
    {
        out << YAML::BeginSeq;
        for (const auto& item : obj)
        {
            EmitPython(out, item);
        }
        out << YAML::EndSeq;
    }
    else if (py::hasattr(obj, "__index__")) // numpy integers
    {
        out << py::str(py::int_(py::reinterpret_borrow<py::object>(obj))).cast<std::string>();
    }
    else if (py::hasattr(obj, "__float__")) // numpy floats
    {
        out << py::repr(py::float_(py::reinterpret_borrow<py::object>(obj))).cast<std::string>();
    }
    else
    {
        throw py::type_error("cannot write a " + py::str(obj.get_type()).cast<std::string>() +
                             " into a scenario (use dict, list, str, int, float, bool or None)");
    }
}

std::string
ToYaml(const py::handle& obj, bool flow)
{
    YAML::Emitter out;
    if (flow)
    {
        out << YAML::Flow;
    }
    EmitPython(out, obj);
    if (!out.good())
    {
        throw py::value_error("cannot write the scenario as YAML: " + out.GetLastError());
    }
    return out.c_str();
}

/** One override value as --set text: strings as they are, bools as true/false, lists/dicts as flow YAML. */
std::string
OverrideValue(const py::handle& v)
{
    if (py::isinstance<py::str>(v))
    {
        return v.cast<std::string>();
    }
    if (py::isinstance<py::bool_>(v))
    {
        return v.cast<bool>() ? "true" : "false";
    }
    if (py::isinstance<py::int_>(v))
    {
        return py::str(v).cast<std::string>();
    }
    if (py::isinstance<py::float_>(v))
    {
        return py::repr(v).cast<std::string>();
    }
    return ToYaml(v, /*flow=*/true);
}

std::vector<std::string>
Overrides(const py::object& overrides)
{
    std::vector<std::string> sets;
    if (overrides.is_none())
    {
        return sets;
    }
    if (py::isinstance<py::dict>(overrides))
    {
        for (const auto& item : overrides.cast<py::dict>())
        {
            sets.push_back(py::str(item.first).cast<std::string>() + "=" + OverrideValue(item.second));
        }
        return sets;
    }
    for (const auto& item : overrides)
    {
        if (!py::isinstance<py::str>(item))
        {
            throw py::type_error("overrides: a dict {path: value} or a list of 'path=value' strings");
        }
        sets.push_back(item.cast<std::string>());
    }
    return sets;
}

/** A str is a path when it names an existing file or looks like one (one line, .yaml/.yml). */
bool
LooksLikePath(const std::string& s)
{
    if (s.find('\n') != std::string::npos)
    {
        return false;
    }
    if (std::ifstream(s).good())
    {
        return true;
    }
    auto endsWith = [&](const char* suffix) {
        const std::string x(suffix);
        return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
    };
    return endsWith(".yaml") || endsWith(".yml");
}

py::dict
Run(const py::object& scenario, const py::object& overrides, const py::object& outDir, bool progress)
{
    const std::vector<std::string> sets = Overrides(overrides);
    std::string path;
    std::string text;
    std::string sourceName = "<dict>";
    if (py::isinstance<py::str>(scenario) || py::hasattr(scenario, "__fspath__"))
    {
        const std::string s = py::str(py::module_::import("os").attr("fspath")(scenario)).cast<std::string>();
        if (!py::isinstance<py::str>(scenario) || LooksLikePath(s))
        {
            path = s;
        }
        else
        {
            text = s;
            sourceName = "<string>";
        }
    }
    else if (py::isinstance<py::dict>(scenario))
    {
        text = ToYaml(scenario, /*flow=*/false);
    }
    else
    {
        throw py::type_error("scenario: a dict, YAML text or the path of a scenario file");
    }
    ScenarioRunOptions options;
    options.progress = progress;
    if (!outDir.is_none())
    {
        options.outDir = py::str(py::module_::import("os").attr("fspath")(outDir)).cast<std::string>();
    }

    ScenarioOutcome outcome;
    {
        py::gil_scoped_release noGil;
        std::lock_guard<std::mutex> lock(g_simulatorLock);
        const ScenarioConfig cfg =
            path.empty() ? LoadScenarioString(text, sets, sourceName) : LoadScenarioFile(path, sets);
        outcome = RunScenario(cfg, options);
    }
    py::dict r;
    r["out_dir"] = outcome.folder;
    r["summary_text"] = SummarizeRun(outcome);
    r["summary_json"] = ResultsWriter::SummaryJson(outcome.result);
    return r;
}

} // namespace

PYBIND11_MODULE(_iwarpsim, m)
{
    m.doc() = "iwarp-ns3 scenario runner (one simulation per process at a time; see iwarpsim)";
    // As every program of the module does first (common/time-resolution.h). ns-3 allows it only before the
    // process's first simulation: import iwarpsim before running any other ns-3 simulation in Python.
    ns3::iwarp::UseModuleTimeResolution();

    static py::exception<ScenarioError> scenarioError(m, "ScenarioError", PyExc_ValueError);
    static py::exception<ResultsError> resultsError(m, "ResultsError", PyExc_RuntimeError);
    py::register_exception_translator([](std::exception_ptr p) {
        try
        {
            if (p)
            {
                std::rethrow_exception(p);
            }
        }
        catch (const ScenarioError& e)
        {
            scenarioError(e.what());
        }
        catch (const ResultsError& e)
        {
            resultsError(e.what());
        }
    });

    m.def("run",
          &Run,
          py::arg("scenario"),
          py::arg("overrides") = py::dict(),
          py::arg("out_dir") = py::none(),
          py::arg("progress") = false,
          "Run one scenario (dict, YAML text or file path) and write its results folder.\n"
          "overrides: {dot.path: value} or ['dot.path=value', ...] (iwarp-sim's --set).\n"
          "out_dir: the results folder (must not exist); None: the scenario's output, else results/<name>.\n"
          "Returns {'out_dir', 'summary_text', 'summary_json'}.  Raises ScenarioError (a ValueError)\n"
          "for a bad scenario, ResultsError when the folder exists.  The GIL is released while the\n"
          "simulation runs; one run per process at a time (ns-3's simulator is a singleton).");
    m.attr("SUMMARY_FORMAT") = kSummaryFormat;
    m.def(
        "workload_kinds_json",
        [] { return WorkloadKindsJson(); },
        "Every workload kind's description as JSON text (iwarp-sim workloads --json).");
    m.def(
        "scenario_json_schema",
        [] { return scenario::ScenarioJsonSchema(); },
        "The JSON Schema of a scenario file as JSON text (iwarp-sim keys --json-schema).");
    m.def(
        "to_yaml",
        [](const py::object& obj) { return ToYaml(obj, false); },
        py::arg("scenario"),
        "The YAML text run() would load for a scenario dict.");
    // The scenario loader's own parsers (helper/common/units.h): Python reads sizes, times and rates as the
    // runner does, and refuses what it refuses ("4kib"), with its message (a ValueError).
    m.def(
        "parse_size",
        [](const std::string& text) { return scenario::ParseSize(text); },
        py::arg("text"),
        "Octets of a scenario size (\"64\", \"4KiB\", \"1.5MiB\"); ValueError for anything the loader refuses.");
    m.def(
        "parse_time_ns",
        [](const std::string& text) { return scenario::ParseTime(text).GetNanoSeconds(); },
        py::arg("text"),
        "Nanoseconds of a scenario time (\"10us\", \"2.5ms\"); ValueError for anything the loader refuses.");
    m.def(
        "parse_rate_bps",
        [](const std::string& text) { return scenario::ParseRate(text); },
        py::arg("text"),
        "Bits per second of a scenario rate (\"10Gbps\"); ValueError for anything the loader refuses.");
}

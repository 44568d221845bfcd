/*
 * iwarp-sim: run a scenario file; list the module's attributes; say its version.
 *
 *   iwarp-sim run SCENARIO.yaml [--out DIR] [--set key=value]... [--no-progress] [--quiet] [--strict]
 *   iwarp-sim attributes [--markdown]   every TypeId of the module with its attributes and trace sources
 *                                       (--markdown: doc/attributes.md, tools/attribute-reference.h)
 *   iwarp-sim workloads [--json]        the workload kinds with their keys (--json: one entry per kind, as
 *                                       iwarpsim.workload_kinds() reads it)
 *   iwarp-sim keys [--markdown [--table NAME] | --tables | --json-schema]
 *                                       the transport keys with their defaults; --markdown: a key table of
 *                                       doc/scenario-format.md (`transport` unless --table), --tables: their
 *                                       names, --json-schema: doc/scenario.schema.json (helper/scenario/key-docs.h)
 *   iwarp-sim --version                 "iwarp-sim X.Y.Z", the version of CMake's project() (IWARP_NS3_VERSION)
 *
 * Exit status of `run`: 0 when the run finished and its results folder is complete; 2 for a bad scenario
 * (the message names the file, line and key; nothing is written); 1 for any other failure (the
 * results folder is not created); 3 with --strict when a physics check failed (doc/metrics.md; the
 * results folder is written all the same, failed checks are warnings on stderr without --strict);
 * 130 / 143 when interrupted by SIGINT / SIGTERM ("iwarp-sim: interrupted; nothing written": the
 * temporary results folder is removed); 128 + the signal after a crash ("crashed (SEGV); nothing
 * written", the folder removed all the same: helper/scenario/interrupt-cleanup.h).
 */
#include "common/time-resolution.h"
#include "attribute-reference.h"
#include "helper/scenario/interrupt-cleanup.h"
#include "helper/scenario/key-docs.h"
#include "helper/scenario/scenario-runner.h"
#include "helper/scenario/transport-keys.h"
#include "helper/scenario/workloads/workload-kind.h"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace ns3;

namespace
{

/** `iwarp-sim keys`: the transport keys one line each, or what key-docs.h prints. */
void
WriteKeys(std::ostream& out, bool markdown, const std::string& table, bool tables, bool jsonSchema)
{
    if (jsonSchema)
    {
        out << scenario::ScenarioJsonSchema();
        return;
    }
    if (tables)
    {
        for (const std::string& name : scenario::KeyTableNames())
        {
            out << name << "\n";
        }
        return;
    }
    if (markdown)
    {
        out << scenario::KeyTableMarkdown(table);
        return;
    }
    const ns3::TransportSettings defaults = ns3::DefaultTransport();
    for (const ns3::TransportKey& k : ns3::TransportKeys())
    {
        out << "transport." << k.key << ": " << k.value << "; default "
            << (k.defaultText.empty() ? k.text(defaults) : k.defaultText) << "\n";
    }
}

} // namespace

int
main(int argc, char** argv)
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    // First: the signal mask must be in place before any thread exists (doc in the header).
    InstallInterruptCleanup("iwarp-sim");
    CLI::App app{"iwarp-sim: iWARP (RDMAP/DDP over MPA/TCP) scenarios on ns-3"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("iwarp-sim ") + IWARP_NS3_VERSION);
    CLI::App* run = app.add_subcommand("run", "Run a scenario and write its results folder");
    std::string file;
    std::string out;
    std::vector<std::string> sets;
    bool noProgress = false;
    bool quiet = false;
    bool strict = false;
    run->add_option("scenario", file, "Scenario file (YAML, doc/scenario-format.md)")->required();
    run->add_option("--out", out, "Results folder (default: the scenario's output, else results/<name>)");
    run->add_option("--set", sets, "Override a scenario key: dot.path=value (repeatable)")->take_all();
    run->add_flag("--no-progress", noProgress, "No progress bar on stderr");
    run->add_flag("--quiet", quiet, "Print only the results folder");
    run->add_flag("--strict", strict, "Exit with status 3 when a physics check of the results fails");
    CLI::App* attributes =
        app.add_subcommand("attributes", "List every TypeId of the module with its attributes and trace sources");
    bool markdown = false;
    attributes->add_flag("--markdown", markdown, "Markdown, as in doc/attributes.md");
    CLI::App* workloads =
        app.add_subcommand("workloads", "List the workload kinds a scenario may use, with their keys");
    bool json = false;
    workloads->add_flag("--json", json, "JSON: one entry per kind (name, family, keys, metrics, ...)");
    CLI::App* keys = app.add_subcommand("keys", "List the declared scenario keys (transport) with their defaults");
    bool keysMarkdown = false;
    std::string keysTable = "transport";
    bool keysTables = false;
    bool keysJsonSchema = false;
    keys->add_flag("--markdown", keysMarkdown, "Markdown: a key table of doc/scenario-format.md");
    keys->add_option("--table", keysTable, "The table --markdown prints (default transport; --tables lists them)")
        ->check(CLI::IsMember(scenario::KeyTableNames()));
    keys->add_flag("--tables", keysTables, "The names of the generated key tables");
    keys->add_flag("--json-schema", keysJsonSchema, "The JSON Schema of a scenario file (doc/scenario.schema.json)");
    CLI11_PARSE(app, argc, argv);

    if (keys->parsed())
    {
        WriteKeys(std::cout, keysMarkdown, keysTable, keysTables, keysJsonSchema);
        return std::cout.good() ? 0 : 1;
    }

    if (workloads->parsed())
    {
        if (json)
        {
            std::cout << WorkloadKindsJson();
        }
        else
        {
            for (const WorkloadKindInfo* k : WorkloadKinds())
            {
                std::cout << k->name << " (" << ToString(k->family) << "): " << k->summary << "\n  keys:";
                for (const WorkloadKey& key : k->keys)
                {
                    std::cout << " " << key.name;
                }
                std::cout << "\n";
            }
        }
        return std::cout.good() ? 0 : 1;
    }

    if (attributes->parsed())
    {
        WriteAttributeReference(std::cout, TypeIdsOfGroup(kIwarpGroupName), markdown);
        return std::cout.good() ? 0 : 1;
    }

    ScenarioConfig cfg;
    try
    {
        cfg = LoadScenarioFile(file, sets);
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "iwarp-sim: " << e.what() << "\n";
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "iwarp-sim: cannot load " << file << ": " << e.what() << "\n";
        return 1;
    }
    catch (...)
    {
        std::cerr << "iwarp-sim: cannot load " << file << ": an unknown exception\n";
        return 1;
    }
    // Every exception is caught here, after the ResultsWriter in RunScenario has unwound and
    // removed its temporary folder: a failed run exits 1 with a message, never aborts.
    try
    {
        ScenarioRunOptions o;
        o.outDir = out;
        o.progress = !noProgress && !quiet;
        const ScenarioOutcome r = RunScenario(cfg, o);
        if (quiet)
        {
            std::cout << r.folder << "\n";
        }
        else
        {
            std::cout << SummarizeRun(r);
        }
        std::cerr << FailedChecksReport(r.result);
        return strict && r.result.FailedChecks() > 0 ? 3 : 0;
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "iwarp-sim: " << e.what() << "\n";
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "iwarp-sim: " << e.what() << "\n";
        return 1;
    }
    catch (...)
    {
        std::cerr << "iwarp-sim: the run failed with an unknown exception; nothing written\n";
        return 1;
    }
}

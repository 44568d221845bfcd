/*
 * iwarp-scenario-check: load scenario files as the runner would, without running them.
 *
 *   build/iwarp-scenario-check examples/scenarios/leaf-spine-mixed.yaml
 *   build/iwarp-scenario-check my.yaml --set workloads.0.size=4KiB --set seed=7 --print
 *
 * For each file it prints one line (name, topology, hosts, workloads, stop time) or the first
 * error as "file:line:column: key.path: detail" (doc/scenario-format.md), and exits with status 2
 * if any file has an error (as `iwarp-sim run` does for a bad scenario).  --print writes the
 * scenario as it would run, overrides applied.  CTest runs it over examples/scenarios/ so that
 * the examples stay valid.
 */
#include "common/time-resolution.h"
#include "helper/scenario/scenario-config.h"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    std::vector<std::string> files;
    std::vector<std::string> overrides;
    bool print = false;
    CLI::App app{"Check iwarp-ns3 scenario files (doc/scenario-format.md) without running them"};
    app.add_option("files", files, "scenario files")->required()->check(CLI::ExistingFile);
    app.add_option("--set", overrides, "override key.path=value, applied before the checks (repeatable)");
    app.add_flag("--print", print, "print each scenario as it would run (YAML, overrides applied)");
    CLI11_PARSE(app, argc, argv);

    int failed = 0;
    for (const auto& f : files)
    {
        try
        {
            const ScenarioConfig c = LoadScenarioFile(f, overrides);
            const auto hosts = ExpectedHostNames(c.topology);
            std::cout << f << ": ok: " << c.name << ", " << ToString(c.topology.kind) << " ("
                      << (hosts.empty() ? std::string("hosts from the file") : std::to_string(hosts.size()) + " hosts")
                      << "), " << c.workloads.size() << " workload(s), stop " << c.stop.As(Time::MS) << "\n";
            if (print)
            {
                std::cout << c.resolvedYaml;
            }
        }
        catch (const ScenarioError& e)
        {
            std::cerr << e.what() << "\n";
            ++failed;
        }
    }
    return failed == 0 ? 0 : 2;
}

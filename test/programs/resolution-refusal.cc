/*
 * A program that links the module but does not call iwarp::UseModuleTimeResolution(), so it runs at ns-3's
 * default nanoseconds, and asks the scenario runner for a run (CTest iwarp-resolution-refusal). The runner must refuse, not round every frame
 * time of a 40 Gb/s link (model/common/time-resolution.h); exit status 0 when it does.
 *
 * Its own executable: a resolution can be changed once per process, so the test runner, which runs at the
 * module's, cannot show this.
 */
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <unistd.h>

int
main()
{
    using namespace ns3;
    const ScenarioConfig cfg = LoadScenarioString(
        "stop: 1ms\ntopology: {kind: two-hosts}\nlinks: {rate: 40Gbps}\nworkloads:\n"
        "  - {kind: stream, from: h0, to: h1, size: 64KiB, count: 4}\n",
        {},
        "refusal.yaml");
    ScenarioRunOptions options;
    options.outDir = (std::filesystem::temp_directory_path() /
                      ("iwarp-resolution-refusal-" + std::to_string(::getpid())))
                         .string();
    options.progress = false;
    try
    {
        RunScenario(cfg, options);
    }
    catch (const std::runtime_error& e)
    {
        const std::string what = e.what();
        const bool named = what.find("picosecond resolution") != std::string::npos &&
                           what.find("time step in this program is +1ns") != std::string::npos;
        std::cout << (named ? "refused: " : "refused, without the reason: ") << what << "\n";
        return named && !std::filesystem::exists(options.outDir) ? 0 : 1;
    }
    std::cout << "ran at nanosecond resolution instead of refusing\n";
    std::filesystem::remove_all(options.outDir);
    return 1;
}

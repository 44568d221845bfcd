/*
 * Fuzz target scenario-loader: the scenario loader (helper/scenario: LoadScenarioFile, the reader, its checks
 * and the `--set` overrides) through the entry point `iwarp-sim run` uses, then the network build that the
 * runner does first.
 *
 * Input: YAML text. Lines that start with "--set " are taken out of it and become overrides, in order
 * ("--set workloads.0.size=1KiB" as on iwarp-sim's command line). The file is written to a scratch folder
 * that also holds t.graphml (a host, a switch and a host), so `topology: {kind: graphml, file: t.graphml}`
 * loads.
 *
 * Invariants beyond "no crash" (NS_FATAL_ERROR / NS_ASSERT in ns-3's parsers abort, which is a finding):
 *  - bad input leaves the loader only as a ScenarioError (iwarp-sim's exit 2 with file:line), never as another
 *    exception;
 *  - the resolved YAML of a loaded scenario loads again and resolves to itself;
 *  - a loaded scenario of at most 64 nodes builds: every node and link of its graph, pcaps as traced (what
 *    the checker passes does not fail later for a reason the file could have shown).
 */
#include "fuzz-common.h"
#include "fuzz-scenario.h"

#include <sstream>

using namespace ns3;
using namespace ns3::fuzz;

namespace
{

const char kGraphMl[] = R"(<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="k" for="node" attr.name="kind" attr.type="string"/>
  <key id="r" for="edge" attr.name="rate" attr.type="string"/>
  <graph id="G" edgedefault="undirected">
    <node id="a"><data key="k">host</data></node>
    <node id="s"><data key="k">switch</data></node>
    <node id="b"><data key="k">host</data></node>
    <edge source="a" target="s"><data key="r">1Gbps</data></edge>
    <edge source="s" target="b"/>
  </graph>
</graphml>
)";

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    static const std::string graphml =
        WriteScratchFile("t.graphml", reinterpret_cast<const uint8_t*>(kGraphMl), sizeof(kGraphMl) - 1);
    std::istringstream text(std::string(reinterpret_cast<const char*>(data), size));
    std::string yaml;
    std::vector<std::string> overrides;
    for (std::string line; std::getline(text, line);)
    {
        if (line.rfind("--set ", 0) == 0)
        {
            overrides.push_back(line.substr(6));
        }
        else
        {
            yaml += line + "\n";
        }
    }
    const std::string path =
        WriteScratchFile("scenario.yaml", reinterpret_cast<const uint8_t*>(yaml.data()), yaml.size());
    const std::optional<ScenarioConfig> cfg = LoadScenario(path, overrides);
    if (cfg)
    {
        CheckResolvedRoundTrip(*cfg);
        BuildNetwork(*cfg, 64);
    }
    return 0;
}

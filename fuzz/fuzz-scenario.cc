#include "fuzz-scenario.h"

#include "fuzz-common.h"

#include "helper/scenario/scenario-attributes.h"
#include "helper/scenario/scenario-error.h"
#include "helper/scenario/scenario-network.h"
#include "helper/topology/topology-graph.h"

#include "ns3/simulator.h"

#include <filesystem>

namespace ns3
{
namespace fuzz
{

std::optional<ScenarioConfig>
LoadScenario(const std::string& path, const std::vector<std::string>& overrides)
{
    try
    {
        return LoadScenarioFile(path, overrides);
    }
    catch (const ScenarioError&)
    {
        return std::nullopt;
    }
    catch (const std::exception& e)
    {
        Fail(std::string("an exception other than ScenarioError left the loader: ") + e.what());
    }
}

void
CheckResolvedRoundTrip(const ScenarioConfig& cfg)
{
    const std::string& text = cfg.resolvedYaml;
    const std::string path = WriteScratchFile("resolved.yaml", reinterpret_cast<const uint8_t*>(text.data()),
                                              text.size());
    std::optional<ScenarioConfig> again;
    try
    {
        again = LoadScenarioFile(path, {});
    }
    catch (const std::exception& e)
    {
        Fail(std::string("the resolved YAML does not load again: ") + e.what() + "\n" + text);
    }
    FUZZ_CHECK(again->resolvedYaml == text, "the resolved YAML resolves to itself:\n" + text + "---\n" +
                                                again->resolvedYaml);
}

uint32_t
BuildNetwork(const ScenarioConfig& cfg, uint32_t maxNodes)
{
    const TopologySpec spec = MakeTopologySpec(cfg);
    TopologyGraph g;
    try
    {
        g = MakeTopologyGraph(spec);
    }
    catch (const std::exception& e)
    {
        Fail(std::string("the loader accepted a topology its graph refuses: ") + e.what());
    }
    if (boost::num_vertices(g) > maxNodes)
    {
        return 0;
    }
    uint32_t built = 0;
    {
        // BuildScenarioNetwork gives each host's objects its host:/rnic: attributes itself.
        std::unique_ptr<BuiltTopology> topo;
        try
        {
            topo = BuildScenarioNetwork(cfg);
        }
        catch (const std::exception& e)
        {
            Fail(std::string("a scenario the loader accepted fails to build: ") + e.what());
        }
        FUZZ_CHECK(topo->NodeCount() == boost::num_vertices(g), "every node of the graph is built");
        FUZZ_CHECK(topo->LinkCount() == boost::num_edges(g), "every link of the graph is built");
        if (cfg.tracing.Enabled())
        {
            const std::string dir = ScratchDir() + "/pcap";
            std::filesystem::create_directories(dir);
            if (cfg.tracing.pcapAll)
            {
                topo->EnablePcapAll(dir + "/link");
            }
            for (const auto& [a, b] : cfg.tracing.pcapLinks)
            {
                topo->EnablePcap(dir + "/link", a, b);
            }
        }
        built = topo->NodeCount();
        Simulator::Destroy();
    }
    std::error_code ec;
    std::filesystem::remove_all(ScratchDir() + "/pcap", ec);
    return built;
}

} // namespace fuzz
} // namespace ns3

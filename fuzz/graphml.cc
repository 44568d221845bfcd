/*
 * Fuzz target graphml: GraphML topology files (helper/topology: ReadGraphMlTopology, TopologyBuilder), read
 * directly and through the scenario loader, then built as a scenario network with a pcap on every link.
 *
 * Input: the GraphML file. When it reads and has two hosts, a scenario naming it (a ping-pong between its
 * first and last host, pcap on all links) is loaded and, at up to 64 nodes, built.
 *
 * Invariants beyond "no crash" (an abort inside ns-3's attribute parsers is a finding):
 *  - bad files leave ReadGraphMlTopology only as TopologyError, and the loader only as ScenarioError;
 *  - a graph that reads has unique node ids, each a host or a switch;
 *  - a scenario the loader accepts builds every node and link of the graph (pcaps included).
 */
#include "fuzz-common.h"
#include "fuzz-scenario.h"

#include "helper/topology/topology-graph.h"

#include <yaml-cpp/yaml.h>

#include <set>

using namespace ns3;
using namespace ns3::fuzz;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    const std::string file = WriteScratchFile("g.graphml", data, size);
    TopologyGraph g;
    try
    {
        g = ReadGraphMlTopology(file);
    }
    catch (const TopologyError&)
    {
        return 0;
    }
    catch (const std::exception& e)
    {
        Fail(std::string("an exception other than TopologyError left ReadGraphMlTopology: ") + e.what());
    }
    std::set<std::string> names;
    std::vector<std::string> hosts;
    for (TopoVertexId v = 0; v < boost::num_vertices(g); ++v)
    {
        FUZZ_CHECK(names.insert(g[v].name).second, "node id '" + g[v].name + "' twice");
        FUZZ_CHECK(g[v].kind == "host" || g[v].kind == "switch", "node kind '" + g[v].kind + "'");
        if (g[v].IsHost())
        {
            hosts.push_back(g[v].name);
        }
    }
    if (hosts.size() < 2)
    {
        return 0;
    }
    // The scenario as a tree, so that any node id is quoted correctly.
    YAML::Node s;
    s["stop"] = "1ms";
    s["topology"]["kind"] = "graphml";
    s["topology"]["file"] = "g.graphml";
    YAML::Node w;
    w["kind"] = "ping-pong";
    w["from"] = hosts.front();
    w["to"] = hosts.back();
    w["op"] = "send";
    w["size"] = 64;
    w["count"] = 1;
    s["workloads"].push_back(w);
    s["tracing"]["pcap"] = "all";
    YAML::Emitter out;
    out << s;
    const std::string yaml = std::string(out.c_str()) + "\n";
    const std::string path =
        WriteScratchFile("graphml-scenario.yaml", reinterpret_cast<const uint8_t*>(yaml.data()), yaml.size());
    if (const std::optional<ScenarioConfig> cfg = LoadScenario(path, {}))
    {
        BuildNetwork(*cfg, 64);
    }
    return 0;
}

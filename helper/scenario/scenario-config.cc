#include "helper/scenario/scenario-config.h"
#include "helper/scenario/yaml-one-document.h"

#include "helper/topology/topology-graph.h"

#include <boost/range/iterator_range.hpp>

#include "helper/scenario/scenario-reader.h"
#include "helper/common/text-file.h"
#include "helper/common/units.h"

#include "ns3/fatal-error.h"

#include <fstream>

namespace ns3
{

const char*
ToString(RdmaOp op)
{
    switch (op)
    {
    case RdmaOp::Write:
        return "write";
    case RdmaOp::Send:
        return "send";
    case RdmaOp::Read:
        return "read";
    }
    return "?";
}

const char*
ToString(PayloadMode p)
{
    return p == PayloadMode::Virtual ? "virtual" : "real";
}

namespace
{

/**
 * The names the TopologyBuilder will give, taken from the very graph it builds (no ns-3 objects
 * are made): one source of truth for "h3", "left", "edge1_0", ... Empty for GraphML (names are in
 * the file, read at run time) and for shapes the builder refuses (reported elsewhere).
 */
std::vector<std::string>
NamesFromGraph(const TopologyConfig& t, bool hostsOnly)
{
    if (t.kind == TopologyKind::GraphMl)
    {
        return {};
    }
    const TopologySpec spec = ShapeOf(t);
    std::vector<std::string> names;
    try
    {
        const TopologyGraph g = MakeTopologyGraph(spec);
        for (auto v : boost::make_iterator_range(boost::vertices(g)))
        {
            if (!hostsOnly || g[v].IsHost())
            {
                names.push_back(g[v].name);
            }
        }
    }
    catch (const TopologyError&)
    {
        return {};
    }
    return names;
}

} // namespace

TopologySpec
ShapeOf(const TopologyConfig& t)
{
    TopologySpec spec;
    spec.kind = t.kind;
    spec.hostsPerSide = t.hostsPerSide;
    spec.leaves = t.leaves;
    spec.spines = t.spines;
    spec.hostsPerLeaf = t.hostsPerLeaf;
    spec.planes = t.planes;
    spec.k = t.k;
    spec.graphmlPath = t.file;
    return spec;
}

std::vector<std::string>
ExpectedHostNames(const TopologyConfig& t)
{
    return NamesFromGraph(t, true);
}

std::vector<std::string>
ExpectedNodeNames(const TopologyConfig& t)
{
    return NamesFromGraph(t, false);
}

namespace
{

ScenarioConfig
Load(const std::string& text,
     const std::vector<std::string>& overrides,
     const std::string& source,
     const std::string& baseDir)
{
    YAML::Node root;
    try
    {
        // One document: the reader would see only the first of several and ignore the rest
        // without a word. Not YAML::LoadAll, which can loop on malformed input (yaml-one-document.h).
        root = scenario::LoadOneYamlDocument(text);
    }
    catch (const YAML::ParserException& e)
    {
        const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
        const std::string what = e.msg.rfind("a second YAML document", 0) == 0 ? e.msg : "YAML syntax error: " + e.msg;
        throw ScenarioError(source, line, line ? e.mark.column + 1 : 0, "", what);
    }
    scenario::ScenarioReader reader(source, baseDir);
    for (const auto& o : overrides)
    {
        const std::string path = scenario::ApplyOverride(root, o);
        reader.NoteOverride(path, o.substr(path.size() + 1));
    }
    ScenarioConfig cfg;
    try
    {
        cfg = reader.Read(root);
    }
    catch (const YAML::Exception& e)
    {
        // The reader checks shapes before it indexes, so this is a gap in those checks; still a
        // ScenarioError with a place rather than a yaml-cpp exception escaping to the user.
        const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
        throw ScenarioError(source, line, line ? e.mark.column + 1 : 0, "", e.msg);
    }
    cfg.overrides = overrides;
    YAML::Emitter out;
    out << root;
    cfg.resolvedYaml = std::string(out.c_str()) + "\n";
    return cfg;
}

/**
 * `load()`, with whatever else it might throw turned into a ScenarioError: loading has one way to
 * fail, so that every caller (iwarp-sim, iwarp-scenario-check, the bindings) reports it as a bad
 * scenario with exit status 2 rather than a crash.  Each known cause is checked where it arises,
 * with a place; this is the net under them.
 */
template <typename F>
ScenarioConfig
Guarded(const std::string& source, F load)
{
    try
    {
        return load();
    }
    catch (const ScenarioError&)
    {
        throw;
    }
    catch (const std::bad_alloc&)
    {
        throw ScenarioError(source, 0, 0, "", "out of memory while loading the scenario");
    }
    catch (const std::exception& e)
    {
        throw ScenarioError(source, 0, 0, "", std::string("cannot load the scenario: ") + e.what());
    }
}

} // namespace

ScenarioConfig
LoadScenarioFile(const std::string& path, const std::vector<std::string>& overrides)
{
    return Guarded(path, [&] {
        if (!std::ifstream(path))
        {
            throw ScenarioError(path, 0, 0, "", "cannot open the scenario file");
        }
        std::string text;
        try
        {
            text = ReadTextFile(path, kMaxScenarioOctets);
        }
        catch (const TextFileError& e)
        {
            throw ScenarioError(path, 0, 0, "", std::string("the scenario file ") + e.what());
        }
        const auto slash = path.rfind('/');
        const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
        ScenarioConfig cfg = Load(text, overrides, path, dir);
        cfg.sourceFile = path;
        if (cfg.name.empty())
        {
            std::string stem = slash == std::string::npos ? path : path.substr(slash + 1);
            const auto dot = stem.rfind('.');
            cfg.name = dot == std::string::npos || dot == 0 ? stem : stem.substr(0, dot);
        }
        return cfg;
    });
}

ScenarioConfig
LoadScenarioString(const std::string& yaml, const std::vector<std::string>& overrides, const std::string& sourceName)
{
    return Guarded(sourceName, [&] {
        if (yaml.size() > kMaxScenarioOctets)
        {
            throw ScenarioError(sourceName, 0, 0, "",
                                "the scenario is larger than " + scenario::FormatSize(kMaxScenarioOctets) +
                                    ", the most this program reads");
        }
        ScenarioConfig cfg = Load(yaml, overrides, sourceName, "");
        if (cfg.name.empty())
        {
            cfg.name = "scenario";
        }
        return cfg;
    });
}

} // namespace ns3

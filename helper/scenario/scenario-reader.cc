#include "helper/scenario/scenario-reader.h"

#include "host/host-profile.h"

#include "helper/scenario/host-attributes.h"
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/sections/scenario-sections.h"
#include "helper/common/units.h"


#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

namespace ns3
{
namespace scenario
{

ScenarioReader::ScenarioReader(std::string source, std::string baseDir)
    : m_source(std::move(source)),
      m_baseDir(std::move(baseDir))
{
}

void
ScenarioReader::NoteOverride(const std::string& path, const std::string& text)
{
    m_overrides[path] = "--set " + path + "=" + text;
}

void
ScenarioReader::Fail(const YAML::Node& at, const std::string& path, const std::string& detail) const
{
    // The longest override that is the path or a prefix of it owns the value.
    for (std::string p = path;;)
    {
        auto it = m_overrides.find(p);
        if (it != m_overrides.end())
        {
            throw ScenarioError(it->second, 0, 0, path, detail);
        }
        const auto dot = p.rfind('.');
        if (dot == std::string::npos)
        {
            break;
        }
        p.resize(dot);
    }
    int line = 0;
    int column = 0;
    if (at.IsDefined() && !at.Mark().is_null())
    {
        line = at.Mark().line + 1;
        column = at.Mark().column + 1;
    }
    throw ScenarioError(m_source, line, column, path, detail);
}

// ------------------------------------------------------------------------------------------------
// Sections
// ------------------------------------------------------------------------------------------------

ScenarioConfig
ScenarioReader::Read(const YAML::Node& root)
{
    const std::string top;
    if (!root.IsDefined() || root.IsNull())
    {
        Fail(root, top, "the scenario is empty");
    }
    CheckKeys(root, top, ScenarioSchema());
    ScenarioConfig cfg;
    ReadRunKeys(root, cfg);
    ReadNetworkSections(root, cfg);

    const YAML::Node wl = Required(root, top, "workloads");
    ReadWorkloads(wl, "workloads", cfg);

    if (root["tracing"])
    {
        ReadTracing(root["tracing"], "tracing", cfg.tracing);
        if (root["tracing"]["series"])
        {
            ReadSeries(root["tracing"]["series"], "tracing.series", cfg);
        }
    }
    if (root["measure"])
    {
        ReadMeasure(root["measure"], "measure", cfg);
    }
    if (root["events"])
    {
        ReadEvents(root["events"], "events", cfg);
    }
    if (root["transport"])
    {
        ReadTransport(root["transport"], "transport", cfg.transport);
    }

    CheckImpairments(root, cfg);
    CheckAdjacency(root, cfg);
    CheckReachability(wl, cfg);
    CheckLlps(wl, cfg);
    CheckListeningPorts(wl, cfg);
    CheckQueues(root, cfg);
    CheckWithBuilder(root, cfg);
    CheckPaths(root, cfg);
    CheckInjectSizes(root, cfg);
    CheckTransport(root, cfg);
    return cfg;
}

void
ScenarioReader::ReadRunKeys(const YAML::Node& root, ScenarioConfig& cfg) const
{
    ReadSection(*this, TopLevelKeys(), root, "", cfg); // the sections' keys are read by their own readers
}

void
ScenarioReader::ReadNetworkSections(const YAML::Node& root, ScenarioConfig& cfg)
{
    ReadTopology(Required(root, "", "topology"), "topology", cfg.topology);
    if (root["links"])
    {
        cfg.links = ReadLink(root["links"], "links");
    }
    if (root["per-link"])
    {
        ReadPerLink(root["per-link"], "per-link", cfg);
    }
    if (root["host"])
    {
        cfg.host = ReadAttributes(root["host"], "host", &ScenarioWideTypes());
    }
    cfg.hostProfile = ApplyHostProfile(root["host"], "host", cfg.host, kDefaultHostProfile);
    if (root["rnic"])
    {
        cfg.rnic = ReadAttributes(root["rnic"], "rnic", &ScenarioWideTypes());
        cfg.rnicProfile = ApplyRnicProfile(root["rnic"], "rnic", cfg.rnic);
    }
    if (root["host-nic"])
    {
        cfg.hostNic = ReadNic(root["host-nic"], "host-nic");
    }
    if (root["per-host"])
    {
        ReadPerHost(root["per-host"], "per-host", cfg);
    }
}

void
ScenarioReader::ReadPerLink(const YAML::Node& pl, const std::string& path, ScenarioConfig& cfg) const
{
    RequireList(pl, path);
    for (std::size_t i = 0; i < pl.size(); ++i)
    {
        const std::string p = Join(path, std::to_string(i));
        const YAML::Node e = pl[i];
        RequireMap(e, p);
        PerLinkConfig c;
        std::tie(c.a, c.b) = ReadEndpoints(Required(e, p, "between"), Join(p, "between"));
        c.link = ReadLink(e, p, true);
        cfg.perLink.push_back(c);
    }
}

void
ScenarioReader::ReadPerHost(const YAML::Node& ph, const std::string& path, ScenarioConfig& cfg) const
{
    RequireMap(ph, path);
    for (const auto& kv : ph)
    {
        const std::string name = Str(kv.first, path);
        const std::string p = Join(path, name);
        CheckNode(kv.first, p, name, true);
        CheckKeys(kv.second, p, *PerHostNode().element);
        NodeAttributeConfig& nc = cfg.perHost[name];
        if (kv.second["host"])
        {
            nc.host = ReadAttributes(kv.second["host"], Join(p, "host"), &PerHostHostTypes());
            nc.hostProfile = ApplyHostProfile(kv.second["host"], Join(p, "host"), nc.host);
        }
        if (kv.second["rnic"])
        {
            nc.rnic = ReadAttributes(kv.second["rnic"], Join(p, "rnic"), &PerHostRnicTypes());
            nc.rnicProfile = ApplyRnicProfile(kv.second["rnic"], Join(p, "rnic"), nc.rnic);
        }
        if (kv.second["nic"])
        {
            nc.nic = ReadNic(kv.second["nic"], Join(p, "nic"));
        }
    }
}

void
ScenarioReader::ReadWorkloads(const YAML::Node& wl, const std::string& path, ScenarioConfig& cfg) const
{
    RequireList(wl, path);
    if (wl.size() == 0)
    {
        Fail(wl, path, "the scenario has no workloads");
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < wl.size(); ++i)
    {
        const std::string p = Join(path, std::to_string(i));
        WorkloadConfig w = ReadWorkload(wl[i], p, i);
        if (!names.insert(w.name).second)
        {
            Fail(wl[i]["name"] ? wl[i]["name"] : wl[i], Join(p, "name"),
                 "a workload named '" + w.name + "' already exists");
        }
        const Time begin = IsInject(w.kind) ? w.inject->at : w.start;
        if (begin >= cfg.stop)
        {
            const char* key = IsInject(w.kind) ? "at" : "start";
            Fail(wl[i][key], Join(p, key),
                 "starts at " + std::to_string(begin.GetNanoSeconds()) + "ns, not before the stop time " +
                     std::to_string(cfg.stop.GetNanoSeconds()) + "ns");
        }
        cfg.workloads.push_back(std::move(w));
    }
    ResolveAfter(wl, path, cfg);
    ResolveInjects(wl, path, cfg);
}

void
ScenarioReader::ReadTopology(const YAML::Node& n, const std::string& path, TopologyConfig& t)
{
    CheckKeys(n, path, TopologyNode());
    t.kind = Pick(*this, Required(n, path, "kind"), Join(path, "kind"), TopologyKindNames(), "topology kind");
    // Parameters of the other kinds are errors rather than ignored: a leaf-spine file that says
    // k: 8 was probably meant to be a fat-tree.
    for (const auto& kv : n)
    {
        const std::string key = kv.first.Scalar();
        for (const SectionKey<TopologyConfig>& k : TopologyKeys())
        {
            if (k.name == key && !k.info.only.empty() && k.info.only != ToString(t.kind))
            {
                Fail(kv.first, Join(path, key), "key '" + key + "' does not apply to topology kind '" + ToString(t.kind) + "'");
            }
        }
    }
    ReadSection(*this, TopologyKeys(), n, path, t);
    if (t.kind == TopologyKind::GraphMl)
    {
        t.file = ScenarioRelative(Str(Required(n, path, "file"), Join(path, "file")));
        // Checked now: a run that fails on a missing file after its set-up is a waste.
        if (!std::ifstream(t.file))
        {
            Fail(n["file"], Join(path, "file"), "cannot open graphml file " + t.file);
        }
    }
    if (n["pfc"])
    {
        const std::string p = Join(path, "pfc");
        RequireMap(n["pfc"], p);
        CheckKeys(n["pfc"], p, PfcNode());
        PfcConfig pfc;
        ReadSection(*this, PfcKeys(), n["pfc"], p, pfc);
        const bool fixed = n["pfc"]["xoff"] || n["pfc"]["xon"];
        const bool shared = n["pfc"]["buffer"] || n["pfc"]["alpha"] || n["pfc"]["resume-offset"];
        if (fixed == shared)
        {
            Fail(n["pfc"], p, "give xoff and xon (fixed thresholds), or buffer, alpha and resume-offset (a shared "
                              "buffer's dynamic threshold), not both and not neither");
        }
        if (fixed && (!n["pfc"]["xoff"] || !n["pfc"]["xon"]))
        {
            Fail(n["pfc"], p, "xoff and xon are both needed (or buffer, alpha and resume-offset instead)");
        }
        if (fixed && (pfc.xoff == 0 || pfc.xon > pfc.xoff || pfc.xoff > UINT32_MAX))
        {
            Fail(n["pfc"], p, "xoff must be above 0 and below 4 GiB, and xon at most xoff");
        }
        if (shared && (!n["pfc"]["buffer"] || !n["pfc"]["alpha"] || !n["pfc"]["resume-offset"] || pfc.buffer == 0 ||
                       pfc.resumeOffset > UINT32_MAX))
        {
            Fail(n["pfc"], p, "a shared buffer needs buffer (above 0), alpha and resume-offset (below 4 GiB)");
        }
        t.pfc = pfc;
    }
    if (n["bottleneck"])
    {
        t.bottleneck = ReadLink(n["bottleneck"], Join(path, "bottleneck"));
    }
    // The graph the builder will make (for graphml: the file, read now), so that node names,
    // links and paths are checked before anything runs.
    ReadGraph(n, path, t);
}

LinkConfig
ScenarioReader::ReadLink(const YAML::Node& n, const std::string& path, bool perLink) const
{
    RequireMap(n, path); // before indexing: yaml-cpp throws its own exception for a scalar
    if (perLink)
    {
        CheckKeys(n, path, *PerLinkNode().element);
    }
    else
    {
        // `links` and the bottleneck would otherwise ignore it: they name no single link.
        for (const auto& kv : n)
        {
            if (kv.first.IsScalar() && kv.first.Scalar() == "between")
            {
                Fail(kv.first, Join(path, "between"), "key 'between' applies to per-link entries only");
            }
        }
        CheckKeys(n, path, LinkNode());
    }
    LinkConfig c;
    ReadSection(*this, LinkKeys(), n, path, c); // rate, delay, mtu
    ReadQueueKeys(n, path, c.queue, c.deviceQueue, c.queueDisc);
    c.impairment = ReadImpairment(n, path);
    return c;
}

std::string
ScenarioReader::ScenarioRelative(const std::string& file) const
{
    return !file.empty() && file[0] != '/' && !m_baseDir.empty() ? m_baseDir + "/" + file : file;
}

} // namespace scenario
} // namespace ns3

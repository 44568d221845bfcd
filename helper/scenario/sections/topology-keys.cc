/*
 * `topology`: the kind and its parameters. Which kinds a key applies to is declared with the key (Only) and
 * checked by the reader (ScenarioReader::ReadTopology): a leaf-spine file that says `k: 8` was probably
 * meant to be a fat-tree, so a key of another kind is an error, not ignored.
 */
#include "helper/scenario/sections/scenario-sections.h"


namespace ns3
{
namespace scenario
{
namespace
{

using Key = SectionKey<TopologyConfig>;

Key
FatTreeK()
{
    Key k = UIntKey("k", &TopologyConfig::k, 2, 64, "k-ary fat-tree: k^3/4 hosts").Only("fat-tree");
    k.info.type = "even int, 2..64";
    k.read = [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, TopologyConfig& t) {
        t.k = uint32_t(r.UInt(v, path, 64));
        if (t.k < 2 || t.k % 2 != 0)
        {
            r.Fail(v, path, "fat-tree k must be even and at least 2, got " + std::to_string(t.k));
        }
    };
    return k;
}

Key
GraphMlFile()
{
    Key k = TextKey("file", &TopologyConfig::file,
                    "relative to the scenario file's folder; read when loading (its errors, node names and "
                    "links are checked then)")
                .Only("graphml")
                .Required();
    k.info.required = false; // required of graphml only: the reader asks for it
    k.read = {};             // ScenarioReader::ReadTopology: it needs the scenario's folder
    return k;
}

/** A size in octets into a PfcConfig member; which of them a scenario needs, the reader checks (ReadPfc). */
SectionKey<PfcConfig>
PfcThreshold(const std::string& name, uint64_t PfcConfig::*m, std::string meaning)
{
    KeyInfo info = Facts(ValueKind::Size, "size", "", std::move(meaning));
    return CustomKey<PfcConfig>(name, info,
                                [m](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                                    PfcConfig& c) { c.*m = r.SizeOf(v, path); });
}

std::vector<SectionKey<PfcConfig>>
DeclarePfc()
{
    std::vector<SectionKey<PfcConfig>> keys;
    keys.push_back(UIntKey("priority", &PfcConfig::priority, 0, 7,
                           "the lossless priority: packets whose DSCP >> 3 it is (RoCEv2's DSCP 26: 3); the "
                           "others stay lossy"));
    keys.push_back(PfcThreshold("xoff", &PfcConfig::xoff,
                                "fixed thresholds: a switch port sends its peer XOFF once the octets of the priority "
                                "it brought in and the switch still holds reach this (no default: a buffer's share "
                                "is the study's choice; `xoff` and `xon`, or `buffer`, `alpha` and `resume-offset`)"));
    keys.push_back(PfcThreshold("xon", &PfcConfig::xon, "and XON once they fall to this (at most `xoff`)"));
    keys.push_back(PfcThreshold("buffer", &PfcConfig::buffer,
                                "a shared buffer instead: the octets each switch's ports share; a port sends XOFF "
                                "at `alpha` x (buffer - its ports' headroom - what the switch holds), a dynamic "
                                "threshold (Choudhury and Hahne 1998; HPCC's simulator: 12 MB)"));
    KeyInfo alpha = Facts(ValueKind::Number, "number in [1/128, 8]", "",
                          "with `buffer`: the share of the free buffer a port may take (Broadcom's switches offer "
                          "1/128 to 8)");
    alpha.minimum = 1.0 / 128;
    alpha.maximum = 8;
    keys.push_back(CustomKey<PfcConfig>("alpha", alpha,
                                        [](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                                           PfcConfig& c) { c.alpha = r.Number(v, path, 1.0 / 128, 8); }));
    keys.push_back(PfcThreshold("resume-offset", &PfcConfig::resumeOffset,
                                "with `buffer`: XON once a port's octets are this far below its threshold "
                                "(HPCC's simulator: 3 KB)"));
    return keys;
}

std::vector<Key>
Declare()
{
    std::vector<Key> keys;
    keys.push_back(ChoiceKey("kind", &TopologyConfig::kind, TopologyKindNames(), "topology kind",
                             "the shape; its nodes' names are listed under \"Node names\"").Required());
    keys.push_back(BoolKey("ecmp", &TopologyConfig::ecmp, "equal-cost multipath routing"));
    keys.push_back(BoolKey("switch-fast-path", &TopologyConfig::switchFastPath,
                           "switches forward on `SwitchForwarder`'s fast path: the same figures, about 10 % less "
                           "CPU time on the k = 16 fat-tree (doc/performance.md); false sends every packet "
                           "through ns-3's IPv4 stack, whose `Rx`/`UnicastForward`/`Tx` traces the fast path "
                           "skips (doc/topology.md). Recorded in summary.json as `switch_fast_path`"));
    keys.push_back(TimeKey("reroute-after", &TopologyConfig::rerouteAfter, Quantity::ProtocolTimer, false,
                           "after each `events` entry, every node's routes are recomputed around the links then "
                           "down (equal-cost groups shrink and grow back) this long after it: the routing "
                           "protocol's detection and convergence. Unset: the routes stay as built and a dead "
                           "link loses what is routed over it (doc/failures.md)"));
    keys.back().info.defaultText = "none (static routes)";
    keys.push_back(
        UIntKey("hosts-per-side", &TopologyConfig::hostsPerSide, 1, 65535, "hosts on each side").Only("dumbbell"));
    KeyInfo bottleneck;
    bottleneck.type = "link";
    bottleneck.defaultText = "`links`";
    bottleneck.meaning = "the left-right link";
    bottleneck.value = ValueKind::Map;
    keys.push_back(DeclaredKey<TopologyConfig>("bottleneck", bottleneck, &LinkNode()).Only("dumbbell"));
    keys.push_back(UIntKey("leaves", &TopologyConfig::leaves, 1, 65535, "leaf switches").Only("leaf-spine"));
    keys.push_back(UIntKey("spines", &TopologyConfig::spines, 1, 65535, "spine switches").Only("leaf-spine"));
    keys.push_back(
        UIntKey("hosts-per-leaf", &TopologyConfig::hostsPerLeaf, 1, 65535, "hosts under each leaf").Only("leaf-spine"));
    keys.push_back(UIntKey("planes", &TopologyConfig::planes, 1, kMaxPlanes,
                           "copies of the leaf-spine fabric sharing no switch; every host has one link (NIC, "
                           "address) to its leaf in each, its first (the address workloads use) in plane 0. "
                           "Plane 0's switches keep the one-plane names, plane p's add `_p<p>` (`leaf0_p1`); "
                           "each address is routed in its own plane (doc/topology.md, \"Planes\")")
                       .Only("leaf-spine"));
    keys.push_back(DeclaredKey<TopologyConfig>(
        "pfc",
        Facts(ValueKind::Map, "`{priority, xoff, xon}` or `{priority, buffer, alpha, resume-offset}`",
              "none (lossy ports)",
              "PFC (IEEE 802.1Qbb) on every port: switch ports pause their peers per priority, hosts and "
              "switches obey; PAUSE frames in the pcaps, counters in `queues` (doc/topology.md, \"PFC\")"),
        &PfcNode()));
    keys.push_back(FatTreeK());
    keys.push_back(GraphMlFile());
    return keys;
}

} // namespace

const Names<TopologyKind>&
TopologyKindNames()
{
    static const Names<TopologyKind> names = {{"two-hosts", TopologyKind::TwoHosts},
                                              {"dumbbell", TopologyKind::Dumbbell},
                                              {"leaf-spine", TopologyKind::LeafSpine},
                                              {"fat-tree", TopologyKind::FatTree},
                                              {"graphml", TopologyKind::GraphMl}};
    return names;
}

const std::vector<SectionKey<TopologyConfig>>&
TopologyKeys()
{
    static const std::vector<Key> keys = Declare();
    return keys;
}

const std::vector<SectionKey<PfcConfig>>&
PfcKeys()
{
    static const std::vector<SectionKey<PfcConfig>> keys = DeclarePfc();
    return keys;
}

const SchemaNode&
PfcNode()
{
    static const SchemaNode n = SectionNode(PfcKeys(), &ScalarNode());
    return n;
}

const SchemaNode&
TopologyNode()
{
    static const SchemaNode n = SectionNode(TopologyKeys(), &ScalarNode());
    return n;
}

} // namespace scenario
} // namespace ns3

/*
 * traffic and sockets-traffic: a data-center load among a group of hosts (doc/traffic.md): flows of sizes
 * drawn from a published (or the user's) distribution, Poisson arrivals at a fraction of each host's link rate,
 * RDMA Writes (traffic) or messages over plain TCP sockets (sockets-traffic, the baseline) over connections kept
 * per host pair; every flow's FCT at its receiver.
 */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"
#include "helper/scenario/workloads/traffic-pattern-keys.h"

#include <fstream>
#include <sstream>

namespace ns3
{
namespace
{

using scenario::KeyInfo;
using scenario::ScenarioReader;
using scenario::ValueKind;
using Shape = WorkloadKey::Shape;

/** The most flows one traffic workload takes: its records are kept for messages.csv. */
constexpr uint64_t kMaxTrafficFlows = 10'000'000;

WorkloadKey
Load()
{
    KeyInfo info = scenario::Facts(ValueKind::Number, "number in (0, 1]", "with Poisson `arrivals` **required**",
                                   "the payload octets each host offers per second, as a fraction of its link "
                                   "rate (headers come on top); a closed loop takes none: it offers what it gets");
    info.minimum = 0;
    info.exclusiveMinimum = true;
    info.maximum = 1;
    return WorkloadKey{"load", Shape::Scalar, info, {},
                       [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                           w.load = r.ProbabilityNumber(v, path);
                           if (!(w.load > 0 && w.load <= 1))
                           {
                               r.Fail(v, path, "load " + r.Str(v, path) + " is not in (0, 1]: it is the fraction "
                                                                         "of each host's link rate offered");
                           }
                       }};
}

/** The built-in distributions' names, each between `quote`s: "web-search, data-mining, hadoop". */
std::string
BuiltInNames(const std::string& quote)
{
    std::string names;
    for (const FlowSizeDistribution& d : BuiltInFlowSizeDistributions())
    {
        names += (names.empty() ? "" : ", ") + quote + d.Name() + quote;
    }
    return names;
}

/** A CDF file's distribution, named by its path in the scenario. */
FlowSizeDistribution
ReadCdfFile(const ScenarioReader& r, const YAML::Node& v, const std::string& path, const std::string& name)
{
    const std::string file = r.ScenarioRelative(name);
    std::ifstream in(file);
    if (!in)
    {
        r.Fail(v, path,
               "'" + name + "' is no built-in distribution (" + BuiltInNames("") + ") and no readable CDF file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    try
    {
        return FlowSizeDistribution::Parse(text.str(), name, "the file " + name);
    }
    catch (const std::invalid_argument& e)
    {
        r.Fail(v, path, e.what());
    }
}

WorkloadKey
FlowSizes()
{
    KeyInfo info = workloadkeys::RequiredFacts(ValueKind::Text, BuiltInNames("`") + ", or a CDF file",
                                               "the flow sizes: a published distribution, or a file of CDF points "
                                               "relative to the scenario (doc/traffic.md)");
    return WorkloadKey{"flow-sizes", Shape::Scalar, info, {},
                       [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                           const std::string name = r.Str(v, path);
                           const FlowSizeDistribution* builtIn = FindBuiltInFlowSizeDistribution(name);
                           w.flowSizes = std::make_shared<const FlowSizeDistribution>(
                               builtIn ? *builtIn : ReadCdfFile(r, v, path, name));
                           if (w.flowSizes->MaxOctets() > double(UINT32_MAX))
                           {
                               r.Fail(v, path, "its largest flow is above 2^32-1 octets, the most one Write moves");
                           }
                       }};
}

WorkloadKey
FlowCount()
{
    auto key = scenario::UIntKey("count", &WorkloadConfig::count, 1, kMaxTrafficFlows,
                                 "flows in all, over every host; the load stops starting flows after the last");
    key.info.defaultText = "one of `count`/`duration` **required**";
    return workloadkeys::Scalar(std::move(key));
}


/** A function's static: the registry may be built during another file's static initialisation. */
const scenario::Names<TrafficArrivals>&
ArrivalNames()
{
    static const scenario::Names<TrafficArrivals> names = {
        {"poisson", TrafficArrivals::Poisson},
        {"closed-loop", TrafficArrivals::ClosedLoop},
    };
    return names;
}

WorkloadKey
Arrivals()
{
    return workloadkeys::Scalar(scenario::ChoiceKey(
        "arrivals", &WorkloadConfig::arrivals, ArrivalNames(), "arrival process",
        "when each host starts its flows: a Poisson process at `load`, or a closed loop that keeps `outstanding` "
        "flows of each host in flight, starting the next as soon as one is delivered or fails"));
}

WorkloadKey
Connections()
{
    static const scenario::Names<bool> names = {{"per-pair", false}, {"per-flow", true}};
    return workloadkeys::Scalar(scenario::ChoiceKey(
        "connections", &WorkloadConfig::perFlowConnection, names, "connection policy",
        "one connection per ordered host pair, opened by its first flow and kept (as RDMA applications keep their "
        "queue pairs), or one per flow, opened at its arrival and closed once the flow is handed over"));
}

/** `load` with Poisson arrivals only, `outstanding` with a closed loop only. */
void
CheckArrivals(const ScenarioReader& r, const YAML::Node& entry, const std::string& path, const WorkloadConfig& w)
{
    const bool poisson = w.arrivals == TrafficArrivals::Poisson;
    if (poisson && !entry["load"].IsDefined())
    {
        r.Fail(entry, path, "Poisson arrivals need `load`, the fraction of each host's link rate offered");
    }
    if (!poisson && entry["load"].IsDefined())
    {
        r.Fail(entry["load"], scenario::Join(path, "load"),
               "`load` is for Poisson `arrivals` only: a closed loop offers what the network carries");
    }
    if (poisson && entry["outstanding"].IsDefined())
    {
        r.Fail(entry["outstanding"], scenario::Join(path, "outstanding"),
               "`outstanding` is for `arrivals: closed-loop` only");
    }
}

/** The keys and reading both traffic kinds share; the RDMA one adds `llp`. */
WorkloadKindInfo
TrafficBase(const std::string& name, WorkloadFamily family, const std::string& carried)
{
    using namespace workloadkeys;
    WorkloadKindInfo k;
    k.name = name;
    k.family = family;
    k.summary = "a load of flows among `hosts`: sizes from `flow-sizes`, Poisson arrivals at `load` (or a closed "
                "loop), " + carried + " over connections kept per host pair";
    k.keys = {Start(),
              After(),
              Hosts("the hosts of the load: each sends flows to the others and receives theirs"),
              Arrivals(),
              Load(),
              Outstanding(),
              FlowSizes(),
              FlowCount(),
              Duration(),
              Connections()};
    const std::vector<WorkloadKey> pattern = TrafficPatternKeys();
    k.keys.insert(k.keys.begin() + 3, pattern.begin(), pattern.end()); // after `hosts`, as the docs list them
    k.hostGroup = true;
    k.read = [](const ScenarioReader& r, const YAML::Node& entry, const std::string& path, WorkloadConfig& w) {
        if (w.hosts.empty())
        {
            w.hosts = r.HostNames(); // `hosts` left out: the load runs among every host
        }
        CheckTrafficPattern(r, entry, path, w);
        CheckArrivals(r, entry, path, w);
    };
    k.install = [](WorkloadSite& site) { site.InstallTraffic(); };
    k.metrics = {"goodput_bps", "fct_ns"};
    return k;
}

} // namespace

WorkloadKindInfo
TrafficKind()
{
    WorkloadKindInfo k = TrafficBase("traffic", WorkloadFamily::Rdma, "RDMA Writes (or Sends)");
    k.ops = {RdmaOp::Write, RdmaOp::Send};
    k.keys.push_back(workloadkeys::Op(k.ops));
    k.keys.push_back(workloadkeys::LlpKey());
    return k;
}

WorkloadKindInfo
SocketsTrafficKind()
{
    WorkloadKindInfo k = TrafficBase("sockets-traffic", WorkloadFamily::Sockets,
                                     "messages over plain TCP sockets (the baseline of traffic)");
    k.opLabel = [](const WorkloadConfig&) { return std::string("sockets"); };
    return k;
}

} // namespace ns3

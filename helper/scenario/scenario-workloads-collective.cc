/*
 * ScenarioWorkloads, kind collective: an RdmaCollective on each rank's host, the CollectiveRun that begins
 * them together and keeps their times, and the collective's ideal completion time (doc/collectives.md). Its
 * messages are followed as a traffic load's are (scenario-workloads-traffic.cc): by sender and receiver.
 */
#include "helper/rdma-app-helper.h"
#include "helper/scenario/collective-run.h"
#include "helper/scenario/scenario-workloads.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

void
ScenarioWorkloads::InstallCollective(Workload& w)
{
    const WorkloadConfig& c = *w.cfg;
    RdmaCollectiveHelper helper(w.port);
    helper.SetAttribute("Iterations", UintegerValue(c.iterations));
    helper.SetAttribute("Gap", TimeValue(c.gap));
    std::vector<Ipv4Address> addresses;
    for (const std::string& h : c.hosts)
    {
        addresses.push_back(m_topo.GetHostAddress(h));
    }
    std::vector<Ptr<RdmaCollective>> apps;
    for (uint32_t rank = 0; rank < c.hosts.size(); ++rank)
    {
        const std::string& host = c.hosts[rank];
        SizeSockets(w, host, w.start);
        ApplicationContainer a = helper.Install(m_topo.GetNode(host));
        Ptr<RdmaCollective> app = DynamicCast<RdmaCollective>(a.Get(0));
        app->Configure(rank, c.collective, addresses);
        a.Start(Delay(w.start));
        Adopt(w, a);
        FollowGroupHost(w, app, host);
        apps.push_back(app);
    }
    w.collective = std::make_shared<CollectiveRun>(c.collective, apps, c.iterations, c.gap);
}

std::optional<Time>
ScenarioWorkloads::IdealCollective(const Workload& w, const Paths& paths) const
{
    const WorkloadConfig& c = *w.cfg;
    std::map<std::pair<uint32_t, uint32_t>, IdealFctModel> models;
    for (uint32_t from = 0; from < c.hosts.size(); ++from)
    {
        for (const CollectiveSend& s : c.collective->programs[from].sends)
        {
            auto flow = w.flowIndex.find({c.hosts[from], c.hosts[s.to]});
            if (flow == w.flowIndex.end())
            {
                return std::nullopt; // a connection never came up
            }
            const std::optional<IdealFctModel> m = IdealModel(w, w.flows[flow->second], paths);
            if (!m)
            {
                return std::nullopt;
            }
            models.emplace(std::make_pair(from, s.to), *m);
        }
    }
    CollectiveMessageTimes times;
    times.delivery = [&models](uint32_t from, uint32_t to, uint64_t octets) {
        return IdealFct(models.at({from, to}), octets);
    };
    times.senderLink = [&models, &c](uint32_t from, uint64_t octets) {
        // The sender's first link alone: its wire time for the message's segments, nothing before or after.
        const auto any = c.collective->programs[from].sends.front().to;
        IdealFctModel link = models.at({from, any});
        link.tx = EngineCosts{};
        link.rx = EngineCosts{};
        link.hops.resize(1);
        link.hops.front().delay = Time(0);
        return IdealFct(link, octets);
    };
    return IdealCompletion(*c.collective, times);
}

CollectiveResult
ScenarioWorkloads::CollectiveOutcome(const Workload& w, const Paths& paths) const
{
    CollectiveResult r = w.collective->Result();
    r.ranks = w.cfg->hosts;
    r.ideal = IdealCollective(w, paths);
    return r;
}

} // namespace ns3

/*
 * TransportProbe: the live sockets of a scenario run; see transport-probe.h.
 */
#include "scenario/transport-probe.h"

#include "helper/scenario/scenario-config.h"
#include "helper/scenario/scenario-runner.h"

#include "mpa/mpa-connection.h"
#include "rnic/iwarp-transport.h"
#include "rnic/rnic.h"
#include "sctp-ddp/sctp-ddp-connection.h"
#include "sctp/sctp-socket.h"
#include "transport/transport-profile.h"

#include "ns3/object-ptr-container.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

const std::vector<std::string> kTcpAttributes = {"MinRto",     "ConnTimeout", "DelAckTimeout", "DelAckCount",
                                                 "InitialCwnd", "Sack",       "Timestamp",     "SndBufSize",
                                                 "RcvBufSize",  "DataRetries"};
const std::vector<std::string> kSctpAttributes = {"RtoMin",       "RtoInitial",  "RtoMax",
                                                  "SackDelay",    "SackFrequency", "InitialCwnd",
                                                  "MaxBurst",     "SndBufSize",  "RcvBufSize"};

Reading
Read(Ptr<Socket> s, const std::vector<std::string>& names)
{
    Reading r;
    const TypeId tid = s->GetInstanceTypeId();
    for (const std::string& n : names)
    {
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(n, &info);
        Ptr<AttributeValue> v = info.checker->Create();
        s->GetAttribute(n, *v);
        r[n] = v->SerializeToString(info.checker);
    }
    if (DynamicCast<TcpSocketBase>(s))
    {
        PointerValue cc;
        s->GetAttribute("CongestionOps", cc);
        r["CongestionOps"] = cc.Get<TcpCongestionOps>()->GetInstanceTypeId().GetName();
        // TcpLinuxCubic's slow-start exit (transport.tcp.hystart), read from the socket's own object.
        for (const char* name : {"HyStart", "HyStartVariant"})
        {
            TypeId::AttributeInformation info;
            if (cc.Get<TcpCongestionOps>()->GetInstanceTypeId().LookupAttributeByName(name, &info))
            {
                Ptr<AttributeValue> v = info.checker->Create();
                cc.Get<TcpCongestionOps>()->GetAttribute(name, *v);
                r[name] = v->SerializeToString(info.checker);
            }
        }
    }
    return r;
}

void
OnTx(HostSockets* h, Ptr<const Packet>, const TcpHeader& header, Ptr<const TcpSocketBase>)
{
    const uint8_t f = header.GetFlags();
    if ((f & TcpHeader::SYN) && !(f & TcpHeader::ACK))
    {
        h->syns.push_back(Syn{(f & TcpHeader::ECE) && (f & TcpHeader::CWR),
                              header.HasOption(TcpOption::SACKPERMITTED),
                              header.HasOption(TcpOption::TS)});
    }
}

void
OnRto(std::vector<Time>* seen, Time, Time now)
{
    seen->push_back(now);
}

/** Follows each host's sockets from their configuration (TransportProfile "Applied") to the end of the run. */
class TransportProbe
{
  public:
    std::map<std::string, HostSockets> hosts;

    void Attach(const BuiltTopology& topo, Time stop)
    {
        for (uint32_t i = 0; i < topo.hosts.GetN(); ++i)
        {
            HostSockets* h = &hosts[topo.hostNames[i]];
            topo.hosts.Get(i)->GetObject<TransportProfile>()->TraceConnectWithoutContext(
                "Applied", MakeBoundCallback(&TransportProbe::OnApplied, this, h));
        }
        Simulator::Schedule(stop, &TransportProbe::Collect, this, &topo);
    }

  private:
    static void OnApplied(TransportProbe* self, HostSockets* h, Ptr<Socket> s)
    {
        if (DynamicCast<TcpSocketBase>(s))
        {
            // A listener's forks copy these callbacks: their SYN-ACKs are told apart by the ACK flag.
            s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, h));
            self->m_rtos.emplace_back(new std::vector<Time>);
            s->TraceConnectWithoutContext("RTO", MakeBoundCallback(&OnRto, self->m_rtos.back().get()));
            self->m_rtoOwner.push_back(h);
        }
    }

    void Collect(const BuiltTopology* topo)
    {
        for (std::size_t i = 0; i < m_rtos.size(); ++i)
        {
            if (!m_rtos[i]->empty())
            {
                m_rtoOwner[i]->firstRto.push_back(m_rtos[i]->front());
            }
        }
        for (uint32_t i = 0; i < topo->hosts.GetN(); ++i)
        {
            Ptr<Node> node = topo->hosts.Get(i);
            HostSockets& h = hosts[topo->hostNames[i]];
            std::set<Ptr<Socket>> underQp;
            for (Ptr<QueuePair> qp : node->GetObject<Rnic>()->GetQps())
            {
                const Ptr<DdpLowerLayer> llp = IwarpTransport::Of(qp, "the transport probe")->GetLlp();
                if (Ptr<MpaConnection> mpa = DynamicCast<MpaConnection>(llp))
                {
                    underQp.insert(mpa->GetSocket());
                    h.mpa.push_back(Read(mpa->GetSocket(), kTcpAttributes));
                }
                else if (Ptr<SctpDdpConnection> sc = DynamicCast<SctpDdpConnection>(llp))
                {
                    h.sctp.push_back(Read(sc->GetSocket(), kSctpAttributes));
                }
            }
            ObjectPtrContainerValue list;
            node->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", list);
            for (auto it = list.Begin(); it != list.End(); ++it)
            {
                Ptr<Socket> s = DynamicCast<Socket>(it->second);
                if (!underQp.count(s))
                {
                    h.plain.push_back(Read(s, kTcpAttributes));
                }
            }
        }
    }

    std::vector<std::unique_ptr<std::vector<Time>>> m_rtos;
    std::vector<HostSockets*> m_rtoOwner;
};

} // namespace

std::map<std::string, HostSockets>
RunProbed(const std::string& yaml, const std::string& tag, nlohmann::json* summary, RunResult* result)
{
    ScenarioConfig cfg = LoadScenarioString(yaml, {}, tag + ".yaml");
    const fs::path folder = fs::temp_directory_path() / ("iwarp-transport-" + std::to_string(::getpid()) + "-" + tag);
    fs::remove_all(folder);
    TransportProbe probe;
    ScenarioRunOptions o;
    o.outDir = folder.string();
    o.progress = false;
    o.beforeRun = [&probe, &cfg](const BuiltTopology& topo) { probe.Attach(topo, cfg.stop); };
    const ScenarioOutcome out = RunScenario(cfg, o);
    if (result)
    {
        *result = out.result;
    }
    if (summary)
    {
        std::ifstream f(folder / "summary.json");
        *summary = nlohmann::json::parse(f);
    }
    fs::remove_all(folder);
    return probe.hosts;
}

} // namespace ns3

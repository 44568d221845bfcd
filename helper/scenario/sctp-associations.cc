#include "helper/scenario/sctp-associations.h"

#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

namespace
{

std::string
Text(Ipv4Address a)
{
    std::ostringstream os;
    os << a;
    return os.str();
}

void
NoteDataPath(std::vector<SctpFailoverRecord>* out, Ipv4Address from, Ipv4Address to)
{
    out->push_back(SctpFailoverRecord{Simulator::Now(), Text(from), Text(to), std::nullopt, false});
}

} // namespace

void
SctpAssociationWatch::Follow(Ptr<SctpSocket> socket, const std::string& node, const std::string& connection)
{
    if (socket->GetPathCount() < 2)
    {
        return;
    }
    m_followed.push_back(Followed{socket, node, connection, {}});
    socket->TraceConnectWithoutContext("DataPath", MakeBoundCallback(&NoteDataPath, &m_followed.back().failovers));
}

std::vector<SctpAssociationRecord>
SctpAssociationWatch::Records(const std::vector<Time>& failures) const
{
    std::vector<SctpAssociationRecord> out;
    for (const Followed& f : m_followed)
    {
        SctpAssociationRecord r{f.node, f.connection, {}, f.failovers};
        for (size_t p = 0; p < f.socket->GetPathCount(); ++p)
        {
            const SctpPathInfo i = f.socket->GetPathInfo(p);
            r.paths.push_back(SctpPathRecord{Text(i.address), i.primary, i.active, i.counters});
        }
        for (SctpFailoverRecord& c : r.failovers)
        {
            c.toPrimary = c.to == Text(f.socket->GetPathInfo(0).address);
            for (Time t : failures)
            {
                if (t <= c.at && (!c.sinceFailure || c.at - t < *c.sinceFailure))
                {
                    c.sinceFailure = c.at - t;
                }
            }
        }
        out.push_back(std::move(r));
    }
    return out;
}

nlohmann::json
SctpAssociationsJson(const std::vector<SctpAssociationRecord>& records)
{
    nlohmann::json out = nlohmann::json::array();
    for (const SctpAssociationRecord& r : records)
    {
        nlohmann::json paths = nlohmann::json::array();
        for (const SctpPathRecord& p : r.paths)
        {
            paths.push_back({{"address", p.address},
                             {"primary", p.primary},
                             {"active", p.active},
                             {"data_chunks", p.counters.dataChunks},
                             {"retransmissions", p.counters.retransmissions},
                             {"timeouts", p.counters.timeouts},
                             {"heartbeats", p.counters.heartbeats},
                             {"heartbeat_acks", p.counters.heartbeatAcks}});
        }
        nlohmann::json changes = nlohmann::json::array();
        for (const SctpFailoverRecord& c : r.failovers)
        {
            changes.push_back({{"at_ns", c.at.GetNanoSeconds()},
                               {"from", c.from},
                               {"to", c.to},
                               {"to_primary", c.toPrimary},
                               {"since_failure_ns",
                                c.sinceFailure ? nlohmann::json(c.sinceFailure->GetNanoSeconds()) : nlohmann::json()}});
        }
        out.push_back({{"node", r.node}, {"connection", r.connection}, {"paths", paths}, {"data_path_changes", changes}});
    }
    return out;
}

} // namespace ns3

/*
 * The transport section of the scenario reader (doc/scenario-format.md, "transport"): TCP and SCTP
 * settings for every host and per host, each value read and checked as its key declares (transport-keys.cc), then the
 * contradictions between keys per host (DCTCP without ECN, an initial RTO below the minimum) and a
 * delayed ACK that would outlast the peer's RTO on a workload's connection, which stalls it (issue 13:
 * MinRto 1 ms under ns-3's 200 ms delayed ACK).  The runner never finds out any of these in a run.
 */
#include "helper/scenario/data-flows.h"
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/transport-keys.h"
#include "helper/common/units.h"

#include <algorithm>
#include <functional>

namespace ns3
{
namespace scenario
{
namespace
{

/** The socket attributes `transport` sets, and the key that sets each (for `host:`/`rnic:` maps). */
const std::map<std::string, std::string>&
TransportOwnedAttributes()
{
    static const std::map<std::string, std::string> m = [] {
        std::map<std::string, std::string> owned;
        for (const TransportKey& k : TransportKeys())
        {
            for (const std::string& a : k.attributes)
            {
                owned.emplace(a, "transport." + k.key);
            }
        }
        return owned;
    }();
    return m;
}

/** The nodes a workload's connections join, as (initiator, responder) pairs (incast: one per sender). */
std::vector<std::pair<std::string, std::string>>
Connections(const WorkloadConfig& w)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const WorkloadConnection& c : ConnectionsOf(w)) // none for an inject: it rides on its target's
    {
        out.emplace_back(c.initiator, c.responder);
    }
    return out;
}

/** Fails at the first of `origins` the file gave (ScenarioReader::FailTransport, private to the reader). */
using FailTransportFn = std::function<void(const std::vector<std::string>&, const std::string&)>;

/** The key that set `field` of `s`, empty for a default. */
std::string
Origin(const TransportSettings& s, const std::string& field)
{
    auto it = s.origin.find(field);
    return it == s.origin.end() ? std::string() : it->second;
}

/** The key that set `field` of `s`, or "the default", for messages. */
std::string
Said(const TransportSettings& s, const std::string& field)
{
    const std::string o = Origin(s, field);
    return o.empty() ? std::string("the default") : o;
}

/** One tcp.hystart key: whether it reaches a host running Cubic, and the first host it reaches. */
struct HyStartReach
{
    bool cubic{false};
    std::string host;
    const TransportSettings* settings{nullptr};
};

/** Host `h`'s contradictions between keys; its tcp.hystart key, if any, noted in `hyStartReach`. */
void
CheckHostTransport(const std::string& h,
                   const TransportSettings& s,
                   std::map<std::string, HyStartReach>& hyStartReach,
                   const FailTransportFn& fail)
{
    const TcpTransportSettings& t = s.tcp;
    // Named only where a host's own key is involved; scenario-wide values are the same for all.
    const bool own = std::any_of(s.origin.begin(), s.origin.end(), [](const auto& kv) {
        return kv.second.rfind("transport.hosts.", 0) == 0;
    });
    const std::string forHost = own ? " (host " + h + ")" : "";
    if (NeedsEcn(t.congestion) && !t.ecn)
    {
        fail({Origin(s, "tcp.ecn"), Origin(s, "tcp.congestion")},
             "ecn off contradicts congestion " + TcpCongestionName(t.congestion) + " (" + Said(s, "tcp.congestion") +
                 ")" + forHost + ": DCTCP reacts to ECN marks and needs ECN on; leave ecn out or set it on");
    }
    if (const std::string o = Origin(s, "tcp.hystart"); !o.empty())
    {
        HyStartReach& r = hyStartReach.try_emplace(o, HyStartReach{false, h, &s}).first->second;
        r.cubic = r.cubic || HasHyStart(t.congestion);
    }
    if (t.initialRto < t.minRto)
    {
        fail({Origin(s, "tcp.initial-rto"), Origin(s, "tcp.min-rto")},
             "the initial RTO " + FormatTime(t.initialRto) + " (" + Said(s, "tcp.initial-rto") +
                 ") is below the minimum RTO " + FormatTime(t.minRto) + " (" + Said(s, "tcp.min-rto") + ")" + forHost);
    }
    const SctpTransportSettings& c = s.sctp;
    if (c.rtoInitial < c.rtoMin || c.rtoInitial > c.rtoMax)
    {
        fail({Origin(s, "sctp.rto-initial"), Origin(s, "sctp.rto-min"), Origin(s, "sctp.rto-max")},
             "RTO.Initial " + FormatTime(c.rtoInitial) + " (" + Said(s, "sctp.rto-initial") + ") is outside [RTO.Min " +
                 FormatTime(c.rtoMin) + ", RTO.Max " + FormatTime(c.rtoMax) + "]" + forHost);
    }
}

/** A tcp.hystart key that reaches no host running Cubic (TcpLinuxCubic) would change nothing. */
void
CheckHyStartReach(const std::map<std::string, HyStartReach>& hyStartReach, const FailTransportFn& fail)
{
    for (const auto& [key, r] : hyStartReach)
    {
        if (!r.cubic)
        {
            const TransportSettings& s = *r.settings;
            fail({key},
                 "hystart " + s.tcp.hyStart + " chooses the slow-start exit of congestion Cubic "
                     "(TcpLinuxCubic), and no host it reaches runs Cubic (" + r.host + " runs " +
                     TcpCongestionName(s.tcp.congestion) + ", " + Said(s, "tcp.congestion") +
                     "): it would change nothing; leave it out");
        }
    }
}

/**
 * A receiver that holds an ACK back for as long as the sender's RTO makes the sender time out on
 * every lone segment: each end's delayed ACK must be shorter than the other's minimum RTO.
 */
void
CheckDelayedAcks(const ScenarioConfig& cfg,
                 const std::map<std::string, TransportSettings>& at,
                 const FailTransportFn& fail)
{
    const std::vector<WorkloadConfig>& wl = cfg.workloads;
    for (const WorkloadConfig& w : wl)
    {
        for (const auto& [a, b] : Connections(w))
        {
            for (const auto& [receiver, sender] : {std::make_pair(a, b), std::make_pair(b, a)})
            {
                const TransportSettings& r = at.at(receiver);
                const TransportSettings& s = at.at(sender);
                const AckTimers t = CarrierOf(w).ackTimers(r, s);
                if (t.held >= t.minRto)
                {
                    fail({Origin(r, t.delayKey), Origin(s, t.rtoKey)},
                         receiver + " delays " + t.acks + " up to " + FormatTime(t.held) + " (" + Said(r, t.delayKey) +
                             "), not below " + sender + "'s minimum RTO " + FormatTime(t.minRto) + " (" +
                             Said(s, t.rtoKey) + ") on workload '" + w.name +
                             "': every lone segment would be retransmitted by a timeout before its " +
                             "ACK comes, and the connection stalls; make the delay shorter than the RTO" + t.orElse);
                }
            }
        }
    }
}

} // namespace

void
ScenarioReader::RefuseTransportAttribute(const YAML::Node& key, const std::string& path, const std::string& full) const
{
    // The runner applies `transport` to each socket after it is made, over these defaults: the
    // attribute would be overridden silently.
    auto it = TransportOwnedAttributes().find(full);
    if (it != TransportOwnedAttributes().end())
    {
        Fail(key, path, full + " is set on every socket by the transport section: write " + it->second +
                            " (or transport.hosts.<host>...) instead");
    }
}

YAML::Node
ScenarioReader::NoteTransportKey(const YAML::Node& map, const std::string& path, const std::string& key)
{
    YAML::Node v = map[key];
    if (v)
    {
        m_transportKeys[Join(path, key)] = v;
    }
    return v;
}

TransportLevelConfig
ScenarioReader::ReadTransportLevel(const YAML::Node& n, const std::string& path)
{
    TransportLevelConfig c;
    const SchemaNode& schema = *ScenarioSchema().fields.at("transport");
    for (const std::string& section : TransportSections())
    {
        const YAML::Node m = n[section];
        if (!m)
        {
            continue;
        }
        const std::string p = Join(path, section);
        CheckKeys(m, p, *schema.fields.at(section));
        for (const TransportKey& k : TransportKeys())
        {
            if (k.Section() != section)
            {
                continue;
            }
            if (const YAML::Node v = NoteTransportKey(m, p, k.Name()))
            {
                k.read(*this, v, Join(p, k.Name()), c);
            }
        }
    }
    return c;
}

void
ScenarioReader::ReadTransport(const YAML::Node& n, const std::string& path, TransportConfig& t)
{
    const SchemaNode& schema = *ScenarioSchema().fields.at("transport");
    CheckKeys(n, path, schema);
    t.all = ReadTransportLevel(n, path);
    if (const YAML::Node hosts = n["hosts"])
    {
        const std::string hp = Join(path, "hosts");
        RequireMap(hosts, hp);
        for (const auto& kv : hosts)
        {
            const std::string name = Str(kv.first, hp);
            const std::string p = Join(hp, name);
            CheckNode(kv.first, p, name, true);
            CheckKeys(kv.second, p, *schema.fields.at("hosts")->element);
            t.hosts[name] = ReadTransportLevel(kv.second, p);
        }
    }
}

void
ScenarioReader::FailTransport(const YAML::Node& root,
                              const std::vector<std::string>& origins,
                              const std::string& detail) const
{
    // At the first of the keys involved that the file (or an override) gave; defaults have no place.
    for (const std::string& o : origins)
    {
        auto it = m_transportKeys.find(o);
        if (!o.empty() && it != m_transportKeys.end())
        {
            Fail(it->second, o, detail);
        }
    }
    Fail(root["transport"] ? root["transport"] : root, "transport", detail);
}

void
ScenarioReader::CheckTransport(const YAML::Node& root, const ScenarioConfig& cfg) const
{
    std::map<std::string, TransportSettings> at;
    for (const std::string& h : m_hosts)
    {
        at[h] = ResolveTransport(cfg.transport, h);
    }
    const FailTransportFn fail = [this, &root](const std::vector<std::string>& origins, const std::string& detail) {
        FailTransport(root, origins, detail);
    };
    // A tcp.hystart key that reaches no host running Cubic (TcpLinuxCubic) would change nothing: per key,
    // whether it reaches one, and the first host it reaches (for the message).
    std::map<std::string, HyStartReach> hyStartReach;
    for (const std::string& h : m_hosts)
    {
        CheckHostTransport(h, at[h], hyStartReach, fail);
    }
    CheckHyStartReach(hyStartReach, fail);
    CheckDelayedAcks(cfg, at, fail);
}

} // namespace scenario
} // namespace ns3

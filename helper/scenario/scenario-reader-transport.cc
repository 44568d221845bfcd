/*
 * The transport section of the scenario reader (doc/scenario-format.md, "transport"): TCP and SCTP
 * settings for every host and per host, each value checked where it is written, then the
 * contradictions between keys per host (DCTCP without ECN, an initial RTO below the minimum) and a
 * delayed ACK that would outlast the peer's RTO on a workload's connection, which stalls it (issue 13:
 * MinRto 1 ms under ns-3's 200 ms delayed ACK).  The runner never finds out any of these in a run.
 */
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/units.h"

#include <algorithm>

namespace ns3
{
namespace scenario
{
namespace
{

constexpr uint64_t kMinBuffer = 8 << 10;  ///< a few full segments at a 1500-octet MTU
constexpr uint64_t kMaxBuffer = 1u << 30; ///< TCP's largest window (window scale 14, RFC 7323)

/** The socket attributes `transport` sets, and the key that sets each (for `host:`/`rnic:` maps). */
const std::map<std::string, const char*>&
TransportOwnedAttributes()
{
    static const std::map<std::string, const char*> m = {
        {"ns3::TcpSocket::SndBufSize", "transport.tcp.send-buffer"},
        {"ns3::TcpSocket::RcvBufSize", "transport.tcp.receive-buffer"},
        {"ns3::TcpSocket::InitialCwnd", "transport.tcp.initial-cwnd"},
        {"ns3::TcpSocket::ConnTimeout", "transport.tcp.initial-rto"},
        {"ns3::TcpSocket::DelAckTimeout", "transport.tcp.delayed-ack-timeout"},
        {"ns3::TcpSocket::DelAckCount", "transport.tcp.delayed-ack-count"},
        {"ns3::TcpSocketBase::MinRto", "transport.tcp.min-rto"},
        {"ns3::TcpSocketBase::Sack", "transport.tcp.sack"},
        {"ns3::TcpSocketBase::Timestamp", "transport.tcp.timestamps"},
        {"ns3::TcpSocketBase::UseEcn", "transport.tcp.ecn"},
        {"ns3::TcpSocketBase::CongestionOps", "transport.tcp.congestion"},
        {"ns3::TcpL4Protocol::SocketType", "transport.tcp.congestion"},
        {"ns3::RttEstimator::InitialEstimation", "transport.tcp.initial-rto"},
        {"ns3::SctpSocket::RtoMin", "transport.sctp.rto-min"},
        {"ns3::SctpSocket::RtoInitial", "transport.sctp.rto-initial"},
        {"ns3::SctpSocket::RtoMax", "transport.sctp.rto-max"},
        {"ns3::SctpSocket::SackDelay", "transport.sctp.sack-delay"},
        {"ns3::SctpSocket::SackFrequency", "transport.sctp.sack-frequency"},
        {"ns3::SctpSocket::InitialCwnd", "transport.sctp.initial-cwnd"},
        {"ns3::SctpSocket::MaxBurst", "transport.sctp.max-burst"},
        {"ns3::SctpSocket::SndBufSize", "transport.sctp.send-buffer"},
        {"ns3::SctpSocket::RcvBufSize", "transport.sctp.receive-buffer"},
    };
    return m;
}

/** The nodes a workload's connections join, as (initiator, responder) pairs (incast: one per sender). */
std::vector<std::pair<std::string, std::string>>
Connections(const WorkloadConfig& w)
{
    std::vector<std::pair<std::string, std::string>> out;
    if (IsInject(w.kind))
    {
        return out; // rides on its target's connection
    }
    for (const std::string& s : HasManySenders(w.kind) ? w.senders : std::vector<std::string>{w.from})
    {
        out.emplace_back(s, w.to);
    }
    return out;
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
ScenarioReader::TransportKey(const YAML::Node& map, const std::string& path, const std::string& key)
{
    YAML::Node v = map[key];
    if (v)
    {
        m_transportKeys[Join(path, key)] = v;
    }
    return v;
}

BufferSize
ScenarioReader::BufferOf(const YAML::Node& n, const std::string& path) const
{
    if (Str(n, path) == "auto")
    {
        return BufferSize{};
    }
    const uint64_t octets = SizeOf(n, path);
    if (octets < kMinBuffer || octets > kMaxBuffer)
    {
        Fail(n, path, "a socket buffer is " + FormatSize(kMinBuffer) + " to " + FormatSize(kMaxBuffer) + " (or auto), got " +
                          FormatSize(octets));
    }
    return BufferSize{false, octets};
}

TransportLevelConfig
ScenarioReader::ReadTransportLevel(const YAML::Node& n, const std::string& path)
{
    TransportLevelConfig c;
    auto positiveTime = [&](const YAML::Node& map, const std::string& p, const char* key, std::optional<Time>& out) {
        if (const YAML::Node v = TransportKey(map, p, key))
        {
            out = Parsed(v, Join(p, key), ParseTime);
            if (!out->IsStrictlyPositive())
            {
                Fail(v, Join(p, key), std::string(key) + " must be above zero");
            }
            RequirePlausible(v, Join(p, key), Quantity::ProtocolTimer, double(out->GetNanoSeconds()));
        }
    };
    auto count = [&](const YAML::Node& map, const std::string& p, const char* key, uint64_t max,
                     std::optional<uint32_t>& out) {
        if (const YAML::Node v = TransportKey(map, p, key))
        {
            out = uint32_t(UInt(v, Join(p, key), max));
            if (*out == 0)
            {
                Fail(v, Join(p, key), std::string(key) + " must be at least 1");
            }
        }
    };
    auto flag = [&](const YAML::Node& map, const std::string& p, const char* key, std::optional<bool>& out) {
        if (const YAML::Node v = TransportKey(map, p, key))
        {
            out = Bool(v, Join(p, key));
        }
    };
    auto buffer = [&](const YAML::Node& map, const std::string& p, const char* key, std::optional<BufferSize>& out) {
        if (const YAML::Node v = TransportKey(map, p, key))
        {
            out = BufferOf(v, Join(p, key));
        }
    };

    if (const YAML::Node t = n["tcp"])
    {
        const std::string p = Join(path, "tcp");
        CheckKeys(t, p, *ScenarioSchema().fields.at("transport")->fields.at("tcp"));
        TcpTransportConfig& o = c.tcp;
        if (const YAML::Node v = TransportKey(t, p, "congestion"))
        {
            Names<TypeId> names;
            const auto known = TcpCongestionNames();
            for (const auto& [name, tid] : known)
            {
                names.emplace_back(name.c_str(), tid);
            }
            o.congestion = Pick(*this, v, Join(p, "congestion"), names, "TCP congestion control");
        }
        if (const YAML::Node v = TransportKey(t, p, "hystart"))
        {
            Names<std::string> modes;
            for (const std::string& m : HyStartModes())
            {
                modes.emplace_back(m.c_str(), m);
            }
            o.hyStart = Pick(*this, v, Join(p, "hystart"), modes, "HyStart mode");
        }
        positiveTime(t, p, "min-rto", o.minRto);
        positiveTime(t, p, "initial-rto", o.initialRto);
        positiveTime(t, p, "delayed-ack-timeout", o.delayedAckTimeout);
        count(t, p, "delayed-ack-count", 255, o.delayedAckCount);
        count(t, p, "initial-cwnd", 65535, o.initialCwnd);
        flag(t, p, "sack", o.sack);
        flag(t, p, "timestamps", o.timestamps);
        flag(t, p, "ecn", o.ecn);
        buffer(t, p, "send-buffer", o.sendBuffer);
        buffer(t, p, "receive-buffer", o.receiveBuffer);
    }
    if (const YAML::Node s = n["sctp"])
    {
        const std::string p = Join(path, "sctp");
        CheckKeys(s, p, *ScenarioSchema().fields.at("transport")->fields.at("sctp"));
        SctpTransportConfig& o = c.sctp;
        positiveTime(s, p, "rto-min", o.rtoMin);
        positiveTime(s, p, "rto-initial", o.rtoInitial);
        positiveTime(s, p, "rto-max", o.rtoMax);
        positiveTime(s, p, "sack-delay", o.sackDelay);
        if (o.sackDelay && *o.sackDelay > MilliSeconds(500))
        {
            Fail(s["sack-delay"], Join(p, "sack-delay"),
                 "RFC 9260 §6.2 allows a SACK to be delayed by at most 500ms, got " + FormatTime(*o.sackDelay));
        }
        count(s, p, "sack-frequency", 255, o.sackFrequency);
        if (const YAML::Node v = TransportKey(s, p, "initial-cwnd"))
        {
            // `rfc9260`: min(4 MTU, max(2 MTU, 4380 octets)), the default, stored as 0.
            o.initialCwnd = v.IsScalar() && v.Scalar() == "rfc9260" ? 0 : uint32_t(UInt(v, Join(p, "initial-cwnd"), 65535));
            if (v.Scalar() != "rfc9260" && *o.initialCwnd == 0)
            {
                Fail(v, Join(p, "initial-cwnd"), "initial-cwnd is at least 1 MTU (or rfc9260)");
            }
        }
        count(s, p, "max-burst", 65535, o.maxBurst);
        buffer(s, p, "send-buffer", o.sendBuffer);
        buffer(s, p, "receive-buffer", o.receiveBuffer);
    }
    if (const YAML::Node b = n["buffers"])
    {
        const std::string p = Join(path, "buffers");
        CheckKeys(b, p, *ScenarioSchema().fields.at("transport")->fields.at("buffers"));
        buffer(b, p, "send", c.sendBuffer);
        buffer(b, p, "receive", c.receiveBuffer);
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
    auto origin = [](const TransportSettings& s, const std::string& field) {
        auto it = s.origin.find(field);
        return it == s.origin.end() ? std::string() : it->second;
    };
    auto said = [&](const TransportSettings& s, const std::string& field) {
        const std::string o = origin(s, field);
        return o.empty() ? std::string("the default") : o;
    };
    // A tcp.hystart key that reaches no host running Cubic (TcpLinuxCubic) would change nothing: per key,
    // whether it reaches one, and the first host it reaches (for the message).
    struct HyStartReach
    {
        bool cubic{false};
        std::string host;
        const TransportSettings* settings{nullptr};
    };
    std::map<std::string, HyStartReach> hyStartReach;
    for (const std::string& h : m_hosts)
    {
        const TransportSettings& s = at[h];
        const TcpTransportSettings& t = s.tcp;
        // Named only where a host's own key is involved; scenario-wide values are the same for all.
        const bool own = std::any_of(s.origin.begin(), s.origin.end(), [](const auto& kv) {
            return kv.second.rfind("transport.hosts.", 0) == 0;
        });
        const std::string forHost = own ? " (host " + h + ")" : "";
        if (NeedsEcn(t.congestion) && !t.ecn)
        {
            FailTransport(root, {origin(s, "tcp.ecn"), origin(s, "tcp.congestion")},
                          "ecn off contradicts congestion " + TcpCongestionName(t.congestion) + " (" +
                              said(s, "tcp.congestion") + ")" + forHost +
                              ": DCTCP reacts to ECN marks and needs ECN on; leave ecn out or set it on");
        }
        if (const std::string o = origin(s, "tcp.hystart"); !o.empty())
        {
            HyStartReach& r = hyStartReach.try_emplace(o, HyStartReach{false, h, &s}).first->second;
            r.cubic = r.cubic || HasHyStart(t.congestion);
        }
        if (t.initialRto < t.minRto)
        {
            FailTransport(root, {origin(s, "tcp.initial-rto"), origin(s, "tcp.min-rto")},
                          "the initial RTO " + FormatTime(t.initialRto) + " (" + said(s, "tcp.initial-rto") +
                              ") is below the minimum RTO " + FormatTime(t.minRto) + " (" + said(s, "tcp.min-rto") +
                              ")" + forHost);
        }
        const SctpTransportSettings& c = s.sctp;
        if (c.rtoInitial < c.rtoMin || c.rtoInitial > c.rtoMax)
        {
            FailTransport(root, {origin(s, "sctp.rto-initial"), origin(s, "sctp.rto-min"), origin(s, "sctp.rto-max")},
                          "RTO.Initial " + FormatTime(c.rtoInitial) + " (" + said(s, "sctp.rto-initial") +
                              ") is outside [RTO.Min " + FormatTime(c.rtoMin) + ", RTO.Max " + FormatTime(c.rtoMax) +
                              "]" + forHost);
        }
    }
    for (const auto& [key, r] : hyStartReach)
    {
        if (!r.cubic)
        {
            const TransportSettings& s = *r.settings;
            FailTransport(root, {key},
                          "hystart " + s.tcp.hyStart + " chooses the slow-start exit of congestion Cubic "
                              "(TcpLinuxCubic), and no host it reaches runs Cubic (" + r.host + " runs " +
                              TcpCongestionName(s.tcp.congestion) + ", " + said(s, "tcp.congestion") +
                              "): it would change nothing; leave it out");
        }
    }
    // A receiver that holds an ACK back for as long as the sender's RTO makes the sender time out on
    // every lone segment: each end's delayed ACK must be shorter than the other's minimum RTO.
    const std::vector<WorkloadConfig>& wl = cfg.workloads;
    for (const WorkloadConfig& w : wl)
    {
        const bool sctp = IsRdma(w.kind) && w.llp == Llp::Sctp;
        const std::string delay = sctp ? "sctp.sack-delay" : "tcp.delayed-ack-timeout";
        const std::string rto = sctp ? "sctp.rto-min" : "tcp.min-rto";
        for (const auto& [a, b] : Connections(w))
        {
            for (const auto& [receiver, sender] : {std::make_pair(a, b), std::make_pair(b, a)})
            {
                const TransportSettings& r = at.at(receiver);
                const TransportSettings& s = at.at(sender);
                const Time held = sctp ? r.sctp.sackDelay : r.tcp.delayedAckTimeout;
                const Time minRto = sctp ? s.sctp.rtoMin : s.tcp.minRto;
                if (held >= minRto)
                {
                    FailTransport(root, {origin(r, delay), origin(s, rto)},
                                  receiver + " delays " + (sctp ? "SACKs" : "ACKs") + " up to " + FormatTime(held) +
                                      " (" + said(r, delay) + "), not below " + sender + "'s minimum RTO " +
                                      FormatTime(minRto) + " (" + said(s, rto) + ") on workload '" + w.name +
                                      "': every lone segment would be retransmitted by a timeout before its " +
                                      "ACK comes, and the connection stalls; make the delay shorter than the RTO" +
                                      (sctp ? "" : " (or delayed-ack-count: 1)"));
                }
            }
        }
    }
}

} // namespace scenario
} // namespace ns3

#include "helper/scenario/transport-keys.h"

#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/scenario-transport.h"
#include "helper/common/units.h"

#include "tcp/tcp-linux-cubic.h"
#include "transport/transport-profile.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/uinteger.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

namespace ns3
{
namespace
{

using json = nlohmann::json;
using scenario::FormatSize;
using scenario::FormatTime;
using scenario::Names;
using scenario::ParseTime;
using scenario::Quantity;
using scenario::ScenarioReader;

constexpr uint64_t kMinBuffer = 8 << 10;  ///< a few full segments at a 1500-octet MTU
constexpr uint64_t kMaxBuffer = 1u << 30; ///< TCP's largest window (window scale 14, RFC 7323)

/** Where the `tcp` keys live, at a level and in the settings, and how their socket attributes are set. */
struct TcpSide
{
    using Config = TcpTransportConfig;
    using Settings = TcpTransportSettings;
    static constexpr const char* kName = "tcp";
    static const Config& Of(const TransportLevelConfig& l) { return l.tcp; }
    static Config& Of(TransportLevelConfig& l) { return l.tcp; }
    static const Settings& Of(const TransportSettings& s) { return s.tcp; }
    static Settings& Of(TransportSettings& s) { return s.tcp; }
    static void Set(TransportProfile& p, const std::string& name, const AttributeValue& v)
    {
        p.SetTcpAttribute(name, v);
    }
};

/** The same for the `sctp` keys. */
struct SctpSide
{
    using Config = SctpTransportConfig;
    using Settings = SctpTransportSettings;
    static constexpr const char* kName = "sctp";
    static const Config& Of(const TransportLevelConfig& l) { return l.sctp; }
    static Config& Of(TransportLevelConfig& l) { return l.sctp; }
    static const Settings& Of(const TransportSettings& s) { return s.sctp; }
    static Settings& Of(TransportSettings& s) { return s.sctp; }
    static void Set(TransportProfile& p, const std::string& name, const AttributeValue& v)
    {
        p.SetSctpAttribute(name, v);
    }
};

/** "ns3::TcpSocketBase::MinRto" -> "MinRto". */
std::string
ShortName(const std::string& attribute)
{
    return attribute.substr(attribute.rfind("::") + 2);
}

/**
 * A key whose setting is the field `set` of P's settings, read into `cfg` of P's level by `read`; it owns
 * `attribute` (the `host:` maps may not set it). The typed builders below add how it is recorded and applied.
 */
template <typename P, typename T>
TransportKey
Field(const std::string& name,
      std::optional<T> P::Config::*cfg,
      T P::Settings::*set,
      T def,
      const std::string& attribute,
      std::function<void(const ScenarioReader&, const YAML::Node&, const std::string&, std::optional<T>&)> read)
{
    TransportKey k;
    k.key = std::string(P::kName) + "." + name;
    if (!attribute.empty())
    {
        k.attributes.push_back(attribute);
    }
    k.read = [cfg, read](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                         TransportLevelConfig& l) { read(r, v, path, P::Of(l).*cfg); };
    k.setDefault = [set, def](TransportSettings& s) { P::Of(s).*set = def; };
    k.take = [cfg, set, key = k.key](const TransportLevelConfig& l, TransportSettings& s) {
        const std::optional<T>& v = P::Of(l).*cfg;
        if (!v)
        {
            return std::string();
        }
        P::Of(s).*set = *v;
        return key;
    };
    return k;
}

/** A time above zero, in the protocol-timer range; at most `max` (with `why`) when `max` is positive. */
template <typename P>
TransportKey
TimeKey(const std::string& name, std::optional<Time> P::Config::*cfg, Time P::Settings::*set, Time def,
        const std::string& jsonName, const std::string& attribute, Time max = Time(), std::string why = "")
{
    TransportKey k = Field<P, Time>(
        name, cfg, set, def, attribute,
        [max, why](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                         std::optional<Time>& out) {
            out = r.PositiveTimeOf(v, path, Quantity::ProtocolTimer);
            if (max.IsStrictlyPositive() && *out > max)
            {
                r.Fail(v, path, why + ", got " + FormatTime(*out));
            }
        });
    k.record = [set, jsonName](const TransportSettings& s, json& out) {
        out[jsonName] = (P::Of(s).*set).GetNanoSeconds();
    };
    k.text = [set](const TransportSettings& s) { return FormatTime(P::Of(s).*set); };
    k.apply = [set, a = ShortName(attribute)](const TransportSettings& s, TransportProfile& p) {
        P::Set(p, a, TimeValue(P::Of(s).*set));
    };
    return k;
}

/** A whole number from 1 to `max`. */
template <typename P>
TransportKey
CountKey(const std::string& name, std::optional<uint32_t> P::Config::*cfg, uint32_t P::Settings::*set, uint32_t def,
         uint32_t max, const std::string& jsonName, const std::string& attribute)
{
    TransportKey k = Field<P, uint32_t>(
        name, cfg, set, def, attribute,
        [name, max](const ScenarioReader& r, const YAML::Node& v, const std::string& path,
                    std::optional<uint32_t>& out) {
            out = uint32_t(r.UInt(v, path, max));
            if (*out == 0)
            {
                r.Fail(v, path, name + " must be at least 1");
            }
        });
    k.record = [set, jsonName](const TransportSettings& s, json& out) { out[jsonName] = P::Of(s).*set; };
    k.text = [set](const TransportSettings& s) { return std::to_string(P::Of(s).*set); };
    k.apply = [set, a = ShortName(attribute)](const TransportSettings& s, TransportProfile& p) {
        P::Set(p, a, UintegerValue(P::Of(s).*set));
    };
    return k;
}

/** On or off. */
template <typename P>
TransportKey
FlagKey(const std::string& name, std::optional<bool> P::Config::*cfg, bool P::Settings::*set, bool def,
        const std::string& jsonName, const std::string& attribute)
{
    TransportKey k = Field<P, bool>(
        name, cfg, set, def, attribute,
        [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, std::optional<bool>& out) {
            out = r.Bool(v, path);
        });
    k.record = [set, jsonName](const TransportSettings& s, json& out) { out[jsonName] = P::Of(s).*set; };
    k.text = [set](const TransportSettings& s) { return std::string(P::Of(s).*set ? "on" : "off"); };
    k.apply = [set, a = ShortName(attribute)](const TransportSettings& s, TransportProfile& p) {
        P::Set(p, a, BooleanValue(P::Of(s).*set));
    };
    return k;
}

/** `auto` or a size from kMinBuffer to kMaxBuffer. */
BufferSize
ReadBuffer(const ScenarioReader& r, const YAML::Node& v, const std::string& path)
{
    if (r.Str(v, path) == "auto")
    {
        return BufferSize{};
    }
    const uint64_t octets = r.SizeOf(v, path);
    if (octets < kMinBuffer || octets > kMaxBuffer)
    {
        r.Fail(v, path, "a socket buffer is " + FormatSize(kMinBuffer) + " to " + FormatSize(kMaxBuffer) +
                            " (or auto), got " + FormatSize(octets));
    }
    return BufferSize{false, octets};
}

/** What a buffer key takes, for the docs. */
std::string
BufferValue()
{
    return "`auto` or a size, " + FormatSize(kMinBuffer) + ".." + FormatSize(kMaxBuffer);
}

/** P's send or receive buffer: its own key at a level, else the level's shared `buffers.<which>`. */
template <typename P>
TransportKey
BufferKey(const std::string& which, std::optional<BufferSize> P::Config::*cfg, BufferSize P::Settings::*set,
          std::optional<BufferSize> TransportLevelConfig::*shared, const std::string& attribute)
{
    const std::string name = which + "-buffer";
    TransportKey k = Field<P, BufferSize>(
        name, cfg, set, BufferSize{}, attribute,
        [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, std::optional<BufferSize>& out) {
            out = ReadBuffer(r, v, path);
        });
    k.value = BufferValue();
    k.defaultText = "`buffers." + which + "`";
    const std::string sharedKey = "buffers." + which;
    k.take = [cfg, set, shared, own = k.key, sharedKey](const TransportLevelConfig& l, TransportSettings& s) {
        const std::optional<BufferSize>& v = (P::Of(l).*cfg) ? P::Of(l).*cfg : l.*shared;
        if (!v)
        {
            return std::string();
        }
        P::Of(s).*set = *v;
        return (P::Of(l).*cfg) ? own : sharedKey;
    };
    k.record = [set, prefix = which + "_buffer"](const TransportSettings& s, json& out) {
        out[prefix + "_bytes"] = (P::Of(s).*set).octets;
        out[prefix + "_auto"] = (P::Of(s).*set).automatic;
    };
    k.text = [set](const TransportSettings& s) {
        const BufferSize& b = P::Of(s).*set;
        return b.automatic ? std::string("auto") : FormatSize(b.octets);
    };
    k.apply = [set, a = ShortName(attribute)](const TransportSettings& s, TransportProfile& p) {
        P::Set(p, a, UintegerValue((P::Of(s).*set).octets));
    };
    return k;
}

/** `buffers.<which>`: no setting of its own; the `tcp` and `sctp` buffer keys fall back on it. */
TransportKey
SharedBufferKey(const std::string& which, std::optional<BufferSize> TransportLevelConfig::*shared)
{
    TransportKey k;
    k.key = "buffers." + which;
    k.value = BufferValue();
    k.defaultText = "`auto`: 4 x the bandwidth-delay product of the host's longest path, in [" +
                    FormatSize(kAutoBufferMin) + ", " + FormatSize(kAutoBufferMax) + "]";
    k.source = "stands in for Linux's autotuning (doc/transports.md)";
    k.read = [shared](const ScenarioReader& r, const YAML::Node& v, const std::string& path, TransportLevelConfig& l) {
        l.*shared = ReadBuffer(r, v, path);
    };
    return k;
}

/** The value `v` names among `names` ("unknown <what> 'x' (expected one of ...)" otherwise). */
template <typename E>
E
PickFrom(const ScenarioReader& r, const YAML::Node& v, const std::string& path,
         const std::vector<std::pair<std::string, E>>& names, const char* what)
{
    Names<E> list;
    for (const auto& [name, value] : names)
    {
        list.emplace_back(name.c_str(), value);
    }
    return scenario::Pick(r, v, path, list, what);
}

TransportKey
TcpCongestionKey()
{
    TransportKey k = Field<TcpSide, TypeId>(
        "congestion", &TcpTransportConfig::congestion, &TcpTransportSettings::congestion,
        TypeId::LookupByName(kDefaultTcpCongestion), "ns3::TcpSocketBase::CongestionOps",
        [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, std::optional<TypeId>& out) {
            out = PickFrom(r, v, path, TcpCongestionNames(), "TCP congestion control");
        });
    k.attributes.push_back("ns3::TcpL4Protocol::SocketType");
    k.record = [](const TransportSettings& s, json& out) {
        out["congestion"] = TcpCongestionName(s.tcp.congestion);
        out["congestion_type_id"] = s.tcp.congestion.GetName();
    };
    k.text = [](const TransportSettings& s) { return "`" + TcpCongestionName(s.tcp.congestion) + "`"; };
    k.apply = [](const TransportSettings& s, TransportProfile& p) { p.SetTcpCongestionOps(s.tcp.congestion); };
    return k;
}

TransportKey
TcpHyStartKey()
{
    TransportKey k = Field<TcpSide, std::string>(
        "hystart", &TcpTransportConfig::hyStart, &TcpTransportSettings::hyStart, HyStartModes().front(), "",
        [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, std::optional<std::string>& out) {
            std::vector<std::pair<std::string, std::string>> modes;
            for (const std::string& m : HyStartModes())
            {
                modes.emplace_back(m, m);
            }
            out = PickFrom(r, v, path, modes, "HyStart mode");
        });
    // null for a congestion control without the choice (the loader refuses the key where no host runs Cubic).
    k.record = [](const TransportSettings& s, json& out) {
        out["hystart"] = HasHyStart(s.tcp.congestion) ? json(s.tcp.hyStart) : json(nullptr);
    };
    k.text = [](const TransportSettings& s) { return "`" + s.tcp.hyStart + "`"; };
    k.apply = [](const TransportSettings& s, TransportProfile& p) {
        if (HasHyStart(s.tcp.congestion)) // after congestion's apply: attributes of the congestion control
        {
            p.SetTcpCongestionAttribute("HyStart", BooleanValue(s.tcp.hyStart != "off"));
            p.SetTcpCongestionAttribute("HyStartVariant", EnumValue(s.tcp.hyStart == "rfc9406"
                                                                        ? TcpLinuxCubic::HYSTART_RFC9406
                                                                        : TcpLinuxCubic::HYSTART_LINUX));
        }
    };
    return k;
}

TransportKey
SctpInitialCwndKey()
{
    // `rfc9260`: min(4 MTU, max(2 MTU, 4380 octets)), the default, stored as 0.
    TransportKey k = CountKey<SctpSide>("initial-cwnd", &SctpTransportConfig::initialCwnd,
                                        &SctpTransportSettings::initialCwnd, 0, 65535, "initial_cwnd_mtus",
                                        "ns3::SctpSocket::InitialCwnd");
    k.read = [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, TransportLevelConfig& l) {
        if (v.IsScalar() && v.Scalar() == "rfc9260")
        {
            l.sctp.initialCwnd = 0;
            return;
        }
        l.sctp.initialCwnd = uint32_t(r.UInt(v, path, 65535));
        if (*l.sctp.initialCwnd == 0)
        {
            r.Fail(v, path, "initial-cwnd is at least 1 MTU (or rfc9260)");
        }
    };
    k.record = [](const TransportSettings& s, json& out) {
        out["initial_cwnd_mtus"] = s.sctp.initialCwnd ? json(s.sctp.initialCwnd) : json(nullptr);
    };
    k.text = [](const TransportSettings& s) {
        return s.sctp.initialCwnd ? std::to_string(s.sctp.initialCwnd) : std::string("`rfc9260`");
    };
    return k;
}

/** Fills in the docs' columns of `k`. */
TransportKey
Doc(TransportKey k, const std::string& value, const std::string& source, const std::string& defaultText = "")
{
    k.value = k.value.empty() ? value : k.value;
    k.source = source;
    if (!defaultText.empty())
    {
        k.defaultText = defaultText;
    }
    return k;
}

using C = TcpTransportConfig;
using S = TcpTransportSettings;
using SC = SctpTransportConfig;
using SS = SctpTransportSettings;

std::vector<TransportKey>
TcpKeys()
{
    return {
        Doc(TcpCongestionKey(),
            "a name: `Cubic` (this project's Linux-like `TcpLinuxCubic`), `Ns3Cubic` (ns-3's `TcpCubic`), `Dctcp` "
            "(`TcpLinuxDctcp`: ns-3's DCTCP halving on loss, RFC 8257 §3.5), `Ns3Dctcp` (ns-3's `TcpDctcp`), "
            "`NewReno`, `LinuxReno`, `Bbr`, `Vegas`, ... (every registered `ns3::TcpX` as `X`)",
            "Linux's default; RFC 9438"),
        Doc(TcpHyStartKey(), "`linux`, `rfc9406` or `off`; only where `Cubic` runs",
            "how `Cubic` leaves its slow start: Linux's HyStart (ACK train and delay, `tcp_cubic.c`'s default), "
            "HyStart++ (RFC 9406), or at the first loss (doc/tcp-congestion.md)"),
        Doc(TimeKey<TcpSide>("min-rto", &C::minRto, &S::minRto, MilliSeconds(5), "min_rto_ns",
                             "ns3::TcpSocketBase::MinRto"),
            "time > 0", "data-center tuning (Vasudevan et al., SIGCOMM 2009); Linux 200 ms, RFC 6298 1 s"),
        [] {
            // Before the first RTT sample: a fresh estimator's initial estimate, and the SYN's timeout.
            TransportKey k = TimeKey<TcpSide>("initial-rto", &C::initialRto, &S::initialRto, Seconds(1),
                                              "initial_rto_ns", "ns3::TcpSocket::ConnTimeout");
            k.attributes.push_back("ns3::RttEstimator::InitialEstimation");
            k.apply = [](const TransportSettings& s, TransportProfile& p) { p.SetTcpInitialRto(s.tcp.initialRto); };
            return Doc(k, "time >= `min-rto`", "RFC 6298 (2.1), Linux; also the SYN's timeout");
        }(),
        Doc(TimeKey<TcpSide>("delayed-ack-timeout", &C::delayedAckTimeout, &S::delayedAckTimeout, MilliSeconds(1),
                             "delayed_ack_timeout_ns", "ns3::TcpSocket::DelAckTimeout"),
            "time > 0, below every peer's `min-rto`",
            "below the minimum RTO; Linux 40-200 ms, or quick ACKs per route"),
        Doc(CountKey<TcpSide>("delayed-ack-count", &C::delayedAckCount, &S::delayedAckCount, 2, 255,
                              "delayed_ack_count", "ns3::TcpSocket::DelAckCount"),
            "int 1..255 (segments per ACK)", "RFC 1122, RFC 5681"),
        Doc(CountKey<TcpSide>("initial-cwnd", &C::initialCwnd, &S::initialCwnd, 10, 65535, "initial_cwnd_segments",
                              "ns3::TcpSocket::InitialCwnd"),
            "int 1..65535, segments", "RFC 6928, Linux"),
        Doc(CountKey<TcpSide>("data-retries", &C::dataRetries, &S::dataRetries, 6, 255, "data_retries",
                              "ns3::TcpSocket::DataRetries"),
            "int 1..255, retransmissions of a segment before the connection is given up",
            "ns-3's `TcpSocket` default, kept so that earlier results stand; Linux's `tcp_retries2` is 15"),
        Doc(FlagKey<TcpSide>("sack", &C::sack, &S::sack, true, "sack", "ns3::TcpSocketBase::Sack"), "bool",
            "RFC 2018, Linux"),
        Doc(FlagKey<TcpSide>("timestamps", &C::timestamps, &S::timestamps, true, "timestamps",
                             "ns3::TcpSocketBase::Timestamp"),
            "bool", "RFC 7323, Linux"),
        [] {
            TransportKey k = FlagKey<TcpSide>("ecn", &C::ecn, &S::ecn, false, "ecn", "ns3::TcpSocketBase::UseEcn");
            k.apply = [](const TransportSettings& s, TransportProfile& p) {
                p.SetTcpAttribute("UseEcn", EnumValue(s.tcp.ecn ? TcpSocketState::On : TcpSocketState::Off));
            };
            return Doc(k, "bool; not `off` with `Dctcp`", "RFC 3168; Linux asks for none; RFC 8257",
                       "off; on with `Dctcp`");
        }(),
        Doc(BufferKey<TcpSide>("send", &C::sendBuffer, &S::sendBuffer, &TransportLevelConfig::sendBuffer,
                               "ns3::TcpSocket::SndBufSize"),
            "", "TCP and SCTP share `buffers.*` unless this key says otherwise"),
        Doc(BufferKey<TcpSide>("receive", &C::receiveBuffer, &S::receiveBuffer, &TransportLevelConfig::receiveBuffer,
                               "ns3::TcpSocket::RcvBufSize"),
            "", "TCP and SCTP share `buffers.*` unless this key says otherwise"),
    };
}

std::vector<TransportKey>
SctpKeys()
{
    return {
        Doc(TimeKey<SctpSide>("rto-min", &SC::rtoMin, &SS::rtoMin, MilliSeconds(5), "rto_min_ns",
                              "ns3::SctpSocket::RtoMin"),
            "time > 0", "as TCP's (RFC 9260 §16: 1 s)"),
        Doc(TimeKey<SctpSide>("rto-initial", &SC::rtoInitial, &SS::rtoInitial, Seconds(1), "rto_initial_ns",
                              "ns3::SctpSocket::RtoInitial"),
            "time in [`rto-min`, `rto-max`]", "RFC 9260 §16"),
        Doc(TimeKey<SctpSide>("rto-max", &SC::rtoMax, &SS::rtoMax, Seconds(60), "rto_max_ns",
                              "ns3::SctpSocket::RtoMax"),
            "time > 0", "RFC 9260 §16"),
        Doc(TimeKey<SctpSide>("sack-delay", &SC::sackDelay, &SS::sackDelay, MilliSeconds(1), "sack_delay_ns",
                              "ns3::SctpSocket::SackDelay", MilliSeconds(500),
                              "RFC 9260 §6.2 allows a SACK to be delayed by at most 500ms"),
            "time, 0 < t <= 500 ms, below every peer's `rto-min`",
            "as TCP's delayed ACK (RFC 9260 §6.2: at most 500 ms)"),
        Doc(CountKey<SctpSide>("sack-frequency", &SC::sackFrequency, &SS::sackFrequency, 2, 255, "sack_frequency",
                               "ns3::SctpSocket::SackFrequency"),
            "int 1..255 (packets per SACK)", "RFC 9260 §6.2"),
        Doc(SctpInitialCwndKey(), "int 1..65535 (MTUs), or `rfc9260`", "RFC 9260 §7.2.1, Linux",
            "`rfc9260`: min(4 MTU, max(2 MTU, 4380 octets))"),
        Doc(CountKey<SctpSide>("max-burst", &SC::maxBurst, &SS::maxBurst, 4, 65535, "max_burst",
                               "ns3::SctpSocket::MaxBurst"),
            "int 1..65535, packets", "RFC 9260 §16"),
        Doc(FlagKey<SctpSide>("multihoming", &SC::multihoming, &SS::multihoming, false, "multihoming",
                              "ns3::SctpSocket::Multihoming"),
            "bool: list every address of the host in INIT / INIT ACK (a host with several links)",
            "RFC 5043 §7.2: one address unless configured otherwise"),
        Doc(CountKey<SctpSide>("path-max-retrans", &SC::pathMaxRetrans, &SS::pathMaxRetrans, 5, 255,
                               "path_max_retrans", "ns3::SctpSocket::PathMaxRetrans"),
            "int 1..255, timeouts past which a destination is inactive", "RFC 9260 §16"),
        Doc(CountKey<SctpSide>("association-max-retrans", &SC::associationMaxRetrans, &SS::associationMaxRetrans, 10,
                               255, "association_max_retrans", "ns3::SctpSocket::AssociationMaxRetrans"),
            "int 1..255, consecutive timeouts past which the association is lost (at most the paths' "
            "`path-max-retrans` summed, RFC 9260 §8.2)",
            "RFC 9260 §16"),
        Doc(TimeKey<SctpSide>("hb-interval", &SC::hbInterval, &SS::hbInterval, Seconds(30), "hb_interval_ns",
                              "ns3::SctpSocket::HbInterval"),
            "time > 0; an idle destination is heartbeated every `hb-interval` + RTO (+/- RTO/2)", "RFC 9260 §16"),
        Doc(BufferKey<SctpSide>("send", &SC::sendBuffer, &SS::sendBuffer, &TransportLevelConfig::sendBuffer,
                                "ns3::SctpSocket::SndBufSize"),
            "", "TCP and SCTP share `buffers.*` unless this key says otherwise"),
        Doc(BufferKey<SctpSide>("receive", &SC::receiveBuffer, &SS::receiveBuffer,
                                &TransportLevelConfig::receiveBuffer, "ns3::SctpSocket::RcvBufSize"),
            "", "TCP and SCTP share `buffers.*` unless this key says otherwise"),
    };
}

} // namespace

std::string
TransportKey::Section() const
{
    return key.substr(0, key.find('.'));
}

const std::vector<std::string>&
TransportSections()
{
    static const std::vector<std::string> kSections = [] {
        std::vector<std::string> out;
        for (const TransportKey& k : TransportKeys())
        {
            if (std::find(out.begin(), out.end(), k.Section()) == out.end())
            {
                out.push_back(k.Section());
            }
        }
        return out;
    }();
    return kSections;
}

std::string
TransportKey::Name() const
{
    return key.substr(key.find('.') + 1);
}

const std::vector<TransportKey>&
TransportKeys()
{
    static const std::vector<TransportKey> keys = [] {
        std::vector<TransportKey> all = TcpKeys();
        for (TransportKey& k : SctpKeys())
        {
            all.push_back(std::move(k));
        }
        all.push_back(SharedBufferKey("send", &TransportLevelConfig::sendBuffer));
        all.push_back(SharedBufferKey("receive", &TransportLevelConfig::receiveBuffer));
        return all;
    }();
    return keys;
}

std::string
TransportKeysMarkdown()
{
    const TransportSettings defaults = DefaultTransport();
    std::ostringstream md;
    md << "| key | value | default | source of the default |\n|---|---|---|---|\n";
    for (const TransportKey& k : TransportKeys())
    {
        const std::string def = k.defaultText.empty() ? k.text(defaults) : k.defaultText;
        md << "| `" << k.key << "` | " << k.value << " | " << def << " | " << k.source << " |\n";
    }
    return md.str();
}

} // namespace ns3

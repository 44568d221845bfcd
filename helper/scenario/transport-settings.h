/*
 * The `transport:` section of a scenario (doc/scenario-format.md, doc/transports.md): TCP and SCTP
 * settings for every host, with per-host overrides, and the data-center defaults they fall back to.
 *
 *   TransportConfig  what the file says, level by level (everything optional)
 *   ResolveTransport the settings one host runs with: its own level over the scenario-wide one over
 *                    the defaults, each field by itself, and where each value came from
 *
 * Each key is declared once, with its default, in transport-keys.cc. The loader checks a TransportConfig and
 * refuses what the runner would otherwise apply silently differently (scenario-reader-transport.cc); the
 * runner sizes the "auto" buffers from the paths and gives each host a TransportProfile (scenario-transport.cc).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_TRANSPORT_SETTINGS_H
#define IWARP_SCENARIO_TRANSPORT_SETTINGS_H

#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/** The congestion control every TCP socket runs unless the scenario names another (doc/transports.md). */
constexpr const char* kDefaultTcpCongestion = "ns3::TcpLinuxCubic";

/** A socket buffer: `auto` (sized by the runner from the host's paths) or a size in octets. */
struct BufferSize
{
    bool automatic{true};
    uint64_t octets{0}; ///< the size; for `auto`, 0 until the runner has sized it
    bool operator==(const BufferSize& o) const { return automatic == o.automatic && octets == o.octets; }
};

/** `tcp:` at one level (scenario-wide or one host): each key optional. */
struct TcpTransportConfig
{
    std::optional<TypeId> congestion;
    std::optional<std::string> hyStart; ///< `linux`, `rfc9406` or `off`; Cubic (TcpLinuxCubic) only
    std::optional<Time> minRto;
    std::optional<Time> initialRto;
    std::optional<Time> delayedAckTimeout;
    std::optional<uint32_t> delayedAckCount;
    std::optional<uint32_t> initialCwnd; ///< segments
    std::optional<uint32_t> dataRetries;
    std::optional<bool> sack;
    std::optional<bool> timestamps;
    std::optional<bool> ecn;
    std::optional<BufferSize> sendBuffer;
    std::optional<BufferSize> receiveBuffer;
};

/** `sctp:` at one level. */
struct SctpTransportConfig
{
    std::optional<Time> rtoMin;
    std::optional<Time> rtoInitial;
    std::optional<Time> rtoMax;
    std::optional<Time> sackDelay;
    std::optional<uint32_t> sackFrequency;
    std::optional<uint32_t> initialCwnd; ///< MTUs; 0 stands for RFC 9260's formula (`rfc9260`)
    std::optional<uint32_t> maxBurst;
    std::optional<bool> multihoming;
    std::optional<uint32_t> pathMaxRetrans;
    std::optional<uint32_t> associationMaxRetrans;
    std::optional<Time> hbInterval;
    std::optional<BufferSize> sendBuffer;
    std::optional<BufferSize> receiveBuffer;
};

/** One level of `transport:`: the section itself, or one entry of its `hosts:`. */
struct TransportLevelConfig
{
    TcpTransportConfig tcp;
    SctpTransportConfig sctp;
    std::optional<BufferSize> sendBuffer;    ///< buffers.send: TCP's and SCTP's unless they say otherwise
    std::optional<BufferSize> receiveBuffer; ///< buffers.receive
};

struct TransportConfig
{
    TransportLevelConfig all;                          ///< every host
    std::map<std::string, TransportLevelConfig> hosts; ///< per host, over `all`
};

struct TcpTransportSettings
{
    TypeId congestion;
    std::string hyStart; ///< TcpLinuxCubic's slow-start exit: `linux`, `rfc9406`, `off` (kHyStartModes)
    Time minRto;
    Time initialRto;
    Time delayedAckTimeout;
    uint32_t delayedAckCount{0};
    uint32_t initialCwnd{0};
    uint32_t dataRetries{0};
    bool sack{true};
    bool timestamps{true};
    bool ecn{false};
    BufferSize sendBuffer;
    BufferSize receiveBuffer;
};

struct SctpTransportSettings
{
    Time rtoMin;
    Time rtoInitial;
    Time rtoMax;
    Time sackDelay;
    uint32_t sackFrequency{0};
    uint32_t initialCwnd{0}; ///< MTUs; 0: RFC 9260 §7.2.1
    uint32_t maxBurst{0};
    bool multihoming{false};
    uint32_t pathMaxRetrans{0};
    uint32_t associationMaxRetrans{0};
    Time hbInterval;
    BufferSize sendBuffer;
    BufferSize receiveBuffer;
};

/** What one host runs with. */
struct TransportSettings
{
    TcpTransportSettings tcp;
    SctpTransportSettings sctp;
    /**
     * Where each value came from: "tcp.min-rto" -> "transport.hosts.h1.tcp.min-rto" (the key that
     * gave it), or absent for a default.  Keys are `tcp.<key>` and `sctp.<key>` as the file spells them.
     */
    std::map<std::string, std::string> origin;
};

/** What one host of a run used, its `auto` buffers sized (summary.json "transport"). */
struct HostTransport
{
    std::string node;
    TransportSettings settings;
};

/** The defaults, as the keys declare them with their sources (transport-keys.cc, doc/scenario-format.md). */
TransportSettings DefaultTransport();

/** `host`'s settings: transport.hosts.<host> over the scenario-wide `transport` over the defaults. */
TransportSettings ResolveTransport(const TransportConfig& config, const std::string& host);

/**
 * The TCP congestion controls a scenario may name, by the short name it uses, sorted: every
 * registered TcpCongestionOps "ns3::TcpX" as "X" (NewReno, Dctcp, Bbr, ...), except that "Cubic"
 * is this project's Linux-like ns3::TcpLinuxCubic and "Ns3Cubic" is ns-3's own ns3::TcpCubic.
 */
std::vector<std::pair<std::string, TypeId>> TcpCongestionNames();

/** The values of `tcp.hystart`, the first the default (doc/transports.md). */
const std::vector<std::string>& HyStartModes();
/** Whether `tcp.hystart` applies to this congestion control (only TcpLinuxCubic has the choice). */
bool HasHyStart(TypeId congestion);

/** The short name of a congestion control TypeId (as TcpCongestionNames spells it). */
std::string TcpCongestionName(TypeId congestion);

/** Whether this congestion control needs ECN (DCTCP). */
bool NeedsEcn(TypeId congestion);

} // namespace ns3

#endif // IWARP_SCENARIO_TRANSPORT_SETTINGS_H

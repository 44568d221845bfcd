#include "helper/scenario/llp-descriptors.h"

#include "helper/scenario/path-sizes.h"
#include "helper/scenario/scenario-attributes.h"
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/transport-settings.h"

#include "common/iwarp-constants.h"
#include "mpa/mpa-constants.h"
#include "mpa/mpa-fpdu.h"
#include "roce/roce-packet.h"
#include "sctp-ddp/sctp-ddp-connection.h"

#include "ns3/boolean.h"
#include "ns3/uinteger.h"

namespace ns3
{

namespace
{

uint32_t
TcpFraming(bool timestamps)
{
    return iwarp::kIpv4HeaderLen + kTcpHeaderLen + (timestamps ? kTcpTimestampOptionLen : 0);
}

/** Markers are not counted: a looser bound for the physics checks. */
uint32_t
MpaFraming(bool timestamps)
{
    return TcpFraming(timestamps) + uint32_t(iwarp::kMpaLengthFieldLen + iwarp::kMpaCrcLen);
}

uint32_t
SctpFraming(bool /* timestamps */)
{
    return sctpddp::kPacketHeadersLen;
}

/** RFC 5044 §4: an FPDU's length field and ULPDU are padded to a multiple of four octets. */
uint32_t
MpaPadding(uint32_t segment)
{
    return (4 - (iwarp::kMpaLengthFieldLen + segment) % 4) % 4;
}

/** RFC 9260 §3.2: a chunk (its 4-octet-aligned header and the data) is padded to a multiple of four. */
uint32_t
SctpPadding(uint32_t segment)
{
    return (4 - segment % 4) % 4;
}

/** Plain TCP carries a byte stream: nothing to pad. */
uint32_t
NoPadding(uint32_t)
{
    return 0;
}

/** What plain TCP needs of a path here: the smallest MTU IPv4 allows a link. */
uint32_t
Ipv4MinMtu(const ScenarioConfig&)
{
    return iwarp::kIpv4MinMtu;
}

std::string
Ipv4MinMtuWhy(const ScenarioConfig&)
{
    return " (the smallest MTU IPv4 allows a link)";
}

uint32_t
MpaMinMtu(const ScenarioConfig&)
{
    return MinMpaMtu();
}

uint32_t
SctpMinMtu(const ScenarioConfig&)
{
    return MinSctpMtu();
}

std::string
MpaMinMtuWhy(const ScenarioConfig&)
{
    return " (IPv4 20 + TCP 20 + timestamps 12 + a segment of " + std::to_string(MinMpaSegmentSize()) +
           " that holds a 70-octet DDP Terminate in one FPDU)";
}

std::string
SctpMinMtuWhy(const ScenarioConfig&)
{
    return " (IPv4 20 + SCTP 12 + DATA 16 + DDP-SSN 2 + the 516-octet DDP segment RFC 5043 requires, and the SCTP "
           "model's smallest Pmtu)";
}

/** MPA's (RFC 5044 §4): the TCP segment the connection is sized for, less MPA's framing and markers. */
LlpMulpdu
MpaMulpduOf(const ScenarioConfig& cfg, uint32_t pathMtu)
{
    const std::optional<std::string> seg = ScenarioDefault(cfg, "ns3::TcpSocket::SegmentSize");
    const uint32_t segment = seg ? uint32_t(std::stoull(*seg)) : TcpSegmentSizeFor(pathMtu);
    const bool markers = DynamicCast<BooleanValue>(EffectiveDefault(cfg, "ns3::MpaConnection::Markers"))->Get();
    return {MpaMulpdu(segment, markers),
            "MPA over TCP segments of " + std::to_string(segment) + (markers ? ", with markers" : "")};
}

/** RFC 5043's: the path MTU the association uses, less the packet's headers and the bundling reserve. */
LlpMulpdu
SctpMulpduOf(const ScenarioConfig& cfg, uint32_t pathMtu)
{
    const std::optional<std::string> pmtu = ScenarioDefault(cfg, "ns3::SctpSocket::Pmtu");
    const uint32_t path = pmtu ? uint32_t(std::stoull(*pmtu)) : pathMtu;
    const auto reserve =
        DynamicCast<UintegerValue>(EffectiveDefault(cfg, "ns3::SctpDdpAssociation::BundlingReserve"))->Get();
    return {sctpddp::MulpduFor(path, uint32_t(reserve)), "DDP over SCTP with a path MTU of " + std::to_string(path)};
}

/** RoCEv2's payload per packet: the queue pairs' Mtu (an InfiniBand MTU, whatever the path's). */
uint32_t
RoceMtu(const ScenarioConfig& cfg)
{
    return uint32_t(DynamicCast<UintegerValue>(EffectiveDefault(cfg, "ns3::RoceTransport::Mtu"))->Get());
}

/** IPv4 20 + UDP 8 + BTH 12 + ICRC 4: on every packet (a RETH's 16 only on a Write's first). */
uint32_t
RoceFraming(bool /* timestamps */)
{
    return roce::kFramingLen + roce::kBthLen;
}

/** A Write's first packet is the largest: its RETH on top of the framing and a full Mtu of payload. */
uint32_t
RoceMinMtu(const ScenarioConfig& cfg)
{
    return RoceFraming(false) + roce::kRethLen + RoceMtu(cfg);
}

std::string
RoceMinMtuWhy(const ScenarioConfig& cfg)
{
    return " (IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ICRC 4 + the queue pairs' Mtu of " + std::to_string(RoceMtu(cfg)) +
           ", ns3::RoceTransport::Mtu)";
}

LlpMulpdu
RoceMulpduOf(const ScenarioConfig& cfg, uint32_t /* pathMtu */)
{
    return {RoceMtu(cfg), "RoCEv2 packets of at most " + std::to_string(RoceMtu(cfg)) + " payload octets"};
}

/** The responder holds no ACK on a timer (it counts packets: AckEvery), so no delay can reach the timeout. */
AckTimers
RoceAckTimers(const TransportSettings&, const TransportSettings&)
{
    return {Time(0), Time::Max(), "", "ns3::RoceTransport::AckTimeout", "ACKs", ""};
}

uint32_t
RocePadding(uint32_t segment)
{
    return roce::PadFor(segment);
}

AckTimers
TcpAckTimers(const TransportSettings& receiver, const TransportSettings& sender)
{
    return {receiver.tcp.delayedAckTimeout, sender.tcp.minRto, "tcp.delayed-ack-timeout", "tcp.min-rto", "ACKs",
            " (or delayed-ack-count: 1)"};
}

AckTimers
SctpAckTimers(const TransportSettings& receiver, const TransportSettings& sender)
{
    return {receiver.sctp.sackDelay, sender.sctp.rtoMin, "sctp.sack-delay", "sctp.rto-min", "SACKs", ""};
}

} // namespace

const std::vector<LlpDescriptor>&
LlpDescriptors()
{
    static const std::vector<LlpDescriptor> kLlps = {
        {"tcp", "ns3::MpaLlpConnector", "MPA over TCP", LlpCarrier::Tcp, true, &MpaFraming, &MpaMinMtu,
         &MpaMinMtuWhy, &MpaMulpduOf, &TcpAckTimers, &MpaPadding},
        {"sctp", "ns3::SctpDdpLlpConnector", "DDP over SCTP", LlpCarrier::Sctp, true, &SctpFraming, &SctpMinMtu,
         &SctpMinMtuWhy, &SctpMulpduOf, &SctpAckTimers, &SctpPadding},
        {"rocev2", "ns3::RoceConnector", "RoCEv2", LlpCarrier::Udp, false, &RoceFraming, &RoceMinMtu, &RoceMinMtuWhy,
         &RoceMulpduOf, &RoceAckTimers, &RocePadding},
    };
    return kLlps;
}

const LlpDescriptor&
DefaultLlp()
{
    return LlpDescriptors().front();
}

const LlpDescriptor&
PlainTcp()
{
    static const LlpDescriptor kPlainTcp = {"tcp",      "",       "TCP",           LlpCarrier::Tcp, false,
                                            &TcpFraming, &Ipv4MinMtu, &Ipv4MinMtuWhy, nullptr,     &TcpAckTimers,
                                            &NoPadding};
    return kPlainTcp;
}

const LlpDescriptor&
CarrierOf(const WorkloadConfig& w)
{
    return IsRdma(w.kind) ? *w.llp : PlainTcp();
}

} // namespace ns3

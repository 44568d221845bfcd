#include "helper/scenario/llp-descriptors.h"

#include "helper/scenario/path-sizes.h"
#include "helper/scenario/scenario-config.h"

#include "common/iwarp-constants.h"
#include "mpa/mpa-constants.h"
#include "sctp-ddp/sctp-ddp-connection.h"

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

/** What plain TCP needs of a path here: the smallest MTU IPv4 allows a link. */
uint32_t
Ipv4MinMtu()
{
    return iwarp::kIpv4MinMtu;
}

std::string
Ipv4MinMtuWhy()
{
    return " (the smallest MTU IPv4 allows a link)";
}

std::string
MpaMinMtuWhy()
{
    return " (IPv4 20 + TCP 20 + timestamps 12 + a segment of " + std::to_string(MinMpaSegmentSize()) +
           " that holds a 70-octet DDP Terminate in one FPDU)";
}

std::string
SctpMinMtuWhy()
{
    return " (IPv4 20 + SCTP 12 + DATA 16 + DDP-SSN 2 + the 516-octet DDP segment RFC 5043 requires, and the SCTP "
           "model's smallest Pmtu)";
}

} // namespace

const std::vector<LlpDescriptor>&
LlpDescriptors()
{
    static const std::vector<LlpDescriptor> kLlps = {
        {"tcp", "ns3::MpaLlpConnector", "MPA over TCP", false, &MpaFraming, &MinMpaMtu, &MpaMinMtuWhy},
        {"sctp", "ns3::SctpDdpLlpConnector", "DDP over SCTP", true, &SctpFraming, &MinSctpMtu, &SctpMinMtuWhy},
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
    static const LlpDescriptor kPlainTcp = {"tcp", "", "TCP", false, &TcpFraming, &Ipv4MinMtu, &Ipv4MinMtuWhy};
    return kPlainTcp;
}

const LlpDescriptor&
CarrierOf(const WorkloadConfig& w)
{
    return IsRdma(w.kind) ? *w.llp : PlainTcp();
}

} // namespace ns3

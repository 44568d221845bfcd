#include "helper/scenario/path-sizes.h"

#include "common/iwarp-constants.h"
#include "mpa/mpa-fpdu.h"
#include "sctp-ddp/sctp-ddp-connection.h"
#include "sctp/sctp-socket.h"
#include "helper/scenario/workloads/workload-kind.h"

#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

uint32_t
MinMpaSegmentSize()
{
    static const uint32_t min = [] {
        const uint32_t need = uint32_t(iwarp::kDdpUntaggedHdrLen + iwarp::kMaxTermHdrLen);
        uint32_t emss = need;
        while (MpaMulpdu(emss, true) < need)
        {
            ++emss;
        }
        return emss;
    }();
    return min;
}

uint32_t
MinMpaMtu()
{
    return MinMpaSegmentSize() + kTcpIpOverhead;
}

uint32_t
MinSctpMtu()
{
    static const uint32_t min = [] {
        // The model's own lower bound on Pmtu, asked of its attribute checker.
        TypeId::AttributeInformation info;
        SctpSocket::GetTypeId().LookupAttributeByName("Pmtu", &info);
        uint32_t pmtu = 0;
        while (!info.checker->Check(UintegerValue(pmtu)))
        {
            ++pmtu;
        }
        const uint32_t unfragmented = sctpddp::kPacketHeadersLen + sctpddp::kSsnLen + sctpddp::kMinMulpdu;
        return std::max(pmtu, unfragmented);
    }();
    return min;
}

uint32_t
PathMtuAt(const WorkloadConfig& w, const std::string& node)
{
    // An SCTP receiver refuses a DDP segment above its own MULPDU (SCTP-041), and the associations
    // of one listener all take its Pmtu: every connection of an SCTP workload has the smallest.
    // A host group's host is both ends of its connections, and one node takes one segment size: the smallest.
    const bool sctp = CarrierOf(w).carrier == LlpCarrier::Sctp;
    if (node != w.to && !sctp && !IsHostGroup(w.kind))
    {
        return w.pathMtu.at(node);
    }
    uint32_t mtu = UINT32_MAX;
    for (const auto& [sender, m] : w.pathMtu)
    {
        mtu = std::min(mtu, m);
    }
    return mtu;
}

} // namespace ns3

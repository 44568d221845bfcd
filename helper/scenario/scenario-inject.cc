/*
 * The octets of an injected DDP segment (workload kind `inject`, doc/scenario-format.md): raw hex
 * as given, or built field by field. Fields left out take fixed, documented defaults (a tagged,
 * last, DV 1 / RV 1 RDMA Write to STag 0, TO 0, or an untagged Send on QN 0, MSN 1, MO 0),
 * so a scenario states only what it means to break.
 */
#include "helper/scenario/scenario-config.h"

#include "ddp/ddp-header.h"

#include "ns3/packet.h"

#include <vector>

namespace ns3
{

std::vector<uint8_t>
BuildInjectedSegment(const InjectConfig& inject)
{
    if (!inject.fields)
    {
        return inject.raw;
    }
    const InjectFields& f = *inject.fields;
    const bool tagged = f.Tagged();
    // T, L, reserved 0, DV (RFC 5041 §4.2 / §4.3); DdpControl::Make keeps DV to its 2 bits.
    const uint8_t ddpCtrl = DdpControl::Make(tagged, f.last.value_or(true), f.dv.value_or(iwarp::kDdpVersion));
    // RsvdULP: the RDMAP control octet (RV, 2 reserved bits, opcode) unless given whole. The
    // opcode may be a reserved value (8-15): Make keeps its 4 bits as they are.
    const iwarp::Opcode defaultOp = tagged ? iwarp::Opcode::RdmaWrite : iwarp::Opcode::Send;
    const uint8_t rdmapCtrl = RdmapControl::Make(iwarp::Opcode(f.opcode.value_or(uint8_t(defaultOp))),
                                                 f.rv.value_or(iwarp::kRdmapVersion));
    Ptr<Packet> segment = Create<Packet>(f.payload.value_or(0)); // zero payload octets
    if (tagged)
    {
        DdpTaggedHeader h;
        h.SetControl(ddpCtrl);
        h.SetRsvdUlp(f.rsvdUlp ? uint8_t(*f.rsvdUlp) : rdmapCtrl);
        h.SetStag(f.stag.value_or(0));
        h.SetTo(f.to.value_or(0));
        segment->AddHeader(h);
    }
    else
    {
        DdpUntaggedHeader h;
        h.SetControl(ddpCtrl);
        // 40 bits given whole: the RDMAP control octet and RsvdULP1.
        h.SetRsvdUlp0(f.rsvdUlp ? uint8_t(*f.rsvdUlp >> 32) : rdmapCtrl);
        h.SetRsvdUlp1(f.rsvdUlp ? uint32_t(*f.rsvdUlp) : 0);
        h.SetQn(f.qn.value_or(0));
        h.SetMsn(f.msn.value_or(iwarp::kMsnInitial));
        h.SetMo(f.mo.value_or(0));
        segment->AddHeader(h);
    }
    std::vector<uint8_t> out(segment->GetSize());
    segment->CopyData(out.data(), out.size());
    return out;
}

} // namespace ns3

#include "mpa/mpa-rtr.h"

#include "ddp/ddp-header.h"

namespace ns3
{

Ptr<Packet>
MakeMpaRtr()
{
    DdpTaggedHeader h; // STag 0, TO 0
    h.SetLast(true);
    h.SetRsvdUlp(RdmapControl::Make(iwarp::Opcode::RdmaWrite));
    Ptr<Packet> rtr = Create<Packet>();
    rtr->AddHeader(h);
    return rtr;
}

MpaFirstUlpdu
ClassifyFirstUlpdu(Ptr<const Packet> ulpdu)
{
    const std::optional<DdpSegmentView> v = PeekDdpSegment(ulpdu);
    if (!v)
    {
        return MpaFirstUlpdu::Other; // not even a whole DDP header
    }
    if (!v->tagged && v->RdmapOpcode() == iwarp::Opcode::Terminate)
    {
        return MpaFirstUlpdu::Terminate;
    }
    const bool rtr = v->control == DdpControl::Make(true, true) && v->payloadLength == 0 &&
                     v->RdmapOpcode() == iwarp::Opcode::RdmaWrite;
    return rtr ? MpaFirstUlpdu::Rtr : MpaFirstUlpdu::Other;
}

} // namespace ns3

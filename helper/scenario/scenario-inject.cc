/*
 * The octets of an injected DDP segment (workload kind `inject`, doc/scenario-format.md): raw hex
 * as given, or built field by field. Fields left out take fixed, documented defaults (a tagged,
 * last, DV 1 / RV 1 RDMA Write to STag 0, TO 0, or an untagged Send on QN 0, MSN 1, MO 0),
 * so a scenario states only what it means to break.
 */
#include "helper/scenario/scenario-config.h"

#include "ddp/ddp-header.h"

#include <vector>

namespace ns3
{

namespace
{

void
PutBe(std::vector<uint8_t>& out, uint64_t v, int octets)
{
    for (int i = octets - 1; i >= 0; --i)
    {
        out.push_back(uint8_t(v >> (8 * i)));
    }
}

} // namespace

std::vector<uint8_t>
BuildInjectedSegment(const InjectConfig& inject)
{
    if (!inject.fields)
    {
        return inject.raw;
    }
    const InjectFields& f = *inject.fields;
    const bool tagged = f.tagged.value_or(true);
    const bool last = f.last.value_or(true);
    const uint8_t dv = f.dv.value_or(1) & 0x3;
    std::vector<uint8_t> out;
    out.push_back(DdpControl::Make(tagged, last, dv)); // T, L, reserved, DV (RFC 5041 §4.2 / §4.3)
    // RsvdULP: the RDMAP control octet (RV, 2 reserved bits, opcode) unless given whole.
    const uint8_t rv = f.rv.value_or(1) & 0x3;
    const uint8_t opcode = f.opcode.value_or(tagged ? 0x0 /* Write */ : 0x3 /* Send */) & 0xF;
    const uint8_t rdmapCtrl = uint8_t((rv << 6) | opcode);
    if (tagged)
    {
        out.push_back(f.rsvdUlp ? uint8_t(*f.rsvdUlp) : rdmapCtrl);
        PutBe(out, f.stag.value_or(0), 4);
        PutBe(out, f.to.value_or(0), 8);
    }
    else
    {
        if (f.rsvdUlp)
        {
            PutBe(out, *f.rsvdUlp, 5); // 40 bits: RDMAP control octet and RsvdULP1
        }
        else
        {
            out.push_back(rdmapCtrl);
            PutBe(out, 0, 4);
        }
        PutBe(out, f.qn.value_or(0), 4);
        PutBe(out, f.msn.value_or(1), 4);
        PutBe(out, f.mo.value_or(0), 4);
    }
    out.resize(out.size() + f.payload.value_or(0), 0);
    return out;
}

} // namespace ns3

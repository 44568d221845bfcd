/*
 * MpaFpduSender's framing of a ULPDU whose payload is virtual (VirtualPayloadTag, doc/architecture.md
 * "Payload modes"): the same octets as Frame's copying path, with the payload left as ns-3's zero
 * area instead of copied into a new buffer; and the receiving side's MpaPacketFromOctets, which keeps
 * such a payload a zero area again.
 */
#include "mpa/mpa-fpdu.h"

#include "common/crc32c.h"
#include "common/octets-header.h"


#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h> // part of every x86-64 CPU
#endif

namespace ns3
{

using namespace iwarp;

uint32_t
MpaTrailingZeros(const uint8_t* octets, uint32_t len)
{
    // Sixty-four octets at a time, then eight, then one: a virtual payload's ULPDU is almost all
    // zeros, and this scan runs over every ULPDU the receiver deframes.
    uint32_t prefix = len;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    while (prefix >= 64)
    {
        const auto* q = reinterpret_cast<const __m128i*>(octets + prefix - 64);
        const __m128i any = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(q), _mm_loadu_si128(q + 1)),
                                         _mm_or_si128(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3)));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, zero)) != 0xFFFF)
        {
            break;
        }
        prefix -= 64;
    }
#endif
    uint64_t word;
    while (prefix >= sizeof(word))
    {
        std::memcpy(&word, octets + prefix - sizeof(word), sizeof(word));
        if (word != 0)
        {
            break;
        }
        prefix -= sizeof(word);
    }
    while (prefix > 0 && octets[prefix - 1] == 0)
    {
        --prefix;
    }
    return len - prefix;
}

Ptr<Packet>
MpaPacketFromOctets(const uint8_t* octets, uint32_t len)
{
    return MpaPacketFromOctets(octets, len, MpaTrailingZeros(octets, len));
}

Ptr<Packet>
MpaPacketFromOctets(const uint8_t* octets, uint32_t len, uint32_t trailingZeros)
{
    // Below this many trailing zeros a plain copy is as cheap as the zero area's bookkeeping.
    constexpr uint32_t kMinZeroRun = 256;
    NS_ASSERT(trailingZeros <= len);
    const uint32_t prefix = len - trailingZeros;
    if (len == 0)
    {
        return Create<Packet>();
    }
    if (trailingZeros < kMinZeroRun || prefix > OctetsHeader::kMaxLen)
    {
        return Create<Packet>(octets, len);
    }
    Ptr<Packet> p = Create<Packet>(trailingZeros); // the zero area
    if (prefix > 0)
    {
        p->AddHeader(OctetsHeader(octets, prefix));
    }
    return p;
}

Ptr<Packet>
MpaFpduSender::FrameAroundVirtual(Ptr<const Packet> ulpdu, uint32_t virtualOctets)
{
    // The same octets as the copying path, but the payload stays a zero area: only ULPDU_Length and
    // the DDP/RDMAP header go in front, and pad and CRC behind. The CRC covers the zeros the virtual
    // payload stands for, so the receiver checks it like any other FPDU.
    const uint32_t n = ulpdu->GetSize();
    const uint32_t hdrLen = n - virtualOctets;
    const uint32_t pad = MpaPadLength(n);
    uint8_t front[64];
    NS_ABORT_MSG_IF(kMpaLengthFieldLen + hdrLen > sizeof(front), "ULPDU header of " << hdrLen << " octets");
    front[0] = uint8_t(n >> 8);
    front[1] = uint8_t(n);
    ulpdu->CopyData(front + kMpaLengthFieldLen, hdrLen);
    uint8_t back[8] = {0, 0, 0, 0, 0, 0, 0, 0}; // pad (at most 3 zeros), then the CRC
    uint32_t crc = 0;
    if (m_crc)
    {
        uint32_t state = Crc32cUpdate(kCrc32cInit, front, kMpaLengthFieldLen + hdrLen);
        state = Crc32cUpdateZeros(state, uint64_t(virtualOctets) + pad);
        crc = Crc32cFinish(state);
    }
    PutCrcLe(back + pad, crc);

    Ptr<Packet> fpdu = ulpdu->CreateFragment(hdrLen, virtualOctets); // the zero area alone
    fpdu->RemoveAllPacketTags();
    fpdu->AddHeader(OctetsHeader(front, kMpaLengthFieldLen + hdrLen));
    fpdu->AddTrailer(OctetsTrailer(back, pad + kMpaCrcLen));
    NS_ASSERT(fpdu->GetSize() == FramedSize(n));
    m_pos += fpdu->GetSize();
    return fpdu;
}

} // namespace ns3

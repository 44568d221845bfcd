#include "mpa/mpa-fpdu.h"

#include "common/crc32c.h"
#include "common/virtual-payload-tag.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/header.h"
#include "ns3/log.h"
#include "ns3/trailer.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MpaFpdu");

using namespace iwarp;

namespace
{

constexpr uint32_t kFpduOverhead = kMpaLengthFieldLen + kMpaCrcLen;

/** True if a marker starts at this stream offset. */
constexpr bool
IsMarkerPos(uint64_t pos)
{
    return pos % kMpaMarkerInterval == 0;
}

/** Octets from `pos` (not inside a marker) to the next marker position. */
constexpr uint64_t
RoomBeforeMarker(uint64_t pos)
{
    return kMpaMarkerInterval - pos % kMpaMarkerInterval;
}

void
PutMarker(uint8_t* at, uint64_t fpduptr)
{
    NS_ABORT_MSG_IF(fpduptr > 0xFFFF, "MPA FPDUPTR does not fit in 16 bits: ULPDU too long for markers");
    at[0] = 0;
    at[1] = 0;
    at[2] = uint8_t(fpduptr >> 8);
    at[3] = uint8_t(fpduptr);
}

uint16_t
MarkerPtr(const uint8_t* m)
{
    // The two low bits are treated as zero on receive (RFC 5044).
    return uint16_t(((m[2] << 8) | m[3]) & 0xFFFC);
}


} // namespace

uint32_t
MpaMulpdu(uint32_t emss, bool markers)
{
    // 6 = ULPDU_Length + CRC; EMSS mod 4 keeps the FPDU a multiple of 4 inside EMSS; with markers, the
    // worst case is one marker per started 512 octets of the segment.
    uint64_t overhead = 6 + emss % 4 + (markers ? 4 * ((uint64_t(emss) + 511) / 512) : 0);
    return emss > overhead ? uint32_t(emss - overhead) : 0;
}

// ------------------------------------------------------------------------------------------------ sender

MpaFpduSender::MpaFpduSender(bool markers, bool crc)
    : m_markers(markers),
      m_crc(crc)
{
}

uint32_t
MpaFpduSender::FramedSize(uint32_t ulpduLen) const
{
    uint64_t content = kFpduOverhead + ulpduLen + MpaPadLength(ulpduLen);
    if (!m_markers)
    {
        return uint32_t(content);
    }
    // A marker goes in before every content octet that would land on a marker position; none after the
    // last octet (that one belongs to the next FPDU).
    uint64_t pos = m_pos;
    uint64_t left = content;
    uint32_t markers = 0;
    while (left > 0)
    {
        if (IsMarkerPos(pos))
        {
            ++markers;
            pos += kMpaMarkerLen;
        }
        uint64_t chunk = std::min(left, RoomBeforeMarker(pos));
        pos += chunk;
        left -= chunk;
    }
    return uint32_t(content + uint64_t(markers) * kMpaMarkerLen);
}

Ptr<Packet>
MpaFpduSender::Frame(Ptr<const Packet> ulpdu)
{
    const uint32_t n = ulpdu->GetSize();
    NS_ABORT_MSG_IF(n > kMpaMaxUlpduLength, "ULPDU of " << n << " octets does not fit ULPDU_Length");
    VirtualPayloadTag virt;
    if (!m_markers && ulpdu->PeekPacketTag(virt) && virt.GetOctets() <= n)
    {
        return FrameAroundVirtual(ulpdu, virt.GetOctets());
    }
    NS_ASSERT_MSG(m_pos % 4 == 0, "FPDUs and markers keep the stream 4-aligned");
    const uint32_t pad = MpaPadLength(n);
    const uint32_t total = FramedSize(n);
    m_wire.resize(total);
    uint8_t* w = m_wire.data();
    size_t crcAt;

    if (!m_markers)
    {
        // Fast path: the ULPDU is copied straight into place.
        w[0] = uint8_t(n >> 8);
        w[1] = uint8_t(n);
        ulpdu->CopyData(w + kMpaLengthFieldLen, n);
        std::memset(w + kMpaLengthFieldLen + n, 0, pad);
        crcAt = kMpaLengthFieldLen + n + pad;
    }
    else
    {
        m_ulpdu.resize(n);
        ulpdu->CopyData(m_ulpdu.data(), n);
        size_t at = 0;       // write index in m_wire
        size_t lenAt = 0;    // index of ULPDU_Length, valid once haveLen
        bool haveLen = false;
        auto markerIfDue = [&]() {
            if (IsMarkerPos(m_pos + at))
            {
                PutMarker(w + at, haveLen ? at - lenAt : 0);
                at += kMpaMarkerLen;
            }
        };
        // Writes cnt octets from src (zeros if src is null), inserting markers where they fall.
        auto put = [&](const uint8_t* src, size_t cnt) {
            while (cnt > 0)
            {
                markerIfDue();
                size_t chunk = std::min<uint64_t>(cnt, RoomBeforeMarker(m_pos + at));
                if (src)
                {
                    std::memcpy(w + at, src, chunk);
                    src += chunk;
                }
                else
                {
                    std::memset(w + at, 0, chunk);
                }
                at += chunk;
                cnt -= chunk;
            }
        };
        markerIfDue(); // a marker at the FPDU boundary leads this FPDU, FPDUPTR 0
        lenAt = at;
        haveLen = true;
        const uint8_t lenField[2] = {uint8_t(n >> 8), uint8_t(n)};
        put(lenField, sizeof(lenField));
        put(m_ulpdu.data(), n);
        put(nullptr, pad);
        markerIfDue(); // a marker between PAD and CRC is inside this FPDU: the CRC covers it
        crcAt = at;
    }

    NS_ASSERT(crcAt + kMpaCrcLen == total);
    uint32_t crc = m_crc ? Crc32cFinish(Crc32cUpdate(kCrc32cInit, w, crcAt)) : 0;
    PutCrcLe(w + crcAt, crc);
    NS_LOG_LOGIC("FPDU at stream offset " << m_pos << ": ULPDU " << n << " octets, " << total
                                          << " on the wire, CRC 0x" << std::hex << crc << std::dec);
    m_pos += total;
    return Create<Packet>(w, total);
}

// ---------------------------------------------------------------------------------------------- receiver

MpaFpduReceiver::MpaFpduReceiver(bool markers, bool crc, uint32_t maxUlpduLength)
    : m_markers(markers),
      m_crc(crc),
      m_maxUlpdu(std::min<uint32_t>(maxUlpduLength, kMpaMaxUlpduLength))
{
    StartFpdu();
}

void
MpaFpduReceiver::Push(Ptr<const Packet> streamBytes)
{
    uint32_t n = streamBytes->GetSize();
    if (m_failed || n == 0)
    {
        return;
    }
    streamBytes->CopyData(Append(n), n);
}

void
MpaFpduReceiver::Push(const uint8_t* data, size_t len)
{
    if (m_failed || len == 0)
    {
        return;
    }
    std::memcpy(Append(len), data, len);
}

uint8_t*
MpaFpduReceiver::Append(size_t len)
{
    // Drop octets no longer needed first, so the buffer holds little more than one FPDU plus what
    // is new. Without markers a ULPDU is handed up straight from m_in, so it stays until its CRC.
    const size_t keep = KeepFrom();
    if (keep > 0 && (keep == m_in.size() || (keep > 65536 && keep * 2 > m_in.size())))
    {
        m_in.erase(m_in.begin(), m_in.begin() + keep);
        m_inPos -= keep;
        m_ulpduAt -= std::min(m_ulpduAt, keep);
    }
    size_t old = m_in.size();
    m_in.resize(old + len);
    return m_in.data() + old;
}

size_t
MpaFpduReceiver::KeepFrom() const
{
    const bool inUlpdu = m_field == Field::Ulpdu || m_field == Field::Pad || m_field == Field::Crc;
    return !m_markers && inUlpdu ? m_ulpduAt : m_inPos; // m_ulpduAt <= m_inPos while in it
}

void
MpaFpduReceiver::StartFpdu()
{
    m_field = Field::Length;
    m_got = 0;
    m_crcState = kCrc32cInit;
}

void
MpaFpduReceiver::EnterNextField()
{
    m_got = 0;
    switch (m_field)
    {
    case Field::Length:
        m_field = Field::Ulpdu;
        if (m_len > 0)
        {
            break;
        }
        [[fallthrough]];
    case Field::Ulpdu:
        m_field = Field::Pad;
        if (MpaPadLength(m_len) > 0)
        {
            break;
        }
        [[fallthrough]];
    case Field::Pad:
        m_field = Field::Crc;
        break;
    case Field::Crc:
        NS_ABORT_MSG("the CRC ends the FPDU");
    }
}

MpaFpduReceiver::RxResult
MpaFpduReceiver::Fail(MpaError e, MpaError* err)
{
    if (!m_failed)
    {
        NS_LOG_INFO("MPA receive error " << ToString(e) << " at stream offset " << m_pos);
        m_failed = true;
        m_error = e;
        m_in.clear();
        m_inPos = 0;
    }
    *err = m_error;
    return RxResult::Error;
}

bool
MpaFpduReceiver::TakeMarker(size_t avail)
{
    uint32_t idx = uint32_t(m_pos % kMpaMarkerInterval);
    size_t take = std::min<size_t>(avail, kMpaMarkerLen - idx);
    const uint8_t* src = m_in.data() + m_inPos;
    std::memcpy(m_marker + idx, src, take);
    // Covered by the CRC of the FPDU it is in: anywhere before that FPDU's CRC field.
    if (!(m_field == Field::Crc && m_got > 0))
    {
        m_crcState = Crc32cUpdate(m_crcState, src, take);
    }
    m_inPos += take;
    m_pos += take;
    if (idx + take < kMpaMarkerLen)
    {
        return true; // rest of the marker still to come
    }
    uint64_t markerPos = m_pos - kMpaMarkerLen;
    bool leading = (m_field == Field::Length && m_got == 0);
    uint64_t expected = leading ? 0 : markerPos - m_lenPos;
    uint16_t got = MarkerPtr(m_marker);
    if (got != expected)
    {
        NS_LOG_INFO("marker at " << markerPos << ": FPDUPTR " << got << ", expected " << expected);
        return false;
    }
    return true;
}

MpaFpduReceiver::RxResult
MpaFpduReceiver::Next(Ptr<Packet>* ulpdu, MpaError* err)
{
    while (true)
    {
        if (m_failed)
        {
            return Fail(m_error, err);
        }
        size_t avail = m_in.size() - m_inPos;
        if (avail == 0)
        {
            return RxResult::NeedMore;
        }
        if (m_markers && m_pos % kMpaMarkerInterval < kMpaMarkerLen)
        {
            if (!TakeMarker(avail))
            {
                return Fail(MpaError::MarkerMismatch, err);
            }
            continue;
        }

        uint32_t fieldLen = 0;
        switch (m_field)
        {
        case Field::Length:
            fieldLen = kMpaLengthFieldLen;
            break;
        case Field::Ulpdu:
            fieldLen = m_len;
            break;
        case Field::Pad:
            fieldLen = MpaPadLength(m_len);
            break;
        case Field::Crc:
            fieldLen = kMpaCrcLen;
            break;
        }
        uint64_t take = std::min<uint64_t>(avail, fieldLen - m_got);
        if (m_markers)
        {
            take = std::min(take, RoomBeforeMarker(m_pos));
        }
        const uint8_t* src = m_in.data() + m_inPos;
        if (m_field == Field::Length && m_got == 0)
        {
            m_lenPos = m_pos;
        }
        switch (m_field)
        {
        case Field::Length:
        case Field::Crc:
            std::memcpy(m_small + m_got, src, take);
            break;
        case Field::Ulpdu: {
            if (m_markers)
            {
                std::memcpy(m_ulpdu.data() + m_got, src, take); // markers interleave: gather it
            }
            // A virtual payload's ULPDU is mostly zeros: the CRC skips this piece's trailing zeros
            // (Crc32cUpdateZeros), and the count of zeros that end the ULPDU so far saves
            // MpaPacketFromOctets from looking for them again.
            const uint32_t zeros = MpaTrailingZeros(src, uint32_t(take));
            m_ulpduZeroTail = zeros == take ? m_ulpduZeroTail + zeros : zeros;
            m_crcState = Crc32cUpdateZeros(Crc32cUpdate(m_crcState, src, take - zeros), zeros);
            break;
        }
        case Field::Pad:
            break; // sent as zero, ignored on receive except by the CRC
        }
        if (m_field == Field::Length || m_field == Field::Pad)
        {
            m_crcState = Crc32cUpdate(m_crcState, src, take);
        }
        m_inPos += take;
        m_pos += take;
        m_got += uint32_t(take);
        if (m_got < fieldLen)
        {
            continue;
        }

        if (m_field == Field::Length)
        {
            m_len = uint32_t((m_small[0] << 8) | m_small[1]);
            if (m_len > m_maxUlpdu)
            {
                NS_LOG_INFO("ULPDU_Length " << m_len << " above the maximum " << m_maxUlpdu);
                return Fail(MpaError::MarkerMismatch, err);
            }
            if (m_markers)
            {
                m_ulpdu.resize(m_len);
            }
            m_ulpduAt = m_inPos; // without markers the ULPDU follows at once
            m_ulpduZeroTail = 0;
            EnterNextField();
        }
        else if (m_field != Field::Crc)
        {
            EnterNextField();
        }
        else
        {
            uint32_t received = GetCrcLe(m_small);
            uint32_t computed = Crc32cFinish(m_crcState);
            if (m_crc && received != computed)
            {
                NS_LOG_INFO("CRC 0x" << std::hex << received << ", computed 0x" << computed << std::dec);
                return Fail(MpaError::CrcError, err);
            }
            *ulpdu = MpaPacketFromOctets(m_markers ? m_ulpdu.data() : m_in.data() + m_ulpduAt, m_len, m_ulpduZeroTail);
            StartFpdu();
            return RxResult::Done;
        }
    }
}

bool
MpaFpduReceiver::ParseAlignedFpdus(const uint8_t* seg,
                                   size_t len,
                                   uint64_t streamOffset,
                                   bool markers,
                                   bool crc,
                                   std::vector<std::vector<uint8_t>>* ulpdus)
{
    size_t i = 0;
    while (i < len)
    {
        const size_t fpduStart = i;
        // A marker where this FPDU starts leads it (FPDUPTR 0).
        if (markers && IsMarkerPos(streamOffset + i))
        {
            if (len - i < kMpaMarkerLen || MarkerPtr(seg + i) != 0)
            {
                return false;
            }
            i += kMpaMarkerLen;
        }
        if (len - i < kMpaLengthFieldLen)
        {
            return false;
        }
        const size_t lenAt = i;
        const uint32_t n = uint32_t((seg[i] << 8) | seg[i + 1]);
        // Walk ULPDU_Length, ULPDU and PAD ("content"), taking out the ULPDU's octets and checking
        // every marker on the way: each must point back to this FPDU's ULPDU_Length.
        const uint64_t content = kMpaLengthFieldLen + uint64_t(n) + MpaPadLength(n);
        std::vector<uint8_t> ulpdu;
        ulpdu.reserve(n);
        uint64_t done = 0;
        while (done < content)
        {
            if (markers && IsMarkerPos(streamOffset + i))
            {
                if (len - i < kMpaMarkerLen || MarkerPtr(seg + i) != i - lenAt)
                {
                    return false;
                }
                i += kMpaMarkerLen;
                continue;
            }
            if (i >= len)
            {
                return false; // not wholly inside the segment
            }
            uint64_t chunk = std::min<uint64_t>(content - done, len - i);
            if (markers)
            {
                chunk = std::min(chunk, RoomBeforeMarker(streamOffset + i));
            }
            // The ULPDU is content [2, 2 + n).
            const uint64_t from = std::max<uint64_t>(done, kMpaLengthFieldLen);
            const uint64_t to = std::min<uint64_t>(done + chunk, kMpaLengthFieldLen + uint64_t(n));
            if (from < to)
            {
                const uint8_t* p = seg + i + (from - done);
                ulpdu.insert(ulpdu.end(), p, p + (to - from));
            }
            i += chunk;
            done += chunk;
        }
        if (markers && IsMarkerPos(streamOffset + i))
        {
            if (len - i < kMpaMarkerLen || MarkerPtr(seg + i) != i - lenAt)
            {
                return false;
            }
            i += kMpaMarkerLen;
        }
        if (len - i < kMpaCrcLen)
        {
            return false;
        }
        if (crc && GetCrcLe(seg + i) != Crc32c(seg + fpduStart, i - fpduStart))
        {
            return false;
        }
        ulpdus->push_back(std::move(ulpdu));
        i += kMpaCrcLen;
    }
    return true;
}

} // namespace ns3

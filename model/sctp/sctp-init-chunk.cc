/*
 * INIT / INIT ACK chunk and its parameters; see sctp-init-chunk.h.
 */
#include "sctp/sctp-init-chunk.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpInitChunk");

using sctp::PutU16;
using sctp::PutU32;
using sctp::WireReader;

namespace
{

std::optional<uint32_t>
U32Of(const SctpTlv* p)
{
    if (p == nullptr || p->value.size() != 4)
    {
        return std::nullopt;
    }
    return (uint32_t(p->value[0]) << 24) | (uint32_t(p->value[1]) << 16) | (uint32_t(p->value[2]) << 8) |
           uint32_t(p->value[3]);
}

SctpTlv
U32Param(SctpParamType t, uint32_t v)
{
    SctpTlv p{uint16_t(t), {}};
    PutU32(p.value, v);
    return p;
}

bool
IsKnown(uint16_t type)
{
    switch (SctpParamType(type))
    {
    case SctpParamType::Ipv4Address:
    case SctpParamType::Ipv6Address:
    case SctpParamType::StateCookie:
    case SctpParamType::UnrecognizedParameter:
    case SctpParamType::CookiePreservative:
    case SctpParamType::HostNameAddress:
    case SctpParamType::SupportedAddressTypes:
    case SctpParamType::SupportedExtensions:
    case SctpParamType::AdaptationLayerIndication:
        return true;
    }
    return false;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(SctpInitChunk);

SctpInitChunk::SctpInitChunk(bool ack)
    : SctpChunk(uint8_t(ack ? SctpChunkType::InitAck : SctpChunkType::Init), 0)
{
}

TypeId
SctpInitChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpInitChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpInitChunk>();
    return tid;
}

void
SctpInitChunk::Print(std::ostream& os) const
{
    os << (IsAck() ? "INIT ACK" : "INIT") << " Initiate Tag=" << m_initiateTag << " a_rwnd=" << m_arwnd
       << " OS=" << m_outStreams << " MIS=" << m_inStreams << " Initial TSN=" << m_initialTsn
       << " params=" << m_params.size();
}

uint32_t
SctpInitChunk::GetValueSize() const
{
    return kFixedValueLen + SctpTlv::ListSize(m_params);
}

void
SctpInitChunk::SerializeValue(Buffer::Iterator& i) const
{
    i.WriteHtonU32(m_initiateTag);
    i.WriteHtonU32(m_arwnd);
    i.WriteHtonU16(m_outStreams);
    i.WriteHtonU16(m_inStreams);
    i.WriteHtonU32(m_initialTsn);
    SctpTlv::WriteList(i, m_params);
}

bool
SctpInitChunk::DeserializeValue(WireReader& r)
{
    if (r.Remaining() < kFixedValueLen)
    {
        return false;
    }
    m_initiateTag = r.U32();
    m_arwnd = r.U32();
    m_outStreams = r.U16();
    m_inStreams = r.U16();
    m_initialTsn = r.U32();
    std::vector<SctpTlv> params;
    if (!SctpTlv::ReadAll(r, &params))
    {
        return false;
    }
    m_params = std::move(params);
    return true;
}

const SctpTlv*
SctpInitChunk::FindParameter(SctpParamType t) const
{
    for (const auto& p : m_params)
    {
        if (p.type == uint16_t(t))
        {
            return &p;
        }
    }
    return nullptr;
}

void
SctpInitChunk::AddIpv4Address(Ipv4Address a)
{
    AddParameter(U32Param(SctpParamType::Ipv4Address, a.Get()));
}

std::vector<Ipv4Address>
SctpInitChunk::GetIpv4Addresses() const
{
    std::vector<Ipv4Address> out;
    for (const auto& p : m_params)
    {
        if (p.type == uint16_t(SctpParamType::Ipv4Address))
        {
            if (auto v = U32Of(&p))
            {
                out.emplace_back(*v);
            }
        }
    }
    return out;
}

void
SctpInitChunk::SetStateCookie(const std::vector<uint8_t>& cookie)
{
    AddParameter(SctpTlv{uint16_t(SctpParamType::StateCookie), cookie});
}

std::optional<std::vector<uint8_t>>
SctpInitChunk::GetStateCookie() const
{
    const SctpTlv* p = FindParameter(SctpParamType::StateCookie);
    if (p == nullptr)
    {
        return std::nullopt;
    }
    return p->value;
}

void
SctpInitChunk::SetCookiePreservative(uint32_t ms)
{
    AddParameter(U32Param(SctpParamType::CookiePreservative, ms));
}

std::optional<uint32_t>
SctpInitChunk::GetCookiePreservative() const
{
    return U32Of(FindParameter(SctpParamType::CookiePreservative));
}

void
SctpInitChunk::SetSupportedAddressTypes(const std::vector<uint16_t>& types)
{
    SctpTlv p{uint16_t(SctpParamType::SupportedAddressTypes), {}};
    for (uint16_t t : types)
    {
        PutU16(p.value, t);
    }
    AddParameter(std::move(p));
}

std::vector<uint16_t>
SctpInitChunk::GetSupportedAddressTypes() const
{
    std::vector<uint16_t> out;
    const SctpTlv* p = FindParameter(SctpParamType::SupportedAddressTypes);
    if (p != nullptr)
    {
        for (size_t k = 0; k + 1 < p->value.size(); k += 2)
        {
            out.push_back(uint16_t((p->value[k] << 8) | p->value[k + 1]));
        }
    }
    return out;
}

void
SctpInitChunk::SetAdaptationIndication(uint32_t code)
{
    AddParameter(U32Param(SctpParamType::AdaptationLayerIndication, code));
}

std::optional<uint32_t>
SctpInitChunk::GetAdaptationIndication() const
{
    return U32Of(FindParameter(SctpParamType::AdaptationLayerIndication));
}

void
SctpInitChunk::AddUnrecognizedParameter(const SctpTlv& unknown)
{
    // The value is the whole offending TLV (header included), as received.
    SctpTlv p{uint16_t(SctpParamType::UnrecognizedParameter), {}};
    PutU16(p.value, unknown.type);
    PutU16(p.value, uint16_t(unknown.Length()));
    p.value.insert(p.value.end(), unknown.value.begin(), unknown.value.end());
    for (uint32_t k = 0; k < sctp::PadLen(unknown.Length()); ++k)
    {
        p.value.push_back(0);
    }
    AddParameter(std::move(p));
}

bool
SctpInitChunk::CheckUnknownParameters(std::vector<SctpTlv>* toReport) const
{
    for (const auto& p : m_params)
    {
        if (IsKnown(p.type))
        {
            continue;
        }
        // Bit 0x4000: report it; bit 0x8000: skip it and go on (else stop processing the chunk).
        if ((p.type & 0x4000) != 0)
        {
            toReport->push_back(p);
        }
        if ((p.type & 0x8000) == 0)
        {
            return false;
        }
    }
    return true;
}

} // namespace ns3

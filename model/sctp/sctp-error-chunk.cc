/*
 * ABORT / ERROR chunk with error causes; see sctp-error-chunk.h.
 */
#include "sctp/sctp-error-chunk.h"

namespace ns3
{

using sctp::WireReader;

NS_OBJECT_ENSURE_REGISTERED(SctpErrorChunk);

SctpErrorChunk::SctpErrorChunk(SctpChunkType type)
    : SctpChunk(uint8_t(type), 0)
{
}

TypeId
SctpErrorChunk::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpErrorChunk")
                            .SetParent<SctpChunk>()
                            .SetGroupName("Iwarp")
                            .AddConstructor<SctpErrorChunk>();
    return tid;
}

void
SctpErrorChunk::Print(std::ostream& os) const
{
    os << (IsAbort() ? "ABORT" : "ERROR") << (GetTBit() ? " T" : "") << " causes=";
    for (const auto& c : m_causes)
    {
        os << c.type << " ";
    }
}

void
SctpErrorChunk::AddCause(SctpCauseCode code, std::vector<uint8_t> value)
{
    m_causes.push_back(SctpTlv{uint16_t(code), std::move(value)});
}

bool
SctpErrorChunk::HasCause(SctpCauseCode code) const
{
    for (const auto& c : m_causes)
    {
        if (c.type == uint16_t(code))
        {
            return true;
        }
    }
    return false;
}

void
SctpErrorChunk::AddUnrecognizedChunk(const std::vector<uint8_t>& chunkBytes)
{
    AddCause(SctpCauseCode::UnrecognizedChunkType, chunkBytes);
}

void
SctpErrorChunk::AddStaleCookie(uint32_t stalenessUs)
{
    std::vector<uint8_t> v;
    sctp::PutU32(v, stalenessUs);
    AddCause(SctpCauseCode::StaleCookie, std::move(v));
}

uint32_t
SctpErrorChunk::GetValueSize() const
{
    return SctpTlv::ListSize(m_causes);
}

void
SctpErrorChunk::SerializeValue(Buffer::Iterator& i) const
{
    SctpTlv::WriteList(i, m_causes);
}

bool
SctpErrorChunk::DeserializeValue(WireReader& r)
{
    std::vector<SctpTlv> causes;
    if (!SctpTlv::ReadAll(r, &causes))
    {
        return false;
    }
    m_causes = std::move(causes);
    return true;
}

} // namespace ns3

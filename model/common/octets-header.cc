#include "common/octets-header.h"

#include "ns3/abort.h"

#include <cstring>

namespace ns3
{

namespace
{
template <uint32_t N>
void
CopyIn(uint8_t (&to)[N], const uint8_t* data, uint32_t len)
{
    NS_ABORT_MSG_IF(len > N, len << " literal octets do not fit the " << N << " an octets header holds");
    if (len > 0)
    {
        std::memcpy(to, data, len);
    }
}
} // namespace

OctetsHeader::OctetsHeader(const uint8_t* data, uint32_t len)
    : m_len(len)
{
    CopyIn(m_data, data, len);
}

TypeId
OctetsHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OctetsHeader").SetParent<Header>().SetGroupName("Iwarp");
    return tid;
}

void
OctetsHeader::Print(std::ostream& os) const
{
    os << m_len << " octets";
}

OctetsTrailer::OctetsTrailer(const uint8_t* data, uint32_t len)
    : m_len(len)
{
    CopyIn(m_data, data, len);
}

TypeId
OctetsTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OctetsTrailer").SetParent<Trailer>().SetGroupName("Iwarp");
    return tid;
}

void
OctetsTrailer::Print(std::ostream& os) const
{
    os << m_len << " octets";
}

} // namespace ns3

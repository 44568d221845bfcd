#include "common/iwarp-constants.h"

#include <cstdio>

namespace ns3
{
namespace iwarp
{

std::string
ErrorCause::ToString() const
{
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%u/%u/0x%02X", unsigned(layer), unsigned(etype), unsigned(code));
    return buf;
}

} // namespace iwarp
} // namespace ns3

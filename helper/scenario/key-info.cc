#include "helper/scenario/key-info.h"

#include <cstdint>

namespace ns3
{
namespace scenario
{

std::string
IntRangeText(uint64_t min, uint64_t max)
{
    if (max == UINT64_MAX)
    {
        return ">= " + std::to_string(min);
    }
    const std::string top = max == UINT32_MAX ? "2^32-1" : std::to_string(max);
    return std::to_string(min) + ".." + top;
}

} // namespace scenario
} // namespace ns3

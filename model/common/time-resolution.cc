#include "common/time-resolution.h"

namespace ns3
{
namespace iwarp
{

void
SetModuleTimeResolution()
{
    if (!AtModuleTimeResolution())
    {
        Time::SetResolution(kTimeResolution);
    }
}

bool
AtModuleTimeResolution()
{
    return Time::GetResolution() == kTimeResolution;
}

} // namespace iwarp
} // namespace ns3

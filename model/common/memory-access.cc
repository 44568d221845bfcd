#include "common/memory-access.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MemoryAccess);

TypeId
MemoryAccess::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MemoryAccess").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

const char*
ToString(TagCheck c)
{
    switch (c)
    {
    case TagCheck::Ok:
        return "Ok";
    case TagCheck::InvalidStag:
        return "InvalidStag";
    case TagCheck::NotAssociated:
        return "NotAssociated";
    case TagCheck::AccessRights:
        return "AccessRights";
    case TagCheck::BaseBounds:
        return "BaseBounds";
    case TagCheck::ToWrap:
        return "ToWrap";
    }
    return "?";
}

} // namespace ns3

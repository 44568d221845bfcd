#include "rdmap/rdmap-types.h"

namespace ns3
{

iwarp::RdmapCode
ReadSourceError(TagCheck c)
{
    using iwarp::RdmapCode;
    switch (c)
    {
    case TagCheck::NotAssociated:
        return RdmapCode::StagNotAssoc;
    case TagCheck::AccessRights:
        return RdmapCode::AccessRights;
    case TagCheck::BaseBounds:
        return RdmapCode::BaseBounds;
    case TagCheck::ToWrap:
        return RdmapCode::ToWrap;
    case TagCheck::InvalidStag:
    case TagCheck::Ok:
        break;
    }
    return RdmapCode::InvalidStag;
}

const char*
ToString(RdmapEvent e)
{
    switch (e)
    {
    case RdmapEvent::Established:
        return "Established";
    case RdmapEvent::TerminateSent:
        return "TerminateSent";
    case RdmapEvent::TerminateReceived:
        return "TerminateReceived";
    case RdmapEvent::HalfClosed:
        return "HalfClosed";
    case RdmapEvent::Closed:
        return "Closed";
    case RdmapEvent::FatalError:
        return "FatalError";
    }
    return "?";
}

} // namespace ns3

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
ToString(RdmapWrType t)
{
    switch (t)
    {
    case RdmapWrType::Send:
        return "Send";
    case RdmapWrType::SendSE:
        return "SendSE";
    case RdmapWrType::SendInv:
        return "SendInv";
    case RdmapWrType::SendSEInv:
        return "SendSEInv";
    case RdmapWrType::Write:
        return "Write";
    case RdmapWrType::Read:
        return "Read";
    case RdmapWrType::Recv:
        return "Recv";
    }
    return "?";
}

const char*
ToString(WcStatus s)
{
    switch (s)
    {
    case WcStatus::Success:
        return "Success";
    case WcStatus::LocalLengthError:
        return "LocalLengthError";
    case WcStatus::LocalProtectionError:
        return "LocalProtectionError";
    case WcStatus::LocalOperationError:
        return "LocalOperationError";
    case WcStatus::RemoteError:
        return "RemoteError";
    case WcStatus::Flushed:
        return "Flushed";
    case WcStatus::FatalError:
        return "FatalError";
    }
    return "?";
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

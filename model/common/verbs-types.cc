#include "common/verbs-types.h"

namespace ns3
{

const char*
ToString(WrOpcode t)
{
    switch (t)
    {
    case WrOpcode::Send:
        return "Send";
    case WrOpcode::SendSE:
        return "SendSE";
    case WrOpcode::SendInv:
        return "SendInv";
    case WrOpcode::SendSEInv:
        return "SendSEInv";
    case WrOpcode::Write:
        return "Write";
    case WrOpcode::Read:
        return "Read";
    case WrOpcode::Recv:
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
ToString(QpEvent e)
{
    switch (e)
    {
    case QpEvent::Established:
        return "Established";
    case QpEvent::LocalError:
        return "LocalError";
    case QpEvent::RemoteError:
        return "RemoteError";
    case QpEvent::HalfClosed:
        return "HalfClosed";
    case QpEvent::Closed:
        return "Closed";
    case QpEvent::FatalError:
        return "FatalError";
    }
    return "?";
}

} // namespace ns3

#include "rnic/rdma-transport-kinds.h"

#include "ddp/llp-connector.h"
#include "mpa/mpa-llp-connector.h"
#include "rnic/iwarp-transport.h"
#include "rnic/roce-connector.h"
#include "rnic/roce-transport.h"
#include "sctp-ddp/sctp-ddp-llp-connector.h"

#include <stdexcept>

namespace ns3
{
namespace
{

std::vector<RdmaTransportKind>&
Kinds()
{
    static std::vector<RdmaTransportKind> kinds = {
        {"iwarp-mpa", IwarpTransport::GetTypeId(), MpaLlpConnector::GetTypeId()},
        {"iwarp-sctp", IwarpTransport::GetTypeId(), SctpDdpLlpConnector::GetTypeId()},
        {"rocev2", RoceTransport::GetTypeId(), RoceConnector::GetTypeId()},
    };
    return kinds;
}

bool
Creatable(TypeId tid, TypeId base)
{
    return (tid == base || tid.IsChildOf(base)) && tid.HasConstructor();
}

} // namespace

const std::vector<RdmaTransportKind>&
RdmaTransportKinds()
{
    return Kinds();
}

void
RegisterRdmaTransportKind(const RdmaTransportKind& kind)
{
    if (kind.name.empty() || FindRdmaTransportKind(kind.name))
    {
        throw std::invalid_argument("RDMA transport kind '" + kind.name + "': a name of its own is needed");
    }
    if (!Creatable(kind.transport, RdmaTransport::GetTypeId()) || !Creatable(kind.connector, LlpConnector::GetTypeId()))
    {
        throw std::invalid_argument("RDMA transport kind '" + kind.name + "': " + kind.transport.GetName() +
                                    " must be an RdmaTransport and " + kind.connector.GetName() +
                                    " an LlpConnector, both with a constructor");
    }
    if (const RdmaTransportKind* other = RdmaTransportKindOfConnector(kind.connector))
    {
        throw std::invalid_argument("RDMA transport kind '" + kind.name + "': " + kind.connector.GetName() +
                                    " already sets up '" + other->name + "'");
    }
    Kinds().push_back(kind);
}

const RdmaTransportKind*
RdmaTransportKindOfConnector(TypeId connector)
{
    for (const RdmaTransportKind& k : Kinds())
    {
        if (k.connector == connector)
        {
            return &k;
        }
    }
    return nullptr;
}

const RdmaTransportKind*
FindRdmaTransportKind(const std::string& name)
{
    for (const RdmaTransportKind& k : Kinds())
    {
        if (k.name == name)
        {
            return &k;
        }
    }
    return nullptr;
}

} // namespace ns3

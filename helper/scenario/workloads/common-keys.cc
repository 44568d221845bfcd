#include "helper/scenario/workloads/common-keys.h"

#include "helper/scenario/llp-descriptors.h"

namespace ns3
{
namespace workloadkeys
{

using Shape = WorkloadKey::Shape;

WorkloadKey
Start()
{
    return {"start", Shape::Scalar, "time, before `stop`", "0", "when the workload starts", {}};
}

WorkloadKey
From()
{
    return {"from", Shape::Scalar, "host", "**required**", "the initiator (client)", {}};
}

WorkloadKey
To()
{
    return {"to", Shape::Scalar, "host", "**required**", "the responder (server)", {}};
}

WorkloadKey
Op(const std::string& allowed)
{
    // The first op is the default (WorkloadKindInfo::ops).
    return {"op", Shape::Scalar, allowed, allowed.substr(0, allowed.find(',')), "the RDMA operation", {}};
}

WorkloadKey
Size()
{
    return {"size",
            Shape::Scalar,
            "size, 1..2^32-1 (sockets-stream: at least 16, its send timestamp)",
            std::to_string(WorkloadConfig().size),
            "octets per message; not with `sizes`",
            {}};
}

WorkloadKey
Sizes()
{
    return {"sizes", Shape::List, "list of sizes, at most " + std::to_string(kMaxSizes), "", "a sweep: one run of `count` per size", {}};
}

WorkloadKey
Count()
{
    return {"count",
            Shape::Scalar,
            "int >= 1; ping-pong kinds at most 2^32-1, others with count × size at most 2^64-1",
            "one of `count`/`duration` **required**",
            "messages (incast: per sender)",
            {}};
}

WorkloadKey
Duration()
{
    return {"duration", Shape::Scalar, "time > 0", "", "keep posting this long; instead of `count`", {}};
}

WorkloadKey
Outstanding()
{
    return {"outstanding", Shape::Scalar, "int 1..65535", std::to_string(WorkloadConfig().outstanding), "messages in flight", {}};
}

/** The values and their labels from the LLP descriptors (llp-descriptors.h): "tcp, sctp". */
WorkloadKey
LlpKey()
{
    std::string names;
    std::string labels;
    for (const LlpDescriptor& d : LlpDescriptors())
    {
        names += (names.empty() ? "" : ", ") + std::string(d.name);
        labels += (labels.empty() ? "" : ", or ") + std::string(d.label);
    }
    return {"llp",
            Shape::Scalar,
            names + ", or their connectors' TypeIds",
            DefaultLlp().name,
            labels + "; results name it by its short name either way. An RNIC runs one LLP at a time in this model "
                     "(the runner sets the connection managers of the workload's nodes to it as the workload starts), "
                     "so all RDMA workloads that share a node (`from`, `to` or `senders`) must use the same LLP, "
                     "whatever their start times; the loader checks it",
            {}};
}

WorkloadKey
Payload()
{
    return {"payload", Shape::Scalar, "virtual, real", "virtual", "whether messages carry real octets (doc/architecture.md, \"Payload modes\")", {}};
}

std::vector<WorkloadKey>
RdmaStreamKeys(const std::string& ops)
{
    return {Start(), From(), To(), Op(ops), Size(), Count(), Duration(), Outstanding(), LlpKey(), Payload()};
}

} // namespace workloadkeys
} // namespace ns3

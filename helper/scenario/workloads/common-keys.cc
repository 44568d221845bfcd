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
    return {"start", Shape::Scalar, "time, before stop", "0", "when the workload starts", {}};
}

WorkloadKey
From()
{
    return {"from", Shape::Scalar, "host", "", "the initiator (client); required", {}};
}

WorkloadKey
To()
{
    return {"to", Shape::Scalar, "host", "", "the responder (server); required", {}};
}

WorkloadKey
Op(const std::string& allowed)
{
    return {"op", Shape::Scalar, allowed, "", "the RDMA operation", {}};
}

WorkloadKey
Size()
{
    return {"size", Shape::Scalar, "size, 1..2^32-1", "4096", "octets per message; not with sizes", {}};
}

WorkloadKey
Sizes()
{
    return {"sizes", Shape::List, "list of sizes, at most 1024", "", "a sweep: one run of count per size", {}};
}

WorkloadKey
Count()
{
    return {"count", Shape::Scalar, "int >= 1", "", "messages; one of count/duration is required", {}};
}

WorkloadKey
Duration()
{
    return {"duration", Shape::Scalar, "time > 0", "", "keep posting this long; instead of count", {}};
}

WorkloadKey
Outstanding()
{
    return {"outstanding", Shape::Scalar, "int 1..65535", "1", "messages in flight", {}};
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
    return {"llp", Shape::Scalar, names, DefaultLlp().name, labels, {}};
}

WorkloadKey
Payload()
{
    return {"payload", Shape::Scalar, "virtual, real", "virtual", "whether messages carry real octets", {}};
}

std::vector<WorkloadKey>
RdmaStreamKeys(const std::string& ops)
{
    return {Start(), From(), To(), Op(ops), Size(), Count(), Duration(), Outstanding(), LlpKey(), Payload()};
}

} // namespace workloadkeys
} // namespace ns3

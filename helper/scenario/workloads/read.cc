/* read: RDMA Reads, the data flowing from the responder back to the initiator. */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"

namespace ns3
{

WorkloadKindInfo
ReadKind()
{
    WorkloadKindInfo k;
    k.name = "read";
    k.family = WorkloadFamily::Rdma;
    k.summary = "RDMA Reads by `from` of `to`'s memory, `outstanding` in flight";
    k.ops = {RdmaOp::Read};
    k.keys = workloadkeys::RdmaStreamKeys(k.ops);
    k.install = [](WorkloadSite& site) { site.InstallRdmaStreams(); };
    k.opLabel = [](const WorkloadConfig&) { return std::string("read"); };
    k.metrics = {"goodput_bps", "goodput_window_bps", "longest_stall_ns", "fct_ns"};
    return k;
}

} // namespace ns3

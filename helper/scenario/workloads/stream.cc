/* stream: an RDMA message stream from one initiator, any op, goodput at the data sink. */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"

namespace ns3
{

WorkloadKindInfo
StreamKind()
{
    WorkloadKindInfo k;
    k.name = "stream";
    k.family = WorkloadFamily::Rdma;
    k.summary = "RDMA Writes, Sends or Reads from `from` to `to`, `outstanding` in flight";
    k.ops = {RdmaOp::Write, RdmaOp::Send, RdmaOp::Read};
    k.keys = workloadkeys::RdmaStreamKeys(k.ops);
    k.install = [](WorkloadSite& site) { site.InstallRdmaStreams(); };
    k.metrics = {"goodput_bps", "goodput_window_bps", "longest_stall_ns", "fct_ns"};
    return k;
}

} // namespace ns3

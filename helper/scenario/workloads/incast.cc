/* incast: several senders stream RDMA messages to one receiver at once. */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"

namespace ns3
{

WorkloadKindInfo
IncastKind()
{
    using namespace workloadkeys;
    WorkloadKindInfo k;
    k.name = "incast";
    k.family = WorkloadFamily::Rdma;
    k.summary = "RDMA Writes or Sends from every host of `senders` to `to` at once, one flow each";
    k.ops = {RdmaOp::Write, RdmaOp::Send};
    k.keys = {Start(), After(), Senders(), To("the receiver"), Op(k.ops), Size(), Count(), Duration(), Outstanding(),
              LlpKey(), Payload()};
    k.manySenders = true;
    k.install = [](WorkloadSite& site) { site.InstallRdmaStreams(); };
    k.metrics = {"goodput_bps", "goodput_window_bps", "longest_stall_ns", "fct_ns"};
    return k;
}

} // namespace ns3

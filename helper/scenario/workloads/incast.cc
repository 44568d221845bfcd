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
    WorkloadKey to = To();
    to.doc = "the receiver";
    k.keys = {Start(),
              {"senders",
               WorkloadKey::Shape::List,
               "list of distinct hosts, not empty",
               "**required**",
               "the senders, one flow each",
               {}},
              to,
              Op("write, send"),
              Size(),
              Count(),
              Duration(),
              Outstanding(),
              LlpKey(),
              Payload()};
    k.manySenders = true;
    k.ops = {RdmaOp::Write, RdmaOp::Send};
    k.install = [](WorkloadSite& site) { site.InstallRdmaStreams(); };
    k.metrics = {"goodput_bps", "goodput_window_bps", "fct_ns"};
    return k;
}

} // namespace ns3

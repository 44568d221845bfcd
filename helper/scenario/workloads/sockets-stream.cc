/* sockets-stream: the ordinary-sockets baseline of a stream, plain TCP, no RNIC. */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"

#include "apps/socket-stream.h"

namespace ns3
{

WorkloadKindInfo
SocketsStreamKind()
{
    using namespace workloadkeys;
    WorkloadKindInfo k;
    k.name = "sockets-stream";
    k.family = WorkloadFamily::Sockets;
    k.summary = "messages over a plain TCP socket from `from` to `to` (the baseline of stream)";
    k.keys = {Start(),
              After(),
              From(),
              To(),
              Size(SocketStream::kStampSize, "its send timestamp"),
              Count(),
              Duration(),
              Scalar(scenario::BoolKey("zero-copy", &WorkloadConfig::zeroCopy,
                                       "send without the copy into the kernel, as Linux's MSG_ZEROCOPY: the "
                                       "sender's host pins the pages and is told of the completion instead "
                                       "(doc/host-model.md)"))};
    k.install = [](WorkloadSite& site) { site.InstallSocketsStream(); };
    k.opLabel = [](const WorkloadConfig&) { return std::string("sockets"); };
    k.metrics = {"goodput_bps", "goodput_window_bps", "longest_stall_ns", "fct_ns"};
    return k;
}

} // namespace ns3

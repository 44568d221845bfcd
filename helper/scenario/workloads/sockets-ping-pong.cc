/* sockets-ping-pong: the ordinary-sockets baseline of ping-pong, plain TCP, no RNIC. */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"

namespace ns3
{

WorkloadKindInfo
SocketsPingPongKind()
{
    using namespace workloadkeys;
    WorkloadKindInfo k;
    k.name = "sockets-ping-pong";
    k.family = WorkloadFamily::Sockets;
    k.summary = "request/response over a plain TCP socket (the baseline of ping-pong)";
    k.keys = {Start(), After(), From(), To(), Size(), Sizes(), Count(kMaxRoundTrips)};
    k.pingPong = true;
    k.install = [](WorkloadSite& site) { site.InstallPingPongs(); };
    k.opLabel = [](const WorkloadConfig&) { return std::string("sockets"); };
    k.metrics = {"latency_by_size"};
    return k;
}

} // namespace ns3

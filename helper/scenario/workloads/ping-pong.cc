/* ping-pong: RDMA request/response between two hosts, half a round trip per message size. */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"

#include "helper/scenario/scenario-reader.h"

namespace ns3
{
namespace
{

/** `poll` waits for a Write's last octet: checked once every key is read, so `op` is known. */
void
CheckPoll(const scenario::ScenarioReader& r, const YAML::Node& n, const std::string& path, WorkloadConfig& w)
{
    if (w.poll && w.op != RdmaOp::Write)
    {
        r.Fail(n["poll"], scenario::Join(path, "poll"),
               "poll: true waits for a Write's last octet, but op is '" + std::string(ToString(w.op)) +
                   "' (poll applies to op write only)");
    }
}

} // namespace

WorkloadKindInfo
PingPongKind()
{
    using namespace workloadkeys;
    WorkloadKindInfo k;
    k.name = "ping-pong";
    k.family = WorkloadFamily::Rdma;
    k.summary = "RDMA request/response from `from` to `to`: half a round trip per message size";
    k.ops = {RdmaOp::Write, RdmaOp::Send};
    k.keys = {Start(),
              After(),
              From(),
              To(),
              Op(k.ops),
              Scalar(scenario::BoolKey(
                  "poll", &WorkloadConfig::poll,
                  "op write: the responder polls the last octet of its buffer, as `ib_write_lat` waits (RdmaPingPong "
                  "`WritePoll`), instead of waiting for a zero-length Send after each Write; its half round trip is "
                  "what published RNIC latencies quote. The results name the op `write-poll`")),
              Size(),
              Sizes(),
              Count(kMaxRoundTrips),
              LlpKey(),
              Payload()};
    k.pingPong = true;
    k.read = CheckPoll;
    k.install = [](WorkloadSite& site) { site.InstallPingPongs(); };
    k.metrics = {"latency_by_size"};
    return k;
}

} // namespace ns3

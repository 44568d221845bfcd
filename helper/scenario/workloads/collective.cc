/*
 * collective: a collective operation among a group of hosts, its ranks (doc/collectives.md): ring or
 * halving-doubling all-reduce, allgather, reduce-scatter or alltoall, each step's RDMA Send posted when the data
 * it depends on has arrived; iterations with a compute gap; the completion time against its ideal.
 */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"
#include "helper/common/plausibility.h"

#include <stdexcept>

namespace ns3
{
namespace
{

using scenario::ScenarioReader;

/** The most iterations a collective runs: each one's times are kept for summary.json and the steps CSV. */
constexpr uint64_t kMaxIterations = 100'000;

scenario::Names<CollectiveAlgorithm>
AlgorithmNames()
{
    scenario::Names<CollectiveAlgorithm> names;
    for (CollectiveAlgorithm a : CollectiveAlgorithms())
    {
        names.emplace_back(ToString(a), a);
    }
    return names;
}

} // namespace

WorkloadKindInfo
CollectiveKind()
{
    using namespace workloadkeys;
    static const scenario::Names<CollectiveAlgorithm> kAlgorithms = AlgorithmNames();
    WorkloadKindInfo k;
    k.name = "collective";
    k.family = WorkloadFamily::Rdma;
    k.summary = "a collective among `hosts` (its ranks, in order): `algorithm` over each rank's `size` octets, "
                "RDMA Sends over a connection per ordered pair, `iterations` times `gap` apart";
    k.ops = {RdmaOp::Send};
    k.keys = {Start(),
              After(),
              Hosts("the ranks, rank 0 first: the ring's order, the halving-doubling partners' numbering"),
              Scalar(scenario::ChoiceKey("algorithm", &WorkloadConfig::algorithm, kAlgorithms, "collective algorithm",
                                         "the collective and how it runs (doc/collectives.md)")),
              Size(1, "", "each rank's buffer in octets, as nccl-tests count it (allgather: the gathered output)"),
              Scalar(scenario::UIntKey("iterations", &WorkloadConfig::iterations, 1, kMaxIterations,
                                       "how many times the collective runs")),
              Scalar(scenario::TimeKey("gap", &WorkloadConfig::gap, scenario::Quantity::RunTime, false,
                                       "from an iteration's end at a rank to its start of the next: the compute "
                                       "between two collectives (default 0)")),
              LlpKey()};
    k.hostGroup = true;
    k.read = [](const ScenarioReader& r, const YAML::Node& node, const std::string& path, WorkloadConfig& w) {
        if (w.hosts.empty())
        {
            w.hosts = r.HostNames(); // `hosts` left out: every host is a rank
        }
        try
        {
            w.collective = std::make_shared<const CollectiveSchedule>(
                MakeCollectiveSchedule(w.algorithm, uint32_t(w.hosts.size()), w.size));
        }
        catch (const std::invalid_argument& e)
        {
            r.Fail(node, path, e.what());
        }
    };
    k.install = [](WorkloadSite& site) { site.InstallCollective(); };
    k.metrics = {"collective_completion_ns", "collective_ideal_ns", "collective_busbw_bps", "fct_ns"};
    return k;
}

} // namespace ns3

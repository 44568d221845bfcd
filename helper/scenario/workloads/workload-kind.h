/*
 * The workload registry: one entry per workload kind, each saying all there is to know about the
 * kind in one place (its name, its family, its keys, what it reads beyond the common keys, how it
 * installs its applications, how its messages are labelled).  The scenario reader, the key schema,
 * the installer, the results and `iwarp-sim workloads` all ask the registry; none lists the kinds.
 *
 * The built-in kinds are listed by WorkloadKinds() itself (registry.cc), one function per kind, one
 * file per kind in this folder.  A program may add kinds of its own with RegisterWorkloadKind before
 * it loads a scenario (the test runner adds one: test/scenario/workload-kind-test-burst.cc).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_WORKLOAD_KIND_H
#define IWARP_WORKLOAD_KIND_H

#include "helper/scenario/key-info.h"
#include "helper/scenario/scenario-config.h"

#include "ns3/application-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace YAML
{
class Node;
}

namespace ns3
{
namespace scenario
{
class ScenarioReader;
}

/** What carries a kind's data, and so which keys and checks apply. */
enum class WorkloadFamily
{
    Rdma,    ///< RDMA over an RNIC and an LLP (`llp: tcp | sctp`)
    Sockets, ///< plain TCP sockets, no RNIC (the baseline)
    Inject,  ///< a raw DDP segment into another workload's LLP connection
};

/** "rdma", "sockets", "inject". */
const char* ToString(WorkloadFamily f);

/**
 * One key a workload kind takes: its shape for the schema, its facts (key-info.h: the value's kind, range,
 * default and meaning, for the docs, the JSON Schema and `iwarp-sim workloads`) and how it is read. The
 * builders of common-keys.h make the shared ones from the section-key builders (section-keys.h), so a range is
 * stated once and both checked and printed from there.
 */
struct WorkloadKey
{
    enum class Shape
    {
        Scalar,
        List,
        Map, ///< a map of the scalar keys `fields`
    };
    /** Reads the key's value `v` at `path` into the workload; the keys before it in the kind's list are read. */
    using Reader =
        std::function<void(const scenario::ScenarioReader&, const YAML::Node& v, const std::string& path, WorkloadConfig&)>;

    std::string name;
    Shape shape{Shape::Scalar};
    scenario::KeyInfo info;
    std::vector<WorkloadKey> fields; ///< Shape::Map only: its scalar keys, each with its facts
    /** Empty: the kind's own `read` reads the key (values read together, an inject's fields). */
    Reader read;

    /** The names of `fields`, in order. */
    std::vector<std::string> FieldNames() const;
};

/**
 * One workload's view of the run, for its kind's installer: where it runs, and the ways the runner
 * installs and follows the applications of the built-in shapes.  Implemented by ScenarioWorkloads.
 */
class WorkloadSite
{
  public:
    virtual ~WorkloadSite() = default;
    virtual const WorkloadConfig& Config() const = 0;
    virtual Ptr<Node> GetNode(const std::string& name) const = 0;
    virtual Ipv4Address GetHostAddress(const std::string& host) const = 0;
    /**
     * How long from now the workload's applications start: Config().start, or with `after` that long after
     * the last of those it waits for completed (the workload is installed then). Start applications with it.
     */
    virtual Time StartDelay() const = 0;
    /** The first port the workload's server listens on at Config().to (its ListeningPorts in a row). */
    virtual uint16_t Port() const = 0;
    /** The sockets of the application installed next on `node` fit the workload's paths. */
    virtual void SizeSockets(const std::string& node, Time start) = 0;
    /** `apps` belong to the workload; `connections` of them open a connection each (connections_attempted). */
    virtual void AddApplications(const ApplicationContainer& apps, uint32_t connections) = 0;
    /**
     * Follow a client of RdmaStream's traces (Posted, Completed, Failed, PostingEnded): its messages
     * become `sender`'s flow of this workload.
     */
    virtual void FollowStreamClient(Ptr<Application> app, const std::string& sender) = 0;

    // The built-in shapes.
    /** RdmaStream server at `to`, one client per sender (`from`, or each of `senders`). */
    virtual void InstallRdmaStreams() = 0;
    /** RdmaPingPong (SocketPingPong for the sockets family), one size of `sizes` after the other. */
    virtual void InstallPingPongs() = 0;
    virtual void InstallSocketsStream() = 0;
    virtual void InstallInject() = 0;
    /** RdmaTraffic on every host of `hosts`, its flows drawn as the keys say (a host group). */
    virtual void InstallTraffic() = 0;
    /** RdmaCollective on every host of `hosts`, one rank each, begun together once all are connected. */
    virtual void InstallCollective() = 0;
};

/** Everything about one workload kind. */
struct WorkloadKindInfo
{
    std::string name;
    WorkloadFamily family{WorkloadFamily::Rdma};
    std::string summary; ///< one line for the docs and `iwarp-sim workloads`
    /** The keys it takes besides `name` and `kind`, in the order the docs list them. */
    std::vector<WorkloadKey> keys;
    /** Its senders are `senders` (one flow each), not `from`. */
    bool manySenders{false};
    /**
     * A load among the group `hosts` (traffic): every host may send to every other, over connections kept per
     * ordered pair, so it has neither `from` nor `to`; each host listens on the workload's one port.
     */
    bool hostGroup{false};
    /**
     * Request/response: its metric is the latency per message size (latency_by_size), `count` counts
     * round trips (32 bits), and each size of `sizes` has a connection (a listening port) of its own.
     */
    bool pingPong{false};
    /** The ops `op` may name (the first is the default); empty: the kind has no `op`. */
    std::vector<RdmaOp> ops;
    /**
     * What it reads or checks after its keys' own readers (WorkloadKey::read), or instead of them: with
     * `replacesCommon` the loader reads only `name` and `kind`, then calls this.  Empty: nothing more.
     */
    std::function<void(const scenario::ScenarioReader&, const YAML::Node&, const std::string&, WorkloadConfig&)> read;
    bool replacesCommon{false};
    std::function<void(WorkloadSite&)> install;
    /** The op column of messages.csv and summary.json; empty: the RDMA op ("write-poll" with poll). */
    std::function<std::string(const WorkloadConfig&)> opLabel;
    /** The summary.json metrics it reports, for `iwarp-sim workloads` and the sweeps. */
    std::vector<std::string> metrics;
};

/** Every kind: the built-in ones in their documented order, then those registered. */
const std::vector<const WorkloadKindInfo*>& WorkloadKinds();
/** The kind called `name`, or null. */
const WorkloadKindInfo* FindWorkloadKind(const std::string& name);
/** The entry of `kind` (registered: a WorkloadKind only comes from the registry or its constants). */
const WorkloadKindInfo& Describe(WorkloadKind kind);
/** The kind's senders are `senders`, one flow each (incast), not `from`. */
inline bool
HasManySenders(WorkloadKind kind)
{
    return Describe(kind).manySenders;
}

/** The kind is a load among a group of hosts (`hosts`), connected pair by pair. */
inline bool
IsHostGroup(WorkloadKind kind)
{
    return Describe(kind).hostGroup;
}

/** The kind hands a segment to another workload's connection (at `at`, not `start`). */
inline bool
IsInject(WorkloadKind kind)
{
    return Describe(kind).family == WorkloadFamily::Inject;
}

/**
 * Add a kind, after the built-in ones.  Throws std::invalid_argument for an empty name, a name
 * already taken, no installer, or a key another kind has in another shape.  Not thread-safe: register before loading scenarios in threads.
 */
void RegisterWorkloadKind(WorkloadKindInfo info);
/** Incremented by each RegisterWorkloadKind: the schema rebuilds its workload keys when it changes. */
uint64_t WorkloadRegistryVersion();
/** Every kind's description as JSON text (`iwarp-sim workloads --json`, iwarpsim.workload_kinds()). */
std::string WorkloadKindsJson();

} // namespace ns3

#endif // IWARP_WORKLOAD_KIND_H

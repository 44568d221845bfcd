/*
 * The workloads of a scenario run: installs the applications each workload describes, follows
 * every message from post to completion (application traces) and its placement and delivery at
 * the data sink (the sink QP's DDP "Delivered" trace), counts TCP retransmissions and records
 * every Terminate, then turns all of it into RunResult rows. Internal to the ScenarioRunner.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_WORKLOADS_H
#define IWARP_SCENARIO_WORKLOADS_H

#include "helper/scenario/ideal-fct.h"
#include "helper/scenario/results-writer.h"
#include "helper/scenario/scenario-config.h"
#include "helper/scenario/workload-metrics.h"
#include "helper/scenario/workloads/workload-kind.h"
#include "helper/topology/topology-builder.h"

#include "apps/socket-traffic.h"
#include "rnic/queue-pair.h"

#include "ns3/application-container.h"
#include "ns3/sequence-number.h"
#include "ns3/tcp-socket-base.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RoceTransport;

class TrafficLoad;
class CollectiveRun;

/** The op column of messages.csv for a workload: its kind's label ("sockets", "inject", "read") or its RDMA op. */
std::string OpLabel(const WorkloadConfig& w);
/**
 * The flow key of a host group's message `id` to `receiver`: the host itself, or with `connections: per-flow`
 * the host and the message (each such message is a flow of its own: its connection carries it alone).
 */
std::string FlowKey(const WorkloadConfig& w, const std::string& receiver, uint64_t id);
/** The host a flow key names. */
std::string HostOfFlowKey(const std::string& key);

class ScenarioWorkloads
{
  public:
    ScenarioWorkloads(const ScenarioConfig& cfg, const BuiltTopology& topo);
    ~ScenarioWorkloads();

    /** Install every workload's applications and the probes on every RNIC. */
    void Install();
    /** Per-workload results and per-message records, after the simulation has run. */
    /** `paths`: BoundingPaths (physics-checks.h), which the ideal FCTs are taken on. */
    void Collect(RunResult& result, const Paths& paths) const;

    /** (workload index, the flow's initiator, the socket that sends the flow's data). */
    using SenderSocketCallback = std::function<void(std::size_t, const std::string&, Ptr<Socket>)>;
    /**
     * Be told of each flow's data sender as its connection is established (RDMA: the queue pair's
     * LLP socket, TCP or SCTP; sockets-*: the client's TCP socket): the time series sample it.
     */
    void SetSenderSocketCallback(SenderSocketCallback cb) { m_senderSocket = std::move(cb); }
    /** The records of `initiator`'s flow of workload `index`, with the sink's times, as Collect has them. */
    std::vector<MessageRecord> FlowRecords(std::size_t index, const std::string& initiator) const;

  private:
    /**
     * One sender's messages to one sink (incast has one flow per sender, a host group one per ordered pair of
     * hosts that exchanged a message, the others one).
     */
    struct Flow
    {
        std::string sender;
        std::string receiver; ///< a host group's; empty for the others (their sink is the workload's)
        std::vector<MessageRecord> messages;    ///< in post order
        std::map<uint64_t, std::size_t> byId;   ///< application message id -> index in messages
        std::deque<std::pair<Time, Time>> sink; ///< the sink QP's DDP deliveries: (first placed, delivered)
        std::deque<Time> receives;              ///< the sink QP's receive completions (Sends)
    };

    struct Workload
    {
        const WorkloadConfig* cfg{nullptr};
        const WorkloadKindInfo* kind{nullptr}; ///< its registry entry
        std::size_t index{0};
        uint16_t port{0}; ///< the first port its server listens on, at `cfg->to` (listening-ports.h)
        std::string sinkNode; ///< where data messages are placed and delivered
        DeliveryPoint deliveryPoint{DeliveryPoint::Placement}; ///< DeliveryPointOf(*cfg), once
        std::vector<Flow> flows;
        std::map<std::pair<std::string, std::string>, std::size_t> flowIndex; ///< (sender, receiver) -> flows
        RetransmissionCounts retransmissions;
        SctpAssociationWatch sctpAssociations; ///< its multihomed SCTP associations, both ends
        std::vector<TerminateRecord> terminates;
        ConnectionCounts connections;               ///< lost is filled in from lostConnections
        std::set<std::string> lostConnections;      ///< "client node:port" of each lost connection
        /**
         * Connected QPs by (node, peer node), the inject target: an incast receiver has one
         * connection per sender, so the node alone would not say which.
         */
        std::map<std::pair<std::string, std::string>, Ptr<QueuePair>> qpByEnds;
        ApplicationContainer apps;
        uint64_t nextMessageId{0};
        std::map<uint64_t, std::vector<double>> halfRttNs; ///< ping-pong: message size -> half round trips
        uint32_t postingEnded{0}; ///< clients that reported the end of their posting
        std::shared_ptr<TrafficLoad> load; ///< a host group's flow starter
        std::map<std::string, std::size_t> hostIndex; ///< a traffic load's hosts: name -> index in `hosts`
        /**
         * A host group's segment per (sender, receiver) host pair: its connections' MULPDU, or (sockets) their
         * TCP SegmentSize, once one came up (every connection of a pair takes the same path).
         */
        std::map<std::pair<std::string, std::string>, uint32_t> segment;
        std::shared_ptr<CollectiveRun> collective; ///< kind collective: its ranks and their times
        double groupRateBps{0};            ///< a host group's: the sum of its hosts' link rates
        /** When it starts: `start`, or with `after` `start` after the last it waits for completed. */
        Time start;
        bool installed{false};              ///< with `after`: unset until what it waits for has completed
        WorkloadProgress progress;          ///< counted as the run goes, for `after`
        std::optional<Time> completedAt;    ///< when WorkloadCompleted first held
    };

    /** The WorkloadSite a kind's installer gets for one workload (scenario-workloads.cc). */
    class Site;

    void InstallRdma(Workload& w);
    /** `sender`'s messages of `w` from an RdmaStream-like client's traces. */
    void FollowStreamClient(Workload& w, Ptr<Application> app, const std::string& sender);
    void InstallPingPongChain(Workload& w, std::size_t sizeIndex, Time start);
    /** One size of `w`'s ping-pong sweep: its server at `to` and client at `from`, as (server, client). */
    std::pair<ApplicationContainer, ApplicationContainer> InstallPingPongApps(Workload& w,
                                                                              uint64_t size,
                                                                              uint16_t port,
                                                                              uint32_t count,
                                                                              Time start);
    /** The messages and half round trips of one ping-pong size; its last round trip installs the next size. */
    void FollowPingPong(Workload& w,
                        const ApplicationContainer& server,
                        const ApplicationContainer& client,
                        std::size_t sizeIndex,
                        uint32_t count);
    void InstallSockets(Workload& w);
    /** Follow the TCP socket of `w`'s sockets-* client application once it connects (its Socket trace). */
    void FollowSocketsClient(Workload& w, Ptr<Application> client);
    void InstallInject(Workload& w);
    /**
     * A host group's RdmaTraffic (SocketTraffic for sockets-traffic) on each of its hosts and the TrafficLoad
     * that hands them their flows.
     */
    void InstallTraffic(Workload& w);
    /** RdmaCollective on each rank's host and the CollectiveRun that begins them together. */
    void InstallCollective(Workload& w);
    /** The messages `host`'s SocketTraffic of `w` delivers, and the connections it opens. */
    void FollowSocketsTraffic(Workload& w, Ptr<SocketTraffic> app, const std::string& host);
    /** The messages `host`'s RdmaTraffic, SocketTraffic or RdmaCollective of `w` posts, completes and fails. */
    void FollowGroupHost(Workload& w, Ptr<Application> app, const std::string& host);
    /** The host at `a` ("?" for an address of no host). */
    std::string HostAt(Ipv4Address a) const;
    /** A host group's connection is up at `node`: note its engine's costs and (at the client) its MULPDU. */
    void NoteTrafficConnection(Workload& w, const std::string& node, const std::string& peer, bool serverSide,
                               Ptr<QueuePair> qp);
    /** A host group's operating point, its offered load measured from its flows (all of `messages`). */
    TrafficOperatingPoint OperatingPoint(const Workload& w, const std::vector<MessageRecord>& messages) const;
    /** What a message of `f` takes alone (ideal-fct.h); unset if its connection never came up. */
    std::optional<IdealFctModel> IdealModel(const Workload& w, const Flow& f, const Paths& paths) const;
    /** A collective's ideal completion (IdealCompletion); unset if a connection it needs never came up. */
    std::optional<Time> IdealCollective(const Workload& w, const Paths& paths) const;
    /** A collective's times, ranks and ideal for summary.json. */
    CollectiveResult CollectiveOutcome(const Workload& w, const Paths& paths) const;
    /** Each of `messages`' ideal FCT (ideal-fct.h), where its flow's connection came up. */
    void SetIdealFcts(const Workload& w, const Flow& f, const Paths& paths, std::vector<MessageRecord>& messages) const;
    /** The sockets of `w`'s application installed next on `node` fit its paths (socket-defaults.h). */
    void SizeSockets(const Workload& w, const std::string& node, Time start);
    /** `llp: tcp | sctp`: the connection managers at both ends use it from the workload's start. */
    void ChooseLlp(Workload& w);
    /** Hand the injected segment to the target's LLP, retrying every microsecond while it has no room. */
    void TryInject(Workload* w, Workload* target, std::vector<uint8_t> bytes, Time posted);
    void HookRnic(const std::string& node);
    void OnQpEvent(std::string node, Ptr<QueuePair> qp, const QpEventInfo& e);
    void OnEstablished(const std::string& node, Ptr<QueuePair> qp);
    /**
     * `apps` belong to `w`: each RDMA application's queue pairs (its "QueuePair" trace) are `w`'s,
     * which is how a connection is told apart from another, not by its ports.
     */
    void Adopt(Workload& w, const ApplicationContainer& apps);
    /**
     * `sender`'s flow (to `receiver`, a host group's: empty for the others). `receiver` may be a FlowKey: a
     * connection of one message has a flow of its own, its records still naming the receiving host.
     */
    Flow& FlowOf(Workload& w, const std::string& sender, const std::string& receiver = "");
    void Posted(Workload& w, const std::string& sender, uint64_t id, uint64_t size, const std::string& receiver = "");
    /** The record of message `id` of `sender`'s flow (to `receiver`); null if it was never posted. */
    MessageRecord* Find(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver = "");
    /** The initiator's completion of message `id` (Read: also its delivery, RDMA data lands there). */
    void Completed(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver = "");
    /** Message `id`'s first octets reached the sink's application (the sockets baseline's receive path). */
    void FirstOctet(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver = "");
    /** Message `id` reached the sink's application (the sockets baseline's receive path). */
    void Delivered(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver = "");
    void Failed(Workload& w, const std::string& sender, uint64_t id, const std::string& receiver = "");
    /** Count one TCP socket's retransmissions, fast or after a timeout, into `w`. */
    void FollowTcp(Workload* w, Ptr<TcpSocketBase> tcp);
    void OnTcpTx(Workload* w, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s);
    /** A sockets-* client socket: its establishment, and whether TCP gave it up (Collect). */
    void FollowSocketsConnection(Workload* w, Ptr<TcpSocketBase> tcp);
    /** The sink QP of `w` for `sender`'s flow (to `receiver`): record its deliveries and receive completions. */
    void FollowSink(Workload* w, const std::string& sender, Ptr<QueuePair> qp, const std::string& receiver = "");
    /** A data message of `length` octets landed at the sink of `sender`'s flow (nothing for an empty one). */
    void SinkDelivery(Workload& w, const std::string& sender, const std::string& receiver, uint64_t length,
                      Time firstPlaced, Time delivered);
    /** A RoCEv2 QP's resends and timeouts, into its workload's retransmission counts. */
    void FollowRoce(Workload* w, Ptr<RoceTransport> roce);
    /** Install `w`'s applications to start at w.start (now or later), its LLP chosen for it. */
    void InstallWorkload(Workload& w);
    /** A message of `sender`'s of `w` reached its data sink: count it (NoteProgress, NoteFlowEnded). */
    void NoteDelivered(Workload& w, const std::string& sender);
    /** A flow of `sender`'s of a host group was delivered (or failed): its load may start the next. */
    void NoteFlowEnded(Workload& w, const std::string& sender, bool delivered);
    /** `w` has moved on (a post, delivery, completion, end of posting): has it completed? Start who waits. */
    void NoteProgress(Workload& w);
    /** The time from now to `at`, none if `at` is past: applications installed during the run count from now. */
    static Time Delay(Time at);
    /** What `completed` is decided on for `w` (WorkloadCompleted): cheap, for every event of the run. */
    WorkloadMetricsInput CompletionInput(const Workload& w) const;
    /** What the metrics of `w` are taken against: CompletionInput, the window, the kind's figures. */
    WorkloadMetricsInput MetricsInput(const Workload& w) const;
    /** `f`'s message records with the sink's placement and delivery times (doc/metrics.md). */
    std::vector<MessageRecord> MergedRecords(const Workload& w, const Flow& f) const;

    const ScenarioConfig& m_cfg;
    const BuiltTopology& m_topo;
    std::vector<std::unique_ptr<Workload>> m_workloads;
    std::map<Ptr<QueuePair>, Workload*> m_qpOwner;    ///< every workload application's QPs (Adopt)
    std::map<Ptr<QueuePair>, Workload*> m_qpWorkload; ///< those established
    std::map<Ptr<QueuePair>, std::string> m_qpConnection; ///< "client node:port" of each mapped QP
    /** sockets-* client sockets with their workload and last TCP state (lost: Collect). */
    std::map<Ptr<TcpSocketBase>, std::pair<Workload*, TcpSocket::TcpStates_t>> m_socketsClients;
    std::map<const TcpSocketBase*, SequenceNumber32> m_highestSent;
    std::map<const TcpSocketBase*, TcpSocketState::TcpCongState_t> m_congState;
    std::map<uint32_t, std::string> m_hostByAddress; ///< Ipv4Address::Get() -> host name
    /** The queue pairs of one flow's connection (connections: per-flow): the sender's message number. */
    std::map<Ptr<QueuePair>, uint64_t> m_qpFlow;
    /** Per host with a host group's connection: its RNIC engine's (transmit, receive) costs. */
    std::map<std::string, std::pair<EngineCosts, EngineCosts>> m_engines;
    bool m_ownSegmentSize{false}; ///< the scenario sets TcpSocket::SegmentSize itself
    bool m_ownPmtu{false};        ///< the scenario sets SctpSocket::Pmtu itself
    SenderSocketCallback m_senderSocket; ///< empty unless a time series samples the senders
};

} // namespace ns3

#endif // IWARP_SCENARIO_WORKLOADS_H

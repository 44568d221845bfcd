/*
 * RdmaCollective: one rank of a collective operation over RDMA (the scenario's `collective` workload,
 * doc/collectives.md). Each rank runs its part of a CollectiveSchedule: it posts each of its messages as an RDMA
 * Send as soon as the receives that message depends on have completed here, in the schedule's order, so a step
 * waits for the data of the step before it, and a slow rank holds up those after it on the dependency chain.
 *
 * A Send (not a Write) because the rank must learn that the data it depends on has arrived: iWARP's Write
 * tells the receiver nothing, and its receive completion is how an application sees delivery (RFC 5040 §5.3).
 * Receives are posted two iterations ahead, which the schedules' dependencies make enough: a peer cannot start
 * iteration i+2 before this rank has finished iteration i (every algorithm's result at a rank depends on every
 * other rank's part). A Send arriving with no receive posted would end the connection with a Terminate, never
 * silently.
 *
 * Set-up: at its start the rank listens on Port and connects to each rank it sends to (one connection per
 * ordered pair, kept for every iteration). It says Ready once all of those are up; whoever coordinates the
 * ranks (the scenario's runner, or a test) calls Begin on every rank at once, as a communicator's set-up ends
 * before its first collective. An iteration ends at this rank when all its receives have completed and all
 * its Sends have completed at this end; the next begins Gap later (the compute between two collectives). A
 * Send or receive that fails or is refused halts the rank for good (Halted): it ends no more iterations.
 */
/**
 * \file
 * \ingroup iwarp-apps
 */
#ifndef IWARP_RDMA_COLLECTIVE_H
#define IWARP_RDMA_COLLECTIVE_H

#include "apps/rdma-ping-pong.h"
#include "traffic/collective-schedule.h"

#include "ns3/ipv4-address.h"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace ns3
{

class RdmaCollective : public Application
{
  public:
    static TypeId GetTypeId();
    RdmaCollective();

    /** This is `rank` of `schedule`, whose ranks are at `addresses` (by rank); before the application starts. */
    void Configure(uint32_t rank, std::shared_ptr<const CollectiveSchedule> schedule, std::vector<Ipv4Address> addresses);
    /** Every rank it sends to has accepted its connection. */
    bool IsReady() const;
    /** Start the first iteration now (once, after Ready). */
    void Begin();

    uint32_t GetRank() const { return m_rank; }
    /** Iterations this rank has finished. */
    uint32_t GetIterationsDone() const { return m_iteration; }
    /** Connections this rank opened (one per rank it sends to). */
    std::size_t GetConnectionCount() const { return m_out.size(); }

    /** (iteration, step): a step's Send was posted here (StepPosted) or all its receives completed (StepDone). */
    typedef void (*StepTracedCallback)(uint32_t iteration, uint32_t step);
    /** (iteration, when it began at this rank): the iteration ended at this rank. */
    typedef void (*IterationTracedCallback)(uint32_t iteration, Time begun);
    /** (iteration, why): the rank stopped for good. */
    typedef void (*HaltedTracedCallback)(uint32_t iteration, const std::string& why);

    /** A Send or receive failed or was refused: this rank ends no more iterations. */
    bool IsHalted() const { return m_halted; }

  protected:
    void DoDispose() override;

  private:
    struct Message
    {
        uint64_t number;
        uint32_t to;
        uint64_t octets;
        Time posted;
    };

    /** This rank's connection to a rank it sends to. */
    struct Outgoing
    {
        Ptr<QueuePair> qp;
        bool connected{false};
    };

    /** A connection a rank that sends to this one opened, and which of this rank's receives it will fill. */
    struct Incoming
    {
        Ptr<QueuePair> qp;
        std::deque<std::pair<uint32_t, uint32_t>> expected; ///< (iteration, receive index), in arrival order
    };

    void StartApplication() override;
    void StopApplication() override;

    Ptr<QueuePair> MakeQp(bool incoming, uint32_t peer);
    void OnConnected(uint32_t peer, bool accepted);
    void OnRequest(Ptr<ConnectionRequest> req);
    /** Post, on `peer`'s incoming connection, the receives of `iteration` that it fills. */
    void PostReceives(uint32_t peer, uint32_t iteration);
    void StartIteration();
    /** Post the sends whose receives are all in, in order. */
    void PostReady();
    void OnReceive(uint32_t peer, const WorkCompletion& c);
    void OnSendCompletion(const WorkCompletion& c);
    /** Receive `index` of the current iteration is in: its step may be done. */
    void Account(uint32_t index);
    void EndIterationIfDone();
    /** Stop for good, saying why (Halted). */
    void Halt(const std::string& why);
    const RankProgram& Program() const { return m_schedule->programs.at(m_rank); }

    uint16_t m_port;
    uint32_t m_iterations;
    Time m_gap;

    uint32_t m_rank{0};
    std::shared_ptr<const CollectiveSchedule> m_schedule;
    std::vector<Ipv4Address> m_addresses;
    std::map<uint32_t, uint32_t> m_rankByAddress; ///< Ipv4Address::Get() -> rank

    bool m_running{false};
    bool m_begun{false};
    Ptr<Rnic> m_rnic;
    Ptr<ProtectionDomain> m_pd;
    Ptr<MemoryRegion> m_region;
    std::map<uint32_t, Outgoing> m_out; ///< by the rank sent to
    std::map<uint32_t, Incoming> m_in;  ///< by the rank received from
    std::unordered_map<uint64_t, Message> m_posted; ///< work request id -> its Send, until it completes

    uint32_t m_iteration{0};
    bool m_active{false}; ///< an iteration runs here (not before Begin, in a Gap, or after the last)
    bool m_halted{false};
    Time m_iterationBegun;
    std::size_t m_nextSend{0};
    std::size_t m_receivesIn{0};
    std::map<uint32_t, std::vector<bool>> m_delivered; ///< by iteration (this one and the next): receive index -> in
    std::vector<uint32_t> m_stepMissing;                ///< by step: receives of this iteration not yet in
    uint64_t m_messages{0};
    uint64_t m_nextWrId{1};

    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_postedTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t, Time> m_completedTrace;
    TracedCallback<uint64_t, Ipv4Address, uint32_t> m_failedTrace;
    TracedCallback<Ptr<QueuePair>> m_queuePairTrace;
    TracedCallback<> m_readyTrace;
    TracedCallback<uint32_t, uint32_t> m_stepPostedTrace;
    TracedCallback<uint32_t, uint32_t> m_stepDoneTrace;
    TracedCallback<uint32_t, Time> m_iterationTrace;
    TracedCallback<uint32_t, const std::string&> m_haltedTrace;
};

} // namespace ns3

#endif // IWARP_RDMA_COLLECTIVE_H

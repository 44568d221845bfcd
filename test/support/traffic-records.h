/*
 * What the traffic suites ask of a run's message records (iwarp-traffic-workload, iwarp-sockets-traffic,
 * iwarp-ideal-fct, iwarp-traffic-options): the flows as comparable keys, the flows in arrival order, and the
 * flows that ran alone over a connection already up (what an ideal FCT is checked against).
 */
#ifndef IWARP_TEST_TRAFFIC_RECORDS_H
#define IWARP_TEST_TRAFFIC_RECORDS_H

#include "helper/scenario/results-writer.h"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{
namespace testing
{

/**
 * A load on four hosts on two leaves, 10 Gb/s, stopping at 100 ms: `keys` after `kind: <kind>` in the one
 * workload (named load), `extra` top-level keys before the topology.
 */
inline std::string
FourHostLoad(const std::string& kind, const std::string& keys, const std::string& extra = "")
{
    return "stop: 100ms\n" + extra +
           "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2}\n"
           "links: {rate: 10Gbps, delay: 1us}\n"
           "workloads:\n"
           "  - {name: load, kind: " +
           kind + ", " + keys + "}\n";
}

/** A flow as the load drew it: (arrival in time steps, octets, sender, receiver). */
using FlowKey = std::tuple<int64_t, uint64_t, std::string, std::string>;

/** Every flow of `r` as its key, sorted: two runs that drew the same flows give equal vectors. */
inline std::vector<FlowKey>
FlowKeys(const RunResult& r)
{
    std::vector<FlowKey> out;
    for (const MessageRecord& m : r.messages)
    {
        out.emplace_back(m.post.GetTimeStep(), m.size, m.sender, m.receiver);
    }
    std::sort(out.begin(), out.end());
    return out;
}

/** The flows of `r` (those `sender` started, or every one with an empty `sender`) in arrival order (by id). */
inline std::vector<const MessageRecord*>
InArrivalOrder(const RunResult& r, const std::string& sender = "")
{
    std::vector<const MessageRecord*> out;
    for (const MessageRecord& m : r.messages)
    {
        if (sender.empty() || m.sender == sender)
        {
            out.push_back(&m);
        }
    }
    std::sort(out.begin(), out.end(), [](const MessageRecord* a, const MessageRecord* b) { return a->id < b->id; });
    return out;
}

/**
 * The delivered flows of `r` that ran alone over a connection already up: not the first of their host pair (its
 * set-up), and no other flow in flight at any time between their arrival and their delivery.
 */
inline std::vector<const MessageRecord*>
AloneOverOpenConnection(const RunResult& r)
{
    std::set<std::string> pairSeen;
    std::vector<const MessageRecord*> out;
    for (const MessageRecord* m : InArrivalOrder(r))
    {
        const bool first = pairSeen.insert(m->sender + ">" + m->receiver).second;
        if (first || !m->delivered)
        {
            continue;
        }
        bool overlaps = false;
        for (const MessageRecord& o : r.messages)
        {
            overlaps = overlaps || (&o != m && o.post < *m->delivered && (!o.delivered || *o.delivered > m->post));
        }
        if (!overlaps)
        {
            out.push_back(m);
        }
    }
    return out;
}

} // namespace testing
} // namespace ns3

#endif // IWARP_TEST_TRAFFIC_RECORDS_H

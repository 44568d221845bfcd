/*
 * What a workload's multihomed SCTP associations did (doc/metrics.md, `sctp_associations`): for each
 * association with more than one path, its paths at the end of the run (address, primary, active, DATA
 * chunks, retransmissions, T3-rtx timeouts and heartbeats sent to each) and every change of the path new
 * DATA went to (failover and back), with the time since the scenario's latest failure before it.
 * Single-homed associations have nothing of this to report and are left out.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SCTP_ASSOCIATIONS_H
#define IWARP_SCENARIO_SCTP_ASSOCIATIONS_H

#include "sctp/sctp-socket.h"

#include "ns3/nstime.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/** One destination of an association, as it ended. */
struct SctpPathRecord
{
    std::string address;
    bool primary{false};
    bool active{true};
    SctpPathCounters counters;
};

/** New DATA went to `to` instead of `from` at `at`. */
struct SctpFailoverRecord
{
    Time at;
    std::string from;
    std::string to;
    /** at minus the latest link-down or node-down event at or before it; unset if there was none. */
    std::optional<Time> sinceFailure;
    bool toPrimary{false}; ///< back to the primary (failback), not away from it
};

struct SctpAssociationRecord
{
    std::string node;       ///< the end it was seen from
    std::string connection; ///< the connection's name (its client's host and port)
    std::vector<SctpPathRecord> paths;
    std::vector<SctpFailoverRecord> failovers;
};

/** The associations of one workload followed during the run. */
class SctpAssociationWatch
{
  public:
    /** Follows `socket` if it has more than one path (else nothing to report). */
    void Follow(Ptr<SctpSocket> socket, const std::string& node, const std::string& connection);
    /** After the run: each followed association's record; `failures` are the down events' times. */
    std::vector<SctpAssociationRecord> Records(const std::vector<Time>& failures) const;

  private:
    struct Followed
    {
        Ptr<SctpSocket> socket;
        std::string node;
        std::string connection;
        std::vector<SctpFailoverRecord> failovers;
    };
    std::deque<Followed> m_followed; ///< a deque: the traces hold pointers to its elements
};

/** summary.json's `sctp_associations` of a workload. */
nlohmann::json SctpAssociationsJson(const std::vector<SctpAssociationRecord>& records);

} // namespace ns3

#endif // IWARP_SCENARIO_SCTP_ASSOCIATIONS_H

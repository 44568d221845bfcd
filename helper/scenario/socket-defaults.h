/*
 * LlpSocketDefaults: sizes the sockets of the workload application installed right after it on
 * the same node, from the smallest MTU on that workload's paths (path-sizes.h): TCP's SegmentSize
 * and SCTP's Pmtu.
 *
 * The sizes go into the node's TransportProfile, which gives them to every socket made on the node
 * from then on (never into ns-3's process-wide defaults).  This model's applications make their
 * sockets as they start (StartApplication: listen, connect; an accepted socket copies its
 * listener's).  ns-3 runs the start events of one node's applications in the order they were
 * installed, one after the other, so an LlpSocketDefaults installed just before a workload's
 * application, with the same start time, sizes exactly that application's sockets, whatever the
 * other nodes and workloads do at the same instant.
 *
 *   InstallSocketDefaults(node, segmentSize, pmtu, start);   // then, at once:
 *   helper.Install(node).Start(start);
 *
 * A size of 0 leaves that setting alone (the scenario sets it itself: the loader has checked it
 * against the paths).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_SOCKET_DEFAULTS_H
#define IWARP_SCENARIO_SOCKET_DEFAULTS_H

#include "ns3/application.h"
#include "ns3/node.h"

namespace ns3
{

class LlpSocketDefaults : public Application
{
  public:
    static TypeId GetTypeId();

  private:
    void StartApplication() override;

    uint32_t m_segmentSize{0};
    uint32_t m_pmtu{0};
};

/** An LlpSocketDefaults on `node` starting at `start` (at once, if `start` is past). */
void InstallSocketDefaults(Ptr<Node> node, uint32_t segmentSize, uint32_t pmtu, Time start);

} // namespace ns3

#endif // IWARP_SCENARIO_SOCKET_DEFAULTS_H

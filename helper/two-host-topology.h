/*
 * TwoHostTopology: the smallest network the module runs on, two nodes on one point-to-point
 * link with IPv4 and (optionally) an RNIC each. Tests, benchmarks and examples that need just
 * that build it here instead of repeating the ns-3 boilerplate; larger topologies come from
 * the scenario runner.
 */
/**
 * \file
 * \ingroup iwarp-helper
 */
#ifndef IWARP_TWO_HOST_TOPOLOGY_H
#define IWARP_TWO_HOST_TOPOLOGY_H

#include "rnic/rnic.h"

#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-helper.h"

namespace ns3
{

class TwoHostTopology
{
  public:
    /**
     * Node 0 is the client, node 1 the server. Each node's TransportProfile gives its TCP sockets
     * `segmentSize` payload octets per segment and `socketBuffer`-octet send and receive buffers
     * (4 MiB: a bulk transfer's window); sockets made without TransportProfile::Configure keep
     * ns-3's defaults.
     */
    TwoHostTopology(DataRate rate,
                    Time delay,
                    bool withRnics = true,
                    uint32_t segmentSize = 1448,
                    uint32_t socketBuffer = 4u << 20);

    NodeContainer nodes;
    NetDeviceContainer devices;
    Ipv4Address clientAddress;
    Ipv4Address serverAddress;
    PointToPointHelper p2p;
    std::vector<Ptr<Rnic>> rnics; ///< empty without RNICs

    Ptr<Rnic> ClientRnic() const { return rnics.at(0); }
    Ptr<Rnic> ServerRnic() const { return rnics.at(1); }
};

} // namespace ns3

#endif // IWARP_TWO_HOST_TOPOLOGY_H

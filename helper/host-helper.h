/*
 * HostHelper: aggregates a host model to nodes: HostMemoryModel (the bus), HostCpuModel (the
 * cores and cycle costs) and the HostModel facade that composes them (doc/host-model.md).
 *
 *   HostHelper host;
 *   host.SetMemoryAttribute("Bandwidth", DataRateValue(DataRate("100Gbps")));
 *   host.SetCpuAttribute("Cores", UintegerValue(2));
 *   std::vector<Ptr<HostModel>> models = host.Install(nodes);
 *
 * The socket applications (SocketStream, SocketPingPong) charge a node's HostModel when it has
 * one and run uncharged otherwise. Installing twice on one node is an error.
 */
/**
 * \file
 * \ingroup iwarp-helper
 */
#ifndef IWARP_HOST_HELPER_H
#define IWARP_HOST_HELPER_H

#include "host/host-model.h"
#include "host/host-profile.h"

#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

class HostHelper
{
  public:
    HostHelper();

    /** An attribute of ns3::HostMemoryModel (Bandwidth, TransactionOverhead). */
    void SetMemoryAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of ns3::HostCpuModel (Cores, Frequency, CopyCyclesPerByte, ...). */
    void SetCpuAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of ns3::HostModel (TsoOctets, GroOctets). */
    void SetHostAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Every attribute `profile` sets (host/host-profile.h), over what was set before; attributes set
     * afterwards override it. Aborts on a value the attribute refuses (a built-in profile never has one).
     */
    void SetProfile(const HostProfile& profile);

    /** Aggregate a host model to every node; returns the facades in node order. */
    std::vector<Ptr<HostModel>> Install(NodeContainer nodes) const;
    Ptr<HostModel> Install(Ptr<Node> node) const;

  private:
    ObjectFactory m_memory;
    ObjectFactory m_cpu;
    ObjectFactory m_host;
};

} // namespace ns3

#endif // IWARP_HOST_HELPER_H

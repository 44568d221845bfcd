/*
 * IwarpHelper: installs an Rnic on each node of a container (the nodes need an Internet
 * stack first: the RNIC's LLP is ns-3's TCP). RNIC engine costs are set with
 * SetPipelineAttribute and apply to every QP created afterwards.
 */
#ifndef IWARP_HELPER_H
#define IWARP_HELPER_H

#include "rnic/iwarp-transport.h"
#include "rnic/rnic.h"

#include "ns3/node-container.h"

#include <string>

namespace ns3
{

class IwarpHelper
{
  public:
    /** An attribute of ns3::RnicPipeline (TxPerMessage, RxPerSegment, EngineRate, ...). */
    void SetPipelineAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of ns3::MpaConnection (Markers, Crc, Revision, ...). */
    void SetMpaAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of ns3::RdmapEndpoint (Ird, Ord). */
    void SetRdmapAttribute(const std::string& name, const AttributeValue& value);

    /** Aggregate an Rnic to every node; returns them in node order. */
    std::vector<Ptr<Rnic>> Install(NodeContainer nodes) const;
    Ptr<Rnic> Install(Ptr<Node> node) const;
};

} // namespace ns3

#endif // IWARP_HELPER_H

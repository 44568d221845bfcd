/*
 * IwarpHelper: installs an Rnic on each node of a container (the nodes need an Internet
 * stack first: the RNIC's LLP is ns-3's TCP).
 *
 * The helper holds its settings itself, never as ns-3 defaults: an ObjectFactory for the Rnic and
 * the attributes of the parts each RNIC makes later (pipelines, MPA connections, RDMAP endpoints,
 * ...), which every RNIC it installs keeps and gives to each part as it is made
 * (Rnic::SetPartAttribute).  Two helpers, or two runs in one process, do not see each other's.
 *
 *   IwarpHelper iwarp;
 *   iwarp.SetPipelineAttribute("TxPerMessage", TimeValue(NanoSeconds(550)));
 *   iwarp.SetMpaAttribute("Markers", BooleanValue(true));
 *   std::vector<Ptr<Rnic>> rnics = iwarp.Install(nodes);
 */
/**
 * \file
 * \ingroup iwarp-helper
 */
#ifndef IWARP_HELPER_H
#define IWARP_HELPER_H

#include "common/attribute-set.h"
#include "rnic/iwarp-transport.h"
#include "rnic/rnic.h"

#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class IwarpHelper
{
  public:
    IwarpHelper();

    /** An attribute of ns3::Rnic itself. */
    void SetRnicAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of ns3::RnicPipeline (TxPerMessage, RxPerSegment, EngineRate, ...). */
    void SetPipelineAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of ns3::MpaConnection (Markers, Crc, Revision, ...). */
    void SetMpaAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of ns3::RdmapEndpoint (Ird, Ord). */
    void SetRdmapAttribute(const std::string& name, const AttributeValue& value);
    /** An attribute of any part type an RNIC makes (see Rnic::SetPartAttribute). */
    void SetPartAttribute(TypeId part, const std::string& name, const AttributeValue& value);

    /** Aggregate an Rnic to every node; returns them in node order. */
    std::vector<Ptr<Rnic>> Install(NodeContainer nodes) const;
    Ptr<Rnic> Install(Ptr<Node> node) const;

  private:
    ObjectFactory m_rnic;
    AttributeSet m_parts;
};

} // namespace ns3

#endif // IWARP_HELPER_H

#include "helper/iwarp-helper.h"

#include "ns3/abort.h"
#include "ns3/config.h"

namespace ns3
{

// The pipeline, MPA connection and RDMAP endpoint of a QP are created inside the RNIC when a
// connection is made, so their attributes are set as defaults of their TypeIds.

void
IwarpHelper::SetPipelineAttribute(const std::string& name, const AttributeValue& value)
{
    Config::SetDefault("ns3::RnicPipeline::" + name, value);
}

void
IwarpHelper::SetMpaAttribute(const std::string& name, const AttributeValue& value)
{
    Config::SetDefault("ns3::MpaConnection::" + name, value);
}

void
IwarpHelper::SetRdmapAttribute(const std::string& name, const AttributeValue& value)
{
    Config::SetDefault("ns3::RdmapEndpoint::" + name, value);
}

Ptr<Rnic>
IwarpHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(node->GetObject<Rnic>(), "node " << node->GetId() << " already has an RNIC");
    Ptr<Rnic> rnic = CreateObject<Rnic>();
    node->AggregateObject(rnic);
    return rnic;
}

std::vector<Ptr<Rnic>>
IwarpHelper::Install(NodeContainer nodes) const
{
    std::vector<Ptr<Rnic>> out;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        out.push_back(Install(*it));
    }
    return out;
}

} // namespace ns3

#include "helper/iwarp-helper.h"

#include "mpa/mpa-connection.h"

#include "ns3/abort.h"

namespace ns3
{

IwarpHelper::IwarpHelper()
{
    m_rnic.SetTypeId(Rnic::GetTypeId());
}

void
IwarpHelper::SetRnicAttribute(const std::string& name, const AttributeValue& value)
{
    m_rnic.Set(name, value);
}

// The pipeline, MPA connection and RDMAP endpoint of a QP are made inside the RNIC when a
// connection is made: the RNIC keeps their settings and applies them to each (Rnic::ConfigurePart).

void
IwarpHelper::SetPipelineAttribute(const std::string& name, const AttributeValue& value)
{
    SetPartAttribute(RnicPipeline::GetTypeId(), name, value);
}

void
IwarpHelper::SetMpaAttribute(const std::string& name, const AttributeValue& value)
{
    SetPartAttribute(MpaConnection::GetTypeId(), name, value);
}

void
IwarpHelper::SetRdmapAttribute(const std::string& name, const AttributeValue& value)
{
    SetPartAttribute(RdmapEndpoint::GetTypeId(), name, value);
}

void
IwarpHelper::SetPartAttribute(TypeId part, const std::string& name, const AttributeValue& value)
{
    m_parts.Set(part, name, value); // checked here, where the setting is made
}

Ptr<Rnic>
IwarpHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(node->GetObject<Rnic>(), "node " << node->GetId() << " already has an RNIC");
    Ptr<Rnic> rnic = m_rnic.Create<Rnic>();
    rnic->SetPartAttributes(m_parts);
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

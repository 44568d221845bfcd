#include "ddp/llp-connector.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LlpConnector);

TypeId
LlpConnector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LlpConnector").SetParent<Object>().SetGroupName("Iwarp");
    return tid;
}

void
LlpConnector::DoDispose()
{
    m_node = nullptr;
    m_configurePart = PartCallback();
    Object::DoDispose();
}

} // namespace ns3

#include "net/gilbert-elliott-error-model.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GilbertElliottErrorModel");
NS_OBJECT_ENSURE_REGISTERED(GilbertElliottErrorModel);

TypeId
GilbertElliottErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GilbertElliottErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Iwarp")
            .AddConstructor<GilbertElliottErrorModel>()
            .AddAttribute("PGoodToBad",
                          "Per packet, the probability that the good state turns bad",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&GilbertElliottErrorModel::m_pGoodToBad),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("RBadToGood",
                          "Per packet, the probability that the bad state turns good "
                          "(mean bad run 1/r packets)",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&GilbertElliottErrorModel::m_rBadToGood),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("LossGood",
                          "Loss probability of a packet seen in the good state",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&GilbertElliottErrorModel::m_lossGood),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("LossBad",
                          "Loss probability of a packet seen in the bad state",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&GilbertElliottErrorModel::m_lossBad),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddTraceSource("Drop",
                            "A packet this model declared lost",
                            MakeTraceSourceAccessor(&GilbertElliottErrorModel::m_dropTrace),
                            "ns3::GilbertElliottErrorModel::DropTracedCallback");
    return tid;
}

GilbertElliottErrorModel::GilbertElliottErrorModel()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

int64_t
GilbertElliottErrorModel::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

bool
GilbertElliottErrorModel::DoCorrupt(Ptr<Packet> p)
{
    // Transition first, then decide with the new state: a bad run then lasts a geometric
    // number of packets with mean exactly 1/r, which is what the attribute documents.
    const double u = m_uniform->GetValue();
    m_bad = m_bad ? !(u < m_rBadToGood) : (u < m_pGoodToBad);
    // Skip the second draw where the outcome is certain, so plain loss costs one draw too.
    const double loss = m_bad ? m_lossBad : m_lossGood;
    const bool drop = loss >= 1.0 || (loss > 0.0 && m_uniform->GetValue() < loss);
    ++m_seen;
    if (drop)
    {
        ++m_dropped;
        if (!m_lastDropped)
        {
            ++m_bursts;
        }
        m_dropTrace(p);
        NS_LOG_LOGIC("drop packet " << p->GetUid() << (m_bad ? " (bad)" : " (good)"));
    }
    m_lastDropped = drop;
    return drop;
}

void
GilbertElliottErrorModel::DoReset()
{
    m_bad = false;
    m_lastDropped = false;
    m_seen = m_dropped = m_bursts = 0;
}

} // namespace ns3

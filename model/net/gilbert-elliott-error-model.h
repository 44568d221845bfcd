/*
 * GilbertElliottErrorModel: per-packet loss from a two-state Markov chain (good, bad), the
 * usual model of bursty loss on real links. With PGoodToBad = 0 it never leaves the good
 * state and is plain independent loss at rate LossGood, which is how TopologyBuilder makes
 * "random loss": one model, one set of counters per receiving device.
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_GILBERT_ELLIOTT_ERROR_MODEL_H
#define IWARP_GILBERT_ELLIOTT_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class GilbertElliottErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    GilbertElliottErrorModel();

    /** Use `stream` for the one random variable; returns the number of streams used (1). */
    int64_t AssignStreams(int64_t stream);

    bool IsBad() const { return m_bad; }
    uint64_t GetSeen() const { return m_seen; }
    uint64_t GetDropped() const { return m_dropped; }
    /** Runs of consecutive drops: GetDropped() / GetBursts() is the mean burst length. */
    uint64_t GetBursts() const { return m_bursts; }

    /** Signature of the Drop trace: the packet this model declared lost. */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    double m_pGoodToBad;
    double m_rBadToGood;
    double m_lossGood;
    double m_lossBad;
    Ptr<UniformRandomVariable> m_uniform;

    bool m_bad{false};
    bool m_lastDropped{false};
    uint64_t m_seen{0};
    uint64_t m_dropped{0};
    uint64_t m_bursts{0};
    TracedCallback<Ptr<const Packet>> m_dropTrace;
};

} // namespace ns3

#endif // IWARP_GILBERT_ELLIOTT_ERROR_MODEL_H

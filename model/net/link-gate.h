/*
 * LinkGate: a receive error model that stands for a link being cut. While the gate is down every
 * packet that reaches the receiving device is lost (a packet on the wire when the link goes down
 * included); while it is up each packet goes to the model it wraps (the link's own loss, if any)
 * or passes. One gate per receiving device, so a link can go down in one direction or both.
 * Scenario events (helper/scenario/scenario-events.h) open and close it at their times.
 */
/**
 * \file
 * \ingroup iwarp-net
 */
#ifndef IWARP_LINK_GATE_H
#define IWARP_LINK_GATE_H

#include "ns3/error-model.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class LinkGate : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    LinkGate();

    /** Wrap `inner` (may be null): it decides for packets that arrive while the gate is up. */
    void SetInner(Ptr<ErrorModel> inner) { m_inner = inner; }
    Ptr<ErrorModel> GetInner() const { return m_inner; }

    void SetDown(bool down) { m_down = down; }
    bool IsDown() const { return m_down; }
    /** Packets lost because the gate was down. */
    uint64_t GetDropped() const { return m_dropped; }

  protected:
    void DoDispose() override;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    Ptr<ErrorModel> m_inner;
    bool m_down{false};
    uint64_t m_dropped{0};
    TracedCallback<Ptr<const Packet>> m_dropTrace;
};

} // namespace ns3

#endif // IWARP_LINK_GATE_H

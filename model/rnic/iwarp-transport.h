/*
 * IwarpTransport: the RdmaTransport of iWARP. A queue pair's work goes through RDMAP (RFC 5040),
 * DDP (RFC 5041) and the RNIC's engine pipeline to an LLP stream (MPA over TCP, or SCTP):
 *
 *   QueuePair -> IwarpTransport -> RdmapEndpoint -> DdpEndpoint -> RnicPipeline -> LLP
 *
 * RDMAP completes work with the verbs-level WorkCompletion itself, so completions reach the QP
 * with no translation; its stream events are mapped to QpEvents here.
 *
 * The iWARP objects stay reachable for what is iWARP by nature (the scenario's Terminate and LLP
 * probes, the host model's per-segment DMA charge): those users go through IwarpTransport::Of /
 * Find, the one place a QP's transport is cast. IRD and ORD are RDMAP's, offered through the seam.
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_IWARP_TRANSPORT_H
#define IWARP_IWARP_TRANSPORT_H

#include "ddp/ddp-endpoint.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/rdma-transport.h"
#include "rnic/rnic-pipeline.h"

namespace ns3
{

class QueuePair;

class IwarpTransport : public RdmaTransport, private RdmapEndpoint::Owner
{
  public:
    static TypeId GetTypeId();
    IwarpTransport();

    /** The iWARP transport of `qp`, or null when it runs over another transport. */
    static Ptr<IwarpTransport> Find(Ptr<const QueuePair> qp);
    /** The iWARP transport of `qp`; `who` needs one, and another transport is a fatal error. */
    static Ptr<IwarpTransport> Of(Ptr<const QueuePair> qp, const char* who);

    /** `lower` must be a DdpLowerLayer (an MpaConnection or SctpDdpConnection). */
    void Bind(Ptr<Object> lower) override;
    bool PostSend(const SendWr& wr) override;
    bool PostRecv(uint64_t id, const LocalBuffer& buffer) override;
    void Close(bool graceful) override;
    void WatchPlacement(PlacementCallback cb) override;
    /** Each DDP segment's payload: placed (DdpEndpoint "Placed") and accepted by the LLP ("TxSegment"). */
    void WatchOctets(OctetsCallback placed, OctetsCallback sent) override;
    /** The pipeline, the DDP endpoint and the RDMAP endpoint. */
    std::vector<Ptr<Object>> Parts() const override;
    /** RDMAP's "Ird" and "Ord" (RFC 5040 §6.5, §6.6). */
    uint32_t GetIrd() const override;
    uint32_t GetOrd() const override;
    void SetOrd(uint32_t ord) override;

    Ptr<RdmapEndpoint> GetRdmap() const { return m_rdmap; }
    Ptr<DdpEndpoint> GetDdp() const { return m_ddp; }
    Ptr<RnicPipeline> GetPipeline() const { return m_pipeline; }
    /** The LLP stream the transport is bound to (null before Bind). */
    Ptr<DdpLowerLayer> GetLlp() const { return m_pipeline->GetInner(); }

  protected:
    void DoDispose() override;

  private:
    // RdmapEndpoint::Owner: RDMAP completes with the verbs type itself, so completions go straight to
    // the QP; its events are translated to the QP's.
    void OnRdmapCompletion(const RdmapCompletion& c) override { ReportCompletion(c); }
    void OnRdmapEvent(const RdmapEventInfo& e) override;

    Ptr<RnicPipeline> m_pipeline;
    Ptr<DdpEndpoint> m_ddp;
    Ptr<RdmapEndpoint> m_rdmap;
};

} // namespace ns3

#endif // IWARP_IWARP_TRANSPORT_H

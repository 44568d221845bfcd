#include "rnic/roce-transport.h"

#include "common/class-log-component.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(RoceTransport);
NS_OBJECT_ENSURE_REGISTERED(RoceTransport);

namespace
{
/** IBA §9.7.6.1.3's Local ACK Timeout code; 14 is perftest's default (67.1 ms). */
constexpr uint8_t kAckTimeoutCode = 14;
} // namespace

TypeId
RoceTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceTransport")
            .SetParent<RdmaTransport>()
            .SetGroupName("Iwarp")
            .AddConstructor<RoceTransport>()
            .AddAttribute("Mtu",
                          "Path MTU: payload octets per packet (InfiniBand's 256, 512, 1024, 2048 or 4096). "
                          "1024 is what RoCEv2 runs with on a 1500-octet Ethernet MTU",
                          UintegerValue(1024), MakeUintegerAccessor(&RoceTransport::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("AckTimeout",
                          "Local ACK timeout: how long the requester waits for an ACK before going back to the "
                          "first unacknowledged PSN (IBA: 4.096 us * 2^code; the default is code 14, perftest's)",
                          TimeValue(NanoSeconds(roce::IbTimeoutNs(kAckTimeoutCode))), MakeTimeAccessor(&RoceTransport::m_ackTimeout),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("RetryCount",
                          "Timeouts and NAKs in a row, without progress, before the queue pair fails (IBA's "
                          "retry_cnt; 7 is its most and perftest's default)",
                          UintegerValue(7), MakeUintegerAccessor(&RoceTransport::m_retryCount),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("AckEvery",
                          "The responder ACKs once per this many packets in order, and at once for a packet that "
                          "asks (the last of a message). A model choice: RNICs coalesce ACKs but do not publish "
                          "how; 1 ACKs every packet",
                          UintegerValue(16), MakeUintegerAccessor(&RoceTransport::m_ackEvery),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Recovery",
                          "How lost packets are recovered: GoBackN (everything again from the first "
                          "unacknowledged PSN, as commodity RNICs do) or SelectiveRepeat (IRN's: only what is "
                          "missing, the responder keeping what arrives past a gap)",
                          EnumValue(GO_BACK_N), MakeEnumAccessor(&RoceTransport::m_recoveryMode),
                          MakeEnumChecker(GO_BACK_N, "GoBackN", SELECTIVE_REPEAT, "SelectiveRepeat"))
            .AddAttribute("MaxInflight",
                          "Packets sent and not yet acknowledged, at most; 0 for no cap. IRN's BDP-FC sets it to "
                          "the bandwidth-delay product of the longest path in packets",
                          UintegerValue(0), MakeUintegerAccessor(&RoceTransport::m_maxInflight),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Ird", "Inbound RDMA Read depth, offered in connection set-up (as iWARP's default)",
                          UintegerValue(4), MakeUintegerAccessor(&RoceTransport::m_ird),
                          MakeUintegerChecker<uint8_t>(1))
            .AddAttribute("Ord", "Outbound RDMA Read depth: Reads outstanding at once (as iWARP's default)",
                          UintegerValue(4), MakeUintegerAccessor(&RoceTransport::m_ord),
                          MakeUintegerChecker<uint8_t>(1))
            .AddAttribute("EcnCapable",
                          "Send packets ECN-capable (ECT(0)), as RNICs do with DCQCN on, so that switches mark "
                          "instead of dropping",
                          BooleanValue(true), MakeBooleanAccessor(&RoceTransport::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("Dscp",
                          "The DSCP of the queue pair's packets: 26, which NVIDIA's RoCE configurations map to the "
                          "lossless priority 3 (a PFC port's priority is DSCP >> 3)",
                          UintegerValue(26), MakeUintegerAccessor(&RoceTransport::m_dscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("CnpDscp", "The DSCP of CNPs: 48 (priority 6), NVIDIA's default for CNPs",
                          UintegerValue(48), MakeUintegerAccessor(&RoceTransport::m_cnpDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("CongestionControl",
                          "Dcqcn (Zhu et al., SIGCOMM 2015: CNPs for CE marks, the rate cut and raised by "
                          "DcqcnRateControl; on by default, as RNICs ship) or None (the port's rate)",
                          EnumValue(CC_DCQCN), MakeEnumAccessor(&RoceTransport::m_ccMode),
                          MakeEnumChecker(CC_DCQCN, "Dcqcn", CC_NONE, "None"))
            .AddAttribute("CnpInterval",
                          "DCQCN's notification point sends at most one CNP per this interval (Zhu et al. 2015, "
                          "§3.1: N = 50 us)",
                          TimeValue(MicroSeconds(50)), MakeTimeAccessor(&RoceTransport::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("CnpSent", "DCQCN's notification point sent the peer a CNP",
                            MakeTraceSourceAccessor(&RoceTransport::m_cnpSentTrace), "ns3::TracedCallback::Void")
            .AddTraceSource("CnpReceived", "A CNP arrived (the rate control cuts the rate)",
                            MakeTraceSourceAccessor(&RoceTransport::m_cnpReceivedTrace),
                            "ns3::TracedCallback::Void")
            .AddTraceSource("Tx", "A packet sent: (PSN, opcode, whether it was sent before)",
                            MakeTraceSourceAccessor(&RoceTransport::m_txTrace),
                            "ns3::RoceTransport::PacketTracedCallback")
            .AddTraceSource("NakSent", "The responder sent a NAK for a PSN gap: (the expected PSN)",
                            MakeTraceSourceAccessor(&RoceTransport::m_nakTrace), "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Delivered",
                            "A message's data have all landed here (a Write or Send at the responder, a Read at "
                            "the requester): (tagged, length, first octet placed, delivered)",
                            MakeTraceSourceAccessor(&RoceTransport::m_deliveredTrace),
                            "ns3::RoceTransport::DeliveredTracedCallback")
            .AddTraceSource("Timeout", "The requester's ACK timer expired: (the first unacknowledged PSN)",
                            MakeTraceSourceAccessor(&RoceTransport::m_timeoutTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RoceTransport::RoceTransport()
    : m_rateControl(CreateObject<DcqcnRateControl>())
{
}

void
RoceTransport::DoDispose()
{
    Simulator::Cancel(m_txEvent);
    Simulator::Cancel(m_timer);
    if (m_rateControl)
    {
        m_rateControl->Dispose();
        m_rateControl = m_dcqcn = nullptr;
    }
    if (m_conn)
    {
        m_conn->Attach(nullptr);
        m_conn = nullptr;
    }
    m_device = nullptr;
    m_placed = PlacementCallback();
    m_octetsPlaced = m_octetsSent = OctetsCallback();
    m_sq.clear();
    m_recvs.clear();
    m_replies.clear();
    m_held.clear();
    m_in = Inbound();
    RdmaTransport::DoDispose();
}

void
RoceTransport::Bind(Ptr<Object> lower)
{
    m_conn = DynamicCast<RoceConnection>(lower);
    NS_ABORT_MSG_UNLESS(m_conn, "RoceTransport binds to a RoceConnection");
    NS_ABORT_MSG_UNLESS(roce::IsIbMtu(m_mtu), "RoceTransport Mtu " << m_mtu << " is not an InfiniBand MTU "
                                                                   << "(256, 512, 1024, 2048 or 4096)");
    RoceConnectionParams& p = m_conn->Params();
    if (p.mtu == 0)
    {
        p.mtu = m_mtu; // the initiator: its REQ carries this path MTU
    }
    else if (p.mtu != m_mtu)
    {
        NS_LOG_INFO("Mtu " << m_mtu << " -> " << p.mtu << ", the initiator's path MTU");
        m_mtu = p.mtu;
    }
    m_conn->Attach(this);
}

void
RoceTransport::OnConnectionUp()
{
    const RoceConnectionParams& p = m_conn->Params();
    m_conn->GetStack()->SourceFor(p.remote, &m_device);
    const uint32_t largest = PacketSize(roce::kRethLen, m_mtu);
    NS_ABORT_MSG_IF(largest > m_device->GetMtu(),
                    "RoCEv2 packets of " << largest << " octets (Mtu " << m_mtu << ") do not fit the "
                                         << m_device->GetMtu() << "-octet MTU of the port toward " << p.remote);
    m_addressing.source = p.local;
    m_addressing.destination = p.remote;
    m_addressing.sourcePort = p.sourcePort;
    m_addressing.tos = uint8_t(m_dscp << 2) | (m_ecnCapable ? roce::kEct0 : 0);
    // Work posted before set-up ended took PSNs from 0: move them to the agreed start.
    for (SendEntry& e : m_sq)
    {
        e.firstPsn = roce::PsnAdd(e.firstPsn, p.sendPsn);
    }
    m_nextPsn = roce::PsnAdd(m_nextPsn, p.sendPsn);
    m_txPsn = m_maxPsn = m_una = m_ackedTo = p.sendPsn;
    m_ePsn = p.receivePsn;
    if (m_ccMode == CC_DCQCN)
    {
        m_dcqcn = m_rateControl;
        m_dcqcn->Start(m_conn->GetStack()->PortRate(m_device));
    }
    m_up = true;
    ReportEvent(QpEventInfo{QpEvent::Established, {}});
    ScheduleTx();
}

bool
RoceTransport::PostSend(const SendWr& wr)
{
    const uint8_t access = wr.type == WrOpcode::Read ? MemAccess::kLocalWrite : MemAccess::kLocalRead;
    if (!m_conn || m_failed || m_closing || m_closed || wr.type == WrOpcode::Recv ||
        !ResolveLocal(wr.local, access, nullptr))
    {
        return false;
    }
    SendEntry e;
    e.wr = wr;
    e.firstPsn = m_nextPsn;
    e.packets = std::max<uint32_t>(1, uint32_t((uint64_t(wr.local.length) + m_mtu - 1) / m_mtu));
    // PSNs compare within half their 24-bit space: more outstanding would be ambiguous. The queue takes no
    // more until the oldest is acknowledged (as a full send queue refuses work).
    if (uint64_t(roce::PsnDiff(m_nextPsn, m_una)) + e.packets >= roce::kPsnWindow)
    {
        NS_LOG_WARN("send queue refused request " << wr.id << ": " << e.packets << " more PSNs would pass the "
                                                  << roce::kPsnWindow << " outstanding PSNs compare within");
        return false;
    }
    m_nextPsn = roce::PsnAdd(m_nextPsn, e.packets);
    m_sq.push_back(e);
    ScheduleTx();
    return true;
}

bool
RoceTransport::PostRecv(uint64_t id, const LocalBuffer& buffer)
{
    if (!m_conn || m_failed || m_closed || !ResolveLocal(buffer, MemAccess::kLocalWrite, nullptr))
    {
        return false;
    }
    m_recvs.push_back(Recv{id, buffer});
    return true;
}

void
RoceTransport::SetOrd(uint32_t ord)
{
    m_ord = std::min(m_ord, ord);
}

void
RoceTransport::OnRocePacket(Ptr<Packet> packet, uint8_t ecn)
{
    RoceReceived rx;
    if (m_failed || m_closed || !ParseRocePacket(packet, rx))
    {
        NS_LOG_DEBUG("dropped a packet: " << (m_failed || m_closed ? "stream ended" : "malformed"));
        return;
    }
    NotifyCongestion(ecn, rx.bth.GetOpcode());
    switch (rx.bth.GetOpcode())
    {
    case IbOpcode::Acknowledge:
        OnAcknowledge(rx.bth, rx.aeth, rx.irnSack ? &rx.irnSackPsn : nullptr);
        break;
    case IbOpcode::ReadResponseFirst:
    case IbOpcode::ReadResponseMiddle:
    case IbOpcode::ReadResponseLast:
    case IbOpcode::ReadResponseOnly:
        OnReadResponse(rx.bth, packet);
        break;
    case IbOpcode::Cnp:
        ++m_cnpsReceived;
        m_cnpReceivedTrace();
        if (m_dcqcn)
        {
            m_dcqcn->OnCnp();
        }
        break;
    default:
        OnRequest(rx, packet);
        break;
    }
}

// ------------------------------------------------------------------------------------------------------
// Output: one packet at a time, each when the port is free; a responder's replies go before new requests,
// and in their own order (so an ACK never overtakes the Read Responses before it).
// ------------------------------------------------------------------------------------------------------

uint32_t
RoceTransport::PacketSize(uint32_t extended, uint32_t payload) const
{
    return roce::kFramingLen + roce::kBthLen + extended + payload + roce::PadFor(payload);
}

bool
RoceTransport::NextPacket(uint32_t* octets, bool* rated)
{
    if (!m_replies.empty())
    {
        const Reply& r = m_replies.front();
        const IbOpcodeLayout l = LayoutOf(r.opcode);
        *octets = PacketSize(l.aeth ? roce::kAethLen : 0, r.sack ? roce::kIrnSackLen : r.length);
        *rated = r.opcode != IbOpcode::Acknowledge;
        return true;
    }
    if (HasRequestToSend())
    {
        *octets = RequestOctets();
        *rated = true;
        return true;
    }
    return false;
}

void
RoceTransport::ScheduleTx()
{
    if (!m_up || m_failed || m_closed || (m_txEvent.IsRunning() && !m_txGated))
    {
        return;
    }
    uint32_t octets = 0;
    bool rated = false;
    if (!NextPacket(&octets, &rated))
    {
        TryFinishClose();
        return;
    }
    const Time now = Simulator::Now();
    if (rated && m_dcqcn && m_dcqcn->IsLimiting() && m_rateFree > now)
    {
        // Wait for the rate without holding the port; an ACK queued meanwhile goes at once (below).
        if (!m_txEvent.IsRunning())
        {
            m_txGated = true;
            m_txEvent = Simulator::Schedule(m_rateFree - now, &RoceTransport::RateGateOpen, this);
        }
        return;
    }
    Simulator::Cancel(m_txEvent);
    m_txGated = false;
    // The port's slot for this very packet: queue pairs share its rate as it is, packet by packet.
    const Time at = m_conn->GetStack()->ReserveTx(m_device, octets);
    m_txEvent = Simulator::Schedule(at - now, &RoceTransport::TxNext, this);
}

void
RoceTransport::TxNext()
{
    if (m_failed || m_closed)
    {
        return;
    }
    if (!m_replies.empty())
    {
        const Reply r = m_replies.front();
        m_replies.pop_front();
        SendReply(r);
        if (r.failAfter)
        {
            Fail(QpEvent::LocalError, WcStatus::Flushed);
            return;
        }
    }
    else if (HasRequestToSend())
    {
        SendRequest();
    }
    ScheduleTx();
}

void
RoceTransport::SendReply(const Reply& r)
{
    RoceBth bth;
    bth.SetOpcode(r.opcode);
    bth.SetDestQp(m_conn->Params().remoteQpn);
    bth.SetPsn(r.psn);
    if (r.sack)
    {
        uint8_t sack[roce::kIrnSackLen];
        roce::WriteIrnSack(sack, r.sackPsn);
        SendPacket(bth, &r.aeth, sack, roce::kIrnSackLen, false);
        return;
    }
    const bool aeth = LayoutOf(r.opcode).aeth;
    const uint8_t* data = r.source.buffer && r.source.buffer->Data() ? r.source.buffer->Data() + r.offset : nullptr;
    SendPacket(bth, aeth ? &r.aeth : nullptr, data, r.length, r.opcode != IbOpcode::Acknowledge);
}

void
RoceTransport::SendPacket(const RoceBth& bthIn, const Header* ext, const uint8_t* payload, uint32_t len,
                          bool countsAsData)
{
    RoceBth bth = bthIn;
    bth.SetPadCount(roce::PadFor(len));
    RoceTransportOctets headers;
    headers.Add(bth);
    if (ext)
    {
        headers.Add(*ext);
    }
    Ptr<RoceStack> stack = m_conn->GetStack();
    Ptr<Packet> packet = BuildRocePacket(m_addressing, stack->NextIpId(), headers, payload, len);
    if (m_dcqcn && m_dcqcn->IsLimiting() && bth.GetOpcode() != IbOpcode::Acknowledge)
    {
        // DCQCN's rate limiter: the next paced packet no sooner than this one's time at the current rate (at
        // the line rate the port is the slower, and ScheduleTx does not look).
        m_rateFree = Simulator::Now() + DataRate(uint64_t(m_dcqcn->GetRateBps())).CalculateBytesTxTime(packet->GetSize());
        m_dcqcn->OnSent(packet->GetSize());
    }
    stack->Send(packet, m_addressing.destination);
    if (countsAsData && len > 0 && !m_octetsSent.IsNull())
    {
        m_octetsSent(len);
    }
}

// ------------------------------------------------------------------------------------------------------
// Completions, errors and the end of the stream
// ------------------------------------------------------------------------------------------------------

void
RoceTransport::Complete(const SendEntry& e, WcStatus status)
{
    WorkCompletion c;
    c.id = e.wr.id;
    c.type = e.wr.type;
    c.status = status;
    c.byteLength = status == WcStatus::Success ? e.wr.local.length : 0;
    if (e.wr.type == WrOpcode::Read && status == WcStatus::Success)
    {
        c.firstPlaced = e.firstPlaced;
        c.delivered = Simulator::Now();
    }
    ReportCompletion(c);
}

void
RoceTransport::Fail(QpEvent event, WcStatus status)
{
    if (m_failed || m_closed)
    {
        return;
    }
    m_failed = true;
    Simulator::Cancel(m_txEvent);
    Simulator::Cancel(m_timer);
    if (m_dcqcn)
    {
        m_dcqcn->Stop();
    }
    std::deque<SendEntry> sends;
    sends.swap(m_sq);
    std::deque<Recv> recvs;
    recvs.swap(m_recvs);
    m_replies.clear();
    m_held.clear();
    if (m_in.kind == Inbound::Send)
    {
        recvs.push_front(m_in.recv); // taken from the queue, not completed: flushed with the rest
    }
    m_in = Inbound();
    for (const SendEntry& s : sends)
    {
        Complete(s, s.failed ? s.failStatus : status);
    }
    for (const Recv& r : recvs)
    {
        WorkCompletion c;
        c.id = r.id;
        c.type = WrOpcode::Recv;
        c.status = event == QpEvent::Closed ? WcStatus::Flushed : status;
        ReportCompletion(c);
    }
    ReportEvent(QpEventInfo{event, {}});
    if (m_closing && event != QpEvent::Closed)
    {
        FinishClose(); // a close asked for by a completion's handler, or before the failure
    }
}

void
RoceTransport::Close(bool graceful)
{
    if (m_closing || m_closed)
    {
        return;
    }
    m_closing = true;
    if (!graceful || m_failed || !m_up)
    {
        FinishClose();
        return;
    }
    if (m_unacked > 0)
    {
        Ack(); // what the peer sent last is acknowledged before the stream goes
    }
    TryFinishClose();
}

void
RoceTransport::TryFinishClose()
{
    // Graceful: this end's requests are done and what it owes the peer (ACKs, Read Responses) has left.
    if (m_closing && !m_closed && m_sq.empty() && m_replies.empty() && !m_txEvent.IsRunning())
    {
        FinishClose();
    }
}

void
RoceTransport::FinishClose()
{
    if (m_closed)
    {
        return;
    }
    Fail(QpEvent::Closed, WcStatus::Flushed);
    m_closed = true;
    if (m_conn)
    {
        m_conn->Close(DdpLowerLayer::CloseMode::Graceful);
    }
}

void
RoceTransport::OnPeerDisconnected()
{
    m_closing = true;
    FinishClose();
}

void
RoceTransport::WatchPlacement(PlacementCallback cb)
{
    m_placed = cb;
}

void
RoceTransport::WatchOctets(OctetsCallback placed, OctetsCallback sent)
{
    m_octetsPlaced = placed;
    m_octetsSent = sent;
}

void
RoceTransport::Placed(uint32_t stag, uint64_t to, uint64_t length) const
{
    if (!m_placed.IsNull())
    {
        m_placed(stag, to, length);
    }
    if (!m_octetsPlaced.IsNull() && length > 0)
    {
        m_octetsPlaced(length);
    }
}

} // namespace ns3

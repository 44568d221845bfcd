/*
 * SctpSocket: attributes, the ns3::Socket API and dispatch of received chunks; see sctp-socket.h.
 */
#include "sctp/sctp-socket.h"

#include "common/iwarp-constants.h"

#include "sctp/sctp-error-chunk.h"
#include "sctp/sctp-init-chunk.h"
#include "sctp/sctp-l4-protocol.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"
#include "common/class-log-component.h"

namespace ns3
{

IWARP_CLASS_LOG_COMPONENT_DEFINE(SctpSocket)
NS_OBJECT_ENSURE_REGISTERED(SctpSocket);

// ------------------------------------------------------------------------------------------- SctpSocket

TypeId
SctpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpSocket")
            .SetParent<Socket>()
            .SetGroupName("Iwarp")
            .AddConstructor<SctpSocket>()
            .AddAttribute("RtoInitial", "RTO.Initial (RFC 9260 §16)", TimeValue(Seconds(1)),
                          MakeTimeAccessor(&SctpSocket::m_rtoInitial), MakeTimeChecker())
            .AddAttribute("RtoMin", "RTO.Min", TimeValue(Seconds(1)),
                          MakeTimeAccessor(&SctpSocket::m_rtoMin), MakeTimeChecker())
            .AddAttribute("RtoMax", "RTO.Max", TimeValue(Seconds(60)),
                          MakeTimeAccessor(&SctpSocket::m_rtoMax), MakeTimeChecker())
            .AddAttribute("RtoAlpha", "RTO.Alpha", DoubleValue(0.125),
                          MakeDoubleAccessor(&SctpSocket::m_rtoAlpha), MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RtoBeta", "RTO.Beta", DoubleValue(0.25),
                          MakeDoubleAccessor(&SctpSocket::m_rtoBeta), MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ValidCookieLife", "Valid.Cookie.Life", TimeValue(Seconds(60)),
                          MakeTimeAccessor(&SctpSocket::m_validCookieLife), MakeTimeChecker())
            .AddAttribute("AssociationMaxRetrans", "Association.Max.Retrans", UintegerValue(10),
                          MakeUintegerAccessor(&SctpSocket::m_assocMaxRetrans), MakeUintegerChecker<uint32_t>())
            .AddAttribute("PathMaxRetrans",
                          "Path.Max.Retrans: timeouts past which a destination is inactive (the association "
                          "gives up past min(Association.Max.Retrans, paths x Path.Max.Retrans))",
                          UintegerValue(5), MakeUintegerAccessor(&SctpSocket::m_pathMaxRetrans),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxInitRetransmits", "Max.Init.Retransmits", UintegerValue(8),
                          MakeUintegerAccessor(&SctpSocket::m_maxInitRetransmits),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HbInterval", "HB.interval", TimeValue(Seconds(30)),
                          MakeTimeAccessor(&SctpSocket::m_hbInterval), MakeTimeChecker())
            .AddAttribute("HeartbeatEnabled", "Send HEARTBEATs on an idle path", BooleanValue(true),
                          MakeBooleanAccessor(&SctpSocket::m_hbEnabled), MakeBooleanChecker())
            .AddAttribute("MaxBurst", "Max.Burst: packets of new data sent at once", UintegerValue(4),
                          MakeUintegerAccessor(&SctpSocket::m_maxBurst), MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("InitialCwnd",
                          "Initial congestion window in MTUs (0: RFC 9260 §7.2.1, min(4 MTU, max(2 MTU, 4380 "
                          "octets)), as Linux's SCTP uses)",
                          UintegerValue(0), MakeUintegerAccessor(&SctpSocket::m_initialCwnd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SackDelay", "Delayed SACK timeout (at most 500 ms)", TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&SctpSocket::m_sackDelay), MakeTimeChecker(Time(0), MilliSeconds(500)))
            .AddAttribute("SackFrequency", "Packets with DATA that trigger a SACK at once", UintegerValue(2),
                          MakeUintegerAccessor(&SctpSocket::m_sackFreq), MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Pmtu", "Path MTU in octets (IPv4 header included)", UintegerValue(1500),
                          MakeUintegerAccessor(&SctpSocket::m_pmtu), MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("SndBufSize", "Send buffer (queued and unacknowledged user data)", UintegerValue(262144),
                          MakeUintegerAccessor(&SctpSocket::m_sndBufSize), MakeUintegerChecker<uint32_t>())
            .AddAttribute("RcvBufSize", "Receive buffer; a_rwnd is what of it is free", UintegerValue(262144),
                          MakeUintegerAccessor(&SctpSocket::m_rcvBufSize), MakeUintegerChecker<uint32_t>(1500))
            .AddAttribute("OutboundStreams", "Number of outbound streams requested (OS)", UintegerValue(10),
                          MakeUintegerAccessor(&SctpSocket::m_requestedOutStreams),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("MaxInboundStreams", "Maximum inbound streams accepted (MIS)", UintegerValue(10),
                          MakeUintegerAccessor(&SctpSocket::m_maxInStreams), MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("DefaultPpid", "PPID of messages sent with Send() and no SctpMessageTag",
                          UintegerValue(0), MakeUintegerAccessor(&SctpSocket::m_defaultPpid),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SendAdaptationIndication", "Put an Adaptation Layer Indication in INIT / INIT ACK",
                          BooleanValue(false), MakeBooleanAccessor(&SctpSocket::m_sendAdaptation),
                          MakeBooleanChecker())
            .AddAttribute("AdaptationCode", "Adaptation Code Point (RFC 5043: 1 = DDP)", UintegerValue(1),
                          MakeUintegerAccessor(&SctpSocket::m_adaptationCode), MakeUintegerChecker<uint32_t>())
            .AddAttribute("CookiePreservative", "Cookie Preservative to ask for in INIT, ms (0: none)",
                          UintegerValue(0), MakeUintegerAccessor(&SctpSocket::m_cookiePreservativeMs),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CongestionOps", "Congestion control policy (a subclass of ns3::SctpCongestionOps)",
                          TypeIdValue(SctpRfc9260Congestion::GetTypeId()),
                          MakeTypeIdAccessor(&SctpSocket::m_ccTypeId), MakeTypeIdChecker())
            .AddAttribute("Multihoming",
                          "List every address of this node in INIT / INIT ACK, so the peer may fail over to "
                          "another (RFC 9260 §6.4); off, one address, RFC 5043 §7.2's default",
                          BooleanValue(false), MakeBooleanAccessor(&SctpSocket::m_multihoming),
                          MakeBooleanChecker())
            .AddTraceSource("State", "Association state", MakeTraceSourceAccessor(&SctpSocket::m_state),
                            "ns3::SctpSocket::StateTracedCallback")
            .AddTraceSource("CongestionWindow", "cwnd in bytes",
                            MakeTraceSourceAccessor(&SctpSocket::m_cwndTrace), "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("SlowStartThreshold", "ssthresh in bytes",
                            MakeTraceSourceAccessor(&SctpSocket::m_ssthreshTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Rto", "Retransmission timeout", MakeTraceSourceAccessor(&SctpSocket::m_rtoTrace),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("Rtt",
                            "Smoothed round-trip time, SRTT (RFC 9260 6.3.1); 0 before the first measurement",
                            MakeTraceSourceAccessor(&SctpSocket::m_srttTrace),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("BytesInFlight", "Outstanding DATA octets",
                            MakeTraceSourceAccessor(&SctpSocket::m_flightTrace), "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Retransmission", "A DATA chunk retransmitted (TSN, fast)",
                            MakeTraceSourceAccessor(&SctpSocket::m_rtxTrace),
                            "ns3::SctpSocket::RetransmissionTracedCallback")
            .AddTraceSource("RetransmissionTimeout",
                            "T3-rtx expired with DATA outstanding (the backed-off RTO)",
                            MakeTraceSourceAccessor(&SctpSocket::m_t3ExpiredTrace),
                            "ns3::SctpSocket::RetransmissionTimeoutTracedCallback")
            .AddTraceSource("ChunkTx", "A chunk sent", MakeTraceSourceAccessor(&SctpSocket::m_chunkTxTrace),
                            "ns3::SctpSocket::ChunkTracedCallback")
            .AddTraceSource("ChunkRx", "A chunk received (after the verification tag check)",
                            MakeTraceSourceAccessor(&SctpSocket::m_chunkRxTrace),
                            "ns3::SctpSocket::ChunkTracedCallback")
            .AddTraceSource("PathState", "A destination became active or inactive (address, active)",
                            MakeTraceSourceAccessor(&SctpSocket::m_pathStateTrace),
                            "ns3::SctpSocket::PathStateTracedCallback")
            .AddTraceSource("DataPath", "New DATA goes to another destination (from, to): failover or back",
                            MakeTraceSourceAccessor(&SctpSocket::m_dataPathTrace),
                            "ns3::SctpSocket::DataPathTracedCallback")
            .AddTraceSource("Heartbeat", "A HEARTBEAT sent (destination)",
                            MakeTraceSourceAccessor(&SctpSocket::m_heartbeatTrace),
                            "ns3::SctpSocket::AddressTracedCallback");
    return tid;
}

SctpSocket::SctpSocket()
{
    m_rng = CreateObject<UniformRandomVariable>();
}

SctpSocket::~SctpSocket() = default;

void
SctpSocket::SetSctp(Ptr<SctpL4Protocol> sctp)
{
    m_sctp = sctp;
}

void
SctpSocket::DoDispose()
{
    m_t1.Cancel();
    m_t2.Cancel();
    m_sackTimer.Cancel();
    for (SctpPath& p : m_paths)
    {
        p.CancelTimers();
    }
    m_sctp = nullptr;
    m_node = nullptr;
    m_listener = nullptr;
    m_ccOps = nullptr;
    Socket::DoDispose();
}

void
SctpSocket::CopyConfigFrom(Ptr<SctpSocket> listener)
{
    // An accepted association inherits the listener's attributes, whatever they are, by walking the TypeId.
    TypeId tid = GetTypeId();
    for (uint32_t k = 0; k < tid.GetAttributeN(); ++k)
    {
        TypeId::AttributeInformation info = tid.GetAttribute(k);
        if ((info.flags & TypeId::ATTR_GET) && (info.flags & TypeId::ATTR_SET))
        {
            Ptr<AttributeValue> v = info.checker->Create();
            listener->GetAttribute(info.name, *v);
            SetAttribute(info.name, *v);
        }
    }
}

void
SctpSocket::ReleaseLocalPort()
{
    if (m_portHeld)
    {
        m_sctp->ReleasePort(m_localPort);
        m_portHeld = false;
    }
}

uint32_t
SctpSocket::PacketBudget() const
{
    return m_pmtu - iwarp::kIpv4HeaderLen - SctpCommonHeader::kSize;
}

uint32_t
SctpSocket::MaxDataPayload() const
{
    return PacketBudget() - 4 - SctpDataChunk::kFixedValueLen;
}

int
SctpSocket::Bind(const Address& address)
{
    if (!InetSocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_AFNOSUPPORT;
        return -1;
    }
    if (m_localPort != 0)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    InetSocketAddress a = InetSocketAddress::ConvertFrom(address);
    uint16_t port = m_sctp->AllocatePort(a.GetPort());
    if (port == 0)
    {
        m_errno = ERROR_ADDRINUSE;
        return -1;
    }
    m_localPort = port;
    m_portHeld = true;
    m_localAddress = a.GetIpv4();
    return 0;
}

int
SctpSocket::Bind()
{
    return Bind(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
SctpSocket::Bind6()
{
    m_errno = ERROR_AFNOSUPPORT;
    return -1;
}

int
SctpSocket::Listen()
{
    if (m_localPort == 0 || m_state != SctpState::Closed)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (!m_sctp->AddListener(m_localPort, this))
    {
        m_errno = ERROR_ADDRINUSE;
        return -1;
    }
    m_listening = true;
    return 0;
}

int
SctpSocket::Connect(const Address& address)
{
    if (!InetSocketAddress::IsMatchingType(address) || m_listening || m_state != SctpState::Closed)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (m_localPort == 0 && Bind() != 0)
    {
        return -1;
    }
    InetSocketAddress a = InetSocketAddress::ConvertFrom(address);
    m_peerAddress = a.GetIpv4();
    m_peerPort = a.GetPort();
    if (m_localAddress == Ipv4Address::GetAny())
    {
        m_localAddress = m_sctp->SourceFor(m_peerAddress);
    }
    if (!m_sctp->AddAssociation(m_localPort, m_peerAddress, m_peerPort, this))
    {
        m_errno = ERROR_ADDRINUSE;
        return -1;
    }
    m_registered = true;
    Fire(SctpEvent::AssociateCmd);
    return 0;
}

int
SctpSocket::Close()
{
    if (m_listening)
    {
        m_sctp->RemoveListener(m_localPort);
        m_listening = false;
        ReleaseLocalPort();
        return 0;
    }
    if (m_state == SctpState::Closed)
    {
        ReleaseLocalPort(); // bound but never associated (or already closed: then a no-op)
        return 0;
    }
    Fire(SctpEvent::ShutdownCmd);
    return 0;
}

int
SctpSocket::ShutdownSend()
{
    m_shutdownSend = true;
    Fire(SctpEvent::ShutdownCmd);
    return 0;
}

int
SctpSocket::ShutdownRecv()
{
    return 0;
}

int
SctpSocket::Abort()
{
    if (m_state == SctpState::Closed)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    const char reason[] = "user abort";
    SendAbort(SctpCauseCode::UserInitiatedAbort, std::vector<uint8_t>(reason, reason + sizeof(reason) - 1));
    Fire(SctpEvent::AbortCmd);
    return 0;
}

uint32_t
SctpSocket::GetTxAvailable() const
{
    uint64_t used = m_txq.GetBufferedBytes();
    return used >= m_sndBufSize ? 0 : uint32_t(m_sndBufSize - used);
}

int
SctpSocket::Send(Ptr<Packet> p, uint32_t)
{
    SctpMessageTag tag;
    if (p->PeekPacketTag(tag))
    {
        return SendMsg(p, tag.stream, tag.ppid, tag.unordered);
    }
    return SendMsg(p, 0, m_defaultPpid, false);
}

int
SctpSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address&)
{
    return Send(p, flags);
}

int
SctpSocket::SendMsg(Ptr<Packet> p, uint16_t stream, uint32_t ppid, bool unordered)
{
    SctpState s = m_state;
    bool open = s == SctpState::CookieWait || s == SctpState::CookieEchoed || s == SctpState::Established;
    if (!open || m_shutdownSend)
    {
        m_errno = s == SctpState::Closed ? ERROR_NOTCONN : ERROR_SHUTDOWN;
        return -1;
    }
    if (p->GetSize() == 0)
    {
        m_errno = ERROR_INVAL; // RFC 9260: DATA without user data is a protocol violation
        return -1;
    }
    // Streams are known once the handshake is done; before that, check against what we will ask for.
    uint16_t limit = s == SctpState::Established ? m_outStreams : m_requestedOutStreams;
    if (stream >= limit)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (p->GetSize() > m_sndBufSize)
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    if (p->GetSize() > GetTxAvailable())
    {
        m_errno = ERROR_AGAIN;
        return -1;
    }
    std::vector<uint8_t> msg(p->GetSize());
    p->CopyData(msg.data(), uint32_t(msg.size()));
    if (m_nextSsn.size() <= stream)
    {
        m_nextSsn.resize(stream + 1, 0);
    }
    uint16_t ssn = unordered ? 0 : m_nextSsn[stream]++;
    m_txq.Enqueue(msg, stream, ssn, ppid, unordered, MaxDataPayload());
    if (s == SctpState::Established)
    {
        TrySend();
    }
    return int(msg.size());
}

uint32_t
SctpSocket::GetRxAvailable() const
{
    uint32_t n = 0;
    for (const auto& m : m_rxBuffer)
    {
        n += uint32_t(m.data.size());
    }
    return n - m_rxOffset;
}

Ptr<Packet>
SctpSocket::Recv(uint32_t maxSize, uint32_t)
{
    if (m_rxBuffer.empty())
    {
        m_errno = ERROR_AGAIN;
        return nullptr;
    }
    SctpMessage& m = m_rxBuffer.front();
    uint32_t left = uint32_t(m.data.size()) - m_rxOffset;
    uint32_t n = std::min(left, maxSize);
    Ptr<Packet> p = Create<Packet>(m.data.data() + m_rxOffset, n);
    SctpMessageTag tag;
    tag.stream = m.stream;
    tag.ssn = m.ssn;
    tag.ppid = m.ppid;
    tag.tsn = m.firstTsn;
    tag.unordered = m.unordered;
    tag.eor = n == left;
    p->AddPacketTag(tag);
    if (tag.eor)
    {
        m_rxBuffer.pop_front();
        m_rxOffset = 0;
    }
    else
    {
        m_rxOffset += n;
    }
    uint32_t before = m_rxq.GetArwnd();
    m_rxq.OnUserRead(n);
    // Window update (§6.2): tell a sender blocked by a small window that it opened by an MTU or more.
    if (m_state == SctpState::Established && before < m_pmtu && m_rxq.GetArwnd() >= before + m_pmtu)
    {
        SendSack();
    }
    return p;
}

Ptr<Packet>
SctpSocket::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p != nullptr)
    {
        fromAddress = InetSocketAddress(m_peerAddress, m_peerPort);
    }
    return p;
}

int
SctpSocket::GetSockName(Address& address) const
{
    address = InetSocketAddress(m_localAddress, m_localPort);
    return 0;
}

int
SctpSocket::GetPeerName(Address& address) const
{
    if (m_state == SctpState::Closed)
    {
        return -1;
    }
    address = InetSocketAddress(m_peerAddress, m_peerPort);
    return 0;
}

void
SctpSocket::SendChunks(const std::vector<std::shared_ptr<SctpChunk>>& chunks, uint32_t vtag)
{
    SendChunksTo(chunks, m_dataPath, vtag);
}

void
SctpSocket::SendChunksTo(const std::vector<std::shared_ptr<SctpChunk>>& chunks, uint8_t p, uint32_t vtag)
{
    SctpPacket pkt;
    pkt.header.SetSourcePort(m_localPort);
    pkt.header.SetDestinationPort(m_peerPort);
    pkt.header.SetVerificationTag(vtag);
    for (const auto& c : chunks)
    {
        m_chunkTxTrace(*c);
        pkt.Add(c);
    }
    m_sctp->SendPacket(pkt, m_paths[p].source, m_paths[p].address);
}

void
SctpSocket::SendChunks(const std::vector<std::shared_ptr<SctpChunk>>& chunks)
{
    SendChunks(chunks, m_peerTag);
}

} // namespace ns3

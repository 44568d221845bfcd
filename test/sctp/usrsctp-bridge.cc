/*
 * The model <-> usrsctp bridge; see usrsctp-bridge.h.
 */
#include "sctp/usrsctp-bridge.h"

#ifdef IWARP_HAVE_USRSCTP

#include "helper/sctp-helper.h"
#include "sctp/sctp-chunk.h"
#include "sctp/sctp-wire.h"

#include "ns3/abort.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/simulator.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/time.h>

namespace ns3
{
namespace iwarptest
{

namespace
{

/** What the model sends after the bridge is gone goes nowhere (teardown order). */
void
DiscardModelOutput(Ptr<Packet>, Ipv4Address, Ipv4Address, uint8_t, Ptr<Ipv4Route>)
{
}

} // namespace

// ------------------------------------------------------------------------------------------- BridgeLink

BridgeLink::BridgeLink(const Config& c, Deliver deliver)
    : m_cfg(c),
      m_deliver(std::move(deliver)),
      m_rng(c.seed)
{
}

void
BridgeLink::Send(const uint8_t* bytes, size_t len)
{
    if (!m_open)
    {
        return;
    }
    Inspect(bytes, len);
    Time now = Simulator::Now();
    while (!m_departures.empty() && m_departures.front() <= now)
    {
        m_departures.pop_front();
    }
    if (m_departures.size() >= m_cfg.queueLimit)
    {
        ++m_stats.queueDrops;
        return;
    }
    Time start = std::max(now, m_busyUntil);
    m_stats.maxQueueDelay = std::max(m_stats.maxQueueDelay, start - now);
    m_busyUntil = start + m_cfg.rate.CalculateBytesTxTime(uint32_t(len) + m_cfg.ipOverhead);
    m_departures.push_back(m_busyUntil);
    // Lost on the wire: the packet used its share of the link, then never arrives. One draw per packet
    // that makes it onto the link, from this direction's own generator, so the pattern is repeatable.
    if (double(m_rng() >> 11) * 0x1.0p-53 < m_cfg.loss)
    {
        ++m_stats.lost;
        return;
    }
    Simulator::Schedule(m_busyUntil + m_cfg.delay - now,
                        &BridgeLink::Arrive,
                        this,
                        std::vector<uint8_t>(bytes, bytes + len));
}

void
BridgeLink::Inspect(const uint8_t* bytes, size_t len)
{
    ++m_stats.packets;
    m_stats.octets += len;
    m_stats.largest = std::max(m_stats.largest, uint32_t(len));
    // Chunks after the 12-octet common header: type, flags, length (without padding), value, padding.
    sctp::WireReader r(bytes, len);
    r.Skip(SctpCommonHeader::kSize);
    if (r.Remaining() < 4)
    {
        ++m_stats.malformed;
        return;
    }
    while (r.Remaining() >= 4)
    {
        uint8_t type = r.U8();
        r.U8(); // flags
        uint16_t clen = r.U16();
        if (clen < 4 || size_t(clen - 4) > r.Remaining())
        {
            ++m_stats.malformed;
            return;
        }
        ++m_stats.chunks[type];
        size_t valueLeft = clen - 4;
        if (type == uint8_t(SctpChunkType::Data) && clen >= 16) // TSN, stream, SSN, PPID, user data
        {
            ++m_stats.dataChunks;
            m_stats.dataOctets += clen - 16;
            if (!m_tsns.insert(r.U32()).second)
            {
                ++m_stats.dataRetransmitted;
            }
            valueLeft -= 4;
        }
        r.Skip(std::min<size_t>(valueLeft + sctp::PadLen(clen), r.Remaining())); // the last chunk may be unpadded
    }
}

void
BridgeLink::Arrive(std::vector<uint8_t> bytes)
{
    if (!m_open)
    {
        return;
    }
    ++m_stats.delivered;
    m_deliver(std::move(bytes));
}

// ------------------------------------------------------------------------------------------- UsrsctpBridge

UsrsctpBridge* UsrsctpBridge::s_current = nullptr;

UsrsctpBridge::UsrsctpBridge(const BridgeLink::Config& toModel, const BridgeLink::Config& toUsrsctp)
    : m_toModel(toModel, [this](std::vector<uint8_t> b) { DeliverToModel(std::move(b)); }),
      m_toUsrsctp(toUsrsctp, [this](std::vector<uint8_t> b) { DeliverToUsrsctp(std::move(b)); })
{
    NS_ABORT_MSG_IF(s_current != nullptr, "usrsctp is process-global: one UsrsctpBridge at a time");
    s_current = this;

    m_node = CreateObject<Node>();
    InternetStackHelper().Install(m_node);
    Ptr<SimpleNetDevice> dev = CreateObject<SimpleNetDevice>();
    dev->SetAddress(Mac48Address::Allocate());
    m_node->AddDevice(dev);
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    uint32_t ifc = ipv4->AddInterface(dev);
    ipv4->AddAddress(ifc, Ipv4InterfaceAddress(GetModelAddress(), "255.255.255.0"));
    ipv4->SetUp(ifc);
    SctpHelper().Install(m_node);
    m_l4 = m_node->GetObject<SctpL4Protocol>();
    m_l4->SetDownTarget(MakeCallback(&UsrsctpBridge::ModelOutput, this));

    usrsctp_init_nothreads(0, &UsrsctpBridge::UsrsctpOutput, nullptr);
    // The model does not implement ECN (RFC 9260 Appendix A) and this bridge carries no IP TOS bits.
    usrsctp_sysctl_set_sctp_ecn_enable(0);
    usrsctp_register_address(&m_connAddr);
}

void
UsrsctpBridge::AddModelAddress(Ipv4Address address)
{
    Ptr<SimpleNetDevice> dev = CreateObject<SimpleNetDevice>();
    dev->SetAddress(Mac48Address::Allocate());
    m_node->AddDevice(dev);
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    const uint32_t ifc = ipv4->AddInterface(dev);
    ipv4->AddAddress(ifc, Ipv4InterfaceAddress(address, "255.255.255.0"));
    ipv4->SetUp(ifc);
}

UsrsctpBridge::~UsrsctpBridge()
{
    Close();
    m_l4->SetDownTarget(MakeCallback(&DiscardModelOutput));
    usrsctp_deregister_address(&m_connAddr);
    // Closed sockets may still hold associations (ABORT or SHUTDOWN pending); running usrsctp's timers
    // lets it give them up, after which usrsctp_finish() succeeds.
    for (int k = 0; k < 600 && usrsctp_finish() != 0; ++k)
    {
        m_clockAfterClose += MilliSeconds(100);
        usrsctp_handle_timers(100);
    }
    s_current = nullptr;
}

struct sockaddr_conn
UsrsctpBridge::ConnAddress(uint16_t port)
{
    struct sockaddr_conn a;
    std::memset(&a, 0, sizeof(a));
    a.sconn_family = AF_CONN;
    a.sconn_port = htons(port);
    a.sconn_addr = &m_connAddr;
    return a;
}

void
UsrsctpBridge::StartTimers(Time tick, std::function<void()> onTick)
{
    NS_ABORT_MSG_IF(tick < MilliSeconds(1) || tick.GetNanoSeconds() % 1000000 != 0,
                    "usrsctp counts time in whole milliseconds");
    m_tick = tick;
    m_onTick = std::move(onTick);
    m_tickEvent.Cancel();
    m_tickEvent = Simulator::Schedule(m_tick, &UsrsctpBridge::Tick, this);
}

void
UsrsctpBridge::Tick()
{
    if (!m_open)
    {
        return;
    }
    usrsctp_handle_timers(uint32_t(m_tick.GetMilliSeconds()));
    if (m_onTick)
    {
        m_onTick();
    }
    m_tickEvent = Simulator::Schedule(m_tick, &UsrsctpBridge::Tick, this);
}

std::optional<Time>
UsrsctpBridge::UsrsctpClock()
{
    if (s_current == nullptr)
    {
        return std::nullopt;
    }
    return s_current->m_open ? Simulator::Now() : s_current->m_clockAfterClose;
}

void
UsrsctpBridge::Close()
{
    if (m_open)
    {
        m_clockAfterClose = Simulator::Now(); // the simulator may be destroyed before usrsctp is
    }
    m_open = false;
    m_tickEvent.Cancel();
    m_toModel.Close();
    m_toUsrsctp.Close();
}

int
UsrsctpBridge::UsrsctpOutput(void* addr, void* buffer, size_t length, uint8_t, uint8_t)
{
    UsrsctpBridge* b = s_current;
    if (b != nullptr && b->m_open && addr == &b->m_connAddr)
    {
        b->m_toModel.Send(static_cast<const uint8_t*>(buffer), length);
    }
    return 0;
}

void
UsrsctpBridge::ModelOutput(Ptr<Packet> p, Ipv4Address, Ipv4Address dst, uint8_t, Ptr<Ipv4Route>)
{
    if (!m_open || dst != GetUsrsctpAddress())
    {
        return;
    }
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), uint32_t(b.size()));
    m_toUsrsctp.Send(b.data(), b.size());
}

void
UsrsctpBridge::DeliverToModel(std::vector<uint8_t> bytes)
{
    Ipv4Header h;
    h.SetSource(GetUsrsctpAddress());
    h.SetDestination(GetModelAddress());
    h.SetProtocol(SctpL4Protocol::PROT_NUMBER);
    h.SetPayloadSize(uint16_t(bytes.size()));
    m_l4->Receive(Create<Packet>(bytes.data(), uint32_t(bytes.size())), h, nullptr);
}

void
UsrsctpBridge::DeliverToUsrsctp(std::vector<uint8_t> bytes)
{
    usrsctp_conninput(&m_connAddr, bytes.data(), bytes.size(), 0);
}

// ------------------------------------------------------------------------------------------- UsrsctpEndpoint

UsrsctpEndpoint::UsrsctpEndpoint(UsrsctpBridge& bridge, const Options& o, MessageHandler onMessage)
    : m_bridge(bridge),
      m_onMessage(std::move(onMessage))
{
    m_so = usrsctp_socket(AF_CONN, o.oneToMany ? SOCK_SEQPACKET : SOCK_STREAM, IPPROTO_SCTP,
                          &UsrsctpEndpoint::Receive, nullptr, 0, this);
    if (m_so == nullptr)
    {
        return;
    }
    bool ok = usrsctp_set_non_blocking(m_so, 1) == 0;
    auto set = [this, &ok](int level, int name, const void* v, socklen_t len) {
        ok = usrsctp_setsockopt(m_so, level, name, v, len) == 0 && ok;
    };
    int sndBuf = int(o.sndBuf);
    int rcvBuf = int(o.rcvBuf);
    set(SOL_SOCKET, SO_SNDBUF, &sndBuf, sizeof(sndBuf));
    set(SOL_SOCKET, SO_RCVBUF, &rcvBuf, sizeof(rcvBuf));
    // Messages go out as soon as cwnd allows, not held back to fill packets (SCTP's Nagle).
    int one = 1;
    set(IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
    // One message at a time through the receive callback (no interleaving of partial deliveries).
    int zero = 0;
    set(IPPROTO_SCTP, SCTP_FRAGMENT_INTERLEAVE, &zero, sizeof(zero));
    struct sctp_rtoinfo rto;
    std::memset(&rto, 0, sizeof(rto));
    rto.srto_assoc_id = SCTP_FUTURE_ASSOC;
    rto.srto_initial = o.rtoInitialMs;
    rto.srto_min = o.rtoMinMs;
    rto.srto_max = o.rtoMaxMs;
    set(IPPROTO_SCTP, SCTP_RTOINFO, &rto, sizeof(rto));
    struct sctp_sack_info sack;
    std::memset(&sack, 0, sizeof(sack));
    sack.sack_assoc_id = SCTP_FUTURE_ASSOC;
    sack.sack_delay = o.sackDelayMs;
    sack.sack_freq = 2;
    set(IPPROTO_SCTP, SCTP_DELAYED_SACK, &sack, sizeof(sack));
    if (o.adaptation)
    {
        struct sctp_setadaptation a;
        a.ssb_adaptation_ind = *o.adaptation;
        set(IPPROTO_SCTP, SCTP_ADAPTATION_LAYER, &a, sizeof(a));
    }
    if (o.pathMtu != 0)
    {
        struct sctp_paddrparams pp;
        std::memset(&pp, 0, sizeof(pp));
        pp.spp_assoc_id = SCTP_FUTURE_ASSOC;
        pp.spp_flags = SPP_PMTUD_DISABLE;
        pp.spp_pathmtu = o.pathMtu;
        set(IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &pp, sizeof(pp));
    }
    for (uint16_t type : {SCTP_ASSOC_CHANGE, SCTP_ADAPTATION_INDICATION, SCTP_SHUTDOWN_EVENT})
    {
        struct sctp_event ev;
        std::memset(&ev, 0, sizeof(ev));
        ev.se_assoc_id = SCTP_FUTURE_ASSOC;
        ev.se_type = type;
        ev.se_on = 1;
        set(IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev));
    }
    struct sockaddr_conn local = m_bridge.ConnAddress(o.port);
    ok = usrsctp_bind(m_so, reinterpret_cast<struct sockaddr*>(&local), sizeof(local)) == 0 && ok;
    if (!ok)
    {
        usrsctp_close(m_so);
        m_so = nullptr;
    }
}

UsrsctpEndpoint::~UsrsctpEndpoint()
{
    Close();
}

int
UsrsctpEndpoint::Connect(uint16_t peerPort)
{
    struct sockaddr_conn remote = m_bridge.ConnAddress(peerPort);
    int r = usrsctp_connect(m_so, reinterpret_cast<struct sockaddr*>(&remote), sizeof(remote));
    return r == 0 || errno == EINPROGRESS ? 0 : -1; // non-blocking: the handshake goes on in the background
}

int
UsrsctpEndpoint::Listen()
{
    return usrsctp_listen(m_so, 1);
}

bool
UsrsctpEndpoint::Send(uint16_t stream, uint32_t ppid, bool unordered, const uint8_t* data, size_t len)
{
    struct sctp_sndinfo si;
    std::memset(&si, 0, sizeof(si));
    si.snd_sid = stream;
    si.snd_ppid = htonl(ppid);
    si.snd_flags = unordered ? SCTP_UNORDERED : 0;
    si.snd_assoc_id = assocId;
    // A non-blocking socket takes a whole message or none of it (EWOULDBLOCK) unless explicit EOR mode
    // is on, which it is not.
    ssize_t n = usrsctp_sendv(m_so, data, len, nullptr, 0, &si, sizeof(si), SCTP_SENDV_SNDINFO, 0);
    if (n == ssize_t(len))
    {
        return true;
    }
    if (n < 0 && (errno == EWOULDBLOCK || errno == EAGAIN))
    {
        return false;
    }
    ++sendErrors;
    lastSendErrno = n < 0 ? errno : 0;
    return n >= 0; // a partial send is not offered again: the receiver's check will show the damage
}

int
UsrsctpEndpoint::Shutdown()
{
    return usrsctp_shutdown(m_so, SHUT_WR);
}

void
UsrsctpEndpoint::Close()
{
    if (m_so != nullptr)
    {
        usrsctp_close(m_so);
        m_so = nullptr;
    }
}

int
UsrsctpEndpoint::Receive(struct socket*,
                         union sctp_sockstore,
                         void* data,
                         size_t len,
                         struct sctp_rcvinfo rcv,
                         int flags,
                         void* ulpInfo)
{
    auto* self = static_cast<UsrsctpEndpoint*>(ulpInfo);
    if (data == nullptr)
    {
        return 1; // end of the peer's data (it shut down); the notifications say more
    }
    if (flags & MSG_NOTIFICATION)
    {
        self->OnNotification(*static_cast<const union sctp_notification*>(data));
    }
    else
    {
        const uint8_t* d = static_cast<const uint8_t*>(data);
        if (self->m_partial.empty())
        {
            self->m_partialStream = rcv.rcv_sid;
        }
        self->m_partial.insert(self->m_partial.end(), d, d + len);
        if (flags & MSG_EOR)
        {
            self->m_onMessage(self->m_partialStream, self->m_partial);
            self->m_partial.clear();
        }
    }
    free(data); // usrsctp hands over buffers from malloc() for the receiver to free
    return 1;
}

std::vector<int>
UsrsctpEndpoint::PeerAddressFamilies() const
{
    std::vector<int> families;
    struct sockaddr* addrs = nullptr;
    const int n = usrsctp_getpaddrs(m_so, assocId, &addrs);
    const char* at = reinterpret_cast<const char*>(addrs);
    for (int i = 0; i < n; ++i)
    {
        // The list packs each address at its own length: AF_CONN's sockaddr_conn, AF_INET's sockaddr_in.
        const int family = reinterpret_cast<const struct sockaddr*>(at)->sa_family;
        families.push_back(family);
        at += family == AF_CONN ? sizeof(struct sockaddr_conn)
              : family == AF_INET ? sizeof(struct sockaddr_in)
                                  : sizeof(struct sockaddr_in6);
    }
    if (n > 0)
    {
        usrsctp_freepaddrs(addrs);
    }
    return families;
}

void
UsrsctpEndpoint::OnNotification(const union sctp_notification& n)
{
    switch (n.sn_header.sn_type)
    {
    case SCTP_ASSOC_CHANGE:
        switch (n.sn_assoc_change.sac_state)
        {
        case SCTP_COMM_UP:
            commUp = true;
            assocId = n.sn_assoc_change.sac_assoc_id;
            break;
        case SCTP_SHUTDOWN_COMP:
            shutdownComplete = true;
            break;
        case SCTP_COMM_LOST:
        case SCTP_CANT_STR_ASSOC:
            commLost = true;
            break;
        default:
            break;
        }
        break;
    case SCTP_ADAPTATION_INDICATION:
        peerAdaptation = n.sn_adaptation_event.sai_adaptation_ind;
        break;
    case SCTP_SHUTDOWN_EVENT:
        shutdownEvent = true;
        break;
    default:
        break;
    }
}

} // namespace iwarptest
} // namespace ns3

#ifdef IWARP_USRSCTP_SIMULATED_CLOCK
// gettimeofday() for every caller linked into the runner, which CMakeLists.txt arranges to be usrsctp (and
// nothing of ns-3 or libc): simulated time while a bridge exists, counted from a fixed date (usrsctp rejects
// an RTT whose start looks later than its end, and any date far from zero will do); the real clock otherwise.
extern "C" int __real_gettimeofday(struct timeval* tv, void* tz);

extern "C" int
__wrap_gettimeofday(struct timeval* tv, void* tz)
{
    std::optional<ns3::Time> now = ns3::iwarptest::UsrsctpBridge::UsrsctpClock();
    if (!now || tv == nullptr)
    {
        return __real_gettimeofday(tv, tz);
    }
    const int64_t epochUs = int64_t(1600000000) * 1000000; // September 2020
    int64_t us = epochUs + now->GetMicroSeconds();
    tv->tv_sec = time_t(us / 1000000);
    tv->tv_usec = suseconds_t(us % 1000000);
    return 0;
}
#endif // IWARP_USRSCTP_SIMULATED_CLOCK

#endif // IWARP_HAVE_USRSCTP

/*
 * Two-node SCTP fixture; see sctp-two-node-fixture.h.
 */
#include "sctp/sctp-two-node-fixture.h"

#include "helper/sctp-helper.h"

#include <random>
#include <sstream>

namespace ns3
{
namespace iwarptest
{

NS_OBJECT_ENSURE_REGISTERED(SctpDropListErrorModel);

TypeId
SctpDropListErrorModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::iwarptest::SctpDropListErrorModel")
                            .SetParent<ErrorModel>()
                            .AddConstructor<SctpDropListErrorModel>();
    return tid;
}

bool
SctpDropListErrorModel::DoCorrupt(Ptr<Packet>)
{
    ++seen;
    bool d = drop.count(seen) != 0 || (dropFrom != 0 && seen >= dropFrom);
    dropped += d ? 1 : 0;
    return d;
}

NS_OBJECT_ENSURE_REGISTERED(SctpTsnDropErrorModel);

TypeId
SctpTsnDropErrorModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::iwarptest::SctpTsnDropErrorModel")
                            .SetParent<ErrorModel>()
                            .AddConstructor<SctpTsnDropErrorModel>();
    return tid;
}

bool
SctpTsnDropErrorModel::DoCorrupt(Ptr<Packet> p)
{
    Ptr<Packet> copy = p->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    copy->RemoveHeader(ppp);
    copy->RemoveHeader(ip);
    SctpPacket pkt;
    if (ip.GetProtocol() != SctpL4Protocol::PROT_NUMBER || SctpPacket::Parse(copy, &pkt) != SctpParseError::None)
    {
        return false;
    }
    bool anyData = false;
    bool allNew = true;
    bool carriesTarget = false;
    for (const auto& c : pkt.chunks)
    {
        if (c->GetType() != uint8_t(SctpChunkType::Data))
        {
            continue;
        }
        uint32_t tsn = static_cast<const SctpDataChunk&>(*c).GetTsn();
        anyData = true;
        allNew = allNew && m_seen.count(tsn) == 0;
        m_seen.insert(tsn);
        if (!target && m_seen.size() == targetIndex)
        {
            target = tsn;
        }
        carriesTarget = carriesTarget || (target && *target == tsn);
    }
    if (carriesTarget)
    {
        targetSeen.push_back(Simulator::Now());
        return targetSeen.size() <= targetDrops;
    }
    if (anyData && allNew && target && everyNth != 0 && ++m_newPackets % everyNth == 0)
    {
        laterDrops.push_back(Simulator::Now());
        return true;
    }
    return false;
}

uint32_t
SctpEndLog::CountTx(SctpChunkType t) const
{
    return uint32_t(std::count(chunksTx.begin(), chunksTx.end(), uint8_t(t)));
}

uint32_t
SctpEndLog::CountRx(SctpChunkType t) const
{
    return uint32_t(std::count(chunksRx.begin(), chunksRx.end(), uint8_t(t)));
}

namespace
{

void
LogChunkTx(SctpEndLog* log, const SctpChunk& c)
{
    log->chunksTx.push_back(c.GetType());
    log->chunksTxTime.push_back(Simulator::Now());
    if (const auto* sack = dynamic_cast<const SctpSackChunk*>(&c))
    {
        log->sackArwnd.push_back(sack->GetArwnd());
        log->sacksWithGaps += sack->GetGapBlocks().empty() ? 0 : 1;
        log->sacksWithDups += sack->GetDupTsns().empty() ? 0 : 1;
    }
}

void
LogL4Tx(SctpEndLog* log, Ptr<const Packet> p, Ipv4Address, Ipv4Address)
{
    SctpPacket pkt;
    if (SctpPacket::Parse(p, &pkt) == SctpParseError::None && pkt.chunks.size() > 1)
    {
        log->bundledPackets++;
    }
}

void
LogFlight(SctpEndLog* log, uint32_t, uint32_t now)
{
    log->maxFlight = std::max(log->maxFlight, now);
}

void
LogChunkRx(SctpEndLog* log, const SctpChunk& c)
{
    log->chunksRx.push_back(c.GetType());
    if (const auto* e = dynamic_cast<const SctpErrorChunk*>(&c))
    {
        log->errorsRx.push_back(*e);
    }
}

void
LogState(SctpEndLog* log, SctpState, SctpState now)
{
    log->states.push_back(now);
}

void
LogRtx(SctpEndLog* log, uint32_t tsn, bool fast)
{
    if (fast)
    {
        log->fastRtx++;
    }
    else
    {
        log->rtx.emplace_back(Simulator::Now(), tsn);
    }
}

void
LogRto(SctpEndLog* log, Time, Time now)
{
    log->rtoValues.push_back(now);
}

} // namespace

SctpTwoNodeFixture::SctpTwoNodeFixture(const Options& o)
{
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(o.rate));
    p2p.SetChannelAttribute("Delay", StringValue(o.delay));
    devices = p2p.Install(nodes);
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.1.1.0", "255.255.255.0");
    interfaces = addr.Assign(devices);
    if (o.dualHomed)
    {
        devices2 = p2p.Install(nodes);
        addr.SetBase("10.1.2.0", "255.255.255.0");
        interfaces2 = addr.Assign(devices2);
    }
    SctpHelper().Install(nodes);
    L4(0)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&LogL4Tx, &clientLog));
    L4(1)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&LogL4Tx, &serverLog));
    if (o.lossRate > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(o.lossRate);
            Ptr<UniformRandomVariable> rv = CreateObject<UniformRandomVariable>();
            rv->SetStream(int64_t(o.lossStream) * 10 + i);
            em->SetRandomVariable(rv);
            devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
}

SctpTwoNodeFixture::~SctpTwoNodeFixture()
{
    client = nullptr;
    server = nullptr;
    listener = nullptr;
    Simulator::Destroy();
}

void
SctpTwoNodeFixture::EnablePcap(const std::string& prefix, uint32_t i)
{
    PointToPointHelper p2p;
    p2p.EnablePcap(prefix, devices.Get(i), true);
}

void
SctpTwoNodeFixture::CutLink(uint32_t link, Time from, Time to, bool bothWays)
{
    const NetDeviceContainer& devs = link == 0 ? devices : devices2;
    std::vector<Ptr<SctpDropListErrorModel>> cut;
    for (uint32_t i = bothWays ? 0 : 1; i < 2; ++i) // the server's device receives what the client sends
    {
        Ptr<SctpDropListErrorModel> em = CreateObject<SctpDropListErrorModel>();
        devs.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        cut.push_back(em);
    }
    // An error model counts the packets it sees (disabled, it sees none): drop from the next one on.
    Simulator::Schedule(from, [cut]() {
        for (const auto& em : cut)
        {
            em->dropFrom = em->seen + 1;
        }
    });
    if (!to.IsZero())
    {
        Simulator::Schedule(to, [cut]() {
            for (const auto& em : cut)
            {
                em->dropFrom = 0;
            }
        });
    }
}

Ptr<SctpDropListErrorModel>
SctpTwoNodeFixture::DropOn(uint32_t i)
{
    Ptr<SctpDropListErrorModel> em = CreateObject<SctpDropListErrorModel>();
    devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    return em;
}

void
SctpTwoNodeFixture::Inject(uint32_t i, const SctpPacket& pkt)
{
    Ipv4Header h;
    h.SetSource(Addr(1 - i));
    h.SetDestination(Addr(i));
    h.SetProtocol(SctpL4Protocol::PROT_NUMBER);
    L4(i)->Receive(pkt.ToPacket(), h, nullptr);
}

void
SctpTwoNodeFixture::Hook(Ptr<SctpSocket> s, SctpEndLog* log)
{
    s->TraceConnectWithoutContext("ChunkTx", MakeBoundCallback(&LogChunkTx, log));
    s->TraceConnectWithoutContext("ChunkRx", MakeBoundCallback(&LogChunkRx, log));
    s->TraceConnectWithoutContext("State", MakeBoundCallback(&LogState, log));
    s->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&LogRtx, log));
    s->TraceConnectWithoutContext("Rto", MakeBoundCallback(&LogRto, log));
    s->TraceConnectWithoutContext("BytesInFlight", MakeBoundCallback(&LogFlight, log));
    s->SetRecvCallback(MakeCallback(&SctpTwoNodeFixture::OnRecv, this));
    s->SetSendCallback(MakeCallback(&SctpTwoNodeFixture::Pump, this));
    s->SetCloseCallbacks(MakeCallback(&SctpTwoNodeFixture::OnNormalClose, this),
                         MakeCallback(&SctpTwoNodeFixture::OnErrorClose, this));
}

void
SctpTwoNodeFixture::Start(std::function<void(Ptr<SctpSocket>)> configureClient)
{
    listener = DynamicCast<SctpSocket>(SctpHelper::CreateSocket(nodes.Get(1)));
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
    listener->Listen();
    listener->TraceConnectWithoutContext("ChunkTx", MakeBoundCallback(&LogChunkTx, &serverLog));
    listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeCallback(&SctpTwoNodeFixture::OnAccept, this));
    client = DynamicCast<SctpSocket>(SctpHelper::CreateSocket(nodes.Get(0)));
    Hook(client, &clientLog);
    client->SetConnectCallback(MakeCallback(&SctpTwoNodeFixture::OnConnected, this),
                               MakeCallback(&SctpTwoNodeFixture::OnConnectFailed, this));
    if (configureClient)
    {
        configureClient(client);
    }
    // Devices and their traffic control are initialised by events at time 0: connect after them.
    Simulator::ScheduleNow([this]() { client->Connect(InetSocketAddress(Addr(1), 5000)); });
}

SctpEndLog*
SctpTwoNodeFixture::LogOf(Ptr<Socket> s)
{
    return s == client ? &clientLog : &serverLog;
}

void
SctpTwoNodeFixture::OnAccept(Ptr<Socket> s, const Address&)
{
    accepted++;
    server = DynamicCast<SctpSocket>(s);
    Hook(server, &serverLog);
    serverLog.states.push_back(server->GetState());
    Pump(server, 0);
}

void
SctpTwoNodeFixture::OnConnected(Ptr<Socket> s)
{
    clientLog.connected++;
    Pump(s, 0);
}

void
SctpTwoNodeFixture::OnConnectFailed(Ptr<Socket>)
{
    clientLog.connectFailed++;
}

void
SctpTwoNodeFixture::OnNormalClose(Ptr<Socket> s)
{
    LogOf(s)->normalClose++;
}

void
SctpTwoNodeFixture::OnErrorClose(Ptr<Socket> s)
{
    LogOf(s)->errorClose++;
}

void
SctpTwoNodeFixture::OnRecv(Ptr<Socket> s)
{
    SctpEndLog* log = LogOf(s);
    if (s == server && !serverReads && !m_draining)
    {
        return;
    }
    while (Ptr<Packet> p = s->Recv(1u << 20, 0))
    {
        SctpMessageTag tag;
        p->PeekPacketTag(tag);
        SctpTestMessage m;
        m.stream = tag.stream;
        m.ppid = tag.ppid;
        m.unordered = tag.unordered;
        m.data.resize(p->GetSize());
        p->CopyData(m.data.data(), uint32_t(m.data.size()));
        log->received.push_back(std::move(m));
    }
}

void
SctpTwoNodeFixture::QueueMessages(bool fromClient, uint32_t n, uint32_t maxSize, uint16_t streams, uint32_t seed)
{
    std::mt19937 rng(seed);
    auto& q = fromClient ? m_sentC : m_sentS;
    for (uint32_t k = 0; k < n; ++k)
    {
        SctpTestMessage m;
        uint32_t num = uint32_t(q.size());
        m.stream = uint16_t(k % streams);
        m.ppid = 1000 + num;
        m.unordered = (k % 3) == 2;
        m.data.resize(4 + 1 + rng() % maxSize);
        m.data[0] = uint8_t(num >> 24);
        m.data[1] = uint8_t(num >> 16);
        m.data[2] = uint8_t(num >> 8);
        m.data[3] = uint8_t(num);
        for (size_t b = 4; b < m.data.size(); ++b)
        {
            m.data[b] = uint8_t(rng());
        }
        q.push_back(std::move(m));
    }
    Ptr<SctpSocket> s = fromClient ? client : server;
    if (s != nullptr && s->GetState() == SctpState::Established)
    {
        Pump(s, 0);
    }
}

void
SctpTwoNodeFixture::Pump(Ptr<Socket> sock, uint32_t)
{
    Ptr<SctpSocket> s = DynamicCast<SctpSocket>(sock);
    bool c = s == client;
    auto& q = c ? m_sentC : m_sentS;
    size_t& next = c ? m_nextC : m_nextS;
    while (next < q.size() && s->GetTxAvailable() >= q[next].data.size())
    {
        const SctpTestMessage& m = q[next];
        Ptr<Packet> p = Create<Packet>(m.data.data(), uint32_t(m.data.size()));
        if (s->SendMsg(p, m.stream, m.ppid, m.unordered) < 0)
        {
            break;
        }
        ++next;
    }
}

bool
SctpTwoNodeFixture::AllDelivered(bool fromClient) const
{
    return (fromClient ? serverLog : clientLog).received.size() >= Sent(fromClient).size();
}

std::string
SctpTwoNodeFixture::CheckDelivery(bool fromClient) const
{
    const auto& sent = Sent(fromClient);
    const auto& got = (fromClient ? serverLog : clientLog).received;
    std::ostringstream err;
    std::vector<int> seen(sent.size(), 0);
    std::map<uint16_t, int64_t> lastOrdered;
    for (const auto& m : got)
    {
        if (m.data.size() < 4)
        {
            err << "short message; ";
            continue;
        }
        uint32_t num = (uint32_t(m.data[0]) << 24) | (uint32_t(m.data[1]) << 16) | (uint32_t(m.data[2]) << 8) |
                       m.data[3];
        if (num >= sent.size())
        {
            err << "unknown message " << num << "; ";
            continue;
        }
        const auto& s = sent[num];
        if (++seen[num] > 1)
        {
            err << "message " << num << " twice; ";
        }
        if (s.data != m.data || s.stream != m.stream || s.ppid != m.ppid || s.unordered != m.unordered)
        {
            err << "message " << num << " differs; ";
        }
        if (!m.unordered)
        {
            auto it = lastOrdered.find(m.stream);
            if (it != lastOrdered.end() && it->second > int64_t(num))
            {
                err << "message " << num << " out of order on stream " << m.stream << "; ";
            }
            lastOrdered[m.stream] = num;
        }
    }
    for (size_t k = 0; k < sent.size(); ++k)
    {
        if (seen[k] == 0)
        {
            err << "message " << k << " missing; ";
            break;
        }
    }
    return err.str();
}

} // namespace iwarptest
} // namespace ns3

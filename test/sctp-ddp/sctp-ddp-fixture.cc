#include "sctp-ddp/sctp-ddp-fixture.h"

#include "helper/sctp-helper.h"
#include "sctp/sctp-l4-protocol.h"
#include "sctp/sctp-tx-queue.h"

namespace ns3
{
namespace iwarptest
{

std::vector<uint8_t>
DdpPattern(size_t n, uint8_t seed)
{
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i)
    {
        v[i] = uint8_t(seed + i * 7 + (i >> 9));
    }
    return v;
}

static void
OnChunkTx(DdpEndSide* side, const SctpChunk& c)
{
    if (auto d = dynamic_cast<const SctpDataChunk*>(&c))
    {
        if (!side->seenTsn.insert(d->GetTsn()).second)
        {
            return; // a retransmission
        }
        DdpDataRecord r;
        r.at = Simulator::Now();
        r.tsn = d->GetTsn();
        r.stream = d->GetStreamId();
        r.ppid = d->GetPpid();
        r.u = d->IsUnordered();
        r.b = d->IsBeginning();
        r.e = d->IsEnding();
        r.data = d->GetUserData();
        side->dataTx.push_back(r);
    }
    else if (auto i = dynamic_cast<const SctpInitChunk*>(&c))
    {
        side->initTx.push_back(std::make_shared<SctpInitChunk>(*i));
    }
    else if (c.GetType() == uint8_t(SctpChunkType::Abort))
    {
        side->aborts++;
    }
}

namespace
{

/**
 * Drops, while held, every packet that carries a SACK chunk (the device's receive error model sees the PPP
 * header, IPv4 and the SCTP packet). A peer that holds back its acknowledgements, without a test hook in the
 * SCTP model itself.
 */
class SackHoldErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::iwarptest::SackHoldErrorModel").SetParent<ErrorModel>().SetGroupName("Iwarp");
        return tid;
    }
    bool hold{false};
    uint32_t dropped{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (!hold)
        {
            return false;
        }
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        const size_t ip = 2; // PPP protocol field
        if (b.size() < ip + 20 || b[ip + 9] != 132)
        {
            return false; // not SCTP
        }
        for (size_t off = ip + (b[ip] & 0x0F) * 4 + 12; off + 4 <= b.size();)
        {
            if (b[off] == uint8_t(SctpChunkType::Sack))
            {
                ++dropped;
                return true;
            }
            const size_t len = (size_t(b[off + 2]) << 8) | b[off + 3];
            if (len < 4)
            {
                break;
            }
            off += (len + 3) & ~size_t(3);
        }
        return false;
    }
    void DoReset() override {}
};

} // namespace

static void
OnRawRecv(DdpEndSide* side, Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv(std::numeric_limits<uint32_t>::max(), 0))
    {
        SctpMessageTag tag;
        p->PeekPacketTag(tag);
        DdpDataRecord r;
        r.at = Simulator::Now();
        r.stream = tag.stream;
        r.ppid = tag.ppid;
        r.u = tag.unordered;
        r.data.resize(p->GetSize());
        p->CopyData(r.data.data(), r.data.size());
        side->rawRx.push_back(r);
    }
}

static void
OnChunkRx(DdpEndSide* side, const SctpChunk& c)
{
    if (auto s = dynamic_cast<const SctpSackChunk*>(&c))
    {
        side->sackRx.emplace_back(Simulator::Now(), s->GetCumTsnAck());
    }
}

static void
OnRawClose(DdpEndSide* side, Ptr<Socket>)
{
    side->closes++;
}

SctpDdpFixture::SctpDdpFixture(const Options& o)
    : m_opt(o)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(o.rate));
    p2p.SetChannelAttribute("Delay", StringValue(o.delay));
    devices = p2p.Install(nodes);
    if (o.lossRate > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(o.lossRate);
            Ptr<UniformRandomVariable> rv = CreateObject<UniformRandomVariable>();
            rv->SetStream(31 + i);
            em->SetRandomVariable(rv);
            devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devices);
    m_serverAddr = ifs.GetAddress(1);
    SctpHelper().Install(nodes);
    client.node = nodes.Get(0);
    server.node = nodes.Get(1);
}

SctpDdpFixture::~SctpDdpFixture()
{
    for (DdpEndSide* s : {&client, &server})
    {
        for (auto& st : s->stacks)
        {
            st->rdmap->Dispose();
            st->ddp->Dispose();
        }
        s->stacks.clear();
        if (s->assoc)
        {
            s->assoc->Dispose();
        }
    }
    Simulator::Destroy();
}

void
SctpDdpFixture::Prepare(DdpEndSide& side, bool raw)
{
    if (raw)
    {
        side.socket->SetAttribute("SendAdaptationIndication", BooleanValue(m_opt.rawAdaptation.has_value()));
        side.socket->SetAttribute("AdaptationCode", UintegerValue(m_opt.rawAdaptation.value_or(0)));
        side.socket->SetAttribute("OutboundStreams", UintegerValue(m_opt.streams));
        side.socket->SetAttribute("MaxInboundStreams", UintegerValue(m_opt.streams));
    }
    else
    {
        SctpDdpAssociation::ConfigureSocket(side.socket, m_opt.streams);
    }
}

void
SctpDdpFixture::Attached(DdpEndSide& side)
{
    const bool raw = (&side == &client) ? m_opt.clientRaw : m_opt.serverRaw;
    side.socket->TraceConnectWithoutContext("ChunkTx", MakeBoundCallback(&OnChunkTx, &side));
    side.socket->TraceConnectWithoutContext("ChunkRx", MakeBoundCallback(&OnChunkRx, &side));
    side.socket->TraceConnectWithoutContext(
        "Retransmission", MakeBoundCallback(+[](DdpEndSide* x, uint32_t, bool) { x->rtx++; }, &side));
    if (raw)
    {
        side.socket->SetRecvCallback(MakeBoundCallback(&OnRawRecv, &side));
        side.socket->SetCloseCallbacks(MakeBoundCallback(&OnRawClose, &side),
                                       MakeBoundCallback(&OnRawClose, &side));
        return;
    }
    side.assoc = CreateObject<SctpDdpAssociation>();
    side.assoc->SetAttribute("MaxPendingInitiates", UintegerValue(m_opt.maxPendingInitiates));
    DdpEndSide* ps = &side;
    side.assoc->SetInitiateCallback(MakeBoundCallback(
        +[](SctpDdpFixture* f, DdpEndSide* s, Ptr<SctpDdpConnection> c, const std::vector<uint8_t>& pd) {
            s->initiates.emplace_back(c, pd);
            if (f->m_opt.autoAccept)
            {
                f->Stack(*s, c);
                c->Accept(f->m_opt.acceptPd);
            }
        },
        this, ps));
    side.attachOk = side.assoc->Attach(side.socket);
}

void
SctpDdpFixture::Start()
{
    m_listener = DynamicCast<SctpSocket>(SctpHelper::CreateSocket(server.node));
    server.socket = m_listener;
    Prepare(server, m_opt.serverRaw);
    m_listener->TraceConnectWithoutContext("ChunkTx", MakeBoundCallback(&OnChunkTx, &server));
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeBoundCallback(
                                      +[](SctpDdpFixture* f, Ptr<Socket> s, const Address&) {
                                          f->server.socket = DynamicCast<SctpSocket>(s);
                                          f->Attached(f->server);
                                      },
                                      this));
    client.socket = DynamicCast<SctpSocket>(SctpHelper::CreateSocket(client.node));
    Prepare(client, m_opt.clientRaw);
    client.socket->TraceConnectWithoutContext("ChunkTx", MakeBoundCallback(&OnChunkTx, &client));
    client.socket->SetConnectCallback(
        MakeBoundCallback(+[](SctpDdpFixture* f, Ptr<Socket>) { f->Attached(f->client); }, this),
        MakeNullCallback<void, Ptr<Socket>>());
    Simulator::ScheduleNow(
        +[](SctpDdpFixture* f) { f->client.socket->Connect(InetSocketAddress(f->m_serverAddr, 5000)); }, this);
}

void
SctpDdpFixture::Run(Time until)
{
    Simulator::Stop(until - Simulator::Now());
    Simulator::Run();
}

DdpStack&
SctpDdpFixture::Stack(DdpEndSide& side, Ptr<SctpDdpConnection> c)
{
    side.stacks.push_back(std::make_unique<DdpStack>());
    DdpStack& st = *side.stacks.back();
    st.conn = c;
    st.memory = CreateObject<MemoryRegistry>();
    st.pd = st.memory->AllocatePd();
    st.ddp = CreateObject<DdpEndpoint>();
    st.rdmap = CreateObject<RdmapEndpoint>();
    st.ddp->SetLowerLayer(c);
    st.rdmap->Attach(st.ddp, st.memory, StreamContext{st.pd->GetId(), c->GetStream()});
    DdpStack* p = &st;
    st.rdmap->SetCompletionCallback(
        MakeBoundCallback(+[](DdpStack* x, const RdmapCompletion& k) { x->completions.push_back(k); }, p));
    st.rdmap->SetEventCallback(
        MakeBoundCallback(+[](DdpStack* x, const RdmapEventInfo& ev) { x->events.push_back(ev); }, p));
    c->SetControlCallback(MakeBoundCallback(
        +[](DdpStack* x, Ptr<SctpDdpConnection>, sctpddp::Function f, const std::vector<uint8_t>& pd) {
            x->controls.emplace_back(f, pd);
        },
        p));
    return st;
}

DdpStack*
SctpDdpFixture::Open(uint16_t stream, const std::vector<uint8_t>& pd)
{
    if (!client.assoc)
    {
        return nullptr;
    }
    Ptr<SctpDdpConnection> c = client.assoc->Connect(stream, pd);
    return c ? &Stack(client, c) : nullptr;
}

void
SctpDdpFixture::RawSend(DdpEndSide& side,
                        uint16_t stream,
                        uint32_t ppid,
                        uint16_t ssn,
                        const std::vector<uint8_t>& body,
                        bool unordered)
{
    std::vector<uint8_t> b(2 + body.size());
    b[0] = uint8_t(ssn >> 8);
    b[1] = uint8_t(ssn);
    std::copy(body.begin(), body.end(), b.begin() + 2);
    side.socket->SendMsg(Create<Packet>(b.data(), b.size()), stream, ppid, unordered);
}

std::vector<uint8_t>
SctpDdpFixture::Control(sctpddp::Function f, const std::vector<uint8_t>& pd)
{
    std::vector<uint8_t> b(2 + pd.size());
    b[1] = uint8_t(f);
    std::copy(pd.begin(), pd.end(), b.begin() + 2);
    return b;
}

std::vector<DdpDataRecord>
SctpDdpFixture::DataTxOn(const DdpEndSide& side, uint16_t stream) const
{
    std::vector<DdpDataRecord> v;
    for (const auto& r : side.dataTx)
    {
        if (r.stream == stream)
        {
            v.push_back(r);
        }
    }
    return v;
}

void
SctpDdpFixture::EnablePcap(const std::string& prefix)
{
    PointToPointHelper().EnablePcap(prefix, devices.Get(0), true);
}

void
SctpDdpFixture::HoldSacks(DdpEndSide& dut, bool on)
{
    NS_ABORT_MSG_IF(m_opt.lossRate > 0, "HoldSacks replaces the loss model");
    const int i = &dut == &client ? 0 : 1;
    if (!m_sackHold[i])
    {
        m_sackHold[i] = CreateObject<SackHoldErrorModel>();
        devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(m_sackHold[i]));
    }
    DynamicCast<SackHoldErrorModel>(m_sackHold[i])->hold = on;
}

uint32_t
SctpDdpFixture::GetHeldSackPackets() const
{
    uint32_t n = 0;
    for (const auto& m : m_sackHold)
    {
        n += m ? DynamicCast<SackHoldErrorModel>(m)->dropped : 0;
    }
    return n;
}

Time
SctpDdpFixture::SackCovering(const DdpEndSide& side, uint32_t tsn) const
{
    for (const auto& [at, cum] : side.sackRx)
    {
        if (TsnLe(tsn, cum))
        {
            return at;
        }
    }
    return Seconds(-1);
}

SctpDdpFixture::Options
SctpDdpFixture::RawClient()
{
    Options o;
    o.clientRaw = true;
    o.autoAccept = false;
    return o;
}

void
SctpDdpFixture::RawInitiate(uint16_t stream, const std::vector<uint8_t>& pd, Time settle)
{
    Start();
    Run(Seconds(0.1));
    RawSend(client, stream, 17, 0, Control(sctpddp::Function::Initiate, pd));
    Run(settle);
}

} // namespace iwarptest
} // namespace ns3

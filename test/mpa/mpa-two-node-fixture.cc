#include "mpa/mpa-two-node-fixture.h"

namespace ns3
{
namespace iwarptest
{

MpaTwoNodeFixture::MpaTwoNodeFixture(const Options& o)
    : m_opt(o)
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(o.segmentSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(o.sndBufSize));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::MpaConnection::Markers", BooleanValue(o.markers));
    Config::SetDefault("ns3::MpaConnection::Crc", BooleanValue(o.crc));
    Config::SetDefault("ns3::MpaConnection::Revision", UintegerValue(o.revision));
    Config::SetDefault("ns3::MpaConnection::AlignFpdus", BooleanValue(o.alignFpdus));
    NodeContainer nodes;
    nodes.Create(2);
    m_p2p.SetDeviceAttribute("DataRate", StringValue(o.rate));
    m_p2p.SetChannelAttribute("Delay", StringValue(o.delay));
    m_devices = m_p2p.Install(nodes);
    if (o.lossRate > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(o.lossRate));
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            em->AssignStreams(7 + i);
            m_devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(m_devices);
    m_responderAddress = ifs.GetAddress(1);

    for (uint32_t i = 0; i < 2; ++i)
    {
        MpaEnd& e = m_ends[i];
        e.node = nodes.Get(i);
        e.mpa = CreateObject<MpaConnection>();
        e.memory = CreateObject<MemoryRegistry>();
        e.pd = e.memory->AllocatePd();
        Wire(e);
    }
    Initiator().mpa->SetIrdOrd(4, o.initiatorOrd);
    Initiator().mpa->SetAttribute("LowerOrdToPeerIrd", BooleanValue(o.lowerOrdToPeerIrd));
    Responder().mpa->SetIrdOrd(o.responderIrd, 4);
    m_listener = Socket::CreateSocket(nodes.Get(1), TcpSocketFactory::GetTypeId());
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), Port()));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeCallback(&MpaTwoNodeFixture::OnConnectionRequest, this),
                                  MakeCallback(&MpaTwoNodeFixture::OnAccept, this));
    m_initiatorSocket = Socket::CreateSocket(nodes.Get(0), TcpSocketFactory::GetTypeId());
    if (o.startInitiator)
    {
        Initiator().mpa->StartInitiator(m_initiatorSocket, o.requestPd);
        // Nodes are initialised when the simulation starts; a socket used before that crashes
        // in the traffic-control layer, so connect from the first event.
        Simulator::ScheduleNow(+[](Ptr<Socket> s, Address a) { s->Connect(a); },
                               m_initiatorSocket,
                               Address(InetSocketAddress(m_responderAddress, Port())));
    }
}

void
MpaTwoNodeFixture::Wire(MpaEnd& e)
{
    e.ddp = CreateObject<DdpEndpoint>();
    e.rdmap = CreateObject<RdmapEndpoint>();
    e.ddp->SetLowerLayer(e.mpa);
    e.rdmap->Attach(e.ddp, e.memory, StreamContext{e.pd->GetId(), 1});
    MpaEnd* pe = &e;
    e.rdmap->SetCompletionCallback(MakeBoundCallback(
        +[](MpaEnd* x, const RdmapCompletion& c) { x->completions.push_back(c); }, pe));
    e.rdmap->SetEventCallback(
        MakeBoundCallback(+[](MpaEnd* x, const RdmapEventInfo& ev) { x->events.push_back(ev); }, pe));
    e.mpa->SetSetupFailedCallback(MakeBoundCallback(
        +[](MpaEnd* x, Ptr<MpaConnection>, iwarp::ErrorCause c) { x->setupFailures.push_back(c); }, pe));
    e.mpa->SetRequestCallback(MakeCallback(&MpaTwoNodeFixture::OnRequest, this));
    e.mpa->SetReplyCallback(MakeCallback(&MpaTwoNodeFixture::OnReply, this));
    e.mpa->TraceConnectWithoutContext(
        "EarlyPlacement",
        MakeBoundCallback(+[](MpaEnd* x, Ptr<const Packet>) { ++x->earlyPlacements; }, pe));
}

MpaTwoNodeFixture::~MpaTwoNodeFixture()
{
    for (auto& e : m_ends)
    {
        e.rdmap->Dispose();
        e.mpa->Dispose();
    }
    Simulator::Destroy();
}

void
MpaTwoNodeFixture::OnAccept(Ptr<Socket> s, const Address&)
{
    Responder().mpa->StartResponder(s);
}

void
MpaTwoNodeFixture::OnRequest(Ptr<MpaConnection> c, const MpaSetupFrame& f)
{
    Responder().gotPeerFrame = true;
    Responder().peerFrame = f;
    if (m_opt.rejectRequest)
    {
        c->Reject(m_opt.replyPd);
    }
    else
    {
        c->Accept(m_opt.replyPd);
    }
}

void
MpaTwoNodeFixture::OnReply(Ptr<MpaConnection>, const MpaSetupFrame& f)
{
    Initiator().gotPeerFrame = true;
    Initiator().peerFrame = f;
}

void
MpaTwoNodeFixture::Run(Time until)
{
    Simulator::Stop(until);
    Simulator::Run();
}

void
MpaTwoNodeFixture::EnablePcap(const std::string& prefix)
{
    m_p2p.EnablePcapAll(prefix, false);
}

} // namespace iwarptest
} // namespace ns3

/*
 * iwarp-demo: two hosts' RDMAP/DDP stacks talking over an in-memory LLP.
 *
 * Until the MPA/TCP and SCTP transports exist, this shows the protocol core end to end:
 * host A registers a buffer and advertises it, host B RDMA-Writes into it, Sends a
 * notification, and RDMA-Reads a region back; every octet is verified at the sink, and the
 * run prints what crossed the wire. All parameters are ns-3 CommandLine arguments:
 *
 *   build/iwarp-demo --size=1048576 --mulpdu=1500 --delay=5us --rate=10Gbps --reorder=true
 */
#include "common/time-resolution.h"
#include "ddp/ddp-endpoint.h"
#include "ddp/test-lower-layer.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/memory-registry.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/** One host's stack: memory registry, DDP stream, RDMAP stream. */
struct Host
{
    std::string name;
    Ptr<MemoryRegistry> memory = CreateObject<MemoryRegistry>();
    Ptr<ProtectionDomain> pd;
    Ptr<TestLowerLayer> llp = CreateObject<TestLowerLayer>();
    Ptr<DdpEndpoint> ddp = CreateObject<DdpEndpoint>();
    Ptr<RdmapEndpoint> rdmap = CreateObject<RdmapEndpoint>();
    uint64_t segmentsSent{0};
    std::vector<RdmapCompletion> completions;

    explicit Host(std::string n)
        : name(std::move(n))
    {
        pd = memory->AllocatePd();
        ddp->SetLowerLayer(llp);
        rdmap->Attach(ddp, memory, StreamContext{pd->GetId(), 1});
        rdmap->SetCompletionCallback(MakeCallback(&Host::OnCompletion, this));
        llp->TraceConnectWithoutContext("Tx", MakeCallback(&Host::OnTx, this));
    }

    void OnCompletion(const RdmapCompletion& c)
    {
        completions.push_back(c);
        std::cout << "  " << std::setw(10) << Simulator::Now().As(Time::US) << "  " << name
                  << " completion " << ToString(c.type) << " id=" << c.id << " "
                  << ToString(c.status) << " " << c.byteLength << " octets\n";
    }

    void OnTx(Ptr<const Packet>, uint64_t) { ++segmentsSent; }
};

std::vector<uint8_t>
Pattern(std::size_t n, uint8_t seed)
{
    std::vector<uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        v[i] = uint8_t(seed + 31 * i + (i >> 9));
    }
    return v;
}

/** Release held segments in a shuffled order every `period`, to show out-of-order placement. */
void
Shuffle(Ptr<TestLowerLayer> llp, Ptr<UniformRandomVariable> rng, Time period)
{
    std::vector<std::size_t> order(llp->GetHeldCount());
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    for (std::size_t i = order.size(); i > 1; --i)
    {
        std::swap(order[i - 1], order[rng->GetInteger(0, uint32_t(i - 1))]);
    }
    llp->Release(order);
    Simulator::Schedule(period, &Shuffle, llp, rng, period);
}

} // namespace

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    uint32_t size = 1 << 20;
    uint32_t mulpdu = 1500;
    Time delay = MicroSeconds(5);
    bool reorder = true;
    DataRate rate("10Gbps");
    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "Octets written, and read back", size);
    cmd.AddValue("mulpdu", "MULPDU of the in-memory LLP", mulpdu);
    cmd.AddValue("delay", "One-way delay of the in-memory LLP", delay);
    cmd.AddValue("rate", "Transmit rate of the in-memory LLP", rate);
    cmd.AddValue("reorder", "Deliver B's segments to A in shuffled batches", reorder);
    cmd.Parse(argc, argv);

    Config::SetDefault("ns3::TestLowerLayer::Mulpdu", UintegerValue(mulpdu));
    Config::SetDefault("ns3::TestLowerLayer::Delay", TimeValue(delay));
    Config::SetDefault("ns3::TestLowerLayer::DataRate", DataRateValue(rate));
    Host a("A");
    Host b("B");
    TestLowerLayer::Connect(a.llp, b.llp);

    // A: a buffer B may write and read, and a receive buffer for B's notification.
    using namespace MemAccess;
    Ptr<MemoryRegion> target = a.memory->Register(a.pd, size, kLocalWrite | kRemoteWrite | kRemoteRead);
    Ptr<ByteBuffer> note = ByteBuffer::CreateReal(64);
    a.rdmap->PostRecv(100, BufferWindow{note, 0, 64});
    // B: the data to write, and a sink for the read-back.
    const std::vector<uint8_t> data = Pattern(size, 7);
    Ptr<MemoryRegion> sink = b.memory->Register(b.pd, size, kLocalWrite);

    if (reorder)
    {
        b.llp->SetHold(true);
        Simulator::Schedule(delay, &Shuffle, b.llp, CreateObject<UniformRandomVariable>(), delay);
    }

    std::cout << "iwarp-demo: B writes " << size << " octets into A's STag 0x" << std::hex
              << target->GetStag() << std::dec << ", sends a notification, then reads it back\n";
    RdmapWorkRequest w;
    w.id = 1;
    w.type = RdmapWrType::Write;
    w.source = Create<PacketPayloadSource>(Create<Packet>(data.data(), data.size()));
    w.remoteStag = target->GetStag();
    w.remoteTo = target->GetBaseTo();
    b.rdmap->PostSend(w);

    const std::string msg = "write done";
    RdmapWorkRequest s;
    s.id = 2;
    s.type = RdmapWrType::SendSE;
    s.source = Create<PacketPayloadSource>(Create<Packet>((const uint8_t*)msg.data(), msg.size()));
    b.rdmap->PostSend(s);

    RdmapWorkRequest r;
    r.id = 3;
    r.type = RdmapWrType::Read;
    r.remoteStag = target->GetStag();
    r.remoteTo = target->GetBaseTo();
    r.readLength = size;
    r.localStag = sink->GetStag();
    r.localTo = sink->GetBaseTo();
    b.rdmap->PostSend(r);

    Simulator::Stop(Seconds(10));
    Simulator::Run();

    const uint8_t* placed = target->GetBuffer()->Data();
    const uint8_t* readBack = sink->GetBuffer()->Data();
    const bool writeOk = std::equal(data.begin(), data.end(), placed);
    const bool readOk = std::equal(data.begin(), data.end(), readBack);
    const bool noteOk = std::string((const char*)note->Data(), msg.size()) == msg;
    std::cout << "\nsummary\n"
              << "  segments B->A " << b.segmentsSent << ", A->B " << a.segmentsSent << "\n"
              << "  RDMA Write placed byte-exact at A: " << (writeOk ? "yes" : "NO") << "\n"
              << "  Send delivered to A after the Write: " << (noteOk ? "yes" : "NO") << "\n"
              << "  RDMA Read returned byte-exact to B: " << (readOk ? "yes" : "NO") << "\n"
              << "  completions: A " << a.completions.size() << ", B " << b.completions.size() << "\n";
    Simulator::Destroy();
    return (writeOk && readOk && noteOk) ? 0 : 1;
}

/*
 * protocol-core-bench: how fast the DDP/RDMAP engine moves data, with no transport.
 *
 * One run streams the same number of octets of RDMA Writes between two endpoints over the
 * in-memory LLP twice, once with virtual payloads (sizes only) and once with real octets
 * (copied and placed), and prints wall times, their ratio, simulated octets per wall
 * second and peak memory. It is a benchmark, not a test: nothing here asserts a time.
 *
 *   build/iwarp-bench-protocol-core --bytes=200000000 --message=65536
 */
#include "common/time-resolution.h"
#include "bench/bench-common.h"
#include "ddp/ddp-endpoint.h"
#include "ddp/test-lower-layer.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/memory-registry.h"

#include "ns3/core-module.h"

#include <chrono>
#include <cstdio>

using namespace ns3;

namespace
{

struct Result
{
    double wallSeconds;
    uint64_t segments;
    uint64_t placed;
};

/** Keeps `window` Writes outstanding until `total` octets have been posted. */
class Streamer
{
  public:
    Streamer(Ptr<RdmapEndpoint> ep, Ptr<MemoryRegion> target, Ptr<DdpPayloadSource> src,
             uint64_t total, uint32_t window)
        : m_ep(ep),
          m_target(target),
          m_src(src),
          m_total(total),
          m_window(window)
    {
        ep->SetCompletionCallback(MakeCallback(&Streamer::OnCompletion, this));
    }

    void Start()
    {
        for (uint32_t i = 0; i < m_window; ++i)
        {
            PostNext();
        }
    }

  private:
    void PostNext()
    {
        if (m_posted >= m_total)
        {
            return;
        }
        RdmapWorkRequest w;
        w.id = m_posted;
        w.type = RdmapWrType::Write;
        w.source = m_src;
        w.remoteStag = m_target->GetStag();
        w.remoteTo = m_target->GetBaseTo();
        m_posted += m_src->GetLength();
        m_ep->PostSend(w);
    }

    void OnCompletion(const RdmapCompletion&) { PostNext(); }

    Ptr<RdmapEndpoint> m_ep;
    Ptr<MemoryRegion> m_target;
    Ptr<DdpPayloadSource> m_src;
    uint64_t m_total;
    uint32_t m_window;
    uint64_t m_posted{0};
};

Result
RunOnce(bool real, uint64_t bytes, uint32_t message, uint32_t window)
{
    auto backing = real ? MemoryRegistry::Backing::Real : MemoryRegistry::Backing::Virtual;
    // A 100 Gb/s in-memory link, so the sender is paced as by a real LLP.
    Config::SetDefault("ns3::TestLowerLayer::DataRate", DataRateValue(DataRate("100Gbps")));
    Ptr<TestLowerLayer> la = CreateObject<TestLowerLayer>();
    Ptr<TestLowerLayer> lb = CreateObject<TestLowerLayer>();
    Ptr<MemoryRegistry> ma = CreateObject<MemoryRegistry>();
    Ptr<MemoryRegistry> mb = CreateObject<MemoryRegistry>();
    Ptr<ProtectionDomain> pa = ma->AllocatePd();
    Ptr<ProtectionDomain> pb = mb->AllocatePd();
    Ptr<DdpEndpoint> da = CreateObject<DdpEndpoint>();
    Ptr<DdpEndpoint> db = CreateObject<DdpEndpoint>();
    Ptr<RdmapEndpoint> ra = CreateObject<RdmapEndpoint>();
    Ptr<RdmapEndpoint> rb = CreateObject<RdmapEndpoint>();
    da->SetLowerLayer(la);
    db->SetLowerLayer(lb);
    ra->Attach(da, ma, StreamContext{pa->GetId(), 1});
    rb->Attach(db, mb, StreamContext{pb->GetId(), 1});
    Ptr<MemoryRegion> target = mb->Register(pb, message, MemAccess::kRemoteWrite, backing);
    Ptr<ByteBuffer> srcBuf = real ? ByteBuffer::CreateReal(message) : ByteBuffer::CreateVirtual(message);
    Ptr<DdpPayloadSource> src = Create<BufferPayloadSource>(BufferWindow{srcBuf, 0, message});
    uint64_t segments = 0;
    la->TraceConnectWithoutContext("Tx", MakeBoundCallback(+[](uint64_t* n, Ptr<const Packet>, uint64_t) { ++*n; }, &segments));
    TestLowerLayer::Connect(la, lb);
    Streamer s(ra, target, src, bytes, window);
    Simulator::ScheduleNow(&Streamer::Start, &s);
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();
    const uint64_t placed = target->GetBuffer()->GetBytesWritten();
    ra->Dispose();
    rb->Dispose();
    la->Dispose();
    lb->Dispose();
    Simulator::Destroy();
    return {std::chrono::duration<double>(t1 - t0).count(), segments, placed};
}

} // namespace

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    uint64_t bytes = 200000000;
    uint32_t message = 65536;
    uint32_t window = 8;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Octets written in each run", bytes);
    cmd.AddValue("message", "Octets per RDMA Write", message);
    cmd.AddValue("window", "Writes kept outstanding", window);
    cmd.Parse(argc, argv);
    bytes = (bytes + message - 1) / message * message; // whole messages

    const Result v = RunOnce(false, bytes, message, window);
    const Result r = RunOnce(true, bytes, message, window);
    std::printf("protocol core (DDP+RDMAP over the in-memory LLP), %llu octets in %u-octet Writes\n",
                (unsigned long long)bytes, message);
    std::printf("  %-8s %10s %12s %14s %16s\n", "payload", "wall s", "segments", "placed octets", "octets/wall s");
    std::printf("  %-8s %10.3f %12llu %14llu %16.3e\n", "virtual", v.wallSeconds,
                (unsigned long long)v.segments, (unsigned long long)v.placed, bytes / v.wallSeconds);
    std::printf("  %-8s %10.3f %12llu %14llu %16.3e\n", "real", r.wallSeconds,
                (unsigned long long)r.segments, (unsigned long long)r.placed, bytes / r.wallSeconds);
    std::printf("  wall-time ratio real/virtual: %.2f\n", r.wallSeconds / v.wallSeconds);
    std::printf("  peak resident memory: %.1f MiB\n", bench::PeakRssMiB());
    return (v.placed == bytes && r.placed == bytes) ? 0 : 1;
}

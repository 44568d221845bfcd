/*
 * iwarp-soak: byte-exact soak of RDMA Write, Send and Read over MPA/TCP and over SCTP on a
 * link that loses and reorders packets in both directions (issue 14).
 *
 * Every operation carries its own octets (a pattern seeded by the operation number) into its
 * own slot of the sink, so a segment placed at the wrong offset, placed twice from a stale
 * copy, or taken from another operation shows up as a wrong octet. Two regimes:
 *  - 10% loss + 10% reordering: every operation completes exactly once with Success and every
 *    slot equals its source, for several seeds.
 *  - 20% loss + 30% reordering: the transport may give up. Then the operations that completed
 *    with Success are a prefix in posting order, each exact, and every other one is reported
 *    (one error completion each: nothing vanishes). The stop time is past every transport's
 *    give-up time (TCP: DataRetries with a doubling RTO; SCTP: Association.Max.Retrans), so an
 *    operation with no completion at all is a failure of the test.
 * Each case prints one row of the soak table (LLP, op, loss, reordering, seed, outcome).
 */
#include "helper/iwarp-helper.h"
#include "helper/sctp-helper.h"
#include "net/reordering-channel.h"
#include "rnic/rnic.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

namespace ns3
{
namespace
{

constexpr uint16_t kPort = 7100;
constexpr uint8_t kAccess =
    MemAccess::kLocalRead | MemAccess::kLocalWrite | MemAccess::kRemoteRead | MemAccess::kRemoteWrite;

struct SoakParams
{
    std::string llp; ///< "Mpa" or "Sctp"
    RdmapWrType op;
    double loss;
    double reorder;
    uint32_t seed;
    bool mayGiveUp;
    Time cutAt{Time(0)}; ///< if not zero: from then on the link loses every packet (both ways)
    uint32_t ops{64};
    uint32_t size{12000}; ///< several segments per operation, not a multiple of any MSS
};

/** Octet `i` of operation `op`'s payload: differs between operations and along each one. */
uint8_t
PatternOctet(uint32_t op, uint64_t i)
{
    return uint8_t((op * 131u) ^ (i * 7u) ^ (i >> 9));
}

std::string
OpName(RdmapWrType t)
{
    std::ostringstream os;
    os << t;
    return os.str();
}

/** Two hosts on one lossy, reordering 1 Gb/s link, each with an RNIC on the chosen LLP. */
struct LossyPair
{
    NodeContainer nodes;
    Ptr<ReorderingChannel> channel;
    Ptr<Rnic> client;
    Ptr<Rnic> server;
    Ipv4Address serverAddr;
    uint64_t dropped{0};
    std::vector<Ptr<RateErrorModel>> errorModels;

    /** From now on the link loses every packet: the transports must give up and say so. */
    void Cut()
    {
        for (Ptr<RateErrorModel> em : errorModels)
        {
            em->SetRate(1.0);
        }
    }

    explicit LossyPair(const SoakParams& p)
    {
        nodes.Create(2);
        channel = CreateObject<ReorderingChannel>();
        channel->SetAttribute("Delay", TimeValue(MicroSeconds(20)));
        channel->SetAttribute("ReorderFraction", DoubleValue(p.reorder));
        channel->SetAttribute("ReorderDelay", TimeValue(MicroSeconds(100)));
        NetDeviceContainer devs;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
            dev->SetAddress(Mac48Address::Allocate());
            dev->SetDataRate(DataRate("1Gbps"));
            Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
            q->SetMaxSize(QueueSize("1000p")); // losses come from the error model only
            dev->SetQueue(q);
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(p.loss));
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            dev->SetReceiveErrorModel(em);
            errorModels.push_back(em);
            dev->TraceConnectWithoutContext("PhyRxDrop",
                                            MakeBoundCallback(+[](uint64_t* n, Ptr<const Packet>) { ++*n; },
                                                              &dropped));
            nodes.Get(i)->AddDevice(dev);
            dev->Attach(channel);
            devs.Add(dev);
        }
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper addr("10.7.1.0", "255.255.255.0");
        serverAddr = addr.Assign(devs).GetAddress(1);
        if (p.llp == "Sctp")
        {
            SctpHelper().Install(nodes);
        }
        IwarpHelper iw;
        client = iw.Install(nodes.Get(0));
        server = iw.Install(nodes.Get(1));
        const StringValue connector(p.llp == "Sctp" ? "ns3::SctpDdpLlpConnector" : "ns3::MpaLlpConnector");
        client->GetConnectionManager()->SetAttribute("LlpConnector", connector);
        server->GetConnectionManager()->SetAttribute("LlpConnector", connector);
    }
};

/**
 * One ledger per side: each operation is to be reported once. At the sink, "delivered" is
 * taken as doc/metrics.md defines it (Write: DDP delivery at the responder; Send: the receive
 * completion; Read: the completion at the requester); at the source, the work completion.
 */
struct Ledger
{
    uint32_t succeeded{0};   ///< reported with Success
    uint32_t failed{0};      ///< reported with an error status
    uint32_t duplicates{0};  ///< a second report for one operation
    uint32_t wrongLength{0}; ///< a Success whose length is not the operation's
    uint32_t outOfOrder{0};  ///< a Success after an operation that had not succeeded
    uint32_t missing{0};     ///< operations never reported, counted at stop
    std::map<uint64_t, uint32_t> seen;
    uint32_t nextInOrder{0}; ///< operations 0..nextInOrder-1 all succeeded
    Time last;

    /** Record a report for `op`; true when it is the first, successful one. */
    bool Report(uint64_t op, bool success, uint64_t length, uint64_t expected)
    {
        if (++seen[op] > 1)
        {
            ++duplicates;
            return false;
        }
        last = Simulator::Now();
        if (!success)
        {
            ++failed;
            return false;
        }
        ++succeeded;
        outOfOrder += op != nextInOrder;
        nextInOrder = std::max<uint32_t>(nextInOrder, uint32_t(op) + 1);
        wrongLength += length != expected;
        return true;
    }

    void CountMissing(uint32_t ops)
    {
        for (uint32_t op = 0; op < ops; ++op)
        {
            missing += seen.count(op) == 0;
        }
    }
};

class SoakCase : public TestCase
{
  public:
    explicit SoakCase(SoakParams p)
        : TestCase(Name(p)),
          m_p(std::move(p))
    {
    }

    static std::string Name(const SoakParams& p)
    {
        std::ostringstream os;
        os << (p.llp == "Mpa" ? "MPA over TCP" : "SCTP") << " " << OpName(p.op) << " at " << p.loss * 100
           << "% loss + " << p.reorder * 100 << "% reordering"
           << (p.cutAt.IsZero() ? "" : ", link cut at " + std::to_string(p.cutAt.GetMicroSeconds()) + " us")
           << ", seed " << p.seed << (p.mayGiveUp ? ": delivered ops are an exact prefix, the rest reported"
                           : ": every op once, byte for byte");
        return os.str();
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        RngSeedManager::SetRun(m_p.seed);
        {
            LossyPair net(m_p);
            Run(net);
            PrintRow(net);
        }
        Simulator::Destroy();
        Check();
    }

    /** Compare operation `op`'s slot of the sink with its source octets, now. */
    void Verify(Ptr<MemoryRegion> sink, uint64_t op)
    {
        const uint8_t* d = sink->GetBuffer()->Data() + op * m_p.size;
        for (uint64_t i = 0; i < m_p.size; ++i)
        {
            m_wrongOctets += d[i] != PatternOctet(uint32_t(op), i);
        }
        m_verifiedOctets += m_p.size;
    }

    void Run(LossyPair& net)
    {
        const uint64_t total = uint64_t(m_p.ops) * m_p.size;
        // The data source: the client for Write and Send, the server for Read.
        const bool clientSources = m_p.op != RdmapWrType::Read;
        Ptr<ProtectionDomain> cpd = net.client->AllocatePd();
        Ptr<ProtectionDomain> spd = net.server->AllocatePd();
        Ptr<MemoryRegion> cmr = net.client->RegisterMemory(cpd, total, kAccess);
        Ptr<MemoryRegion> smr = net.server->RegisterMemory(spd, total, kAccess);
        Ptr<MemoryRegion> src = clientSources ? cmr : smr;
        Ptr<MemoryRegion> sink = clientSources ? smr : cmr;
        for (uint32_t op = 0; op < m_p.ops; ++op)
        {
            for (uint64_t i = 0; i < m_p.size; ++i)
            {
                src->GetBuffer()->Data()[uint64_t(op) * m_p.size + i] = PatternOctet(op, i);
            }
        }
        std::memset(sink->GetBuffer()->Data(), 0, total);

        Ptr<CompletionQueue> ccq = net.client->CreateCq();
        Ptr<CompletionQueue> scq = net.server->CreateCq();
        Ptr<QueuePair> cqp = net.client->CreateQp(cpd, ccq, ccq);
        Ptr<QueuePair> sqp = net.server->CreateQp(spd, scq, scq);
        using Cb = Callback<void, const RdmapCompletion&>;
        // The requester's completions: the source ledger (and, for Read, the sink's too).
        cqp->TraceConnectWithoutContext("Completion", Cb([this, sink](const RdmapCompletion& c) {
            if (c.IsRecv() || c.id >= m_p.ops)
            {
                return;
            }
            const bool ok = c.status == WcStatus::Success;
            m_source.Report(c.id, ok, c.byteLength, m_p.size);
            if (m_p.op == RdmapWrType::Read && m_sink.Report(c.id, ok, c.byteLength, m_p.size))
            {
                Verify(sink, c.id);
            }
        }));
        if (m_p.op == RdmapWrType::Send)
        {
            sqp->TraceConnectWithoutContext("Completion", Cb([this, sink](const RdmapCompletion& c) {
                if (c.IsRecv() && m_sink.Report(c.id, c.status == WcStatus::Success, c.byteLength, m_p.size))
                {
                    Verify(sink, c.id);
                }
            }));
        }
        net.server->GetConnectionManager()->Listen(
            kPort, Callback<void, Ptr<ConnectionRequest>>([this, &net, sqp, smr](Ptr<ConnectionRequest> req) {
                net.server->GetConnectionManager()->Accept(req, sqp, {});
                for (uint32_t op = 0; m_p.op == RdmapWrType::Send && op < m_p.ops; ++op)
                {
                    const LocalBuffer b{smr->GetStag(), smr->GetBaseTo() + uint64_t(op) * m_p.size, m_p.size};
                    NS_TEST_EXPECT_MSG_EQ(sqp->PostRecv(op, b), true, "receive " << op << " posted");
                }
            }));
        auto post = [this, cqp, cmr, smr](uint32_t op) {
            SendWr wr;
            wr.id = op;
            wr.type = m_p.op;
            wr.local = LocalBuffer{cmr->GetStag(), cmr->GetBaseTo() + uint64_t(op) * m_p.size, m_p.size};
            wr.remoteStag = smr->GetStag();
            wr.remoteTo = smr->GetBaseTo() + uint64_t(op) * m_p.size;
            return cqp->PostSend(wr);
        };
        auto onConnected = [this, post, sqp, smr](Ptr<QueuePair>, bool ok, const std::vector<uint8_t>&) {
            m_connected = ok;
            m_connectAnswered = true;
            if (ok && m_p.op == RdmapWrType::Write)
            {
                // A Write is delivered when DDP delivers it at the responder; the slot it ends
                // in names the operation (the last segment's TO plus its payload).
                IwarpTransport::Of(sqp, "the soak test")->GetDdp()->TraceConnectWithoutContext(
                    "Delivered", Callback<void, const DdpDelivery&>([this, smr](const DdpDelivery& d) {
                        if (!d.tagged || d.length == 0 || d.last.header.size() < iwarp::kDdpTaggedHdrLen)
                        {
                            return;
                        }
                        uint64_t to = 0;
                        for (int i = 6; i < 14; ++i)
                        {
                            to = (to << 8) | d.last.header[i];
                        }
                        const uint64_t end = to + d.last.length - iwarp::kDdpTaggedHdrLen - smr->GetBaseTo();
                        const uint64_t op = end / m_p.size - 1;
                        if (m_sink.Report(op, end % m_p.size == 0, d.length, m_p.size))
                        {
                            Verify(smr, op);
                        }
                    }));
            }
            for (uint32_t op = 0; ok && op < m_p.ops; ++op)
            {
                NS_TEST_EXPECT_MSG_EQ(post(op), true, "operation " << op << " posted");
            }
        };
        Simulator::Schedule(MicroSeconds(10), [&net, cqp, onConnected]() {
            net.client->GetConnectionManager()->Connect(
                cqp, InetSocketAddress(net.serverAddr, kPort), {},
                Callback<void, Ptr<QueuePair>, bool, const std::vector<uint8_t>&>(onConnected));
        });
        if (!m_p.cutAt.IsZero())
        {
            Simulator::Schedule(m_p.cutAt, &LossyPair::Cut, &net);
        }
        Simulator::Stop(Seconds(5000)); // past every give-up time, so an unreported operation is a failure
        Simulator::Run();
        m_source.CountMissing(m_p.ops);
        m_sink.CountMissing(m_p.ops);
    }

    void PrintRow(const LossyPair& net) const
    {
        std::cout << "soak | " << std::left << std::setw(7) << (m_p.llp == "Mpa" ? "MPA/TCP" : "SCTP") << " | "
                  << std::setw(5) << OpName(m_p.op) << " | loss " << std::setw(4) << m_p.loss << " | reorder "
                  << std::setw(4) << m_p.reorder << " | seed " << m_p.seed << " | "
                  << (m_connected ? "connected" : (m_connectAnswered ? "connect failed" : "no connect outcome"))
                  << (m_p.cutAt.IsZero() ? "" : " | cut") << " | delivered " << m_sink.succeeded << "/" << m_p.ops << " | source completions "
                  << m_source.succeeded << " ok, " << m_source.failed << " in error, " << m_source.missing
                  << " none | " << m_verifiedOctets << " octets compared, " << m_wrongOctets << " wrong | "
                  << net.dropped << " packets lost, " << net.channel->GetDelayed() << " reordered | last "
                  << std::max(m_sink.last, m_source.last).GetSeconds() << " s" << std::endl;
    }

    void Check()
    {
        for (const Ledger* l : {&m_sink, &m_source})
        {
            const std::string side = l == &m_sink ? "sink: " : "source: ";
            NS_TEST_EXPECT_MSG_EQ(l->duplicates, 0u, side << "no operation reported twice");
            NS_TEST_EXPECT_MSG_EQ(l->wrongLength, 0u, side << "every successful operation has its length");
            NS_TEST_EXPECT_MSG_EQ(l->outOfOrder, 0u, side << "operations succeed in posting order (a prefix)");
        }
        NS_TEST_EXPECT_MSG_EQ(m_wrongOctets, 0u, "every delivered operation's octets equal its source");
        NS_TEST_EXPECT_MSG_EQ(m_verifiedOctets, uint64_t(m_sink.succeeded) * m_p.size,
                              "every delivered operation compared");
        if (!m_p.mayGiveUp)
        {
            NS_TEST_EXPECT_MSG_EQ(m_connected, true, "the connection is set up");
            NS_TEST_EXPECT_MSG_EQ(m_sink.succeeded, m_p.ops, "every operation delivered");
            NS_TEST_EXPECT_MSG_EQ(m_source.succeeded, m_p.ops, "every operation completed with Success");
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(m_connectAnswered, true, "the connection attempt has an outcome");
        if (!m_connected)
        {
            return; // the set-up gave up and said so: nothing was posted
        }
        // Nothing vanishes: at the source each operation completes, in error if it must.
        NS_TEST_EXPECT_MSG_EQ(m_source.missing, 0u, "every operation has a completion at the source");
        NS_TEST_EXPECT_MSG_EQ(m_source.succeeded + m_source.failed, m_p.ops, "one completion per operation");
        if (!m_p.cutAt.IsZero())
        {
            NS_TEST_EXPECT_MSG_GT(m_source.failed, 0u, "the cut link's transport gave up and reported it");
            NS_TEST_EXPECT_MSG_LT(m_sink.succeeded, m_p.ops, "the cut stopped delivery");
        }
    }

    SoakParams m_p;
    Ledger m_sink;
    Ledger m_source;
    uint64_t m_wrongOctets{0};
    uint64_t m_verifiedOctets{0};
    bool m_connected{false};
    bool m_connectAnswered{false};
};

class SoakSuite : public TestSuite
{
  public:
    SoakSuite()
        : TestSuite("iwarp-soak", UNIT)
    {
        for (const char* llp : {"Mpa", "Sctp"})
        {
            for (RdmapWrType op : {RdmapWrType::Write, RdmapWrType::Send, RdmapWrType::Read})
            {
                for (uint32_t seed = 1; seed <= 5; ++seed)
                {
                    AddTestCase(new SoakCase({llp, op, 0.10, 0.10, seed, false}), QUICK);
                }
                for (uint32_t seed = 1; seed <= 3; ++seed)
                {
                    AddTestCase(new SoakCase({llp, op, 0.20, 0.30, seed, true}), QUICK);
                }
                AddTestCase(new SoakCase({llp, op, 0.0, 0.10, 1, true, MicroSeconds(1500)}), QUICK);
            }
        }
    }
};

SoakSuite g_soakSuite;

} // namespace
} // namespace ns3

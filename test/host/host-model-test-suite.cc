/*
 * iwarp-host-model: the host memory bus, the CPU cores and the HostModel operations, checked
 * against the cost equations of doc/host-model.md to the nanosecond. Parameters are chosen so
 * that the arithmetic is easy to follow: a bus of 8 Gb/s moves one octet per ns, a 1 GHz core
 * runs one cycle per ns.
 */
#include "helper/host-helper.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <algorithm>

namespace ns3
{
namespace
{

Ptr<HostMemoryModel>
MakeBus(const std::string& rate, Time overhead)
{
    Ptr<HostMemoryModel> m = CreateObject<HostMemoryModel>();
    m->SetAttribute("Bandwidth", DataRateValue(DataRate(rate)));
    m->SetAttribute("TransactionOverhead", TimeValue(overhead));
    return m;
}

void
Stamp(std::vector<Time>* out)
{
    out->push_back(Simulator::Now());
}

void
RecordKind(std::vector<std::pair<Time, MemoryTransaction>>* out, MemoryTransaction k, uint64_t)
{
    out->emplace_back(Simulator::Now(), k);
}

void
RecordCore(std::vector<std::pair<Time, uint32_t>>* out, uint32_t core, uint64_t)
{
    out->emplace_back(Simulator::Now(), core);
}

class BusFifoTestCase : public TestCase
{
  public:
    BusFifoTestCase()
        : TestCase("bus FIFO: back-to-back transfers finish one after the other, an idle bus "
                   "carries nothing over, WouldFinishAt predicts the completion")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostMemoryModel> bus = MakeBus("8Gbps", NanoSeconds(10));
        std::vector<Time> done;
        std::vector<std::pair<Time, MemoryTransaction>> starts;
        bus->TraceConnectWithoutContext("TransactionStart", MakeBoundCallback(&RecordKind, &starts));
        NS_TEST_ASSERT_MSG_EQ(bus->WouldFinishAt(1000), NanoSeconds(1010), "idle bus: overhead + octets");
        Time t1 = bus->Transfer(1000, MemoryTransaction::NicDmaWrite, MakeBoundCallback(&Stamp, &done));
        NS_TEST_ASSERT_MSG_EQ(bus->WouldFinishAt(500), NanoSeconds(1520), "queued behind the first");
        Time t2 = bus->Transfer(500, MemoryTransaction::CpuCopyRead, MakeBoundCallback(&Stamp, &done));
        NS_TEST_ASSERT_MSG_EQ(t1, NanoSeconds(1010), "first completion returned");
        NS_TEST_ASSERT_MSG_EQ(t2, NanoSeconds(1520), "second completion returned");
        NS_TEST_ASSERT_MSG_EQ(bus->GetQueued(), 2u, "two in the queue");
        Simulator::Schedule(NanoSeconds(2000), [&]() {
            bus->Transfer(100, MemoryTransaction::NicDmaRead, MakeBoundCallback(&Stamp, &done));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 3u, "three completions");
        NS_TEST_EXPECT_MSG_EQ(done[0], NanoSeconds(1010), "1000 octets at 1 octet/ns + 10 ns");
        NS_TEST_EXPECT_MSG_EQ(done[1], NanoSeconds(1520), "waited for the bus, then 500 + 10 ns");
        NS_TEST_EXPECT_MSG_EQ(done[2], NanoSeconds(2110), "idle bus: starts at submission");
        NS_TEST_ASSERT_MSG_EQ(starts.size(), 3u, "three start traces");
        NS_TEST_EXPECT_MSG_EQ(starts[1].first, NanoSeconds(1010), "second got the bus when the first left");
        NS_TEST_EXPECT_MSG_EQ((starts[1].second == MemoryTransaction::CpuCopyRead), true, "kind traced");
        NS_TEST_EXPECT_MSG_EQ(bus->GetBusyTime(), NanoSeconds(1010 + 510 + 110), "busy = sum of occupancies");
        NS_TEST_EXPECT_MSG_EQ(bus->GetQueued(), 0u, "queue drained");
        Simulator::Destroy();
    }
};

class QuietTransferTestCase : public TestCase
{
  public:
    QuietTransferTestCase()
        : TestCase("transfers nothing waits for or listens to schedule no events of their own, occupy the bus, "
                   "are counted once the clock passes their end and keep the run going to it; a sink brings "
                   "the events back")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostMemoryModel> bus = MakeBus("8Gbps", NanoSeconds(10)); // 1 octet per ns
        for (int i = 0; i < 100; ++i)
        {
            bus->Transfer(1000, MemoryTransaction::NicDmaWrite, MakeNullCallback<void>());
        }
        NS_TEST_EXPECT_MSG_EQ(bus->GetFreeAt(), NanoSeconds(101000), "each occupies the bus, FIFO");
        std::vector<std::pair<uint64_t, uint32_t>> seen; // (bytes counted, queued) at 1009 and 1010 ns
        for (int64_t t : {1009, 1010, 101000})
        {
            Simulator::Schedule(NanoSeconds(t), [&seen, bus]() {
                seen.emplace_back(bus->GetBytes(MemoryTransaction::NicDmaWrite), bus->GetQueued());
            });
        }
        Simulator::Run();
        // The test's own three, a wake-up at the first end and, re-armed there, one at the last.
        NS_TEST_EXPECT_MSG_EQ(Simulator::GetEventCount(), 5u, "two wake-ups for a hundred transfers");
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), NanoSeconds(101000), "the run lasted to the last end");
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 3u, "three looks");
        NS_TEST_EXPECT_MSG_EQ(seen[0].first, 0u, "not counted before its end");
        NS_TEST_EXPECT_MSG_EQ(seen[0].second, 100u, "all queued");
        NS_TEST_EXPECT_MSG_EQ(seen[1].first, 1000u, "counted at its end");
        NS_TEST_EXPECT_MSG_EQ(seen[2].first, 100000u, "all counted at the last end");
        NS_TEST_EXPECT_MSG_EQ(seen[2].second, 0u, "none queued");
        NS_TEST_EXPECT_MSG_EQ(bus->GetBusyTime(), NanoSeconds(101000), "their occupancy");
        Simulator::Destroy();

        // With a sink on the end trace, each transfer has its events again and the sink hears it.
        bus = MakeBus("8Gbps", NanoSeconds(10));
        uint64_t heard = 0;
        bus->TraceConnectWithoutContext("TransactionEnd", MakeBoundCallback(
                                                              +[](uint64_t* n, MemoryTransaction, uint64_t b) { *n += b; },
                                                              &heard));
        bus->Transfer(1000, MemoryTransaction::NicDmaWrite, MakeNullCallback<void>());
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(heard, 1000u, "the sink heard the transfer");
        NS_TEST_EXPECT_MSG_EQ(Simulator::GetEventCount(), 2u, "its start and its end");
        Simulator::Destroy();
    }
};

class BusOverheadTestCase : public TestCase
{
  public:
    BusOverheadTestCase()
        : TestCase("bus overhead: a zero-octet transaction lasts the overhead, and the overhead "
                   "is paid once per transaction")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostMemoryModel> bus = MakeBus("8Gbps", NanoSeconds(40));
        std::vector<Time> done;
        bus->Transfer(0, MemoryTransaction::CpuWrite, MakeBoundCallback(&Stamp, &done));
        for (int i = 0; i < 4; ++i)
        {
            bus->Transfer(250, MemoryTransaction::CpuRead, MakeBoundCallback(&Stamp, &done));
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 5u, "five completions");
        NS_TEST_EXPECT_MSG_EQ(done[0], NanoSeconds(40), "overhead only");
        // Four 250-octet transactions: 4 x (40 + 250), not 40 + 1000.
        NS_TEST_EXPECT_MSG_EQ(done[4], NanoSeconds(40 + 4 * 290), "overhead once per transaction");
        Simulator::Destroy();

        // Rounding: 1 octet at 3 Gb/s is 2.67 ns, charged as 3 (the bus is never faster than its rate).
        Ptr<HostMemoryModel> odd = MakeBus("3Gbps", Time(0));
        NS_TEST_EXPECT_MSG_EQ(odd->Duration(1), NanoSeconds(3), "rounded up");
        NS_TEST_EXPECT_MSG_EQ(odd->Duration(3), NanoSeconds(8), "24 bits at 3 Gb/s = 8 ns exactly");
    }
};

class BusCountersTestCase : public TestCase
{
  public:
    BusCountersTestCase()
        : TestCase("counters by kind: bytes and transactions per kind, totals, HostCounters "
                   "snapshot with copies, DMAs and a CSV row matching its header")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        HostHelper helper;
        helper.SetMemoryAttribute("Bandwidth", DataRateValue(DataRate("8Gbps")));
        helper.SetCpuAttribute("Cores", UintegerValue(3));
        Ptr<HostModel> host = helper.Install(node);
        Ptr<HostMemoryModel> bus = node->GetObject<HostMemoryModel>();
        bus->Transfer(100, MemoryTransaction::NicDmaWrite, Callback<void>());
        bus->Transfer(200, MemoryTransaction::NicDmaWrite, Callback<void>());
        bus->Transfer(300, MemoryTransaction::NicDmaRead, Callback<void>());
        bus->Transfer(400, MemoryTransaction::CpuCopyRead, Callback<void>());
        bus->Transfer(400, MemoryTransaction::CpuCopyWrite, Callback<void>());
        bus->Transfer(50, MemoryTransaction::CpuRead, Callback<void>());
        HostCounters before = HostCounters::FromNode(node);
        NS_TEST_EXPECT_MSG_EQ(before.busBytes, 0u, "counters count completed work only");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(bus->GetBytes(MemoryTransaction::NicDmaWrite), 300u, "DMA write bytes");
        NS_TEST_EXPECT_MSG_EQ(bus->GetTransactions(MemoryTransaction::NicDmaWrite), 2u, "DMA writes");
        NS_TEST_EXPECT_MSG_EQ(bus->GetBytes(MemoryTransaction::NicDmaRead), 300u, "DMA read bytes");
        NS_TEST_EXPECT_MSG_EQ(bus->GetBytes(MemoryTransaction::CpuWrite), 0u, "no CPU writes");
        NS_TEST_EXPECT_MSG_EQ(bus->GetTotalBytes(), 1450u, "total");
        NS_TEST_EXPECT_MSG_EQ(bus->GetTotalTransactions(), 6u, "transactions");
        HostCounters c = host->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.valid, true, "host installed");
        NS_TEST_EXPECT_MSG_EQ(c.coreBusy.size(), 3u, "one entry per core");
        NS_TEST_EXPECT_MSG_EQ(c.busBytes, 1450u, "snapshot total");
        NS_TEST_EXPECT_MSG_EQ(c.BusBytes(MemoryTransaction::CpuCopyRead), 400u, "snapshot by kind");
        NS_TEST_EXPECT_MSG_EQ(c.dmas, 3u, "two DMA writes and one DMA read");
        NS_TEST_EXPECT_MSG_EQ(c.copies, 1u, "one copy (its write half)");
        const std::string header = HostCounters::CsvHeader(3);
        const std::string row = c.CsvRow();
        NS_TEST_EXPECT_MSG_EQ(std::count(header.begin(), header.end(), ','),
                              std::count(row.begin(), row.end(), ','),
                              "as many values as columns");
        NS_TEST_EXPECT_MSG_NE(header.find("bus_bytes_NicDmaWrite"), std::string::npos, "kind column");
        NS_TEST_EXPECT_MSG_EQ(HostCounters::FromNode(CreateObject<Node>()).valid, false,
                              "a node without a host model gives an invalid snapshot");
        Simulator::Destroy();
    }
};

class CpuDispatchTestCase : public TestCase
{
  public:
    CpuDispatchTestCase()
        : TestCase("CPU: jobs go to the earliest free core (lowest index on a tie), ExecuteOn "
                   "queues on its core, busy time and cycles per core")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpuModel> cpu = CreateObject<HostCpuModel>();
        cpu->SetAttribute("Cores", UintegerValue(2));
        cpu->SetAttribute("Frequency", DoubleValue(1e9));
        std::vector<Time> done;
        std::vector<std::pair<Time, uint32_t>> starts;
        cpu->TraceConnectWithoutContext("JobStart", MakeBoundCallback(&RecordCore, &starts));
        NS_TEST_EXPECT_MSG_EQ(cpu->Execute(1000, MakeBoundCallback(&Stamp, &done)), 0u, "both free: core 0");
        NS_TEST_EXPECT_MSG_EQ(cpu->Execute(1000, MakeBoundCallback(&Stamp, &done)), 1u, "core 0 busy: core 1");
        NS_TEST_EXPECT_MSG_EQ(cpu->Execute(500, MakeBoundCallback(&Stamp, &done)), 0u, "tie at 1000 ns: core 0");
        NS_TEST_EXPECT_MSG_EQ(cpu->ExecuteOn(1, 200, MakeBoundCallback(&Stamp, &done)),
                              NanoSeconds(1200),
                              "pinned behind core 1's job");
        NS_TEST_EXPECT_MSG_EQ(cpu->EarliestFreeCore(), 1u, "core 1 frees at 1200, core 0 at 1500");
        Simulator::Run();
        std::sort(done.begin(), done.end());
        NS_TEST_ASSERT_MSG_EQ(done.size(), 4u, "four jobs");
        NS_TEST_EXPECT_MSG_EQ(done[3], NanoSeconds(1500), "the third job ran after the first on core 0");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetBusyTime(0), NanoSeconds(1500), "core 0 busy");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetBusyTime(1), NanoSeconds(1200), "core 1 busy");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetCycles(), 2700u, "cycles");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetJobs(), 4u, "jobs");
        NS_TEST_ASSERT_MSG_EQ(starts.size(), 4u, "start traces");
        NS_TEST_EXPECT_MSG_EQ((starts[2] == std::make_pair(NanoSeconds(1000), 0u)), true,
                              "third job started on core 0 at 1000 ns");
        Simulator::Destroy();

        cpu->SetAttribute("Frequency", DoubleValue(2.5e9));
        NS_TEST_EXPECT_MSG_EQ(cpu->CyclesToTime(1000), NanoSeconds(400), "1000 cycles at 2.5 GHz");
        NS_TEST_EXPECT_MSG_EQ(cpu->CyclesToTime(1), NanoSeconds(1), "0.4 ns rounded up");

        // Flows are spread over the cores round-robin (HostModel::AssignFlowCore).
        Ptr<Node> node = CreateObject<Node>();
        HostHelper h;
        h.SetCpuAttribute("Cores", UintegerValue(3));
        Ptr<HostModel> host = h.Install(node);
        std::vector<uint32_t> cores;
        for (int i = 0; i < 4; ++i)
        {
            cores.push_back(host->AssignFlowCore());
        }
        NS_TEST_EXPECT_MSG_EQ((cores == std::vector<uint32_t>{0, 1, 2, 0}), true, "round-robin");
    }
};

/** The host of the equation tests: 1 core at 1 GHz, an 8 Gb/s bus without overhead. */
Ptr<HostModel>
EquationHost(Ptr<Node> node, double copyCyclesPerByte)
{
    HostHelper h;
    h.SetMemoryAttribute("Bandwidth", DataRateValue(DataRate("8Gbps")));
    h.SetMemoryAttribute("TransactionOverhead", TimeValue(Time(0)));
    h.SetCpuAttribute("Cores", UintegerValue(1));
    h.SetCpuAttribute("Frequency", DoubleValue(1e9));
    h.SetCpuAttribute("CopyCyclesPerByte", DoubleValue(copyCyclesPerByte));
    h.SetCpuAttribute("RxCyclesPerPacket", UintegerValue(1000));
    h.SetCpuAttribute("TxCyclesPerPacket", UintegerValue(700));
    return h.Install(node);
}

class RdmaVersusSocketTestCase : public TestCase
{
  public:
    RdmaVersusSocketTestCase(double copyCyclesPerByte)
        : TestCase("RDMA receive = 1x bus octets and no CPU; socket receive = 3x bus octets + "
                   "per-packet and per-octet cycles, copy cycles per octet " +
                   std::to_string(int(copyCyclesPerByte))),
          m_copy(copyCyclesPerByte)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t n = 8000;
        const uint32_t p = 6;
        // T_bus(n) = n ns, T_cpu(c) = c ns with the EquationHost.
        const Time copy = std::max(NanoSeconds(int64_t(m_copy * n)), NanoSeconds(2 * n));
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<HostModel> host = EquationHost(node, m_copy);
            std::vector<Time> done;
            host->RdmaReceive(n, MakeBoundCallback(&Stamp, &done));
            Simulator::Run();
            HostCounters c = host->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(done.size(), 1u, "done");
            NS_TEST_EXPECT_MSG_EQ(done[0], NanoSeconds(n), "RDMA receive: T_bus(n)");
            NS_TEST_EXPECT_MSG_EQ(c.busBytes, n, "one crossing");
            NS_TEST_EXPECT_MSG_EQ(c.BusBytes(MemoryTransaction::NicDmaWrite), n, "as a DMA write");
            NS_TEST_EXPECT_MSG_EQ(c.cpuCycles, 0u, "no CPU");
            NS_TEST_EXPECT_MSG_EQ(c.CpuBusy(), Time(0), "no CPU time");
            Simulator::Destroy();
        }
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<HostModel> host = EquationHost(node, m_copy);
            std::vector<Time> done;
            host->SocketReceive(n, p, MakeBoundCallback(&Stamp, &done));
            NS_TEST_EXPECT_MSG_EQ(host->GetInFlight(), 1u, "in flight");
            Simulator::Run();
            HostCounters c = host->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(done.size(), 1u, "done");
            // T = T_bus(n) + T_cpu(p * Crx) + max(T_cpu(n * Ccopy), 2 T_bus(n))
            NS_TEST_EXPECT_MSG_EQ(done[0], NanoSeconds(n + p * 1000) + copy, "socket receive equation");
            NS_TEST_EXPECT_MSG_EQ(c.busBytes, 3 * n, "three crossings");
            NS_TEST_EXPECT_MSG_EQ(c.BusBytes(MemoryTransaction::CpuCopyRead), n, "copy read");
            NS_TEST_EXPECT_MSG_EQ(c.BusBytes(MemoryTransaction::CpuCopyWrite), n, "copy write");
            NS_TEST_EXPECT_MSG_EQ(c.cpuCycles, uint64_t(p * 1000 + m_copy * n), "protocol + copy cycles");
            NS_TEST_EXPECT_MSG_EQ(c.Cycles(HostCycleUse::Stack), uint64_t(p * 1000), "the stack's share");
            NS_TEST_EXPECT_MSG_EQ(c.Cycles(HostCycleUse::Copy), uint64_t(m_copy * n), "the copy's share");
            NS_TEST_EXPECT_MSG_EQ(c.copies, 1u, "one copy");
            NS_TEST_EXPECT_MSG_EQ(c.dmas, 1u, "one DMA");
            NS_TEST_EXPECT_MSG_EQ(host->GetInFlight(), 0u, "nothing in flight");
            Simulator::Destroy();
        }
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<HostModel> host = EquationHost(node, m_copy);
            std::vector<Time> done;
            host->SocketSend(n, p, MakeBoundCallback(&Stamp, &done));
            Simulator::Schedule(MilliSeconds(1), [&]() {
                host->RdmaSend(n, MakeBoundCallback(&Stamp, &done));
            });
            Simulator::Run();
            HostCounters c = host->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(done.size(), 2u, "done");
            // T = max(T_cpu(n * Ccopy), 2 T_bus(n)) + T_cpu(p * Ctx) + T_bus(n)
            NS_TEST_EXPECT_MSG_EQ(done[0], copy + NanoSeconds(p * 700 + n), "socket send equation");
            NS_TEST_EXPECT_MSG_EQ(done[1], MilliSeconds(1) + NanoSeconds(n), "RDMA send: T_bus(n)");
            NS_TEST_EXPECT_MSG_EQ(c.BusBytes(MemoryTransaction::NicDmaRead), 2 * n, "two DMA reads");
            NS_TEST_EXPECT_MSG_EQ(c.busBytes, 4 * n, "socket send 3n + RDMA send n");
            NS_TEST_EXPECT_MSG_EQ(c.cpuCycles, uint64_t(p * 700 + m_copy * n), "RDMA send adds no cycles");
            Simulator::Destroy();
        }
    }

    double m_copy;
};

class ContentionTestCase : public TestCase
{
  public:
    ContentionTestCase()
        : TestCase("contention: a busy bus delays an RDMA receive; a busy core delays socket "
                   "protocol processing")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<HostModel> host = EquationHost(node, 1.0);
        std::vector<Time> rdma;
        std::vector<Time> sock;
        host->GetMemory()->Transfer(5000, MemoryTransaction::CpuRead, Callback<void>());
        host->RdmaReceive(1000, MakeBoundCallback(&Stamp, &rdma));
        host->GetCpu()->Execute(20000, Callback<void>()); // someone else's work on the only core
        host->SocketReceive(1000, 1, MakeBoundCallback(&Stamp, &sock));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rdma.at(0), NanoSeconds(6000), "behind 5000 ns of bus work");
        // DMA at 7000 ns (behind both), protocol waits for the core until 20000, + 1000 cycles,
        // then the copy: max(1000 cycles, 2 x 1000 ns of bus).
        NS_TEST_EXPECT_MSG_EQ(sock.at(0), NanoSeconds(20000 + 1000 + 2000), "behind the busy core");
        Simulator::Destroy();
    }
};

class ZeroCopySendTestCase : public TestCase
{
  public:
    ZeroCopySendTestCase()
        : TestCase("zero-copy send: no copy, ZeroCopyCyclesPerSend with the protocol cycles, one bus crossing")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t n = 8000;
        const uint32_t p = 6;
        Ptr<Node> node = CreateObject<Node>();
        Ptr<HostModel> host = EquationHost(node, 1.0);
        host->SetAttribute("ZeroCopyCyclesPerSend", UintegerValue(2500));
        std::vector<Time> done;
        host->SocketSend(n, p, MakeBoundCallback(&Stamp, &done), HostModel::kAnyCore, true);
        Simulator::Run();
        HostCounters c = host->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 1u, "done");
        // T = T_cpu(p * Ctx + Z) + T_bus(n), with T_cpu(c) = c ns and T_bus(n) = n ns.
        NS_TEST_EXPECT_MSG_EQ(done[0], NanoSeconds(p * 700 + 2500 + n), "zero-copy send equation");
        NS_TEST_EXPECT_MSG_EQ(c.busBytes, n, "one crossing: the NIC reads the user's pages");
        NS_TEST_EXPECT_MSG_EQ(c.BusBytes(MemoryTransaction::NicDmaRead), n, "as a DMA read");
        NS_TEST_EXPECT_MSG_EQ(c.copies, 0u, "no copy");
        NS_TEST_EXPECT_MSG_EQ(c.cpuCycles, uint64_t(p * 700 + 2500), "protocol and pinning cycles only");
        Simulator::Destroy();
    }
};

class RdmaVerbsTestCase : public TestCase
{
  public:
    RdmaVerbsTestCase()
        : TestCase("RDMA verbs: posts, polls, events and registrations cost their cycles on the core, per "
                   "request and per page, never per octet; cycles by use add up to the cycles run")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<HostModel> host = EquationHost(node, 1.0); // 1 GHz: a cycle is a nanosecond
        host->GetCpu()->SetAttribute("Cores", UintegerValue(2));
        host->SetAttribute("PostCyclesPerRequest", UintegerValue(200));
        host->SetAttribute("PollCyclesPerCompletion", UintegerValue(80));
        host->SetAttribute("EventCyclesPerCompletion", UintegerValue(3000));
        host->SetAttribute("RegisterCycles", UintegerValue(16000));
        host->SetAttribute("RegisterCyclesPerPage", UintegerValue(250));
        std::vector<Time> done;
        host->RdmaPost(3, MakeBoundCallback(&Stamp, &done), 0);
        host->RdmaPoll(MakeBoundCallback(&Stamp, &done), 0);
        host->RdmaEvent(MakeBoundCallback(&Stamp, &done), 0);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 3u, "done");
        NS_TEST_EXPECT_MSG_EQ(done[0], NanoSeconds(600), "three posts: 3 x 200 cycles on core 0");
        NS_TEST_EXPECT_MSG_EQ(done[1], NanoSeconds(680), "a poll behind them on the same core");
        NS_TEST_EXPECT_MSG_EQ(done[2], NanoSeconds(3680), "an event behind the poll");
        HostCounters c = host->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.Cycles(HostCycleUse::Verbs), 3680u, "verbs cycles");
        NS_TEST_EXPECT_MSG_EQ(c.busBytes, 0u, "the verbs move no data over the bus");
        // A registration: the fixed part and one part per 4 KiB page, whole pages.
        const uint64_t sizes[] = {1, 4096, 4097, 1 << 20};
        const uint64_t pages[] = {1, 1, 2, 256};
        uint64_t expected = 0;
        for (std::size_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(HostModel::Pages(sizes[i]), pages[i], "pages of " << sizes[i] << " octets");
            host->RdmaRegister(sizes[i], MakeNullCallback<void>(), 1);
            expected += 16000 + 250 * pages[i];
        }
        Simulator::Run();
        c = host->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.Cycles(HostCycleUse::Registration), expected, "registration cycles");
        NS_TEST_EXPECT_MSG_EQ(c.coreBusy.at(1), NanoSeconds(expected), "on the core asked for");
        NS_TEST_EXPECT_MSG_EQ(c.cpuCycles, expected + 3680, "every cycle run has a use");
        Simulator::Destroy();
    }
};

class SoftwareCrcTestCase : public TestCase
{
  public:
    SoftwareCrcTestCase()
        : TestCase("software CRC: CRC cycles in parallel with one bus read, traced as an operation")
    {
    }

  private:
    static void OnEnd(std::vector<std::pair<HostOperation, Time>>* out, HostOperation op, uint64_t, Time latency)
    {
        out->emplace_back(op, latency);
    }

    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<HostModel> host = EquationHost(node, 1.0);
        host->GetCpu()->SetAttribute("CrcCyclesPerByte", DoubleValue(2.5));
        std::vector<std::pair<HostOperation, Time>> ends;
        // Through the Config path doc/host-model.md gives (the node is in the NodeList).
        Config::ConnectWithoutContext("/NodeList/" + std::to_string(node->GetId()) +
                                          "/$ns3::HostModel/OperationEnd",
                                      MakeBoundCallback(&OnEnd, &ends));
        host->SoftwareCrc(4000, Callback<void>());
        Simulator::Run();
        HostCounters c = host->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(ends.size(), 1u, "one operation");
        NS_TEST_EXPECT_MSG_EQ((ends[0].first == HostOperation::SoftwareCrc), true, "traced kind");
        // max(T_cpu(2.5 x 4000), T_bus(4000)) = 10000 ns: the core is the slower part.
        NS_TEST_EXPECT_MSG_EQ(ends[0].second, NanoSeconds(10000), "core-bound CRC");
        NS_TEST_EXPECT_MSG_EQ(c.BusBytes(MemoryTransaction::CpuRead), 4000u, "read once");
        NS_TEST_EXPECT_MSG_EQ(c.busBytes, 4000u, "nothing written");
        NS_TEST_EXPECT_MSG_EQ(c.cpuCycles, 10000u, "CRC cycles");
        Simulator::Destroy();
    }
};

class BadAttributesTestCase : public TestCase
{
  public:
    BadAttributesTestCase()
        : TestCase("bad attribute values are refused and leave the old value")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostMemoryModel> bus = CreateObject<HostMemoryModel>();
        Ptr<HostCpuModel> cpu = CreateObject<HostCpuModel>();
        NS_TEST_EXPECT_MSG_EQ(bus->SetAttributeFailSafe("Bandwidth", DataRateValue(DataRate(0))), false,
                              "zero bandwidth");
        NS_TEST_EXPECT_MSG_EQ(bus->GetBandwidth(), DataRate("204800Mbps"), "default kept");
        NS_TEST_EXPECT_MSG_EQ(bus->SetAttributeFailSafe("TransactionOverhead", TimeValue(NanoSeconds(-1))),
                              false,
                              "negative overhead");
        NS_TEST_EXPECT_MSG_EQ(cpu->SetAttributeFailSafe("Cores", UintegerValue(0)), false, "zero cores");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetCores(), 4u, "default kept");
        NS_TEST_EXPECT_MSG_EQ(cpu->SetAttributeFailSafe("Frequency", DoubleValue(0)), false, "zero clock");
        NS_TEST_EXPECT_MSG_EQ(cpu->SetAttributeFailSafe("CopyCyclesPerByte", DoubleValue(-1)), false,
                              "negative cost");
        NS_TEST_EXPECT_MSG_EQ(cpu->SetAttributeFailSafe("Cores", UintegerValue(8)), true, "8 cores fine");
        cpu->Execute(100, Callback<void>());
        NS_TEST_EXPECT_MSG_EQ(cpu->SetAttributeFailSafe("Cores", UintegerValue(2)), false,
                              "no resize while a job runs");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(cpu->SetAttributeFailSafe("Cores", UintegerValue(2)), true, "idle: fine");
        Simulator::Destroy();
    }
};

class HostModelTestSuite : public TestSuite
{
  public:
    HostModelTestSuite()
        : TestSuite("iwarp-host-model", UNIT)
    {
        AddTestCase(new BusFifoTestCase(), TestCase::QUICK);
        AddTestCase(new QuietTransferTestCase(), TestCase::QUICK);
        AddTestCase(new BusOverheadTestCase(), TestCase::QUICK);
        AddTestCase(new BusCountersTestCase(), TestCase::QUICK);
        AddTestCase(new CpuDispatchTestCase(), TestCase::QUICK);
        AddTestCase(new RdmaVersusSocketTestCase(1.0), TestCase::QUICK);  // bus-bound copy
        AddTestCase(new RdmaVersusSocketTestCase(4.0), TestCase::QUICK);  // core-bound copy
        AddTestCase(new ContentionTestCase(), TestCase::QUICK);
        AddTestCase(new ZeroCopySendTestCase(), TestCase::QUICK);
        AddTestCase(new RdmaVerbsTestCase(), TestCase::QUICK);
        AddTestCase(new SoftwareCrcTestCase(), TestCase::QUICK);
        AddTestCase(new BadAttributesTestCase(), TestCase::QUICK);
    }
};

HostModelTestSuite g_hostModelTestSuite;

} // namespace
} // namespace ns3

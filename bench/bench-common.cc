/*
 * Shared benchmark code; see bench-common.h.
 */
#include "bench/bench-common.h"

#include "rnic/rdma-transport-kinds.h"

#include "helper/host-helper.h"
#include "host/host-profile.h"

#include "helper/rdma-app-helper.h"
#include "helper/iwarp-helper.h"
#include "helper/sctp-helper.h"
#include "helper/topology/topology-builder.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <algorithm>
#include <map>
#include <malloc.h>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>

namespace ns3
{
namespace bench
{

const char*
Describe(HostQueues q)
{
    switch (q)
    {
    case HostQueues::Ns3Helper:
        return "ns-3 helpers (fq-codel)";
    case HostQueues::None:
        return "no queue disc, 100p device";
    case HostQueues::Defaults:
        return "runner defaults (fifo)";
    }
    return "?";
}

namespace
{
uint32_t g_socketBuffer = kSocketBuffer;
} // namespace

void
SetSocketBuffer(uint32_t octets)
{
    g_socketBuffer = octets;
}

uint32_t
SocketBuffer()
{
    return g_socketBuffer;
}

BenchTopology::BenchTopology(const std::string& rate, const std::string& delay, bool rnics, bool sctp,
                             HostQueues queues)
{
    // The TCP settings TwoHostTopology gives its nodes' TransportProfiles, as ns-3 defaults here: the
    // TCP baseline's BulkSend and PacketSink make their sockets themselves, with no profile applied
    // (a bench is a plain ns-3 program and runs one topology per process at a time).
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(SocketBuffer()));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(SocketBuffer()));
    if (queues == HostQueues::Ns3Helper)
    {
        m_helperBuilt = std::make_unique<TwoHostTopology>(DataRate(rate), Time(delay), rnics, 1448, SocketBuffer());
        nodes = m_helperBuilt->nodes;
        serverIp = m_helperBuilt->serverAddress;
        this->rnics = m_helperBuilt->rnics;
    }
    else
    {
        // The network a two-hosts scenario runs on.
        TopologySpec spec;
        spec.link.rate = DataRate(rate);
        spec.link.delay = Time(delay);
        if (queues == HostQueues::None)
        {
            spec.hostNic = PortQueueSpec{QueueSize("100p"), QueueSize("100p"), QueueDiscSpec{QueueDiscKind::None, {}, {}}};
        }
        const BuiltTopology topo = TopologyBuilder::Build(spec);
        nodes = topo.hosts;
        serverIp = topo.GetHostAddress("h1");
        if (rnics)
        {
            this->rnics = IwarpHelper().Install(nodes);
        }
    }
    if (sctp)
    {
        // TCP's buffers and 1500-octet packets for SCTP too, or a comparison would measure the
        // defaults (256 KiB) rather than the protocols.
        SctpHelper sctp;
        sctp.SetSocketAttribute("SndBufSize", UintegerValue(SocketBuffer()));
        sctp.SetSocketAttribute("RcvBufSize", UintegerValue(SocketBuffer()));
        sctp.SetSocketAttribute("Pmtu", UintegerValue(kMtu));
        sctp.Install(nodes);
    }
}

namespace
{
/** User plus system CPU seconds this process has used so far. */
double
ProcessCpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}
} // namespace

RunTimer::RunTimer()
    : m_start(std::chrono::steady_clock::now()),
      m_cpuStart(ProcessCpuSeconds())
{
}

RunResult
RunTimer::Stop(RunResult r) const
{
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    r.cpu = ProcessCpuSeconds() - m_cpuStart;
    r.rssMiB = PeakRssMiB();
    return r;
}

double
PeakRssMiB()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

double
HeapInUseMiB()
{
    return mallinfo2().uordblks / 1048576.0;
}

double
Median(std::vector<double> v)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

RunResult
RunRdmaWrites(uint64_t bytes,
              const std::string& rate,
              const std::string& delay,
              uint32_t opSize,
              uint32_t outstanding,
              const std::string& llp,
              HostQueues queues,
              const std::string& hostProfile)
{
    const RunTimer timer;
    static const std::map<std::string, std::string> kKindOf = {{"Mpa", "iwarp-mpa"}, {"Sctp", "iwarp-sctp"},
                                                                {"Roce", "rocev2"}};
    const auto kind = kKindOf.find(llp);
    NS_ABORT_MSG_IF(kind == kKindOf.end(), "no LLP '" << llp << "' (Mpa, Sctp or Roce)");
    const std::string connector = FindRdmaTransportKind(kind->second)->connector.GetName();
    BenchTopology t(rate, delay, true, llp == "Sctp", queues);
    if (!hostProfile.empty())
    {
        const HostProfile* profile = FindHostProfile(hostProfile);
        NS_ABORT_MSG_IF(!profile, "no host profile '" << hostProfile << "' (" << HostProfileNames() << ")");
        HostHelper host;
        host.SetProfile(*profile);
        host.Install(t.nodes);
    }
    for (const Ptr<Rnic>& rnic : t.rnics)
    {
        rnic->GetConnectionManager()->SetAttribute("LlpConnector", StringValue(connector));
    }
    RdmaStreamHelper server(RDMA_ROLE_SERVER, 9001);
    RdmaStreamHelper client(RDMA_ROLE_CLIENT, 9001, InetSocketAddress(t.serverIp, 9001));
    client.SetAttribute("Op", StringValue("Write"));
    client.SetAttribute("Size", UintegerValue(opSize));
    client.SetAttribute("Outstanding", UintegerValue(outstanding));
    client.SetAttribute("TotalBytes", UintegerValue(bytes));
    client.SetAttribute("Payload", StringValue("Virtual"));
    server.Install(t.nodes.Get(1));
    ApplicationContainer c = client.Install(t.nodes.Get(0));
    Simulator::Stop(Seconds(1000));
    Simulator::Run();
    Ptr<RdmaStream> st = DynamicCast<RdmaStream>(c.Get(0));
    RunResult r;
    r.bytes = st->GetBytes();
    // First post to the answer to the fin, which the server sends once every Write is placed.
    r.simSeconds = (st->GetEndTime() - st->GetStartTime()).GetSeconds();
    r.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return timer.Stop(r);
}

RunResult
RunTcpBulk(uint64_t bytes, const std::string& rate, const std::string& delay, HostQueues queues)
{
    const RunTimer timer;
    BenchTopology t(rate, delay, false, false, queues);
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(t.serverIp, 9002));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.SetAttribute("SendSize", UintegerValue(65536));
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9002));
    ApplicationContainer s = sink.Install(t.nodes.Get(1));
    bulk.Install(t.nodes.Get(0));
    Ptr<PacketSink> ps = DynamicCast<PacketSink>(s.Get(0));
    Time last;
    ps->TraceConnectWithoutContext("Rx", MakeBoundCallback(+[](Time* l, Ptr<const Packet>, const Address&) {
                                       *l = Simulator::Now();
                                   }, &last));
    Simulator::Stop(Seconds(1000));
    Simulator::Run();
    RunResult r;
    r.bytes = ps->GetTotalRx();
    r.simSeconds = last.GetSeconds(); // from time 0, the connect, to the last octet at the sink
    r.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return timer.Stop(r);
}

namespace
{

constexpr int kNameWidth = 30;

void
PrintHeader(std::ostream& os)
{
    os << std::left << std::setw(kNameWidth) << "run" << std::right << std::setw(10) << "wall s" << std::setw(10) << "cpu s" << std::setw(12)
       << "sim s" << std::setw(14) << "goodput Gb/s" << std::setw(16) << "sim MB/wall s" << std::setw(14)
       << "peak RSS MiB" << std::setw(12) << "events" << std::setw(14) << "events/wall s" << "\n";
}

void
PrintRow(std::ostream& os, const std::string& name, const RunResult& r)
{
    os << std::left << std::setw(kNameWidth) << name << std::right << std::setprecision(3) << std::setw(10)
       << r.wall << std::setw(10) << r.cpu << std::setprecision(6) << std::setw(12) << r.simSeconds << std::setprecision(3) << std::setw(14) << r.GoodputGbps() << std::setw(16)
       << r.bytes / 1e6 / std::max(r.wall, 1e-9) << std::setprecision(1) << std::setw(14) << r.rssMiB
       << std::setw(12) << r.events << std::setprecision(0) << std::setw(14)
       << r.events / std::max(r.wall, 1e-9) << std::setprecision(3) << "\n";
}

void
PrintMedian(std::ostream& os, const std::string& label, const std::vector<double>& v, const std::string& note)
{
    os << label << ": " << std::setprecision(3) << Median(v) << " (median of " << v.size() << ", min "
       << *std::min_element(v.begin(), v.end()) << ", max " << *std::max_element(v.begin(), v.end()) << ")"
       << note << "\n";
}

} // namespace

RunResult
RunIsolated(const Side& side)
{
    static_assert(std::is_trivially_copyable_v<RunResult>, "RunResult goes through a pipe");
    std::cout.flush();
    std::cerr.flush();
    int fds[2];
    if (pipe(fds) != 0)
    {
        return side.run(); // no pipe: run it here
    }
    const pid_t pid = fork();
    if (pid < 0)
    {
        close(fds[0]);
        close(fds[1]);
        return side.run();
    }
    if (pid == 0)
    {
        close(fds[0]);
        const RunResult r = side.run();
        const ssize_t w = write(fds[1], &r, sizeof(r));
        _exit(w == ssize_t(sizeof(r)) ? 0 : 1);
    }
    close(fds[1]);
    RunResult r;
    const ssize_t got = read(fds[0], &r, sizeof(r));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != ssize_t(sizeof(r)) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        std::cerr << "the run of " << side.name << " failed in its child process\n";
        std::exit(2);
    }
    return r;
}

bool
Compare(std::ostream& os,
        const Side& a,
        const Side& b,
        uint32_t repeat,
        const std::string& only,
        double wallTarget,
        Medians* medians,
        double cpuTarget)
{
    if (!only.empty() && only != a.key && only != b.key)
    {
        std::cerr << "--only must be " << a.key << " or " << b.key << ", not '" << only << "'\n";
        return false;
    }
    os << std::fixed;
    PrintHeader(os);
    std::vector<double> wall;
    std::vector<double> cpu;
    std::vector<double> goodput;
    std::vector<double> events;
    std::vector<double> goodputA;
    std::vector<double> goodputB;
    for (uint32_t k = 0; k < repeat; ++k)
    {
        const RunResult ra = only == b.key ? RunResult{} : RunIsolated(a);
        if (only != b.key)
        {
            PrintRow(os, a.name, ra);
        }
        const RunResult rb = only == a.key ? RunResult{} : RunIsolated(b);
        if (only != a.key)
        {
            PrintRow(os, b.name, rb);
        }
        os << "octets delivered: (a) " << ra.bytes << "  (b) " << rb.bytes << "\n";
        if (only.empty())
        {
            wall.push_back(ra.wall / rb.wall);
            cpu.push_back(rb.cpu > 0 ? ra.cpu / rb.cpu : 0);
            goodput.push_back(rb.GoodputGbps() > 0 ? ra.GoodputGbps() / rb.GoodputGbps() : 0);
            events.push_back(double(ra.events) / std::max<uint64_t>(rb.events, 1));
            goodputA.push_back(ra.GoodputGbps());
            goodputB.push_back(rb.GoodputGbps());
            os << "pair " << k + 1 << ": wall (a)/(b) " << std::setprecision(3) << wall.back() << ", cpu (a)/(b) "
               << cpu.back() << ", goodput (a)/(b) "
               << goodput.back() << "\n";
        }
    }
    if (!wall.empty())
    {
        std::ostringstream target;
        if (wallTarget > 0)
        {
            target << std::fixed << std::setprecision(2) << "  (target <= " << wallTarget << ")";
        }
        PrintMedian(os, "wall ratio (a)/(b)", wall, target.str());
        // CPU time counts only this process: on a shared machine it moves less than wall time does.
        std::ostringstream cpuTargetText;
        if (cpuTarget > 0)
        {
            cpuTargetText << std::fixed << std::setprecision(2) << "  (target <= " << cpuTarget << ")";
        }
        PrintMedian(os, "cpu ratio (a)/(b)", cpu, cpuTargetText.str());
        PrintMedian(os, "goodput ratio (a)/(b)", goodput, "");
        PrintMedian(os, "events ratio (a)/(b)", events, "");
        if (medians)
        {
            *medians = Medians{Median(wall), Median(goodput), Median(goodputA), Median(goodputB), Median(cpu), ""};
        }
    }
    return true;
}

} // namespace bench
} // namespace ns3

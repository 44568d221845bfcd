/*
 * iwarp-bench-sctp: what the SCTP model (model/sctp) costs in simulation time, against ns-3's TCP
 * and, under RDMA, against MPA/TCP.
 *
 * The topology of iwarp-bench-mpa-tcp (two hosts, one 10 Gb/s point-to-point link, 5 us), with SCTP
 * given what TCP gets there: a 1500-octet MTU and 4 MiB send and receive buffers. Two comparisons,
 * each --repeat alternating pairs of runs moving --bytes octets:
 *  (A) an SCTP association sending --msgSize messages (ordered, one stream, zero-filled payload)
 *      against BulkSend over TCP (64 KiB writes of zeros); target: SCTP wall / TCP wall <= 1.0.
 *      The SCTP model has no virtual payload: it copies the zeros into its DATA chunks and puts a
 *      CRC32c over every packet, which ns-3's TCP (checksums off) does not;
 *  (B) an RdmaStream of RDMA Writes over SCTP (RFC 5043) against the same stream over MPA/TCP,
 *      both from virtual buffers (MPA frames them as a zero area, SCTP copies them).
 * Printed per run: wall time, simulated time, goodput, simulated MB per wall second, peak RSS,
 * events and events per wall second; per comparison the medians of the wall, goodput and events
 * ratios; at the end the protocol settings both sides ran with. Figures only, never assertions.
 *
 *   build/iwarp-bench-sctp --repeat=3
 *   build/iwarp-bench-sctp --bytes=20000000 --only=sctp     # one side alone, for a profiler
 */
#include "common/time-resolution.h"
#include "bench/bench-common.h"
#include "helper/sctp-helper.h"
#include "sctp/sctp-socket.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::bench;

namespace
{

/**
 * (A)'s SCTP side: the client keeps its send buffer full of `msgSize` messages on stream 0 (what
 * BulkSend does with TCP's), the server reads everything as it arrives and the client closes the
 * association once the last octet is in, as BulkSend closes its connection.
 */
class SctpBulk
{
  public:
    SctpBulk(uint64_t bytes, uint32_t msgSize)
        : m_total(bytes),
          m_msgSize(msgSize)
    {
    }

    void Install(const BenchTopology& t, uint16_t port)
    {
        m_listener = SctpHelper::CreateSocket(t.nodes.Get(1));
        m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&SctpBulk::Accept, this));
        m_client = DynamicCast<SctpSocket>(SctpHelper::CreateSocket(t.nodes.Get(0)));
        m_client->SetConnectCallback(MakeCallback(&SctpBulk::Connected, this),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_client->SetSendCallback(MakeCallback(&SctpBulk::Pump, this));
        // Devices are initialised by events at time 0: connect after them (doc/sctp.md, Usage).
        const InetSocketAddress server(t.serverIp, port);
        Simulator::ScheduleNow([this, server]() { m_client->Connect(server); });
    }

    uint64_t Received() const { return m_received; }
    Time LastDelivery() const { return m_last; }

  private:
    void Connected(Ptr<Socket> s) { Pump(s, 0); }

    void Pump(Ptr<Socket>, uint32_t)
    {
        while (m_sent < m_total)
        {
            const uint32_t n = uint32_t(std::min<uint64_t>(m_msgSize, m_total - m_sent));
            if (m_client->GetTxAvailable() < n)
            {
                return; // the send callback calls again when acknowledgements free the buffer
            }
            // Zeros, as BulkSend gives TCP (ns-3 keeps them as a zero area until someone copies them).
            if (m_client->SendMsg(Create<Packet>(n), 0, 0, false) < 0)
            {
                return;
            }
            m_sent += n;
        }
    }

    void Accept(Ptr<Socket> s, const Address&) { s->SetRecvCallback(MakeCallback(&SctpBulk::Recv, this)); }

    void Recv(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            m_received += p->GetSize();
            m_last = Simulator::Now();
        }
        if (m_received >= m_total && !m_closed)
        {
            m_closed = true;
            m_client->Close();
        }
    }

    uint64_t m_total;
    uint32_t m_msgSize;
    uint64_t m_sent{0};
    uint64_t m_received{0};
    Time m_last;
    bool m_closed{false};
    Ptr<Socket> m_listener;
    Ptr<SctpSocket> m_client;
};

RunResult
RunSctpBulk(uint64_t bytes, const std::string& rate, const std::string& delay, uint32_t msgSize)
{
    const RunTimer timer;
    BenchTopology t(rate, delay, false, true);
    SctpBulk bulk(bytes, msgSize);
    bulk.Install(t, 9003);
    Simulator::Stop(Seconds(1000));
    Simulator::Run();
    RunResult r;
    r.bytes = bulk.Received();
    r.simSeconds = bulk.LastDelivery().GetSeconds(); // from time 0, the connect, as for TCP's sink
    r.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return timer.Stop(r);
}

/** An attribute's default as the runs used it (after the topology's Config::SetDefault calls). */
std::string
DefaultOf(const std::string& type, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByName(type).LookupAttributeByName(attribute, &info))
    {
        return "?";
    }
    if (Ptr<const TimeValue> t = DynamicCast<const TimeValue>(info.initialValue))
    {
        std::ostringstream os;
        os << t->Get().As(Time::MS);
        return os.str();
    }
    return info.initialValue->SerializeToString(info.checker);
}

/**
 * An SCTP socket attribute as the runs used it: BenchTopology's SctpHelper gives Pmtu and the
 * buffers to the nodes' TransportProfiles (not to ns-3's defaults); the rest are the defaults.
 */
std::string
SctpSocketValueOf(const std::string& attribute)
{
    if (attribute == "Pmtu")
    {
        return std::to_string(kMtu);
    }
    if (attribute == "SndBufSize" || attribute == "RcvBufSize")
    {
        return std::to_string(SocketBuffer());
    }
    return DefaultOf("ns3::SctpSocket", attribute);
}

void
PrintSettings(std::ostream& os)
{
    auto tcp = [](const char* a) { return DefaultOf("ns3::TcpSocket", a); };
    auto tcpBase = [](const char* a) { return DefaultOf("ns3::TcpSocketBase", a); };
    auto sctp = [](const char* a) { return SctpSocketValueOf(a); };
    BooleanValue checksums;
    GlobalValue::GetValueByName("ChecksumEnabled", checksums);
    os << "\nsettings both sides ran with (the comparison is only as fair as these):\n"
       << "  TCP : MSS " << tcp("SegmentSize") << " (MTU 1500 with timestamps), SndBuf " << tcp("SndBufSize")
       << ", RcvBuf " << tcp("RcvBufSize") << ", delayed ACK every " << tcp("DelAckCount") << " segments or "
       << tcp("DelAckTimeout") << ", initial cwnd " << tcp("InitialCwnd") << " segments, MinRto "
       << tcpBase("MinRto") << ", SACK " << tcpBase("Sack") << ", timestamps " << tcpBase("Timestamp")
       << ", congestion control " << DefaultOf("ns3::TcpL4Protocol", "SocketType") << "\n"
       << "  SCTP: Pmtu " << sctp("Pmtu") << " (1452 user octets per DATA chunk), SndBuf " << sctp("SndBufSize")
       << ", RcvBuf " << sctp("RcvBufSize") << ", SACK every " << sctp("SackFrequency") << " packets or "
       << sctp("SackDelay") << ", initial cwnd 4380 octets (RFC 9260), RtoMin " << sctp("RtoMin")
       << ", Max.Burst " << sctp("MaxBurst") << ", congestion control " << sctp("CongestionOps") << "\n"
       << "  checksums: SCTP always computes and checks CRC32c; ns-3's TCP and IPv4 checksums are "
       << (checksums.Get() ? "on" : "off") << " (ChecksumEnabled)\n"
       << "  link: one point-to-point link per direction; ns-3's helpers give each device a 100-packet queue and "
          "an FqCoDel queue disc\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    uint64_t bytes = 200'000'000;
    std::string rate = "10Gbps";
    std::string delay = "5us";
    uint32_t msgSize = 65536;
    uint32_t opSize = 1 << 20;
    uint32_t outstanding = 4;
    std::string which = "AB";
    std::string only;
    uint32_t repeat = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Octets each transfer moves", bytes);
    cmd.AddValue("rate", "Link data rate", rate);
    cmd.AddValue("delay", "Link one-way delay", delay);
    cmd.AddValue("msgSize", "(A) octets per SCTP message (BulkSend writes 65536 to TCP)", msgSize);
    cmd.AddValue("opSize", "(B) RDMA Write size of the streams", opSize);
    cmd.AddValue("outstanding", "(B) RDMA Writes in flight", outstanding);
    cmd.AddValue("which", "Comparisons to run: A, B or AB", which);
    cmd.AddValue("only", "Profile one side: sctp, tcp, rdma-sctp or rdma-mpa (no ratio is printed)", only);
    cmd.AddValue("repeat", "Pairs of runs, (a) and (b) alternating; the ratios printed are medians", repeat);
    cmd.Parse(argc, argv);
    if (repeat == 0 || which.empty() || which.find_first_not_of("AB") != std::string::npos)
    {
        std::cerr << "--repeat must be at least 1 and --which one of A, B, AB\n";
        return 2;
    }
    if (only == "sctp" || only == "tcp")
    {
        which = "A";
    }
    else if (only == "rdma-sctp" || only == "rdma-mpa")
    {
        which = "B";
    }

    if (which.find('A') != std::string::npos)
    {
        std::cout << "== (A) SCTP model (" << msgSize << "-octet messages) vs ns-3 TCP (BulkSend), " << bytes << " octets, " << rate << ", " << delay << " ==\n";
        const Side sctp{"(a) SCTP association", "sctp", [&]() {
                            return RunSctpBulk(bytes, rate, delay, msgSize);
                        }};
        const Side tcp{"(b) BulkSend TCP", "tcp", [&]() { return RunTcpBulk(bytes, rate, delay); }};
        if (!Compare(std::cout, sctp, tcp, repeat, only, 1.0))
        {
            return 2;
        }
    }
    if (which.find('B') != std::string::npos)
    {
        std::cout << "\n== (B) RDMA Write stream (" << opSize << "-octet Writes, " << outstanding
                  << " outstanding, virtual payload) over SCTP (RFC 5043) vs over MPA/TCP, " << bytes << " octets, "
                  << rate << ", " << delay << " ==\n";
        const Side overSctp{"(a) RdmaStream over SCTP", "rdma-sctp", [&]() {
                                return RunRdmaWrites(bytes, rate, delay, opSize, outstanding, "Sctp");
                            }};
        const Side overMpa{"(b) RdmaStream over MPA/TCP", "rdma-mpa", [&]() {
                               return RunRdmaWrites(bytes, rate, delay, opSize, outstanding, "Mpa");
                           }};
        if (!Compare(std::cout, overSctp, overMpa, repeat, only, 0))
        {
            return 2;
        }
    }
    {
        // Every run happened in a child process (bench-common.cc forks one per run), so this
        // process's attribute defaults are still ns-3's own: set them up as the runs' topology does
        // before reading them back.  (The table printed MSS 536 and 128 KiB buffers here while the
        // runs used 1448 and 4 MiB.)
        BenchTopology asRun(rate, delay, true, true);
        PrintSettings(std::cout);
        Simulator::Destroy();
    }
    return 0;
}

/*
 * iwarp-scenario-transport: the `transport:` section of a scenario (doc/transports.md).
 *
 *  - every key, given scenario-wide and per host, and the defaults when nothing is given, read back
 *    at the end of a run from the live sockets of both the RDMA LLP (MPA/TCP and DDP/SCTP connections
 *    of the QPs) and the sockets baseline (the other TCP sockets of the host: listeners, connections,
 *    accepted ones); ECN, which ns-3 does not let one read, from the SYNs each host sent, and the RTO
 *    before the first sample from each connecting socket's RTO trace;
 *  - `auto` buffers sized from the host's paths (a floor, 4 x the bandwidth-delay product, a cap);
 *  - summary.json's `transport` object;
 *  - `tcp.hystart` (TcpLinuxCubic's slow-start exit), read back from each socket's congestion control;
 *  - what the loader refuses: unknown congestion controls, hosts, keys and units; a delayed ACK not
 *    shorter than the peer's minimum RTO; DCTCP without ECN; RTOs out of order; attributes the
 *    section owns in `host:`; a hystart that reaches no host running Cubic;
 *  - issue 13's stall: at 1 % loss on a 10 us-RTT link an RDMA Write stream over MPA/TCP moved 102
 *    messages of 64 KiB in 3 s with ns-3's TCP defaults (MinRto 1 s, 200 ms delayed ACK); with the
 *    defaults it must move at least half of what the link can carry.
 */
#include "helper/scenario/scenario-config.h"

#include "support/thrown-message.h"
#include "scenario/transport-probe.h"

#include "ns3/tcp-header.h"
#include "ns3/test.h"

#include <functional>
#include <map>

namespace ns3
{
namespace
{

/** What a host's TCP sockets should say (attribute values as ns-3 serialises them). */
struct TcpExpect
{
    std::string congestion;
    Time minRto, initialRto, delAck; ///< Times, not their text: made before main sets the resolution
    uint32_t delAckCount, initialCwnd;
    bool sack, timestamps, ecn;
    uint64_t send, receive;
    std::string hyStart{}; ///< tcp.hystart for TcpLinuxCubic (linux, rfc9406, off); empty for the others
    uint32_t dataRetries{6}; ///< tcp.data-retries; its default is ns-3's TcpSocket's
};

struct SctpExpect
{
    Time rtoMin, rtoInitial, rtoMax, sackDelay;
    uint32_t sackFrequency, initialCwnd, maxBurst;
    uint64_t send, receive;
};

/** ns-3's text for a Time attribute value. */
std::string
T(Time t)
{
    return TimeValue(t).SerializeToString(MakeTimeChecker());
}

const char* const kTopology = R"(
topology: {kind: dumbbell, hosts-per-side: 2}
links: {rate: 10Gbps, delay: 1us}
)";

// h0 -> h2: RDMA over MPA/TCP and the sockets baseline; h2 -> h0: the sockets baseline (so that h2's
// SYNs show its ECN); h1 -> h3: RDMA over SCTP.  Still posting at the stop: every connection is live.
const char* const kWorkloads = R"(
stop: 3ms
workloads:
  - {name: rdma, kind: stream, from: h0, to: h2, size: 16KiB, outstanding: 2, duration: 10ms}
  - {name: sockets, kind: sockets-stream, from: h0, to: h2, size: 16KiB, duration: 10ms}
  - {name: back, kind: sockets-stream, from: h2, to: h0, size: 16KiB, duration: 10ms}
  - {name: sctp, kind: stream, from: h1, to: h3, size: 16KiB, outstanding: 2, duration: 10ms, llp: sctp}
)";

class ReadBackTestCase : public TestCase
{
  public:
    ReadBackTestCase(std::string name, std::string transport, std::map<std::string, TcpExpect> tcp,
                     std::map<std::string, SctpExpect> sctp)
        : TestCase("read back from the live sockets: " + name),
          m_tag(std::move(name)),
          m_transport(std::move(transport)),
          m_tcp(std::move(tcp)),
          m_sctp(std::move(sctp))
    {
    }

  private:
    void DoRun() override
    {
        const auto hosts = RunProbed(std::string(kTopology) + kWorkloads + m_transport, m_tag);
        for (const auto& [host, e] : m_tcp)
        {
            const HostSockets& h = hosts.at(host);
            NS_TEST_ASSERT_MSG_GT(h.mpa.size(), 0u, host << ": an MPA/TCP connection of a QP");
            NS_TEST_ASSERT_MSG_GT(h.plain.size(), 1u, host << ": sockets-baseline sockets");
            std::vector<Reading> all = h.mpa;
            all.insert(all.end(), h.plain.begin(), h.plain.end());
            for (std::size_t i = 0; i < all.size(); ++i)
            {
                const std::string what = host + (i < h.mpa.size() ? " MPA socket " : " sockets-baseline socket ") +
                                         std::to_string(i) + ": ";
                Reading& r = all[i];
                NS_TEST_EXPECT_MSG_EQ(r["CongestionOps"], e.congestion, what << "congestion");
                NS_TEST_EXPECT_MSG_EQ(r["MinRto"], T(e.minRto), what << "min-rto");
                NS_TEST_EXPECT_MSG_EQ(r["ConnTimeout"], T(e.initialRto), what << "initial-rto (the SYN's)");
                NS_TEST_EXPECT_MSG_EQ(r["DelAckTimeout"], T(e.delAck), what << "delayed-ack-timeout");
                NS_TEST_EXPECT_MSG_EQ(r["DelAckCount"], std::to_string(e.delAckCount), what << "delayed-ack-count");
                NS_TEST_EXPECT_MSG_EQ(r["InitialCwnd"], std::to_string(e.initialCwnd), what << "initial-cwnd");
                // SACK and timestamps are what the handshake agreed (RFC 2018, RFC 7323): on only if both
                // ends have them on.  ns-3 turns them off on the socket that received a SYN without them,
                // a listener included: here every socket has seen its peer's (h0 and h2 talk to each
                // other); each host's own setting shows in the SYNs it sent.
                const TcpExpect& peer = m_tcp.at(host == "h0" ? "h2" : "h0");
                const bool sack = e.sack && peer.sack;
                const bool timestamps = e.timestamps && peer.timestamps;
                const std::string sackText = sack ? "true" : "false"; // ns-3's macros take no bare ?:
                const std::string timestampsText = timestamps ? "true" : "false";
                NS_TEST_EXPECT_MSG_EQ(r["Sack"], sackText, what << "sack");
                NS_TEST_EXPECT_MSG_EQ(r["Timestamp"], timestampsText, what << "timestamps");
                NS_TEST_EXPECT_MSG_EQ(r["SndBufSize"], std::to_string(e.send), what << "send buffer");
                NS_TEST_EXPECT_MSG_EQ(r["RcvBufSize"], std::to_string(e.receive), what << "receive buffer");
                NS_TEST_EXPECT_MSG_EQ(r["DataRetries"], std::to_string(e.dataRetries), what << "data-retries");
                if (!e.hyStart.empty())
                {
                    const std::string on = e.hyStart == "off" ? "false" : "true";
                    NS_TEST_EXPECT_MSG_EQ(r["HyStart"], on, what << "hystart " << e.hyStart);
                    if (e.hyStart != "off")
                    {
                        NS_TEST_EXPECT_MSG_EQ(r["HyStartVariant"],
                                              std::string(e.hyStart == "linux" ? "Linux" : "RFC9406"),
                                              what << "hystart " << e.hyStart);
                    }
                }
            }
            // Each connecting socket: the RTO before any RTT sample; each SYN: ECN asked for or not.
            NS_TEST_ASSERT_MSG_GT(h.firstRto.size(), 0u, host << ": connecting sockets traced");
            for (const Time& rto : h.firstRto)
            {
                NS_TEST_EXPECT_MSG_EQ(T(rto), T(e.initialRto), host << ": the first RTO");
            }
            NS_TEST_ASSERT_MSG_GT(h.syns.size(), 0u, host << ": SYNs sent");
            for (const Syn& syn : h.syns)
            {
                NS_TEST_EXPECT_MSG_EQ(syn.ecn, e.ecn, host << ": an ECN-setup SYN (ECE and CWR, RFC 3168 §6.1.1)");
                NS_TEST_EXPECT_MSG_EQ(syn.sackPermitted, e.sack, host << ": SACK-permitted in the SYN");
                NS_TEST_EXPECT_MSG_EQ(syn.timestamps, e.timestamps, host << ": timestamps in the SYN");
            }
        }
        for (const auto& [host, e] : m_sctp)
        {
            const HostSockets& h = hosts.at(host);
            NS_TEST_ASSERT_MSG_GT(h.sctp.size(), 0u, host << ": an SCTP association of a QP");
            for (Reading r : h.sctp)
            {
                NS_TEST_EXPECT_MSG_EQ(r["RtoMin"], T(e.rtoMin), host << ": rto-min");
                NS_TEST_EXPECT_MSG_EQ(r["RtoInitial"], T(e.rtoInitial), host << ": rto-initial");
                NS_TEST_EXPECT_MSG_EQ(r["RtoMax"], T(e.rtoMax), host << ": rto-max");
                NS_TEST_EXPECT_MSG_EQ(r["SackDelay"], T(e.sackDelay), host << ": sack-delay");
                NS_TEST_EXPECT_MSG_EQ(r["SackFrequency"], std::to_string(e.sackFrequency), host << ": sack-frequency");
                NS_TEST_EXPECT_MSG_EQ(r["InitialCwnd"], std::to_string(e.initialCwnd), host << ": initial-cwnd");
                NS_TEST_EXPECT_MSG_EQ(r["MaxBurst"], std::to_string(e.maxBurst), host << ": max-burst");
                NS_TEST_EXPECT_MSG_EQ(r["SndBufSize"], std::to_string(e.send), host << ": send buffer");
                NS_TEST_EXPECT_MSG_EQ(r["RcvBufSize"], std::to_string(e.receive), host << ": receive buffer");
            }
        }
    }

    std::string m_tag;
    std::string m_transport;
    std::map<std::string, TcpExpect> m_tcp;
    std::map<std::string, SctpExpect> m_sctp;
};

constexpr uint64_t KiB = 1024;

/** The defaults of doc/transports.md; `auto` buffers on this 10 Gb/s, few-microsecond fabric: the floor. */
const TcpExpect kTcpDefault{"ns3::TcpLinuxCubic", MilliSeconds(5), Seconds(1), MilliSeconds(1), 2, 10,
                            true, true, false, 256 * KiB, 256 * KiB, "linux"};
const SctpExpect kSctpDefault{MilliSeconds(5), Seconds(1), Seconds(60), MilliSeconds(1), 2, 0, 4,
                              256 * KiB, 256 * KiB};

// Every key scenario-wide (h0, h1) and overridden for one host (h2, h3).  Buffers: each of the six
// buffer keys at both levels across this case and the next; a host's own level wins over the
// scenario-wide one, and within a level the protocol's key over `buffers`.
const char* const kEveryKey = R"(
transport:
  tcp: {congestion: NewReno, min-rto: 3ms, initial-rto: 700ms, delayed-ack-timeout: 400us, delayed-ack-count: 1,
        initial-cwnd: 4, sack: false, timestamps: false, ecn: on, send-buffer: 300KiB, data-retries: 10}
  sctp: {rto-min: 3ms, rto-initial: 700ms, rto-max: 9s, sack-delay: 400us, sack-frequency: 3, initial-cwnd: 6,
         max-burst: 5, receive-buffer: 500KiB}
  buffers: {send: 600KiB, receive: 700KiB}
  hosts:
    h2:
      tcp: {congestion: Vegas, min-rto: 4ms, initial-rto: 800ms, delayed-ack-timeout: 300us, delayed-ack-count: 3,
            initial-cwnd: 16, sack: true, timestamps: true, ecn: off, receive-buffer: 1200KiB, data-retries: 12}
      buffers: {send: 1MiB}
    h3:
      sctp: {rto-min: 4ms, rto-initial: 800ms, rto-max: 20s, sack-delay: 300us, sack-frequency: 4, initial-cwnd: 12,
             max-burst: 8, send-buffer: 900KiB}
      buffers: {receive: 800KiB}
)";

// hystart scenario-wide reaches h0 (Cubic) and h2 (DCTCP, which has no such choice: it is not refused,
// since it changes h0).
const char* const kOtherLevels = R"(
transport:
  tcp: {receive-buffer: 400KiB, hystart: rfc9406}
  sctp: {send-buffer: 450KiB, initial-cwnd: 7}
  hosts:
    h2: {tcp: {congestion: Dctcp, send-buffer: 550KiB}}
    h3: {sctp: {receive-buffer: 650KiB, initial-cwnd: rfc9260}}
)";

TcpExpect
With(TcpExpect e, const std::function<void(TcpExpect&)>& f)
{
    f(e);
    return e;
}

SctpExpect
With(SctpExpect e, const std::function<void(SctpExpect&)>& f)
{
    f(e);
    return e;
}

class AutoBufferTestCase : public TestCase
{
  public:
    AutoBufferTestCase()
        : TestCase("auto buffers: 4 x the bandwidth-delay product of the host's longest path, in [256 KiB, 16 MiB]")
    {
    }

  private:
    void DoRun() override
    {
        // One 1 Gb/s link of 5 ms: RTT 10 ms + one 1502-octet packet (12.016 us); 4 x BDP = 5,006,008 octets.
        // At 10 Gb/s and 20 ms it would be 200 MB: the cap.
        const std::string head = "stop: 1ms\ntopology: {kind: two-hosts}\n";
        const std::string work = "workloads:\n  - {kind: sockets-stream, from: h0, to: h1, count: 1}\n";
        for (const auto& [links, expected] : {std::make_pair("links: {rate: 1Gbps, delay: 5ms}\n", uint64_t(5006008)),
                                              std::make_pair("links: {rate: 10Gbps, delay: 20ms}\n", uint64_t(16) << 20)})
        {
            nlohmann::json s;
            const auto hosts = RunProbed(head + links + work, "auto", &s);
            for (const std::string h : {"h0", "h1"})
            {
                NS_TEST_ASSERT_MSG_GT(hosts.at(h).plain.size(), 0u, h << ": its sockets");
                for (Reading r : hosts.at(h).plain)
                {
                    NS_TEST_EXPECT_MSG_EQ(r["SndBufSize"], std::to_string(expected), links << h);
                    NS_TEST_EXPECT_MSG_EQ(r["RcvBufSize"], std::to_string(expected), links << h);
                }
                const auto& tcp = s["transport"][h]["tcp"];
                NS_TEST_EXPECT_MSG_EQ(tcp["send_buffer_bytes"].get<uint64_t>(), expected, "summary.json " << h);
                NS_TEST_EXPECT_MSG_EQ(tcp["send_buffer_auto"].get<bool>(), true, "summary.json " << h);
                NS_TEST_EXPECT_MSG_EQ(s["transport"][h]["sctp"]["receive_buffer_bytes"].get<uint64_t>(), expected,
                                      "SCTP gets the same buffers as TCP");
            }
        }
    }
};

class SummaryTestCase : public TestCase
{
  public:
    SummaryTestCase()
        : TestCase("summary.json records each host's transport settings as run")
    {
    }

  private:
    void DoRun() override
    {
        nlohmann::json s;
        RunProbed(std::string(kTopology) + kWorkloads + kEveryKey, "summary", &s);
        const auto& t = s.at("transport");
        NS_TEST_ASSERT_MSG_EQ(t.size(), 4u, "one entry per host: " << t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h0"]["tcp"]["congestion"].get<std::string>(), "NewReno", t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h2"]["tcp"]["congestion_type_id"].get<std::string>(), "ns3::TcpVegas", t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h0"]["tcp"]["min_rto_ns"].get<int64_t>(), 3000000, t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h2"]["tcp"]["delayed_ack_timeout_ns"].get<int64_t>(), 300000, t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h0"]["tcp"]["ecn"].get<bool>(), true, t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h2"]["tcp"]["send_buffer_bytes"].get<uint64_t>(), 1u << 20, t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h2"]["tcp"]["send_buffer_auto"].get<bool>(), false, t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h3"]["sctp"]["initial_cwnd_mtus"].get<uint32_t>(), 12u, t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h3"]["sctp"]["rto_max_ns"].get<int64_t>(), 20000000000, t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h0"]["tcp"]["hystart"].is_null(), true, "NewReno has no hystart: " << t.dump());
        NS_TEST_EXPECT_MSG_EQ(t["h2"]["tcp"]["data_retries"].get<uint32_t>(), 12u, t.dump());
        nlohmann::json d;
        RunProbed(std::string(kTopology) + kWorkloads, "summary-default", &d);
        NS_TEST_EXPECT_MSG_EQ(d["transport"]["h1"]["tcp"]["congestion_type_id"].get<std::string>(), "ns3::TcpLinuxCubic",
                              "the default congestion control");
        NS_TEST_EXPECT_MSG_EQ(d["transport"]["h1"]["sctp"]["initial_cwnd_mtus"].is_null(), true, "RFC 9260's window");
        NS_TEST_EXPECT_MSG_EQ(d["transport"]["h1"]["tcp"]["hystart"].get<std::string>(), "linux",
                              "the default slow-start exit");
    }
};

std::string
ErrorOf(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
    return ThrownMessage<ScenarioError>([&] { LoadScenarioString(yaml, overrides, "s.yaml"); });
}

class RefusedTestCase : public TestCase
{
  public:
    RefusedTestCase()
        : TestCase("the loader refuses bad transport settings with their place")
    {
    }

  private:
    void DoRun() override
    {
        const std::string head = "stop: 10ms\n"                                          // 1
                                 "topology: {kind: two-hosts}\n"                         // 2
                                 "workloads:\n"                                          // 3
                                 "  - {name: bulk, kind: stream, from: h0, to: h1, count: 4}\n"; // 4
        auto with = [&head](const std::string& transport) { return head + "transport:\n" + transport; }; // 5: transport
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {congestion: Reno}\n")),
                              "s.yaml:6:21: transport.tcp.congestion: unknown TCP congestion control 'Reno' (expected "
                              "one of Bbr, Bic, Cubic, Dctcp, HighSpeed, Htcp, Hybla, Illinois, Ledbat, LinuxReno, "
                              "Lp, NewReno, Ns3Cubic, Ns3Dctcp, Scalable, Vegas, Veno, Westwood, Yeah)",
                              "unknown congestion control");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {min-rto: 5}\n")),
                              "s.yaml:6:18: transport.tcp.min-rto: time \"5\" has no unit (expected one of ns, us, "
                              "ms, s)",
                              "a time without its unit");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  buffers: {send: 4Mib}\n")),
                              "s.yaml:6:19: transport.buffers.send: unknown unit 'Mib' in size \"4Mib\" (expected one "
                              "of B, KB, KiB, MB, MiB, GB, GiB)",
                              "a size with a bad unit");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  hosts:\n    h7: {tcp: {sack: off}}\n")),
                              "s.yaml:7:5: transport.hosts.h7: unknown host 'h7'; topology two-hosts has hosts h0..h1; did you "
                              "mean 'h0'?",
                              "an unknown host");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {min-rto: 1ms}\n")),
                              "s.yaml:6:18: transport.tcp.min-rto: h0 delays ACKs up to 1ms (the default), not below "
                              "h1's minimum RTO 1ms (transport.tcp.min-rto) on workload 'bulk': every lone segment "
                              "would be retransmitted by a timeout before its ACK comes, and the connection stalls; "
                              "make the delay shorter than the RTO (or delayed-ack-count: 1)",
                              "the stall of issue 13: a minimum RTO no longer than the delayed ACK");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  hosts:\n    h1: {tcp: {delayed-ack-timeout: 5ms}}\n")),
                              "s.yaml:7:37: transport.hosts.h1.tcp.delayed-ack-timeout: h1 delays ACKs up to 5ms "
                              "(transport.hosts.h1.tcp.delayed-ack-timeout), not below h0's minimum RTO 5ms (the "
                              "default) on workload 'bulk': every lone segment would be retransmitted by a timeout "
                              "before its ACK comes, and the connection stalls; make the delay shorter than the RTO "
                              "(or delayed-ack-count: 1)",
                              "one host's delayed ACK against the other's RTO");
        const std::string sctp = "stop: 10ms\ntopology: {kind: two-hosts}\nworkloads:\n"
                                 "  - {name: s, kind: stream, from: h0, to: h1, count: 4, llp: sctp}\n";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(sctp + "transport: {sctp: {rto-min: 1ms, sack-delay: 2ms}}\n"),
                              "s.yaml:5:46: transport.sctp.sack-delay: h0 delays SACKs up to 2ms "
                              "(transport.sctp.sack-delay), not below h1's minimum RTO 1ms (transport.sctp.rto-min) on "
                              "workload 's': every lone segment would be retransmitted by a timeout before its ACK "
                              "comes, and the connection stalls; make the delay shorter than the RTO",
                              "SCTP's delayed SACK against RTO.Min");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {congestion: Dctcp, ecn: off}\n")),
                              "s.yaml:6:33: transport.tcp.ecn: ecn off contradicts congestion Dctcp "
                              "(transport.tcp.congestion): DCTCP reacts to ECN marks and needs ECN on; leave ecn out "
                              "or set it on",
                              "DCTCP without ECN");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {initial-rto: 2ms}\n")),
                              "s.yaml:6:22: transport.tcp.initial-rto: the initial RTO 2ms (transport.tcp.initial-rto) "
                              "is below the minimum RTO 5ms (the default)",
                              "an initial RTO below the minimum");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  sctp: {rto-max: 500ms}\n")),
                              "s.yaml:6:19: transport.sctp.rto-max: RTO.Initial 1s (the default) is outside [RTO.Min "
                              "5ms, RTO.Max 500ms]",
                              "SCTP's RTOs out of order");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  sctp: {sack-delay: 600ms}\n")),
                              "s.yaml:6:22: transport.sctp.sack-delay: RFC 9260 §6.2 allows a SACK to be delayed by "
                              "at most 500ms, got 600ms",
                              "a delayed SACK past RFC 9260's limit");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  buffers: {receive: 1KiB}\n")),
                              "s.yaml:6:22: transport.buffers.receive: a socket buffer is 8KiB to 1GiB (or auto), got "
                              "1KiB",
                              "a buffer too small to hold a few segments");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {delayed-ack-count: 0}\n")),
                              "s.yaml:6:28: transport.tcp.delayed-ack-count: delayed-ack-count must be at least 1",
                              "no ACK at all");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {data-retries: 0}\n")),
                              "s.yaml:6:23: transport.tcp.data-retries: data-retries must be at least 1",
                              "no retransmission at all");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {data-retries: 256}\n")),
                              "s.yaml:6:23: transport.tcp.data-retries: value 256 is above the largest allowed, 255",
                              "more than the key's range");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(head + "host: {ns3::TcpSocket::DataRetries: 3}\n"),
                              "s.yaml:5:8: host.ns3::TcpSocket::DataRetries: ns3::TcpSocket::DataRetries is set on every "
                              "socket by the transport section: write transport.tcp.data-retries (or "
                              "transport.hosts.<host>...) instead",
                              "the new key's attribute, in host:");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {min_rto: 1ms}\n")),
                              "s.yaml:6:9: transport.tcp.min_rto: unknown key 'min_rto'; did you mean 'min-rto'?",
                              "an unknown key");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  hosts: {h1: {hosts: {}}}\n")),
                              "s.yaml:6:16: transport.hosts.h1.hosts: unknown key 'hosts' (known keys: buffers, sctp, "
                              "tcp)",
                              "hosts inside a host");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(head + "host: {TcpSocketBase::MinRto: 1ms}\n"),
                              "s.yaml:5:8: host.TcpSocketBase::MinRto: ns3::TcpSocketBase::MinRto is set on every "
                              "socket by the transport section: write transport.tcp.min-rto (or "
                              "transport.hosts.<host>...) instead",
                              "an attribute the transport section owns, in host:");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(head, {"transport.tcp.congestion=Bbr2"}),
                              "--set transport.tcp.congestion=Bbr2: transport.tcp.congestion: unknown TCP congestion "
                              "control 'Bbr2' (expected one of Bbr, Bic, Cubic, Dctcp, HighSpeed, Htcp, Hybla, "
                              "Illinois, Ledbat, LinuxReno, Lp, NewReno, Ns3Cubic, Ns3Dctcp, Scalable, Vegas, Veno, "
                              "Westwood, "
                              "Yeah)",
                              "an override");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {hystart: fast}\n")), "s.yaml:6:18: transport.tcp.hystart: unknown HyStart mode 'fast' (expected one of linux, rfc9406, off)", "an unknown hystart");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {congestion: NewReno, hystart: rfc9406}\n")), "s.yaml:6:39: transport.tcp.hystart: hystart rfc9406 chooses the slow-start exit of congestion Cubic "
                              "(TcpLinuxCubic), and no host it reaches runs Cubic (h0 runs NewReno, "
                              "transport.tcp.congestion): it would change nothing; leave it out",
                              "hystart where no host runs Cubic");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  hosts:\n    h1: {tcp: {congestion: Vegas, hystart: off}}\n")),
                              "s.yaml:7:44: transport.hosts.h1.tcp.hystart: hystart off chooses the slow-start exit of "
                              "congestion Cubic (TcpLinuxCubic), and no host it reaches runs Cubic (h1 runs Vegas, "
                              "transport.hosts.h1.tcp.congestion): it would change nothing; leave it out", "a host's hystart on a host that does not run Cubic");
        // What passes: DCTCP with ECN left out (it turns ECN on), quick ACKs against a short RTO.
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(with("  tcp: {congestion: Dctcp, min-rto: 200us, delayed-ack-timeout: 100us}\n")),
                              "", "a consistent section");
    }
};

class LossyLinkTestCase : public TestCase
{
  public:
    LossyLinkTestCase()
        : TestCase("issue 13: at 1 % loss on a 10 us-RTT link the defaults keep a Write stream over MPA and TCP moving")
    {
    }

  private:
    void DoRun() override
    {
        const std::string yaml = R"(
stop: 3s
topology: {kind: two-hosts}
links: {rate: 100Mbps, delay: 5us, loss: 0.01}
workloads:
  - {name: rdma, kind: stream, from: h0, to: h1, size: 64KiB, outstanding: 4, duration: 3s}
)";
        RunResult r;
        RunProbed(yaml, "lossy", nullptr, &r);
        // The most the link can carry in 3 s: its payload rate for full Write FPDUs over TCP with
        // timestamps (IP 20, TCP 32, MPA 6, DDP/RDMAP 14 in 1500 octets, PPP 2 on the wire), in messages.
        const double payloadBps = 100e6 * (1500.0 - 20 - 32 - 6 - 14) / 1502.0;
        const double most = payloadBps * 3.0 / 8.0 / 65536.0;
        const WorkloadResult& w = r.workloads.at(0);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(double(w.messagesDelivered), most / 2,
                                    "at least half of the " << most << " messages the link could carry; "
                                                            << w.retransmissions.timeout << " retransmissions after "
                                                            << w.retransmissions.rtoExpirations << " timeouts");
        NS_TEST_EXPECT_MSG_EQ(r.FailedChecks(), 0u, "physics checks");
    }
};

class ScenarioTransportTestSuite : public TestSuite
{
  public:
    ScenarioTransportTestSuite()
        : TestSuite("iwarp-scenario-transport", UNIT)
    {
        AddTestCase(new ReadBackTestCase("defaults", "", {{"h0", kTcpDefault}, {"h2", kTcpDefault}},
                                         {{"h1", kSctpDefault}, {"h3", kSctpDefault}}),
                    TestCase::QUICK);
        const TcpExpect h0{"ns3::TcpNewReno", MilliSeconds(3), MilliSeconds(700), MicroSeconds(400), 1, 4,
                           false, false, true, 300 * KiB, 700 * KiB, "", 10};
        const TcpExpect h2{"ns3::TcpVegas", MilliSeconds(4), MilliSeconds(800), MicroSeconds(300), 3, 16,
                           true, true, false, 1024 * KiB, 1200 * KiB, "", 12};
        const SctpExpect h1{MilliSeconds(3), MilliSeconds(700), Seconds(9), MicroSeconds(400), 3, 6, 5,
                            600 * KiB, 500 * KiB};
        const SctpExpect h3{MilliSeconds(4), MilliSeconds(800), Seconds(20), MicroSeconds(300), 4, 12, 8,
                            900 * KiB, 800 * KiB};
        AddTestCase(new ReadBackTestCase("every key, scenario-wide and per host", kEveryKey,
                                         {{"h0", h0}, {"h2", h2}}, {{"h1", h1}, {"h3", h3}}),
                    TestCase::QUICK);
        AddTestCase(new ReadBackTestCase(
                        "the other buffer keys, DCTCP turning ECN on, rfc9260 by name", kOtherLevels,
                        {{"h0", With(kTcpDefault, [](TcpExpect& e) {
                              e.receive = 400 * KiB;
                              e.hyStart = "rfc9406";
                          })},
                         {"h2", With(kTcpDefault, [](TcpExpect& e) {
                              e.congestion = "ns3::TcpLinuxDctcp";
                              e.hyStart = "";
                              e.ecn = true;
                              e.send = 550 * KiB;
                              e.receive = 400 * KiB;
                          })}},
                        {{"h1", With(kSctpDefault, [](SctpExpect& e) {
                              e.send = 450 * KiB;
                              e.initialCwnd = 7;
                          })},
                         {"h3", With(kSctpDefault, [](SctpExpect& e) {
                              e.send = 450 * KiB;
                              e.receive = 650 * KiB;
                          })}}),
                    TestCase::QUICK);
        AddTestCase(new ReadBackTestCase("hystart off scenario-wide, linux for one host",
                                         "transport:\n  tcp: {hystart: off}\n  hosts: {h2: {tcp: {hystart: linux}}}\n",
                                         {{"h0", With(kTcpDefault, [](TcpExpect& e) { e.hyStart = "off"; })},
                                          {"h2", kTcpDefault}},
                                         {}),
                    TestCase::QUICK);
        AddTestCase(new AutoBufferTestCase, TestCase::QUICK);
        AddTestCase(new SummaryTestCase, TestCase::QUICK);
        AddTestCase(new RefusedTestCase, TestCase::QUICK);
        AddTestCase(new LossyLinkTestCase, TestCase::QUICK);
    }
};

ScenarioTransportTestSuite g_scenarioTransportTestSuite;

} // namespace
} // namespace ns3

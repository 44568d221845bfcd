/*
 * iwarp-scenario-llp-descriptors: the LLP descriptors (helper/scenario/llp-descriptors.h), the one place the
 * scenario layer learns an LLP's facts. Each names a real connector; its header octets are those of the
 * headers the stacks serialise (ns-3's IPv4 and TCP headers, the SCTP model's common header and DATA chunk);
 * its smallest MTU is path-sizes.h's; and CarrierOf gives the sockets kinds plain TCP.
 */
#include "helper/scenario/llp-descriptors.h"
#include "helper/scenario/path-sizes.h"
#include "helper/scenario/scenario-config.h"

#include "ddp/llp-connector.h"
#include "mpa/mpa-constants.h"
#include "rnic/iwarp-transport.h"
#include "rnic/roce-transport.h"
#include "roce/roce-headers.h"
#include "rnic/rdma-transport-kinds.h"
#include "sctp-ddp/sctp-ddp-connection.h"
#include "sctp/sctp-chunk.h"
#include "sctp/sctp-packet.h"

#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-ts.h"
#include "ns3/test.h"

#include <set>
#include <string>

namespace ns3
{
namespace
{

/** A scenario with every setting at its default, for the facts that read settings. */
const ScenarioConfig&
Minimal()
{
    static const ScenarioConfig cfg = LoadScenarioString(R"(
stop: 1ms
topology: {kind: two-hosts}
workloads:
  - {name: rdma, kind: stream, from: h0, to: h1, size: 4KiB, count: 1}
)",
                                                         {},
                                                         "minimal.yaml");
    return cfg;
}


/** Octets of an IPv4 header and a TCP header, with the timestamp option or without, as ns-3 writes them. */
uint32_t
SerialisedTcpIp(bool timestamps)
{
    TcpHeader tcp;
    if (timestamps)
    {
        tcp.AppendOption(CreateObject<TcpOptionTS>());
    }
    return Ipv4Header().GetSerializedSize() + tcp.GetSerializedSize();
}

class DescribedWholeTestCase : public TestCase
{
  public:
    DescribedWholeTestCase()
        : TestCase("each LLP: a unique name, an LlpConnector paired with IwarpTransport, a label, framing, a smallest MTU")
    {
    }

  private:
    void DoRun() override
    {
        std::set<std::string> names;
        for (const LlpDescriptor& d : LlpDescriptors())
        {
            NS_TEST_EXPECT_MSG_EQ(names.insert(d.name).second, true, d.name << " declared once");
            TypeId tid;
            NS_TEST_ASSERT_MSG_EQ(TypeId::LookupByNameFailSafe(d.connector, &tid), true, d.connector);
            NS_TEST_EXPECT_MSG_EQ(tid.IsChildOf(LlpConnector::GetTypeId()), true, d.connector << " is a connector");
            const RdmaTransportKind* kind = RdmaTransportKindOfConnector(tid);
            NS_TEST_ASSERT_MSG_NE(kind, nullptr, d.connector << " pairs with an RDMA transport");
            NS_TEST_EXPECT_MSG_EQ(kind->transport, (d.ddp ? IwarpTransport::GetTypeId() : RoceTransport::GetTypeId()),
                                  d.name << ": DDP over it is iWARP; RoCEv2 is its own");
            NS_TEST_EXPECT_MSG_EQ(std::string(d.label).empty(), false, d.name << ": a label for messages");
            NS_TEST_EXPECT_MSG_EQ((d.framingOctets && d.minMtu && d.minMtuWhy && d.mulpdu && d.ackTimers), true,
                                  d.name << ": its facts");
            NS_TEST_EXPECT_MSG_EQ(d.minMtuWhy(Minimal()).empty(), false, d.name << ": why its smallest MTU");
        }
        NS_TEST_EXPECT_MSG_EQ(&DefaultLlp(), &LlpDescriptors().front(), "the default is the first");
        NS_TEST_EXPECT_MSG_EQ(std::string(DefaultLlp().name), "tcp", "MPA over TCP by default");
        NS_TEST_EXPECT_MSG_EQ(std::string(PlainTcp().connector), "", "plain TCP has no LLP connector");
        NS_TEST_EXPECT_MSG_EQ((PlainTcp().mulpdu == nullptr), true, "nor a MULPDU: it carries no DDP");
    }
};

class FramingFromTheWireTestCase : public TestCase
{
  public:
    FramingFromTheWireTestCase()
        : TestCase("framing octets are the serialised headers: IPv4 + TCP (+ timestamps) + MPA 6; IPv4 + SCTP + DATA")
    {
    }

  private:
    void DoRun() override
    {
        const LlpDescriptor& mpa = LlpDescriptors().at(0);
        const LlpDescriptor& sctp = LlpDescriptors().at(1);
        NS_TEST_ASSERT_MSG_EQ(std::string(sctp.name), "sctp", "the second LLP");
        const uint32_t mpaFraming = uint32_t(iwarp::kMpaLengthFieldLen + iwarp::kMpaCrcLen);
        for (bool ts : {false, true})
        {
            NS_TEST_EXPECT_MSG_EQ(PlainTcp().framingOctets(ts), SerialisedTcpIp(ts), "plain TCP, timestamps " << ts);
            NS_TEST_EXPECT_MSG_EQ(mpa.framingOctets(ts), SerialisedTcpIp(ts) + mpaFraming, "MPA, timestamps " << ts);
            SctpDataChunk data;
            const uint32_t sctpWire =
                Ipv4Header().GetSerializedSize() + SctpCommonHeader().GetSerializedSize() + data.GetSerializedSize();
            NS_TEST_EXPECT_MSG_EQ(sctp.framingOctets(ts), sctpWire, "DDP over SCTP: timestamps do not apply");
        }
        NS_TEST_EXPECT_MSG_EQ(kTcpIpOverhead, SerialisedTcpIp(true), "path-sizes.h's TCP/IP overhead");
        NS_TEST_EXPECT_MSG_EQ(mpa.minMtu(Minimal()), MinMpaMtu(), "MPA's smallest MTU is path-sizes.h's");
        NS_TEST_EXPECT_MSG_EQ(sctp.minMtu(Minimal()), MinSctpMtu(), "SCTP's smallest MTU is path-sizes.h's");
        // RoCEv2: IPv4, UDP, BTH and ICRC on every packet; a Write's first packet adds its RETH to the Mtu.
        const LlpDescriptor& roce = LlpDescriptors().at(2);
        NS_TEST_ASSERT_MSG_EQ(std::string(roce.name), "rocev2", "the third LLP");
        const uint32_t roceWire = Ipv4Header().GetSerializedSize() + UdpHeader().GetSerializedSize() +
                                  RoceBth().GetSerializedSize() + roce::kIcrcLen;
        NS_TEST_EXPECT_MSG_EQ(roce.framingOctets(true), roceWire, "RoCEv2's framing");
        NS_TEST_EXPECT_MSG_EQ(roce.minMtu(Minimal()), roceWire + RoceReth().GetSerializedSize() + 1024,
                              "RoCEv2's smallest MTU: its largest packet at the default Mtu");
        NS_TEST_EXPECT_MSG_EQ(roce.mulpdu(Minimal(), 9000).octets, 1024u, "its payload per packet is the Mtu");
        NS_TEST_EXPECT_MSG_EQ(sctpddp::MulpduFor(1500, 0), 1500 - sctp.framingOctets(false) - sctpddp::kSsnLen,
                              "the SCTP MULPDU leaves the same headers");
    }
};

class CarrierOfKindsTestCase : public TestCase
{
  public:
    CarrierOfKindsTestCase()
        : TestCase("CarrierOf: an RDMA kind's own llp; the sockets kinds' plain TCP whatever llp says")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig cfg = LoadScenarioString(R"(
stop: 1ms
topology: {kind: two-hosts}
workloads:
  - {name: rdma, kind: stream, from: h0, to: h1, size: 4KiB, count: 1, llp: sctp}
  - {name: sockets, kind: sockets-stream, from: h0, to: h1, size: 4KiB, count: 1}
)",
                                                      {},
                                                      "carrier.yaml");
        NS_TEST_EXPECT_MSG_EQ(&CarrierOf(cfg.workloads[0]), &LlpDescriptors().at(1), "the stream's sctp");
        NS_TEST_EXPECT_MSG_EQ((CarrierOf(cfg.workloads[0]).carrier == LlpCarrier::Sctp), true, "carried by SCTP");
        NS_TEST_EXPECT_MSG_EQ(&CarrierOf(cfg.workloads[1]), &PlainTcp(), "the sockets baseline's TCP");
        NS_TEST_EXPECT_MSG_EQ(std::string(CarrierOf(cfg.workloads[1]).name), "tcp", "results call it tcp");
    }
};

class LlpDescriptorsTestSuite : public TestSuite
{
  public:
    LlpDescriptorsTestSuite()
        : TestSuite("iwarp-scenario-llp-descriptors", UNIT)
    {
        AddTestCase(new DescribedWholeTestCase, TestCase::QUICK);
        AddTestCase(new FramingFromTheWireTestCase, TestCase::QUICK);
        AddTestCase(new CarrierOfKindsTestCase, TestCase::QUICK);
    }
};

static LlpDescriptorsTestSuite g_llpDescriptorsTestSuite;

} // namespace
} // namespace ns3

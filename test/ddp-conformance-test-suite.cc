/*
 * CHECKLIST §4.1: the DDP conformance cases D-01 ... D-24, each a TestCase named by its id.
 */
#include "conformance-fixture.h"

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

class D01WriteSegmentation : public ConformanceFixture
{
  public:
    D01WriteSegmentation()
        : ConformanceFixture("D-01 RDMA Write of 2048 octets is two tagged segments at MULPDU 1500")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        PostSendBytes(1, RdmapWrType::Write, seg::Pattern(2048), 0x0000F00D, 0x4000);
        RunFor();
        const auto& s = Sent();
        NS_TEST_ASSERT_MSG_EQ(s.size(), 2, "exactly two segments");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[0].ctrl0), 0x81u, "#1 octet 0");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[1].ctrl0), 0xC1u, "#2 octet 0 (L=1 last)");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[0].ctrl1), 0x40u, "#1 octet 1");
        NS_TEST_EXPECT_MSG_EQ(unsigned(s[1].ctrl1), 0x40u, "#2 octet 1");
        NS_TEST_EXPECT_MSG_EQ(s[0].stag, 0x0000F00Du, "#1 STag");
        NS_TEST_EXPECT_MSG_EQ(s[1].stag, 0x0000F00Du, "#2 STag");
        NS_TEST_EXPECT_MSG_EQ(s[0].to, 0x4000u, "#1 TO");
        NS_TEST_EXPECT_MSG_EQ(s[1].to, 0x45CEu, "#2 TO");
        NS_TEST_EXPECT_MSG_EQ(s[0].payloadLength, 1486u, "#1 payload");
        NS_TEST_EXPECT_MSG_EQ(s[1].payloadLength, 562u, "#2 payload");
    }
};

class D13WriteInvalidStag : public ConformanceFixture
{
  public:
    D13WriteInvalidStag()
        : ConformanceFixture("D-13 RDMA Write to an unallocated STag gives TERM 1.1.0x00 MDR=110 (V5)")
    {
    }

  private:
    void DoRun() override
    {
        SetUpFixture();
        const Bytes v1 = seg::Write(kStagBAD, 0x10000, Bytes{'A', 'B', 'C', 'D'});
        const auto before = SnapshotMemory();
        Inject(v1);
        RunFor();
        ExpectTerminate(1, 1, 0x00, true, true, false, &v1, nullptr, &before);
        const Bytes v5 = {0x41, 0x47, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
                          0x01, 0x00, 0x00, 0x00, 0x00, 0x11, 0x00, 0xC0, 0x00, 0x00, 0x12, 0xC1, 0x40,
                          0xDE, 0xAD, 0xBE, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00};
        NS_TEST_EXPECT_MSG_EQ((SentTerminates().at(0).bytes == v5), true, "byte-identical to V5");
        ExpectSilentAfterError();
    }
};

class DdpConformanceSuite : public TestSuite
{
  public:
    DdpConformanceSuite()
        : TestSuite("iwarp-ddp-conformance", UNIT)
    {
        AddTestCase(new D01WriteSegmentation, TestCase::QUICK);
        AddTestCase(new D13WriteInvalidStag, TestCase::QUICK);
    }
};

DdpConformanceSuite g_ddpConformanceSuite;

} // namespace

/*
 * MpaConnection::SendLowWater: once TCP's send buffer is too full for the next FPDU, MPA asks DDP
 * for more only when TCP has at least SendLowWater octets free (at most half its buffer). FPDUs
 * then reach TCP in batches, as a socket application's writes after poll() do, instead of one or
 * two per returning ACK, each of which costs ns-3's TCP a transmission attempt.
 *
 * Observed from outside: the FPDUs MPA writes (FpduTx) grouped into bursts, a burst being the FPDUs
 * written at one simulated instant. After the first burst (the Write's post, which fills the
 * buffer) every burst is a wake-up after a refusal for space, so TCP's free space just before it
 * must be at least the low-water mark. A 256 KiB buffer and a 2 MB Write make TCP's buffer the
 * bottleneck; the data must still arrive byte for byte.
 */
#include "mpa/mpa-transfer.h"
#include "mpa/mpa-two-node-fixture.h"

#include "ns3/test.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

class MpaLowWaterTest : public TestCase
{
  public:
    MpaLowWaterTest(uint32_t lowWater)
        : TestCase("SendLowWater " + std::to_string(lowWater) +
                   ": after TCP's buffer refused an FPDU, DDP is asked for more only once that many octets are free"),
          m_lowWater(lowWater)
    {
    }

  private:
    static constexpr uint32_t kSndBuf = 256 * 1024;
    static constexpr uint32_t kMark = 64 * 1024; ///< the default, and a quarter of the buffer

    struct Bursts
    {
        Ptr<Socket> socket;
        Time last{Time(-1)};
        std::vector<uint32_t> freeBefore; ///< TCP's free space before each burst's first FPDU
        uint32_t fpdus{0};
    };

    void DoRun() override
    {
        MpaTwoNodeFixture::Options o;
        o.sndBufSize = kSndBuf;
        MpaTwoNodeFixture f(o);
        f.Initiator().mpa->SetAttribute("SendLowWater", UintegerValue(m_lowWater));
        f.Run(MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(f.Initiator().mpa->GetState(), MpaConnection::ESTABLISHED, "set up");

        Bursts b;
        b.socket = f.InitiatorSocket();
        f.Initiator().mpa->TraceConnectWithoutContext(
            "FpduTx", MakeBoundCallback(+[](Bursts* b, Ptr<const Packet> fpdu) {
                b->fpdus++;
                if (Simulator::Now() != b->last)
                {
                    b->last = Simulator::Now();
                    b->freeBefore.push_back(b->socket->GetTxAvailable() + fpdu->GetSize());
                }
            },
                                        &b));
        using namespace MemAccess;
        const std::vector<uint8_t> data = Pattern(2000000, 4);
        Ptr<MemoryRegion> target = f.Responder().memory->Register(f.Responder().pd, data.size(), kRemoteWrite);
        PostWrite(f.Initiator(), target, data, 1);
        f.Run(Seconds(5));

        NS_TEST_ASSERT_MSG_EQ(CountSuccess(f.Initiator().completions), 1u, "the Write completed");
        NS_TEST_EXPECT_MSG_EQ(std::equal(data.begin(), data.end(), target->GetBuffer()->Data()), true,
                              "byte-exact at the responder");
        NS_TEST_ASSERT_MSG_GT(b.freeBefore.size(), 2u, "TCP's buffer filled and drained several times");
        const uint32_t smallest = *std::min_element(b.freeBefore.begin() + 1, b.freeBefore.end());
        std::cout << "SendLowWater " << m_lowWater << ": " << b.fpdus << " FPDUs in " << b.freeBefore.size()
                  << " bursts; least free space before a burst " << smallest << std::endl;
        if (m_lowWater > 0)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(smallest, std::min(m_lowWater, kSndBuf / 2),
                                        "every wake-up waited for the low-water mark (at most half the buffer)");
            // Each burst moves at least a low-water mark's worth of FPDUs.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(b.freeBefore.size(), 2 + data.size() / std::min(m_lowWater, kSndBuf / 2),
                                        "few bursts");
        }
        else
        {
            // The contrast that makes the check above meaningful: without a mark, MPA wakes DDP as soon as
            // one FPDU fits, a few returning ACKs' worth of space.
            NS_TEST_EXPECT_MSG_LT(smallest, kMark, "without a mark, wake-ups come with little space");
        }
    }

    uint32_t m_lowWater;
};

class MpaLowWaterSuite : public TestSuite
{
  public:
    MpaLowWaterSuite()
        : TestSuite("iwarp-mpa-low-water", UNIT)
    {
        AddTestCase(new MpaLowWaterTest(64 * 1024), TestCase::QUICK);
        AddTestCase(new MpaLowWaterTest(1 << 20), TestCase::QUICK); // clamped to half the buffer
        AddTestCase(new MpaLowWaterTest(0), TestCase::QUICK);
    }
};

MpaLowWaterSuite g_mpaLowWaterSuite;

} // namespace

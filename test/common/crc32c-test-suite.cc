/*
 * Tests for model/common/crc32c.{h,cc}: the CRC32c that protects MPA FPDUs (doc/conformance.md, MPA "FPDU" and "CRC").
 * Both implementations (SSE4.2 instruction and slicing-by-8 table) are checked against the published check
 * values and against each other.
 */
#include "common/crc32c.h"

#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using CrcFn = uint32_t (*)(const uint8_t*, size_t);
using CrcUpdateFn = uint32_t (*)(uint32_t, const uint8_t*, size_t);

struct CheckValue
{
    std::string description;
    std::vector<uint8_t> data;
    uint32_t expected;
};

/// The check value of "123456789" and the four 32-octet examples of RFC 3720 Appendix B.4 (iSCSI's CRC32c, the
/// one MPA uses; doc/conformance.md, MPA "CRC"), plus the empty buffer (CRC32c of nothing is 0).
std::vector<CheckValue>
MpaCheckValues()
{
    std::vector<CheckValue> v;
    const std::string digits = "123456789";
    v.push_back({"\"123456789\"", std::vector<uint8_t>(digits.begin(), digits.end()), 0xE3069283u});
    v.push_back({"32 octets of 0x00", std::vector<uint8_t>(32, 0x00), 0x8A9136AAu});
    v.push_back({"32 octets of 0xFF", std::vector<uint8_t>(32, 0xFF), 0x62A8AB43u});
    std::vector<uint8_t> asc(32);
    std::vector<uint8_t> desc(32);
    for (size_t i = 0; i < 32; ++i)
    {
        asc[i] = static_cast<uint8_t>(i);
        desc[i] = static_cast<uint8_t>(31 - i);
    }
    v.push_back({"octets 0x00..0x1F ascending", asc, 0x46DD794Eu});
    v.push_back({"octets 0x1F..0x00 descending", desc, 0x113FDB5Cu});
    v.push_back({"empty buffer", {}, 0x00000000u});
    return v;
}

/// Checks one implementation against those check values.
class Crc32cCheckValuesTestCase : public TestCase
{
  public:
    Crc32cCheckValuesTestCase(const std::string& pathName, CrcFn fn, bool requiresHardware)
        : TestCase(pathName + " path gives the CRC32c check values"),
          m_pathName(pathName),
          m_fn(fn),
          m_requiresHardware(requiresHardware)
    {
    }

  private:
    void DoRun() override
    {
        if (m_requiresHardware && !Crc32cHardwareAvailable())
        {
            std::clog << "iwarp-crc32c: CPU has no SSE4.2, '" << m_pathName
                      << "' test exercises the table fallback only" << std::endl;
        }
        for (const auto& cv : MpaCheckValues())
        {
            const uint32_t got = m_fn(cv.data.empty() ? nullptr : cv.data.data(), cv.data.size());
            NS_TEST_EXPECT_MSG_EQ(got,
                                  cv.expected,
                                  m_pathName << " CRC32c of " << cv.description << ": got 0x" << std::hex
                                             << got << ", expected 0x" << cv.expected << std::dec);
        }
    }

    std::string m_pathName;
    CrcFn m_fn;
    bool m_requiresHardware;
};

/// Feeding a buffer through Update in random-sized pieces (including empty ones) equals the one-shot CRC.
class Crc32cIncrementalTestCase : public TestCase
{
  public:
    Crc32cIncrementalTestCase(const std::string& pathName, CrcFn oneShot, CrcUpdateFn update)
        : TestCase(pathName + " path: Update() over random-sized pieces equals the one-shot CRC"),
          m_pathName(pathName),
          m_oneShot(oneShot),
          m_update(update)
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(0x1ca7c0deu);
        std::uniform_int_distribution<int> octet(0, 255);
        for (int round = 0; round < 200; ++round)
        {
            const size_t len = std::uniform_int_distribution<size_t>(0, 3000)(rng);
            std::vector<uint8_t> buf(len);
            for (auto& b : buf)
            {
                b = static_cast<uint8_t>(octet(rng));
            }
            const uint32_t expected = m_oneShot(buf.data(), buf.size());

            uint32_t state = kCrc32cInit;
            size_t pos = 0;
            size_t pieces = 0;
            while (pos < len)
            {
                // Mostly small pieces (exercise the octet-wise head/tail code), sometimes empty, sometimes big.
                size_t piece;
                switch (std::uniform_int_distribution<int>(0, 3)(rng))
                {
                case 0:
                    piece = 0;
                    break;
                case 1:
                    piece = std::uniform_int_distribution<size_t>(1, 9)(rng);
                    break;
                case 2:
                    piece = std::uniform_int_distribution<size_t>(1, 64)(rng);
                    break;
                default:
                    piece = std::uniform_int_distribution<size_t>(1, 1500)(rng);
                    break;
                }
                piece = std::min(piece, len - pos);
                state = m_update(state, buf.data() + pos, piece);
                pos += piece;
                ++pieces;
            }
            const uint32_t got = Crc32cFinish(state);
            NS_TEST_ASSERT_MSG_EQ(got,
                                  expected,
                                  m_pathName << " incremental CRC differs from one-shot (round " << round
                                             << ", length " << len << ", " << pieces << " pieces)");
        }
    }

    std::string m_pathName;
    CrcFn m_oneShot;
    CrcUpdateFn m_update;
};

/// The SSE4.2 and table implementations agree on ~1000 random buffers of random length and alignment.
class Crc32cHardwareEqualsTableTestCase : public TestCase
{
  public:
    Crc32cHardwareEqualsTableTestCase()
        : TestCase("hardware and table paths agree on 1000 random buffers (lengths 0..5000, offsets 0..15)")
    {
    }

  private:
    void DoRun() override
    {
        if (!Crc32cHardwareAvailable())
        {
            std::clog << "iwarp-crc32c: CPU has no SSE4.2, hardware-vs-table comparison is trivial here"
                      << std::endl;
        }
        std::mt19937 rng(20240521u);
        std::uniform_int_distribution<int> octet(0, 255);
        std::vector<uint8_t> storage(5000 + 16);
        for (int round = 0; round < 1000; ++round)
        {
            const size_t len = std::uniform_int_distribution<size_t>(0, 5000)(rng);
            const size_t offset = std::uniform_int_distribution<size_t>(0, 15)(rng);
            uint8_t* p = storage.data() + offset;
            for (size_t i = 0; i < len; ++i)
            {
                p[i] = static_cast<uint8_t>(octet(rng));
            }
            const uint32_t hw = Crc32cHardware(p, len);
            const uint32_t table = Crc32cTable(p, len);
            NS_TEST_ASSERT_MSG_EQ(hw,
                                  table,
                                  "hardware 0x" << std::hex << hw << " != table 0x" << table << std::dec
                                                << " (round " << round << ", length " << len << ", offset "
                                                << offset << ")");
            // The default entry point must agree too (it dispatches to one of the two).
            NS_TEST_ASSERT_MSG_EQ(Crc32c(p, len), table, "Crc32c() differs from the table path");
        }
    }
};

class Crc32cTestSuite : public TestSuite
{
  public:
    Crc32cTestSuite()
        : TestSuite("iwarp-crc32c", UNIT)
    {
        AddTestCase(new Crc32cCheckValuesTestCase("table", &Crc32cTable, false), TestCase::QUICK);
        AddTestCase(new Crc32cCheckValuesTestCase("hardware (SSE4.2)", &Crc32cHardware, true),
                    TestCase::QUICK);
        AddTestCase(new Crc32cCheckValuesTestCase("default Crc32c()", &Crc32c, false), TestCase::QUICK);
        AddTestCase(new Crc32cIncrementalTestCase("table", &Crc32cTable, &Crc32cUpdateTable),
                    TestCase::QUICK);
        AddTestCase(
            new Crc32cIncrementalTestCase("hardware (SSE4.2)", &Crc32cHardware, &Crc32cUpdateHardware),
            TestCase::QUICK);
        AddTestCase(new Crc32cIncrementalTestCase("default Crc32c()", &Crc32c, &Crc32cUpdate),
                    TestCase::QUICK);
        AddTestCase(new Crc32cHardwareEqualsTableTestCase(), TestCase::QUICK);
    }
};

Crc32cTestSuite g_crc32cTestSuite;

} // namespace

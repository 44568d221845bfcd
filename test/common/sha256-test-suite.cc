/*
 * SHA-256 (FIPS 180-4 examples) and HMAC-SHA-256 (RFC 4231 test cases 1, 2 and 6) for the SCTP cookie MAC.
 */
#include "support/test-bytes.h"

#include "common/sha256.h"

#include "ns3/test.h"

#include <string>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

std::string
HexOf(const Sha256Digest& d)
{
    return Hex(Bytes(d.begin(), d.end()));
}

std::string
Sha(const std::string& s)
{
    return HexOf(Sha256::Hash(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

std::string
Hmac(const Bytes& key, const std::string& msg)
{
    return HexOf(HmacSha256(key.data(), key.size(), reinterpret_cast<const uint8_t*>(msg.data()), msg.size()));
}

class Sha256VectorsTestCase : public TestCase
{
  public:
    Sha256VectorsTestCase()
        : TestCase("SHA-256 and HMAC-SHA-256 standard vectors")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(Sha(""),
                              Hex(Hx("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")),
                              "empty");
        NS_TEST_EXPECT_MSG_EQ(Sha("abc"),
                              Hex(Hx("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")),
                              "abc");
        NS_TEST_EXPECT_MSG_EQ(Sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                              Hex(Hx("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")),
                              "two blocks");
        // One million 'a', fed in uneven pieces to exercise the buffering.
        Sha256 s;
        std::string a(997, 'a');
        size_t left = 1000000;
        while (left > 0)
        {
            size_t n = std::min(left, a.size());
            s.Update(reinterpret_cast<const uint8_t*>(a.data()), n);
            left -= n;
        }
        NS_TEST_EXPECT_MSG_EQ(HexOf(s.Finish()),
                              Hex(Hx("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")),
                              "million a");

        NS_TEST_EXPECT_MSG_EQ(Hmac(Bytes(20, 0x0b), "Hi There"),
                              Hex(Hx("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")),
                              "RFC 4231 case 1");
        NS_TEST_EXPECT_MSG_EQ(Hmac(Ascii("Jefe"), "what do ya want for nothing?"),
                              Hex(Hx("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")),
                              "RFC 4231 case 2");
        NS_TEST_EXPECT_MSG_EQ(Hmac(Bytes(131, 0xaa), "Test Using Larger Than Block-Size Key - Hash Key First"),
                              Hex(Hx("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")),
                              "RFC 4231 case 6 (long key)");
        Bytes x = Hx("0102"), y = Hx("0103");
        NS_TEST_EXPECT_MSG_EQ(ConstantTimeEqual(x.data(), x.data(), 2), true, "equal");
        NS_TEST_EXPECT_MSG_EQ(ConstantTimeEqual(x.data(), y.data(), 2), false, "differs");
    }
};

class Sha256TestSuite : public TestSuite
{
  public:
    Sha256TestSuite()
        : TestSuite("iwarp-sha256", UNIT)
    {
        AddTestCase(new Sha256VectorsTestCase(), TestCase::QUICK);
    }
};

Sha256TestSuite g_sha256TestSuite;

} // namespace

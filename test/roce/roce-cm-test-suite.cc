/*
 * iwarp-roce-cm: the connection manager's messages in their 256-octet MAD (model/roce/roce-cm-mad.h), what a
 * RoCEv2 queue pair of the model connects and disconnects with. A REQ and a REP put every field at the offset
 * the InfiniBand specification's tables give (§12.6; the expected octets are written here field by field,
 * MAD offsets counted by hand, not taken from the code), and so do the REJ, RTU, DREQ and DREP; each of the
 * six reads back what it wrote, the private data as the whole room of the message; the longest private data a
 * message holds passes and one octet more is refused, as are fields wider than the wire's; an attribute that
 * is none of the six is kept as read, and no 256 octets, however random, upset the reader. tshark's
 * InfiniBand dissector decodes whole RoCEv2 packets (UD SEND_ONLY to QP1, DETH with QP1's Q_Key, the MAD,
 * the ICRC) of each message as the message it is, nothing malformed, with the comm ids, QPNs, PSNs, service
 * id and addresses as written, and a Send with Invalidate's IETH with its R_Key.
 */
#include "roce/roce-cm-mad.h"
#include "roce/roce-headers.h"
#include "roce/roce-icrc.h"

#include "support/roce-pcap.h"
#include "support/thrown-message.h"

#include "ns3/test.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>

namespace ns3
{
namespace
{

using iwarptest::Octets;
using iwarptest::Parsed;

/** Writes `octets` at MAD offset `at` of `mad`. */
void
At(std::vector<uint8_t>& mad, size_t at, std::initializer_list<uint8_t> octets)
{
    std::copy(octets.begin(), octets.end(), mad.begin() + at);
}

/** The common MAD header of a CM Send with transaction id 0x0102030405060708 and `attr`. */
std::vector<uint8_t>
MadHeader(uint16_t attr)
{
    std::vector<uint8_t> mad(256, 0);
    At(mad, 0, {0x01, 0x07, 0x02, 0x03}); // BaseVersion, MgmtClass CM, ClassVersion 2, Method Send
    At(mad, 8, {1, 2, 3, 4, 5, 6, 7, 8}); // TransactionID
    At(mad, 16, {uint8_t(attr >> 8), uint8_t(attr)});
    return mad;
}

RoceCmFields
Req()
{
    RoceCmFields f;
    f.type = CmMessage::Req;
    f.transactionId = 0x0102030405060708ULL;
    f.localCommId = 0xA1A2A3A4;
    f.serviceId = 0x0000000001064853ULL; // rdma_cm's TCP port space, port 18515
    f.localQpn = 0x123456;
    f.startingPsn = 0xABCDEF;
    f.responderResources = 16;
    f.initiatorDepth = 8;
    f.localAckTimeout = 14;
    f.retryCount = 7;
    f.rnrRetryCount = 6;
    f.pathMtuCode = 3;
    f.localIp = Ipv4Address("10.0.0.1");
    f.remoteIp = Ipv4Address("10.0.0.2");
    f.privateData = {0xC1, 0xC2, 0xC3};
    return f;
}

RoceCmFields
Rep()
{
    RoceCmFields f;
    f.type = CmMessage::Rep;
    f.transactionId = 0x0102030405060708ULL;
    f.localCommId = 0xB1B2B3B4;
    f.remoteCommId = 0xA1A2A3A4;
    f.localQpn = 0x654321;
    f.startingPsn = 0x0FEDCB;
    f.responderResources = 8;
    f.initiatorDepth = 16;
    f.rnrRetryCount = 5;
    f.privateData = {0xD1, 0xD2};
    return f;
}

/** The fields of a message of `type` with its comm ids (and the one field each of REJ and DREQ has). */
RoceCmFields
Other(CmMessage type)
{
    RoceCmFields f;
    f.type = type;
    f.transactionId = 0x0102030405060708ULL;
    f.localCommId = 0x11121314;
    f.remoteCommId = 0x21222324;
    f.rejectReason = type == CmMessage::Rej ? roce::kCmRejConsumer : 0;
    f.localQpn = type == CmMessage::Dreq ? 0x00ABCD : 0;
    f.privateData = {0xE1};
    return f;
}

class OffsetsTestCase : public TestCase
{
  public:
    OffsetsTestCase()
        : TestCase("REQ, REP, REJ, RTU, DREQ, DREP: the MAD header and every field at the offset of the spec's tables")
    {
    }

  private:
    void DoRun() override
    {
        // REQ: the message starts at MAD octet 24.
        std::vector<uint8_t> req = MadHeader(0x0010);
        At(req, 24, {0xA1, 0xA2, 0xA3, 0xA4});                   // Local Communication ID
        At(req, 32, {0, 0, 0, 0, 0x01, 0x06, 0x48, 0x53});       // ServiceID (40: CA GUID, 52: Q_Key, zero)
        At(req, 56, {0x12, 0x34, 0x56, 16});                     // Local QPN | Responder Resources
        At(req, 63, {8});                                        // Initiator Depth (after Local EECN)
        At(req, 67, {20 << 3});                                  // Remote CM Resp. Timeout 20 | RC | no E2E credits
        At(req, 68, {0xAB, 0xCD, 0xEF, 20 << 3 | 7});            // Starting PSN | Local CM Resp. Timeout, Retry
        At(req, 72, {0xFF, 0xFF, 3 << 4 | 6, 15 << 4});          // P_Key | MTU 1024, RNR retry | Max CM Retries
        At(req, 76, {0xFF, 0xFF, 0xFF, 0xFF});                   // permissive local and remote LIDs
        At(req, 90, {0xFF, 0xFF, 10, 0, 0, 1});                  // local GID ::ffff:10.0.0.1 (from 80)
        At(req, 106, {0xFF, 0xFF, 10, 0, 0, 2});                 // remote GID (from 96)
        At(req, 117, {64});                                      // Hop Limit (112: flow label, rate; 116: TC)
        At(req, 119, {14 << 3});                                 // Local ACK Timeout (118: SL, subnet local)
        At(req, 164, {0xC1, 0xC2, 0xC3});                        // private data (120-163: no alternate path)
        NS_TEST_EXPECT_MSG_EQ(Hex(Octets(RoceCmMad(Req()))), Hex(req), "REQ");

        std::vector<uint8_t> rep = MadHeader(0x0013);
        At(rep, 24, {0xB1, 0xB2, 0xB3, 0xB4, 0xA1, 0xA2, 0xA3, 0xA4}); // Local, Remote Communication ID
        At(rep, 36, {0x65, 0x43, 0x21});                               // Local QPN (32: Q_Key; 40: EECN)
        At(rep, 44, {0x0F, 0xED, 0xCB});                               // Starting PSN
        At(rep, 48, {8, 16, 0, 5 << 5});                               // Resp. Resources, Init. Depth, -, RNR retry
        At(rep, 60, {0xD1, 0xD2});                                     // private data (52: CA GUID)
        NS_TEST_EXPECT_MSG_EQ(Hex(Octets(RoceCmMad(Rep()))), Hex(rep), "REP");

        std::vector<uint8_t> rej = MadHeader(0x0012);
        At(rej, 24, {0x11, 0x12, 0x13, 0x14, 0x21, 0x22, 0x23, 0x24});
        At(rej, 34, {0, 28});  // Reason (32: Message Rejected 0, the REQ; 33: no reject information)
        At(rej, 108, {0xE1});  // private data (36-107: Additional Reject Information)
        NS_TEST_EXPECT_MSG_EQ(Hex(Octets(RoceCmMad(Other(CmMessage::Rej)))), Hex(rej), "REJ");
        std::vector<uint8_t> dreq = MadHeader(0x0015);
        At(dreq, 24, {0x11, 0x12, 0x13, 0x14, 0x21, 0x22, 0x23, 0x24});
        At(dreq, 32, {0x00, 0xAB, 0xCD, 0, 0xE1}); // Remote QPN | reserved | private data
        NS_TEST_EXPECT_MSG_EQ(Hex(Octets(RoceCmMad(Other(CmMessage::Dreq)))), Hex(dreq), "DREQ");
        for (CmMessage m : {CmMessage::Rtu, CmMessage::Drep})
        {
            std::vector<uint8_t> mad = MadHeader(uint16_t(m));
            At(mad, 24, {0x11, 0x12, 0x13, 0x14, 0x21, 0x22, 0x23, 0x24, 0xE1}); // ids, then the private data
            NS_TEST_EXPECT_MSG_EQ(Hex(Octets(RoceCmMad(Other(m)))), Hex(mad), ToString(m));
        }
        NS_TEST_EXPECT_MSG_EQ(RoceCmMad().GetSerializedSize(), 256u, "a MAD is 256 octets");
        NS_TEST_EXPECT_MSG_EQ((roce::kMadLen == 256 && roce::kCmBodyLen == 232), true, "24 + 232");
    }

    static std::string Hex(const std::vector<uint8_t>& b)
    {
        std::string s;
        static const char* const kDigits = "0123456789abcdef";
        for (size_t k = 0; k < b.size(); ++k)
        {
            s += (k % 16 == 0 ? "\n" + std::to_string(k) + ": " : " ");
            s += kDigits[b[k] >> 4];
            s += kDigits[b[k] & 0x0F];
        }
        return s;
    }
};

class RoundTripTestCase : public TestCase
{
  public:
    RoundTripTestCase()
        : TestCase("each message reads back every field it wrote; the private data as the message's whole room")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<RoceCmFields> all = {Req(), Rep()};
        for (CmMessage m : {CmMessage::Rej, CmMessage::Rtu, CmMessage::Dreq, CmMessage::Drep})
        {
            all.push_back(Other(m));
        }
        for (const RoceCmFields& sent : all)
        {
            const RoceCmMad mad(sent);
            const std::vector<uint8_t> wire = Octets(mad);
            const RoceCmMad back = Parsed<RoceCmMad>(wire);
            RoceCmFields expect = sent;
            expect.privateData.resize(MaxPrivateData(sent.type), 0); // what was written, then zeros
            NS_TEST_EXPECT_MSG_EQ((back.Fields() == expect), true, ToString(sent.type) << ": every field");
            NS_TEST_EXPECT_MSG_EQ((back.IsKnownMessage() && back.IsCmSend()), true, ToString(sent.type));
            NS_TEST_EXPECT_MSG_EQ((Octets(back) == wire), true, ToString(sent.type) << ": written back the same");
            // The whole room: the round trip is exact.
            RoceCmFields full = sent;
            full.privateData.assign(MaxPrivateData(sent.type), 0x5A);
            full.privateData.back() = 0xA5;
            NS_TEST_EXPECT_MSG_EQ((Parsed<RoceCmMad>(Octets(RoceCmMad(full))).Fields() == full), true,
                                  ToString(sent.type) << ": a full room of private data");
        }
        const RoceCmMad req = Parsed<RoceCmMad>(Octets(RoceCmMad(Req())));
        NS_TEST_EXPECT_MSG_EQ((req.GetBaseVersion() == 1 && req.GetMgmtClass() == 0x07 && req.GetClassVersion() == 2 &&
                               req.GetMethod() == 0x03 && req.GetStatus() == 0 && req.GetAttributeModifier() == 0),
                              true, "the MAD header read back");
        NS_TEST_EXPECT_MSG_EQ(req.Fields().localIp, Ipv4Address("10.0.0.1"), "the local GID's IPv4 address");
        NS_TEST_EXPECT_MSG_EQ(req.Fields().remoteIp, Ipv4Address("10.0.0.2"), "the remote GID's");
        NS_TEST_EXPECT_MSG_EQ(req.Fields().pathMtuCode, 3u, "MTU 1024");
        NS_TEST_EXPECT_MSG_EQ(ToString(CmMessage::Drep), "DREP", "names");
        NS_TEST_EXPECT_MSG_EQ(ToString(CmMessage(0x0011)), "UNKNOWN(0x0011)", "an MRA is not one of the six");
    }
};

class LimitsTestCase : public TestCase
{
  public:
    LimitsTestCase()
        : TestCase("private data: the longest each message holds passes, one octet more is refused; so are fields "
                   "wider than the wire's")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<CmMessage, uint32_t>> rooms = {{CmMessage::Req, 92},  {CmMessage::Rep, 196},
                                                                   {CmMessage::Rej, 148}, {CmMessage::Rtu, 224},
                                                                   {CmMessage::Dreq, 220}, {CmMessage::Drep, 224}};
        for (const auto& [m, room] : rooms)
        {
            NS_TEST_EXPECT_MSG_EQ(MaxPrivateData(m), room, ToString(m) << "'s room");
            RoceCmFields f = Other(m);
            f.privateData.assign(room, 0x77);
            const std::string longest = ThrownMessage<std::invalid_argument>([&] { Octets(RoceCmMad(f)); });
            NS_TEST_EXPECT_MSG_EQ(longest, "", ToString(m) << ": " << room << " octets pass");
            f.privateData.push_back(0x77);
            const std::string more = ThrownMessage<std::invalid_argument>([&] { RoceCmMad mad(f); });
            NS_TEST_EXPECT_MSG_EQ((more.find("at most " + std::to_string(room)) != std::string::npos), true,
                                  ToString(m) << ": one more refused: " << more);
            RoceCmMad mad;
            NS_TEST_EXPECT_MSG_EQ(ThrownMessage<std::invalid_argument>([&] { mad.SetFields(f); }).empty(), false,
                                  ToString(m) << ": SetFields refuses it too");
        }
        NS_TEST_EXPECT_MSG_EQ(MaxPrivateData(CmMessage(0x0011)), 0u, "no room in an unknown attribute");
        const std::vector<std::function<void(RoceCmFields&)>> wide = {
            [](RoceCmFields& f) { f.localQpn = 0x1000000; },
            [](RoceCmFields& f) { f.startingPsn = 0x1000000; },
            [](RoceCmFields& f) { f.localAckTimeout = 32; },
            [](RoceCmFields& f) { f.retryCount = 8; },
            [](RoceCmFields& f) { f.rnrRetryCount = 8; },
            [](RoceCmFields& f) { f.pathMtuCode = 16; },
        };
        for (size_t k = 0; k < wide.size(); ++k)
        {
            RoceCmFields f = Req();
            wide[k](f);
            NS_TEST_EXPECT_MSG_EQ(ThrownMessage<std::invalid_argument>([&] { RoceCmMad mad(f); }).empty(), false,
                                  "too wide " << k);
        }
    }
};

class UnknownAndRandomTestCase : public TestCase
{
  public:
    UnknownAndRandomTestCase()
        : TestCase("an unknown attribute is kept as read; random MADs are read without harm and written back")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(31);
        std::uniform_int_distribution<int> octet(0, 255);
        std::vector<uint8_t> mra = MadHeader(0x0011); // an MRA: not a message of the model
        for (size_t k = 24; k < 256; ++k)
        {
            mra[k] = uint8_t(octet(rng));
        }
        const RoceCmMad u = Parsed<RoceCmMad>(mra);
        NS_TEST_EXPECT_MSG_EQ((!u.IsKnownMessage() && uint16_t(u.GetMessage()) == 0x0011), true, "kept as read");
        NS_TEST_EXPECT_MSG_EQ((Octets(u) == mra), true, "written back octet for octet");
        const uint16_t known[] = {0x0010, 0x0012, 0x0013, 0x0014, 0x0015, 0x0016};
        size_t knownSeen = 0;
        size_t bad = 0;
        for (int round = 0; round < 3000; ++round)
        {
            std::vector<uint8_t> mad(256);
            for (uint8_t& b : mad)
            {
                b = uint8_t(octet(rng));
            }
            if (round % 4 != 0) // mostly one of the six, so that every reader runs on random octets
            {
                const uint16_t attr = known[round % 6];
                mad[16] = uint8_t(attr >> 8);
                mad[17] = uint8_t(attr);
            }
            const RoceCmMad r = Parsed<RoceCmMad>(mad);
            std::vector<uint8_t> again;
            const std::string thrown = ThrownMessage<std::invalid_argument>([&] { again = Octets(r); });
            const bool ok = thrown.empty() && again.size() == 256 &&
                            (r.IsKnownMessage() ? Parsed<RoceCmMad>(again).Fields() == r.Fields() : again == mad);
            bad += ok ? 0 : 1;
            knownSeen += r.IsKnownMessage() ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(bad, 0u, "every random MAD read, written and read again to the same fields");
        NS_TEST_EXPECT_MSG_GT(knownSeen, 2000u, "most of them one of the six messages");
    }
};

/** A cell of tshark's as a number (decimal or 0x hex); -1 when tshark showed none. */
long long
Num(const std::string& cell)
{
    return cell.empty() ? -1 : (long long)std::stoull(cell.substr(0, cell.find(',')), nullptr, 0);
}

class TsharkTestCase : public TestCase
{
  public:
    TsharkTestCase()
        : TestCase("tshark decodes REQ, REP, RTU, DREQ, DREP and REJ as UD SEND_ONLYs to QP1 and a Send with "
                   "Invalidate, nothing malformed, the fields as written")
    {
    }

  private:
    /** The IPv4 packet, ICRC appended, of `bth` | `extended` | `payload` from `src` to `dst`. */
    static std::vector<uint8_t> Packet(const RoceBth& bth, const std::vector<uint8_t>& extended,
                                       const std::vector<uint8_t>& payload, const char* src, const char* dst)
    {
        std::vector<uint8_t> t = Octets(bth);
        t.insert(t.end(), extended.begin(), extended.end());
        t.insert(t.end(), payload.begin(), payload.end());
        std::vector<uint8_t> pkt = iwarptest::RoceIpv4Packet(t, Ipv4Address(src), Ipv4Address(dst));
        AppendRoceIcrc(pkt);
        return pkt;
    }

    /** A CM message to QP1 as a UD SEND_ONLY: BTH | DETH (QP1's Q_Key, from QP1) | MAD. */
    static std::vector<uint8_t> Mad(const RoceCmFields& f, uint32_t psn, const char* src, const char* dst)
    {
        RoceBth bth;
        bth.SetOpcode(IbOpcode::UdSendOnly);
        bth.SetDestQp(roce::kGsiQp);
        bth.SetPsn(psn);
        RoceDeth deth;
        deth.SetQKey(roce::kGsiQKey);
        deth.SetSrcQp(roce::kGsiQp);
        return Packet(bth, Octets(deth), Octets(RoceCmMad(f)), src, dst);
    }

    void DoRun() override
    {
        // The REQ's private data as rdma_cm lays it out for an IP-based service id (the layout Wireshark decodes
        // for one): version 0 | IP version 4 | source port | source and destination as ::a.b.c.d.
        RoceCmFields req = Req();
        req.privateData = {0x00, 0x40, 0xC3, 0x51};
        for (uint8_t last : {1, 2})
        {
            req.privateData.insert(req.privateData.end(), 12, 0);
            req.privateData.insert(req.privateData.end(), {10, 0, 0, last});
        }
        RoceCmFields rtu = Other(CmMessage::Rtu);
        rtu.localCommId = req.localCommId;
        rtu.remoteCommId = Rep().localCommId;
        RoceCmFields rej = Other(CmMessage::Rej);
        rej.transactionId = 0x77;
        RoceBth inv;
        inv.SetOpcode(IbOpcode::SendOnlyInv);
        inv.SetDestQp(Rep().localQpn);
        inv.SetPsn(req.startingPsn);
        RoceIeth ieth;
        ieth.SetRKey(0xDEADBEEF);
        const std::vector<std::vector<uint8_t>> packets = {
            Mad(req, 0, "10.0.0.1", "10.0.0.2"),
            Mad(Rep(), 0, "10.0.0.2", "10.0.0.1"),
            Mad(rtu, 1, "10.0.0.1", "10.0.0.2"),
            Packet(inv, Octets(ieth), std::vector<uint8_t>(64, 0x42), "10.0.0.1", "10.0.0.2"),
            Mad(Other(CmMessage::Dreq), 2, "10.0.0.1", "10.0.0.2"),
            Mad(Other(CmMessage::Drep), 1, "10.0.0.2", "10.0.0.1"),
            Mad(rej, 0, "10.0.0.2", "10.0.0.1"),
        };
        const std::string file = iwarptest::TempPcapName("iwarp-roce-cm");
        iwarptest::WriteRawIpv4Pcap(file, packets);
        int status = 0;
        std::string out;
        const auto rows = iwarptest::TsharkFields(
            file,
            {"infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.deth.q_key", "infiniband.deth.srcqp",
             "infiniband.mad.mgmtclass", "infiniband.mad.attributeid", "infiniband.mad.transactionid", "_ws.col.Info",
             "_ws.malformed", "_ws.expert.severity", "infiniband.ieth"},
            &status, &out);
        const auto cm = iwarptest::TsharkFields(
            file,
            {"infiniband.cm.req", "infiniband.cm.req.serviceid", "infiniband.cm.req.localqpn",
             "infiniband.cm.req.startpsn", "infiniband.cm.req.prim_localgid_ipv4",
             "infiniband.cm.req.prim_remotegid_ipv4", "infiniband.cm.req.pppmtu", "infiniband.cm.req.transpsvctype",
             "infiniband.cm.req.responderres", "infiniband.cm.req.initdepth", "infiniband.cm.req.ip_cm.sip4",
             "infiniband.cm.rep", "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn",
             "infiniband.cm.rep.startpsn", "infiniband.cm.rtu.localcommid", "infiniband.cm.dreq.remotecommid",
             "infiniband.cm.req.remoteqpneecn", "infiniband.cm.drsp.localcommid", "infiniband.cm.rej.reason"},
            &status, &out);
        std::filesystem::remove(file);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        NS_TEST_ASSERT_MSG_EQ(rows.size(), packets.size(), "every packet decoded: " << out);
        NS_TEST_ASSERT_MSG_EQ(cm.size(), packets.size(), "every packet decoded: " << out);
        const char* const info[] = {"CM: ConnectRequest", "CM: ConnectReply", "CM: ReadyToUse", "",
                                    "CM: DisconnectRequest", "CM: DisconnectReply", "CM: ConnectReject"};
        const uint16_t attr[] = {0x10, 0x13, 0x14, 0, 0x15, 0x16, 0x12};
        for (size_t k = 0; k < packets.size(); ++k)
        {
            const std::vector<std::string>& f = rows[k];
            NS_TEST_EXPECT_MSG_EQ((f[8].empty() && f[9].empty()), true,
                                  "nothing malformed in packet " << k << ": " << out);
            if (k == 3)
            {
                NS_TEST_EXPECT_MSG_EQ(Num(f[0]), 0x17, "SEND_ONLY_WITH_INVALIDATE");
                NS_TEST_EXPECT_MSG_EQ(Num(f[1]), 0x654321, "to the REP's QP");
                NS_TEST_EXPECT_MSG_EQ(f[10].substr(0, 8), "deadbeef", "the IETH's R_Key");
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(Num(f[0]), 0x64, "UD SEND_ONLY, packet " << k);
            NS_TEST_EXPECT_MSG_EQ((Num(f[1]) == 1 && Num(f[2]) == 0x80010000 && Num(f[3]) == 1), true,
                                  "to QP1 with its Q_Key, from QP1: " << k);
            NS_TEST_EXPECT_MSG_EQ((Num(f[4]) == 7 && Num(f[5]) == attr[k]), true, "a CM MAD of attribute " << attr[k]);
            NS_TEST_EXPECT_MSG_EQ(Num(f[6]), (long long)(k == 6 ? 0x77 : 0x0102030405060708LL), "transaction id " << k);
            NS_TEST_EXPECT_MSG_EQ(f[7], std::string(info[k]), "decoded as the message it is: " << k);
        }
        const std::vector<std::string>& q = cm[0];
        NS_TEST_EXPECT_MSG_EQ((Num(q[0]) == 0xA1A2A3A4 && Num(q[1]) == 0x0000000001064853 && Num(q[2]) == 0x123456 &&
                               Num(q[3]) == 0xABCDEF),
                              true, "REQ: local comm id, service id, QPN, starting PSN: " << out);
        NS_TEST_EXPECT_MSG_EQ((q[4] == "10.0.0.1" && q[5] == "10.0.0.2" && q[10] == "10.0.0.1"), true,
                              "REQ: the path's GIDs, the IP CM source address");
        NS_TEST_EXPECT_MSG_EQ((Num(q[6]) == 3 && Num(q[7]) == 0 && Num(q[8]) == 16 && Num(q[9]) == 8), true,
                              "REQ: MTU 1024, RC, responder resources, initiator depth");
        const std::vector<std::string>& p = cm[1];
        NS_TEST_EXPECT_MSG_EQ((Num(p[11]) == 0xB1B2B3B4 && Num(p[12]) == 0xA1A2A3A4 && Num(p[13]) == 0x654321 &&
                               Num(p[14]) == 0x0FEDCB),
                              true, "REP: local and remote comm ids, QPN, starting PSN");
        NS_TEST_EXPECT_MSG_EQ(Num(cm[2][15]), 0xA1A2A3A4, "RTU: local comm id");
        NS_TEST_EXPECT_MSG_EQ((Num(cm[4][16]) == 0x21222324 && Num(cm[4][17]) == 0x00ABCD), true, "DREQ");
        NS_TEST_EXPECT_MSG_EQ(Num(cm[5][18]), 0x11121314, "DREP: local comm id");
        NS_TEST_EXPECT_MSG_EQ(Num(cm[6][19]), 28, "REJ: consumer reject");
    }
};

class RoceCmTestSuite : public TestSuite
{
  public:
    RoceCmTestSuite()
        : TestSuite("iwarp-roce-cm", UNIT)
    {
        AddTestCase(new OffsetsTestCase, TestCase::QUICK);
        AddTestCase(new RoundTripTestCase, TestCase::QUICK);
        AddTestCase(new LimitsTestCase, TestCase::QUICK);
        AddTestCase(new UnknownAndRandomTestCase, TestCase::QUICK);
        AddTestCase(new TsharkTestCase, TestCase::QUICK);
    }
};

RoceCmTestSuite g_roceCmTestSuite;

} // namespace
} // namespace ns3

/*
 * Interoperability with an independent SCTP implementation: Debian's libusrsctp (the userland stack WebRTC
 * data channels used) runs in this process and talks to the model across usrsctp-bridge.h's links:
 * 1 Gb/s each way, 50 us propagation delay, 1 % of the packets lost in each direction (seeded, so the
 * loss pattern is repeatable). Both stacks checksum every packet (usrsctp checks CRC32c on input).
 *
 * Each case associates the two stacks, in one role or the other:
 *   - usrsctp active, model passive: a one-to-one usrsctp socket connects to the model's listener, so the
 *     model's stateless INIT ACK and cookie must satisfy it; usrsctp ends with SHUT_WR.
 *   - model active, usrsctp passive: the model connects to a usrsctp one-to-many listener; usrsctp's INIT
 *     ACK carries parameters the model does not know, reported back in an ERROR; the model ends with Close().
 * and then, in both:
 *   - both send an Adaptation Layer Indication (RFC 5061 §4.2.6, parameter 0xC006) and each user learns the
 *     other's code (the model from GetPeerAdaptationIndication(), usrsctp's from SCTP_ADAPTATION_INDICATION);
 *   - each side sends the other 10 MB (10^7 octets or a message more) at once, in messages of 1 octet to
 *     64 KiB (most beyond the 1500-octet path MTU, so both sides fragment) on two ordered streams and one
 *     unordered, with pseudo-random contents from a seed; the receiver checks every message octet for
 *     octet and, on the ordered streams, their order (sctp-bulk-traffic.h);
 *   - the loss is shown to be real: packets were dropped both ways and both stacks retransmitted DATA
 *     (counted on the wire, and on the model's side also by its Retransmission trace, which must agree);
 *   - the closing side's SHUTDOWN leaves only once all data is acknowledged, and SHUTDOWN, SHUTDOWN ACK and
 *     SHUTDOWN COMPLETE are seen by both: the model's close callback reports a normal close, usrsctp reports
 *     SCTP_SHUTDOWN_COMP (and SCTP_SHUTDOWN_EVENT when the model closed), and no ABORT crossed.
 *
 * Each role runs twice: the model single-homed, and multihomed with a second address (RFC 5043 §7.2): its INIT
 * or INIT ACK lists both, usrsctp (an AF_CONN association, which takes no IPv4 address) keeps its one peer
 * address, the model its one path, and all of the above holds.
 *
 * Both stacks get RTO.Min = 100 ms, in place of RFC 9260's 1 s, so the few T3-rtx expiries that 1 % loss
 * causes do not stretch the simulated time, and a delayed SACK timer of 20 ms, in place of 200 ms, so that
 * it stays below RTO.Min as the RFC's defaults do; the round trip is well under 1 ms. usrsctp's clock is
 * simulated time too (usrsctp-bridge.h), so a run repeats packet for packet.
 */
#include "sctp/sctp-bulk-traffic.h"
#include "sctp/usrsctp-bridge.h"

#include "helper/sctp-helper.h"
#include "sctp/sctp-init-chunk.h"
#include "sctp/sctp-socket.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <array>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;
using namespace ns3::iwarptest;

namespace
{

#ifdef IWARP_HAVE_USRSCTP

constexpr uint64_t kOctetsEachWay = 10 * 1000 * 1000;
constexpr uint32_t kModelAdaptation = 0x00000001;    ///< RFC 5043's code point for DDP
constexpr uint32_t kUsrsctpAdaptation = 0x1A2B3C4D;  ///< any other value: each side must see the other's
constexpr uint32_t kBuffer = 4u << 20;               ///< send and receive buffers on both sides
constexpr uint32_t kPmtu = 1500;                     ///< both sides: IPv4 header included
constexpr uint32_t kRtoMinMs = 100;
constexpr uint32_t kSackDelayMs = 20;
constexpr uint16_t kModelPort = 5000;
constexpr uint16_t kUsrsctpPort = 5001;

#endif

class SctpUsrsctpBulkTestCase : public TestCase
{
  public:
    SctpUsrsctpBulkTestCase(bool usrsctpActive, bool modelMultihomed)
        : TestCase(std::string(usrsctpActive ? "usrsctp active, model passive: adaptation indication, 10 MB each "
                                               "way under 1 % loss, usrsctp shuts down"
                                             : "model active, usrsctp passive: adaptation indication, 10 MB each "
                                               "way under 1 % loss, the model shuts down") +
                   (modelMultihomed ? "; the model multihomed, its second address ignored by usrsctp's AF_CONN "
                                      "association"
                                    : "")),
          m_usrsctpActive(usrsctpActive),
          m_modelMultihomed(modelMultihomed)
    {
    }

  private:
    bool m_usrsctpActive;
    /**
     * The model with two addresses and Multihoming on (RFC 5043 §7.2): its INIT or INIT ACK lists both. usrsctp's
     * association is AF_CONN (the bridge), whose scope takes no IPv4 address, so it keeps its one path: the case
     * shows that a multihomed model's handshake does not disturb a peer that cannot use the extra address. A
     * multihomed association with usrsctp in one process is not possible: AF_CONN addresses have no INIT
     * parameter (RFC 9260 §3.3.2 knows IPv4, IPv6 and host names), so usrsctp cannot offer a second one.
     */
    bool m_modelMultihomed;
    std::vector<Ipv4Address> m_modelListed;  ///< the addresses the model's INIT or INIT ACK listed
    std::optional<std::vector<int>> m_usrsctpPeerFamilies; ///< usrsctp's peer addresses, once it is up

#ifdef IWARP_HAVE_USRSCTP
    // ---- the model's end ----
    Ptr<SctpSocket> m_model;
    std::vector<uint8_t> m_modelPartial;
    uint32_t m_modelSendErrors{0};
    uint32_t m_normalClose{0};
    uint32_t m_errorClose{0};
    uint32_t m_fastRtx{0};
    uint32_t m_t3Rtx{0};
    std::array<uint32_t, 256> m_chunkTx{};
    std::array<uint32_t, 256> m_chunkRx{};
    bool m_shutdownAfterAllData{false}; ///< when the SHUTDOWN sequence began, all data had been acknowledged
    bool m_shutdownChecked{false};
    // ---- the run ----
    std::unique_ptr<BulkPlan> m_toModel;
    std::unique_ptr<BulkPlan> m_toUsrsctp;
    std::unique_ptr<BulkChecker> m_modelRx;
    std::unique_ptr<BulkChecker> m_usrsctpRx;
    std::unique_ptr<BulkSender> m_modelTx;
    std::unique_ptr<BulkSender> m_usrsctpTx;
    UsrsctpEndpoint* m_usrsctp{nullptr};
    bool m_closing{false};
    Time m_doneAt{0};

    void HookModel(Ptr<SctpSocket> s)
    {
        m_model = s;
        s->SetRecvCallback(MakeCallback(&SctpUsrsctpBulkTestCase::ModelRecv, this));
        s->SetSendCallback(MakeCallback(&SctpUsrsctpBulkTestCase::ModelPump, this));
        s->SetCloseCallbacks(MakeCallback(&SctpUsrsctpBulkTestCase::ModelNormalClose, this),
                             MakeCallback(&SctpUsrsctpBulkTestCase::ModelErrorClose, this));
        s->TraceConnectWithoutContext("Retransmission", MakeCallback(&SctpUsrsctpBulkTestCase::ModelRtx, this));
        s->TraceConnectWithoutContext("ChunkTx", MakeCallback(&SctpUsrsctpBulkTestCase::ModelChunkTx, this));
        s->TraceConnectWithoutContext("ChunkRx", MakeCallback(&SctpUsrsctpBulkTestCase::ModelChunkRx, this));
    }

    void ModelAccept(Ptr<Socket> s, const Address&)
    {
        HookModel(DynamicCast<SctpSocket>(s));
        ModelPump(s, 0);
    }

    void ModelConnected(Ptr<Socket> s)
    {
        ModelPump(s, 0);
    }

    void ModelPump(Ptr<Socket>, uint32_t)
    {
        m_modelTx->Pump([this](const BulkPlan::Message& m, const uint8_t* data) {
            if (m_model->SendMsg(Create<Packet>(data, m.size), m.stream, 9, m.unordered) >= 0)
            {
                return true;
            }
            if (m_model->GetErrno() == Socket::ERROR_AGAIN)
            {
                return false; // the send buffer is full: the send callback says when it has room
            }
            ++m_modelSendErrors;
            return true;
        });
    }

    void ModelRecv(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv(BulkPlan::kMaxMessage, 0))
        {
            size_t at = m_modelPartial.size();
            m_modelPartial.resize(at + p->GetSize());
            p->CopyData(m_modelPartial.data() + at, p->GetSize());
            SctpMessageTag tag;
            p->PeekPacketTag(tag);
            if (tag.eor)
            {
                m_modelRx->OnMessage(tag.stream, m_modelPartial.data(), m_modelPartial.size());
                m_modelPartial.clear();
            }
        }
    }

    void ModelNormalClose(Ptr<Socket>)
    {
        ++m_normalClose;
    }

    void ModelErrorClose(Ptr<Socket>)
    {
        ++m_errorClose;
    }

    void ModelRtx(uint32_t, bool fast)
    {
        ++(fast ? m_fastRtx : m_t3Rtx);
    }

    /** The first chunk of the SHUTDOWN sequence the model takes part in, sent or received. */
    void CheckShutdownStart()
    {
        if (m_shutdownChecked)
        {
            return;
        }
        m_shutdownChecked = true;
        // Everything the model was given is acknowledged (its send buffer is empty), and everything usrsctp
        // was given has reached the model's user.
        m_shutdownAfterAllData = m_modelTx->Done() && m_model->GetTxAvailable() == kBuffer &&
                                 m_usrsctpTx->Done() && m_modelRx->Complete();
    }

    /** An INIT or INIT ACK the model sent (the listener's INIT ACK included): the addresses it listed. */
    void NoteInit(const SctpChunk& c)
    {
        if (const auto* init = dynamic_cast<const SctpInitChunk*>(&c))
        {
            m_modelListed = init->GetIpv4Addresses();
        }
    }

    void ModelChunkTx(const SctpChunk& c)
    {
        ++m_chunkTx[c.GetType()];
        NoteInit(c);
        if (c.GetType() == uint8_t(SctpChunkType::Shutdown) || c.GetType() == uint8_t(SctpChunkType::ShutdownAck))
        {
            CheckShutdownStart();
        }
    }

    void ModelChunkRx(const SctpChunk& c)
    {
        ++m_chunkRx[c.GetType()];
    }

    /** Every tick of usrsctp's clock: feed its send buffer, start the shutdown when all is through. */
    void OnTick()
    {
        if (m_usrsctp->commUp && !m_usrsctpPeerFamilies)
        {
            m_usrsctpPeerFamilies = m_usrsctp->PeerAddressFamilies();
        }
        if (m_usrsctp->commUp && !m_usrsctpTx->Done())
        {
            m_usrsctpTx->Pump([this](const BulkPlan::Message& m, const uint8_t* data) {
                return m_usrsctp->Send(m.stream, 7, m.unordered, data, m.size);
            });
        }
        bool allThrough = m_modelTx->Done() && m_usrsctpTx->Done() && m_modelRx->Complete() &&
                          m_usrsctpRx->Complete();
        if (allThrough && !m_closing)
        {
            // Both users have everything: the closing side's SHUTDOWN follows the SACK of its last DATA.
            m_closing = true;
            if (m_usrsctpActive)
            {
                m_usrsctp->Shutdown();
            }
            else
            {
                m_model->Close();
            }
        }
        bool usrsctpDone = m_usrsctp->shutdownComplete || m_usrsctp->commLost;
        bool modelDone = m_normalClose + m_errorClose > 0;
        if (m_doneAt.IsZero() && usrsctpDone && modelDone)
        {
            m_doneAt = Simulator::Now();
            Simulator::Stop(MilliSeconds(10)); // let the last packets land
        }
    }
#endif

    void DoRun() override;
};

void
SctpUsrsctpBulkTestCase::DoRun()
{
#ifndef IWARP_HAVE_USRSCTP
    NS_TEST_ASSERT_MSG_EQ(true, false, "built without libusrsctp (Debian package libusrsctp-dev)");
#else
    BridgeLink::Config toModelCfg;
    toModelCfg.loss = 0.01;
    toModelCfg.seed = m_usrsctpActive ? 101 : 201;
    BridgeLink::Config toUsrsctpCfg = toModelCfg;
    toUsrsctpCfg.seed = m_usrsctpActive ? 102 : 202;
    UsrsctpBridge bridge(toModelCfg, toUsrsctpCfg);
    const Ipv4Address second("10.0.1.1");
    if (m_modelMultihomed)
    {
        bridge.AddModelAddress(second);
    }

    m_toModel = std::make_unique<BulkPlan>(m_usrsctpActive ? 11 : 21, kOctetsEachWay);
    m_toUsrsctp = std::make_unique<BulkPlan>(m_usrsctpActive ? 12 : 22, kOctetsEachWay);
    m_modelRx = std::make_unique<BulkChecker>(*m_toModel);
    m_usrsctpRx = std::make_unique<BulkChecker>(*m_toUsrsctp);
    m_modelTx = std::make_unique<BulkSender>(*m_toUsrsctp);
    m_usrsctpTx = std::make_unique<BulkSender>(*m_toModel);

    UsrsctpEndpoint::Options uo;
    uo.oneToMany = !m_usrsctpActive;
    uo.port = kUsrsctpPort;
    uo.sndBuf = kBuffer;
    uo.rcvBuf = kBuffer;
    uo.adaptation = kUsrsctpAdaptation;
    uo.rtoMinMs = kRtoMinMs;
    uo.sackDelayMs = kSackDelayMs;
    uo.pathMtu = kPmtu - 20 - 12; // packets of at most 1480 octets, as the model's (Options::pathMtu)
    UsrsctpEndpoint usrsctp(bridge, uo, [this](uint16_t stream, const std::vector<uint8_t>& msg) {
        m_usrsctpRx->OnMessage(stream, msg.data(), msg.size());
    });
    NS_TEST_ASSERT_MSG_EQ(usrsctp.IsValid(), true, "usrsctp socket created, configured and bound");
    m_usrsctp = &usrsctp;

    Ptr<SctpSocket> modelSocket = DynamicCast<SctpSocket>(SctpHelper::CreateSocket(bridge.GetModelNode()));
    modelSocket->SetAttribute("SndBufSize", UintegerValue(kBuffer));
    modelSocket->SetAttribute("RcvBufSize", UintegerValue(kBuffer));
    modelSocket->SetAttribute("Pmtu", UintegerValue(kPmtu));
    modelSocket->SetAttribute("RtoMin", TimeValue(MilliSeconds(kRtoMinMs)));
    modelSocket->SetAttribute("SackDelay", TimeValue(MilliSeconds(kSackDelayMs)));
    modelSocket->SetAttribute("SendAdaptationIndication", BooleanValue(true));
    modelSocket->SetAttribute("AdaptationCode", UintegerValue(kModelAdaptation));
    modelSocket->SetAttribute("Multihoming", BooleanValue(m_modelMultihomed));
    if (m_usrsctpActive)
    {
        // The accepted association inherits the listener's attributes.
        modelSocket->Bind(InetSocketAddress(Ipv4Address::GetAny(), kModelPort));
        modelSocket->Listen();
        modelSocket->TraceConnectWithoutContext("ChunkTx", MakeCallback(&SctpUsrsctpBulkTestCase::NoteInit, this));
        modelSocket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                       MakeCallback(&SctpUsrsctpBulkTestCase::ModelAccept, this));
        Simulator::ScheduleNow([&]() {
            NS_TEST_EXPECT_MSG_EQ(usrsctp.Connect(kModelPort), 0, "usrsctp_connect");
        });
    }
    else
    {
        NS_TEST_ASSERT_MSG_EQ(usrsctp.Listen(), 0, "usrsctp_listen");
        HookModel(modelSocket);
        modelSocket->SetConnectCallback(MakeCallback(&SctpUsrsctpBulkTestCase::ModelConnected, this),
                                        MakeNullCallback<void, Ptr<Socket>>());
        Simulator::ScheduleNow([&]() {
            modelSocket->Connect(InetSocketAddress(bridge.GetUsrsctpAddress(), kUsrsctpPort));
        });
    }
    bridge.StartTimers(MilliSeconds(1), [this]() { OnTick(); });
    Simulator::Stop(Seconds(120)); // a stall fails the checks below instead of hanging the suite

    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    bridge.Close();

    const BridgeLink::Stats& um = bridge.ToModel().GetStats();   // usrsctp -> model
    const BridgeLink::Stats& mu = bridge.ToUsrsctp().GetStats(); // model -> usrsctp
    NS_TEST_ASSERT_MSG_NE(m_model, nullptr, "the model's side of the association exists");

    // What each side made of the model's addresses.
    NS_TEST_EXPECT_MSG_EQ(m_modelListed.size(), (m_modelMultihomed ? 2u : 0u),
                          "the model's INIT (ACK) lists its addresses only when multihomed");
    if (m_modelMultihomed && m_modelListed.size() == 2)
    {
        NS_TEST_EXPECT_MSG_EQ((m_modelListed[0] == bridge.GetModelAddress() && m_modelListed[1] == second), true,
                              "both of them");
    }
    NS_TEST_EXPECT_MSG_EQ(m_model->GetPathCount(), 1u, "usrsctp offers the model one address");
    NS_TEST_ASSERT_MSG_EQ(m_usrsctpPeerFamilies.has_value(), true, "usrsctp's peer addresses read");
    NS_TEST_EXPECT_MSG_EQ((*m_usrsctpPeerFamilies == std::vector<int>{AF_CONN}), true,
                          "usrsctp holds the one AF_CONN peer address, no IPv4 one");

    // Association and adaptation indication, both ways.
    NS_TEST_EXPECT_MSG_EQ(usrsctp.commUp, true, "usrsctp reported SCTP_COMM_UP");
    NS_TEST_EXPECT_MSG_EQ(usrsctp.peerAdaptation.has_value(), true, "usrsctp got SCTP_ADAPTATION_INDICATION");
    NS_TEST_EXPECT_MSG_EQ(usrsctp.peerAdaptation.value_or(0), kModelAdaptation, "usrsctp learned the model's code");
    NS_TEST_EXPECT_MSG_EQ(m_model->GetPeerAdaptationIndication().has_value(), true, "the model saw 0xC006");
    NS_TEST_EXPECT_MSG_EQ(m_model->GetPeerAdaptationIndication().value_or(0), kUsrsctpAdaptation,
                          "the model learned usrsctp's code");
    if (!m_usrsctpActive)
    {
        // usrsctp's INIT ACK carries parameters the model does not implement with the report bit set
        // (Forward-TSN-Supported 0xC000 at least): reported in an ERROR beside the COOKIE ECHO.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(m_chunkTx[uint8_t(SctpChunkType::Error)], 1u,
                                    "Unrecognized Parameters reported to usrsctp");
    }

    // Data: everything, intact, in order where ordered.
    NS_TEST_EXPECT_MSG_EQ(m_modelRx->Error(), "", "usrsctp -> model");
    NS_TEST_EXPECT_MSG_EQ(m_usrsctpRx->Error(), "", "model -> usrsctp");
    NS_TEST_EXPECT_MSG_EQ(m_modelRx->Complete(), true, "every message usrsctp sent reached the model");
    NS_TEST_EXPECT_MSG_EQ(m_usrsctpRx->Complete(), true, "every message the model sent reached usrsctp");
    NS_TEST_EXPECT_MSG_GT_OR_EQ(m_modelRx->Octets(), kOctetsEachWay, "10 MB usrsctp -> model");
    NS_TEST_EXPECT_MSG_GT_OR_EQ(m_usrsctpRx->Octets(), kOctetsEachWay, "10 MB model -> usrsctp");
    NS_TEST_EXPECT_MSG_EQ(m_modelSendErrors + usrsctp.sendErrors, 0u, "no send refused other than for room");
    // Fragmentation both ways: messages beyond one packet, and packets that fit a 1500-octet IPv4 MTU.
    NS_TEST_EXPECT_MSG_GT(m_toModel->CountLargerThan(kPmtu), 100u, "messages beyond the PMTU to the model");
    NS_TEST_EXPECT_MSG_GT(m_toUsrsctp->CountLargerThan(kPmtu), 100u, "messages beyond the PMTU to usrsctp");
    NS_TEST_EXPECT_MSG_LT_OR_EQ(um.largest + 20, kPmtu, "usrsctp's packets fit the MTU");
    NS_TEST_EXPECT_MSG_LT_OR_EQ(mu.largest + 20, kPmtu, "the model's packets fit the MTU");
    NS_TEST_EXPECT_MSG_EQ(um.malformed + mu.malformed, 0u, "every packet on the wire parsed");

    // The loss was real and repaired by both.
    NS_TEST_EXPECT_MSG_GT(um.lost, um.packets / 200, "about 1 % lost usrsctp -> model");
    NS_TEST_EXPECT_MSG_LT(um.lost, um.packets / 50, "about 1 % lost usrsctp -> model");
    NS_TEST_EXPECT_MSG_GT(mu.lost, mu.packets / 200, "about 1 % lost model -> usrsctp");
    NS_TEST_EXPECT_MSG_LT(mu.lost, mu.packets / 50, "about 1 % lost model -> usrsctp");
    NS_TEST_EXPECT_MSG_GT(um.dataRetransmitted, 0u, "usrsctp retransmitted DATA");
    NS_TEST_EXPECT_MSG_GT(m_fastRtx + m_t3Rtx, 0u, "the model's Retransmission trace fired");
    NS_TEST_EXPECT_MSG_EQ(mu.dataRetransmitted, uint64_t(m_fastRtx + m_t3Rtx),
                          "the model's trace agrees with the DATA chunks re-sent on the wire");

    // Graceful shutdown, seen by both sides.
    NS_TEST_EXPECT_MSG_EQ(m_shutdownAfterAllData, true, "the SHUTDOWN sequence began after all data was acked");
    NS_TEST_EXPECT_MSG_EQ(m_normalClose, 1u, "the model's normal-close callback");
    NS_TEST_EXPECT_MSG_EQ(m_errorClose, 0u, "no error close at the model");
    NS_TEST_EXPECT_MSG_EQ(int(m_model->GetState()), int(SctpState::Closed), "the model's association is closed");
    NS_TEST_EXPECT_MSG_EQ(usrsctp.shutdownComplete, true, "usrsctp reported SCTP_SHUTDOWN_COMP");
    NS_TEST_EXPECT_MSG_EQ(usrsctp.commLost, false, "usrsctp did not lose the association");
    const auto shutdown = uint8_t(SctpChunkType::Shutdown);
    const auto shutdownAck = uint8_t(SctpChunkType::ShutdownAck);
    const auto shutdownComplete = uint8_t(SctpChunkType::ShutdownComplete);
    if (m_usrsctpActive)
    {
        NS_TEST_EXPECT_MSG_GT(m_chunkRx[shutdown], 0u, "the model received usrsctp's SHUTDOWN");
        NS_TEST_EXPECT_MSG_GT(m_chunkTx[shutdownAck], 0u, "the model answered with SHUTDOWN ACK");
        NS_TEST_EXPECT_MSG_GT(m_chunkRx[shutdownComplete], 0u, "the model received SHUTDOWN COMPLETE");
        NS_TEST_EXPECT_MSG_EQ(m_chunkTx[shutdown], 0u, "the model did not start a SHUTDOWN of its own");
    }
    else
    {
        NS_TEST_EXPECT_MSG_GT(m_chunkTx[shutdown], 0u, "the model sent SHUTDOWN");
        NS_TEST_EXPECT_MSG_GT(m_chunkRx[shutdownAck], 0u, "the model received usrsctp's SHUTDOWN ACK");
        NS_TEST_EXPECT_MSG_GT(m_chunkTx[shutdownComplete], 0u, "the model sent SHUTDOWN COMPLETE");
        NS_TEST_EXPECT_MSG_EQ(usrsctp.shutdownEvent, true, "usrsctp reported SCTP_SHUTDOWN_EVENT");
    }
    const auto abort = uint8_t(SctpChunkType::Abort);
    NS_TEST_EXPECT_MSG_EQ(um.chunks[abort] + mu.chunks[abort], 0u, "no ABORT either way");
    NS_TEST_EXPECT_MSG_GT(m_doneAt, Seconds(0), "both sides closed before the time limit");

    std::ostringstream os;
    os << std::fixed << std::setprecision(2);
    auto dir = [&os](const char* name, const BridgeLink::Stats& s, const BulkPlan& plan, const BulkChecker& rx) {
        os << "\n  " << name << ": " << rx.Octets() / 1e6 << " MB in " << rx.Messages() << " messages ("
           << plan.CountLargerThan(kPmtu - 48) << " beyond one packet, " << rx.UnorderedOvertakes()
           << " unordered overtakes), " << s.packets << " packets, " << s.lost
           << " lost (" << 100.0 * double(s.lost) / double(s.packets) << " %), " << s.queueDrops
           << " queue drops, " << s.dataChunks << " DATA chunks, " << s.dataRetransmitted
           << " retransmitted, largest packet " << s.largest << ", longest queueing "
           << s.maxQueueDelay.As(Time::US);
    };
    os << "usrsctp interop, " << (m_usrsctpActive ? "usrsctp active / model passive" : "model active / usrsctp passive")
       << ": closed at " << m_doneAt.As(Time::MS) << " simulated, " << wall << " s wall";
    dir("usrsctp -> model", um, *m_toModel, *m_modelRx);
    dir("model -> usrsctp", mu, *m_toUsrsctp, *m_usrsctpRx);
    os << "\n  model retransmissions: " << m_fastRtx << " fast, " << m_t3Rtx << " T3; cwnd " << m_model->GetCwnd()
       << ", SRTT " << m_model->GetSrtt().As(Time::US);
    std::cout << os.str() << std::endl;

    m_usrsctp = nullptr;
    usrsctp.Close();
    m_model = nullptr;
    modelSocket = nullptr;
    Simulator::Destroy();
#endif
}

class SctpUsrsctpTestSuite : public TestSuite
{
  public:
    SctpUsrsctpTestSuite()
        : TestSuite("iwarp-sctp-usrsctp", UNIT)
    {
        AddTestCase(new SctpUsrsctpBulkTestCase(true, false), TestCase::QUICK);
        AddTestCase(new SctpUsrsctpBulkTestCase(false, false), TestCase::QUICK);
        AddTestCase(new SctpUsrsctpBulkTestCase(true, true), TestCase::QUICK);
        AddTestCase(new SctpUsrsctpBulkTestCase(false, true), TestCase::QUICK);
    }
};

SctpUsrsctpTestSuite g_sctpUsrsctpTestSuite;

} // namespace

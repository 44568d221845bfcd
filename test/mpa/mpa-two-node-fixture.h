/*
 * Two ns-3 nodes on a point-to-point link with TCP, an MpaConnection on each end and a
 * DDP/RDMAP stack on top: the fixture for MPA tests over ns-3's own TCP.
 */
#ifndef IWARP_MPA_TWO_NODE_FIXTURE_H
#define IWARP_MPA_TWO_NODE_FIXTURE_H

#include "ddp/ddp-endpoint.h"
#include "mpa/mpa-connection.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/memory-registry.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** One end: socket, MPA, DDP, RDMAP, memory, and what it observed. */
struct MpaEnd
{
    Ptr<Node> node;
    Ptr<MpaConnection> mpa;
    Ptr<DdpEndpoint> ddp;
    Ptr<RdmapEndpoint> rdmap;
    Ptr<MemoryRegistry> memory;
    Ptr<ProtectionDomain> pd;
    std::vector<RdmapCompletion> completions;
    std::vector<RdmapEventInfo> events;
    std::vector<iwarp::ErrorCause> setupFailures;
    bool gotPeerFrame{false};
    MpaSetupFrame peerFrame;
    uint64_t earlyPlacements{0};
};

class MpaTwoNodeFixture
{
  public:
    struct Options
    {
        std::string rate{"10Gbps"};
        std::string delay{"10us"};
        double lossRate{0.0}; ///< packet loss on the link towards the responder, and back
        bool markers{false};
        bool crc{true};
        uint8_t revision{2};
        uint32_t segmentSize{1448};
        std::vector<uint8_t> requestPd;
        std::vector<uint8_t> replyPd;
        bool rejectRequest{false};
        bool startInitiator{true};
        uint16_t initiatorOrd{4};      ///< announced in the Rev 2 Request
        uint16_t responderIrd{4};      ///< announced in the Rev 2 Reply
        bool lowerOrdToPeerIrd{true}; ///< the initiator's MpaConnection::LowerOrdToPeerIrd
        bool alignFpdus{true};        ///< MpaConnection::AlignFpdus at both ends
        uint32_t sndBufSize{4 << 20}; ///< TCP's SndBufSize at both ends
    };

    explicit MpaTwoNodeFixture(const Options& o);
    ~MpaTwoNodeFixture();

    void Run(Time until);
    MpaEnd& Initiator() { return m_ends[0]; }
    MpaEnd& Responder() { return m_ends[1]; }
    Ptr<Socket> InitiatorSocket() const { return m_initiatorSocket; }
    Ipv4Address ResponderAddress() const { return m_responderAddress; }
    uint16_t Port() const { return 5000; }
    /** Pcap on both devices, prefix `prefix` (files prefix-<node>-<device>.pcap). */
    void EnablePcap(const std::string& prefix);

  private:
    bool OnConnectionRequest(Ptr<Socket>, const Address&) { return true; }
    void OnAccept(Ptr<Socket> s, const Address& from);
    void OnRequest(Ptr<MpaConnection> c, const MpaSetupFrame& f);
    void OnReply(Ptr<MpaConnection> c, const MpaSetupFrame& f);
    void Wire(MpaEnd& e);

    Options m_opt;
    MpaEnd m_ends[2];
    NetDeviceContainer m_devices;
    PointToPointHelper m_p2p;
    Ptr<Socket> m_listener;
    Ptr<Socket> m_initiatorSocket;
    Ipv4Address m_responderAddress;
};

} // namespace iwarptest
} // namespace ns3

#endif

/*
 * Small traffic fixtures shared by the topology and impairment suites: a UDP source of
 * sequence-numbered packets (ns-3's UdpClient, whose SeqTsHeader carries the number) and a
 * sink that counts arrivals, out-of-order arrivals and runs of missing numbers.
 */
#ifndef IWARP_TOPOLOGY_TEST_UTIL_H
#define IWARP_TOPOLOGY_TEST_UTIL_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <set>

namespace ns3
{
namespace topotest
{

/** Receives sequence-numbered UDP packets on `port` of `node`. */
class SeqSink
{
  public:
    SeqSink(Ptr<Node> node, uint16_t port)
    {
        m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        m_socket->SetRecvCallback(MakeCallback(&SeqSink::OnRecv, this));
    }

    uint64_t received{0};
    uint64_t outOfOrder{0}; ///< arrivals with a number below one already seen
    std::set<uint32_t> seqs;

    /** Mean length of the runs of numbers in [0, sent) that never arrived (0 if none). */
    double MeanGapRun(uint32_t sent, uint64_t* runs = nullptr) const
    {
        uint64_t missing = 0;
        uint64_t n = 0;
        bool inRun = false;
        for (uint32_t s = 0; s < sent; ++s)
        {
            const bool lost = seqs.count(s) == 0;
            missing += lost;
            n += lost && !inRun;
            inRun = lost;
        }
        if (runs)
        {
            *runs = n;
        }
        return n ? double(missing) / n : 0.0;
    }

  private:
    void OnRecv(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            SeqTsHeader h;
            p->RemoveHeader(h);
            const uint32_t seq = h.GetSeq();
            if (!seqs.empty() && seq < *seqs.rbegin())
            {
                ++outOfOrder;
            }
            seqs.insert(seq);
            ++received;
        }
    }

    Ptr<Socket> m_socket;
};

/** `count` packets of `size` octets from `node` to dst:port every `interval`, from t = 1 ms. */
inline ApplicationContainer
StartUdpFlow(Ptr<Node> node, Ipv4Address dst, uint16_t port, uint32_t count, Time interval,
             uint32_t size = 64)
{
    UdpClientHelper client(dst, port);
    client.SetAttribute("MaxPackets", UintegerValue(count));
    client.SetAttribute("Interval", TimeValue(interval));
    client.SetAttribute("PacketSize", UintegerValue(size));
    ApplicationContainer apps = client.Install(node);
    apps.Start(MilliSeconds(1));
    return apps;
}

} // namespace topotest
} // namespace ns3

#endif // IWARP_TOPOLOGY_TEST_UTIL_H

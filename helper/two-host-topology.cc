#include "helper/two-host-topology.h"

#include "helper/iwarp-helper.h"

#include "ns3/config.h"
#include "ns3/uinteger.h"

namespace ns3
{

TwoHostTopology::TwoHostTopology(DataRate rate, Time delay, bool withRnics, uint32_t segmentSize)
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segmentSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    nodes.Create(2);
    p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
    p2p.SetChannelAttribute("Delay", TimeValue(delay));
    devices = p2p.Install(nodes);
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devices);
    clientAddress = ifs.GetAddress(0);
    serverAddress = ifs.GetAddress(1);
    if (withRnics)
    {
        rnics = IwarpHelper().Install(nodes);
    }
}

} // namespace ns3

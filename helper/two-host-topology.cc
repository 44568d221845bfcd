#include "helper/two-host-topology.h"

#include "helper/iwarp-helper.h"

#include "transport/transport-profile.h"

#include "ns3/uinteger.h"

namespace ns3
{

TwoHostTopology::TwoHostTopology(DataRate rate, Time delay, bool withRnics, uint32_t segmentSize,
                                 uint32_t socketBuffer)
{
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
    // On each node's sockets (TransportProfile), not as ns-3 defaults: nothing outlives this topology.
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<TransportProfile> profile = TransportProfile::Of(nodes.Get(i));
        profile->SetTcpAttribute("SegmentSize", UintegerValue(segmentSize));
        profile->SetTcpAttribute("SndBufSize", UintegerValue(socketBuffer));
        profile->SetTcpAttribute("RcvBufSize", UintegerValue(socketBuffer));
    }
    if (withRnics)
    {
        rnics = IwarpHelper().Install(nodes);
    }
}

} // namespace ns3

#include "rnic/rnic-profile.h"

#include "rnic/rnic-pipeline.h"

namespace ns3
{
namespace
{

const char* const kPipe = "ns3::RnicPipeline::";

/** The four engine times and the rate of one profile, each pair with its source. */
AttributeProfile
Engine(const char* name,
       const char* summary,
       const std::string& perMessage,
       const std::string& perSegment,
       const std::string& rate,
       const char* latencySource,
       const char* rateSource)
{
    const std::string p(kPipe);
    return {name,
            summary,
            {{p + "TxPerMessage", perMessage, latencySource},
             {p + "RxPerMessage", perMessage, latencySource},
             {p + "TxPerSegment", perSegment, rateSource},
             {p + "RxPerSegment", perSegment, rateSource},
             {p + "EngineRate", rate, rateSource}}};
}

} // namespace

const std::vector<AttributeProfile>&
RnicProfiles()
{
    static const std::vector<AttributeProfile> profiles = {
        Engine("10g-2007",
               "a 10 GbE iWARP RNIC of 2007-2009 (NetEffect NE010, Chelsio T3)",
               "2700ns",
               "170ns",
               "10Gbps",
               "about 6 us one way for a small message: an estimate between Chelsio's T4 (3.4 us, its 2011 "
               "WireDirect release) and the 10 GbE TOE of 2005 (8.9 us, Feng et al., HOTI 2005)",
               "87 % of 10 Gb/s for large messages (NetEffect NE010: Rashti and Afsahi, '10-Gigabit iWARP "
               "Ethernet', CAC 2007): the engine carries 8.63 Gb/s of full 1428-octet Write segments"),
        Engine("t5-40g",
               "Chelsio T5 (2013), 10 and 40 GbE",
               std::to_string(RnicPipeline::kDefaultPerMessageNs) + "ns",
               std::to_string(RnicPipeline::kDefaultPerSegmentNs) + "ns",
               std::to_string(RnicPipeline::kDefaultEngineRateBps) + "bps",
               "about 1.5 us application to application for small RDMA messages (Chelsio, 'RDMA - iWARP' and "
               "the T5 product brief, 2013-2014)",
               "40 Gb/s line rate (Chelsio's T5 launch, 2013); the engine carries 53 Gb/s of 1428-octet "
               "segments, above any T5 link"),
        Engine("t6-100g",
               "Chelsio T6 (2016), 25 and 100 GbE",
               "440ns",
               "10ns",
               "115Gbps",
               "about 1 us application to application (Chelsio's T6 pages: sub-microsecond through the "
               "adapter, end to end as FDR/EDR InfiniBand)",
               "100 Gb/s line rate from one connection (Chelsio's 'Terminator 6 ASIC' page; its white papers "
               "measure 98-99 Gb/s), through PCIe 3.0 x16 (126 Gb/s of lanes, about 115 after the packet "
               "headers of 256-octet transfers): 103.6 Gb/s of 1428-octet segments, 113 of 8928-octet ones"),
    };
    return profiles;
}

const AttributeProfile*
FindRnicProfile(const std::string& name)
{
    return FindProfile(RnicProfiles(), name);
}

std::string
RnicProfileNames()
{
    return ProfileNames(RnicProfiles());
}

const AttributeProfile&
RnicProfileForLink(double linkBps)
{
    return *FindRnicProfile(linkBps <= 40e9 ? "t5-40g" : "t6-100g");
}

} // namespace ns3

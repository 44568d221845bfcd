#include "host/host-profile.h"

namespace ns3
{
namespace
{

const char* const kCpu = "ns3::HostCpuModel::";
const char* const kBus = "ns3::HostMemoryModel::";
const char* const kHost = "ns3::HostModel::";

const char* const kFoong = "Foong et al., \"TCP performance re-visited\", ISPASS 2003: receiving TCP costs about 1 GHz "
                           "of core per Gb/s, (10000 + 1448 x 1.0) cycles per 1448-octet segment";
const char* const kTcpMmap = "calibrated to 0.225 ns of core per octet received, the middle of the 202-251 us per MB "
                             "that Linux's tools/testing/selftests/net/tcp_mmap.c (E. Dumazet, 2018) reports for a "
                             "receive with copy: copy 0.45 cycles/octet and two 64 KiB aggregates per 64 KiB read";
const char* const kZeroCopy = "the copy of 10 KB on this profile's core: Linux's "
                              "Documentation/networking/msg_zerocopy.rst finds zero-copy worth it from about 10 KB a "
                              "send";
const char* const kCai = "calibrated to Cai et al., \"Understanding Host Network Stack Overheads\", SIGCOMM 2021: one "
                         "long flow with TSO/GRO, jumbo frames and aRFS reaches about 42 Gb/s, its receiving core "
                         "saturated and about half of its cycles in the copy to user";

const char* const kOffload = "NICs checksum TCP/IP themselves: Intel's 82543 (1999) and later gigabit parts do, "
                            "as Linux's e1000 driver enables (NETIF_F_HW_CSUM)";
const char* const kDim = "mlx5's receive moderation as it starts: DIM (lib/dim/net_dim.c, on by default) begins at "
                         "its CQE-mode profile 1, 8 us or 128 packets; DIM then moves between 2 and 64 us with the "
                         "traffic, which a fixed value does not";
const char* const kDdio = "DDIO's default 2 ways of the last-level cache (IIO LLC WAYS register 0xC8B: 0x600 on "
                          "Skylake, 0x60000 on Haswell; Farshin et al., USENIX ATC 2020)";

const char* const kPostSource =
    "200 ns: the verbs library's own work (UCX models 40-75 ns for ConnectX's send path, "
    "src/uct/ib/rc) plus the doorbell's uncached write to the NIC (about 150 ns, RAMCloud's "
    "measured 'poke the NIC'); an estimate from those parts";
const char* const kPollSource = "80 ns: RAMCloud's best case for reaping a completion on InfiniBand (its wiki, "
                                "'Infiniband under load'): one cache miss on the entry the NIC wrote";
const char* const kEventSource = "3 us: an estimate; about 1 us from interrupt to the woken thread (AMD Onload "
                                 "user guide UG1586, 'Polling vs. Interrupts'), the completion channel's read "
                                 "and the re-arm";
const char* const kRegisterSource = "16 us per registration and 0.25 us per 4 KiB page: UCX's defaults "
                                    "(UCX_IB_MEM_REG_OVERHEAD, UCX_IB_MEM_REG_GROWTH 0.06 ns/octet); large "
                                    "registrations measured 0.30-0.37 us per page (libfabric issue 4738, "
                                    "Mooncake PR 855)";

/** The verbs' costs on a core of `hz` (VerbsCostNs at that clock). */
std::vector<HostProfileValue>
VerbsValues(double hz)
{
    auto cycles = [hz](double ns) { return std::to_string(CyclesAt(ns, hz)); };
    return {{std::string(kHost) + "PostCyclesPerRequest", cycles(VerbsCostNs::kPost), kPostSource},
            {std::string(kHost) + "PollCyclesPerCompletion", cycles(VerbsCostNs::kPoll), kPollSource},
            {std::string(kHost) + "EventCyclesPerCompletion", cycles(VerbsCostNs::kEvent), kEventSource},
            {std::string(kHost) + "RegisterCycles", cycles(VerbsCostNs::kRegister), kRegisterSource},
            {std::string(kHost) + "RegisterCyclesPerPage", cycles(VerbsCostNs::kRegisterPage), kRegisterSource}};
}

/** What the NICs of host-2015 and current do for the sockets path (doc/host-model.md, "Offloads"). */
std::vector<HostProfileValue>
MultiQueueNicValues()
{
    return {{std::string(kHost) + "ChecksumOffload", "true", kOffload},
            {std::string(kHost) + "InterruptDelay", "8us", kDim},
            {std::string(kHost) + "InterruptFrames", "128", kDim},
            {std::string(kHost) + "ReceiveQueues", "0", "RSS: a receive queue per core, Linux's default"}};
}

/** `profile` with `values` added. */
HostProfile
With(HostProfile profile, std::vector<HostProfileValue> values)
{
    for (HostProfileValue& v : values)
    {
        profile.values.push_back(std::move(v));
    }
    return profile;
}

/** `profile` with the verbs' costs at its own clock added. */
HostProfile
WithVerbs(HostProfile profile)
{
    const double hz = std::stod(profile.ValueOf(std::string(kCpu) + "Frequency"));
    return With(std::move(profile), VerbsValues(hz));
}

HostProfile
Host2005()
{
    return {"host-2005",
            "a server of 2003-2005 without offloads, as the studies the comparisons started from measured",
            {{std::string(kCpu) + "Cores", "2", "a choice: a two-processor server of the period"},
             {std::string(kCpu) + "Frequency", "2500000000",
              "the Pentium 4 Xeons of 2003-2005 ran at 2.4-3.6 GHz (Intel); 2.5 GHz gives Foong et al.'s 1 Hz "
              "per bit/s with the costs below"},
             {std::string(kCpu) + "RxCyclesPerPacket", "10000", kFoong},
             {std::string(kCpu) + "CopyCyclesPerByte", "1", kFoong},
             {std::string(kCpu) + "TxCyclesPerPacket", "5000",
              "an assumption: half the receive cost (transmit measured cheaper: Foong et al.; Makineni and "
              "Iyer, HPCA 2004)"},
             {std::string(kBus) + "Bandwidth", "51200000000bps",
              "an 800 MT/s front-side bus of 8 octets: 6.4 GB/s (Intel Xeon, 2004-2005)"},
             {std::string(kBus) + "TransactionOverhead", "60ns", "a choice: DDR/DDR2 row activation plus CAS"},
             {std::string(kHost) + "TsoOctets", "0", "measured without segmentation offload"},
             {std::string(kHost) + "GroOctets", "0", "measured without receive aggregation"},
             {std::string(kHost) + "ZeroCopyCyclesPerSend", "10240", kZeroCopy},
             {std::string(kHost) + "ChecksumOffload", "true", kOffload},
             {std::string(kHost) + "InterruptDelay", "0s",
              "no receive aggregation to batch for, and e1000's dynamic throttling (its default from driver "
              "5.x, 2003) kept latency low for sparse traffic: an interrupt per arrival"},
             {std::string(kHost) + "DdioOctets", "0", "DDIO arrived with the Xeon E5 (2012)"},
             {std::string(kHost) + "ReceiveQueues", "1",
              "one receive queue and its interrupt: the period's gigabit NICs (e1000) had one; RSS's several "
              "queues came with MSI-X parts (Intel 82575, 2007)"},
             {std::string(kHost) + "Arfs", "false", "flow steering arrived in Linux 2.6.35 (2010)"}}};
}

HostProfile
Host2015()
{
    return {"host-2015",
            "a Xeon E5 v3 server of 2014-2016 with segmentation offload and receive aggregation",
            {{std::string(kCpu) + "Cores", "12", "Xeon E5-2690 v3 (2014): 12 cores (Intel's specification)"},
             {std::string(kCpu) + "Frequency", "2600000000", "Xeon E5-2690 v3: 2.6 GHz base (Intel's specification)"},
             {std::string(kCpu) + "RxCyclesPerPacket", "4400", kTcpMmap},
             {std::string(kCpu) + "CopyCyclesPerByte", "0.45", kTcpMmap},
             {std::string(kCpu) + "TxCyclesPerPacket", "2200", "an assumption: half the receive cost, as host-2005"},
             {std::string(kBus) + "Bandwidth", "546000000000bps",
              "four channels of DDR4-2133: 68.3 GB/s (the E5 v3's memory interface)"},
             {std::string(kBus) + "TransactionOverhead", "30ns", "DDR4 row activation plus CAS, rounded"},
             {std::string(kHost) + "TsoOctets", "65536", "Linux's 64 KiB GSO/TSO super-packets"},
             {std::string(kHost) + "GroOctets", "65536", "Linux's 64 KiB GRO aggregates"},
             {std::string(kHost) + "ZeroCopyCyclesPerSend", "4608", kZeroCopy},
             {std::string(kHost) + "DdioOctets", "3145728",
              std::string("2 of the 20 ways of the E5-2690 v3's 30 MB cache: ") + kDdio},
             {std::string(kHost) + "Arfs", "false",
              "Linux's default: aRFS needs ntuple filters and RFS's flow table configured (Documentation/"
              "networking/scaling.rst)"}}};
}

HostProfile
HostCurrent()
{
    return {"current",
            "a Xeon Scalable server of 2017-2024 with TSO/GRO, as Cai et al. (SIGCOMM 2021) measured Linux 5.4",
            {{std::string(kCpu) + "Cores", "6",
              "one socket of Cai et al.'s testbed (Xeon Gold 6128: 6 cores), the one the NIC is attached to"},
             {std::string(kCpu) + "Frequency", "3400000000", "Xeon Gold 6128: 3.4 GHz (Cai et al. section 2.3)"},
             {std::string(kCpu) + "RxCyclesPerPacket", "10600", kCai},
             {std::string(kCpu) + "CopyCyclesPerByte", "0.32", kCai},
             {std::string(kCpu) + "TxCyclesPerPacket", "5300", "an assumption: half the receive cost, as host-2005"},
             {std::string(kBus) + "Bandwidth", "1024000000000bps",
              "six channels of DDR4-2666: 128 GB/s (the Xeon Gold 6128's memory interface)"},
             {std::string(kBus) + "TransactionOverhead", "30ns", "DDR4 row activation plus CAS, rounded"},
             {std::string(kHost) + "TsoOctets", "65536", "Linux's 64 KiB GSO/TSO super-packets"},
             {std::string(kHost) + "GroOctets", "65536", "Linux's 64 KiB GRO aggregates"},
             {std::string(kHost) + "ZeroCopyCyclesPerSend", "3277", kZeroCopy},
             {std::string(kHost) + "DdioOctets", "3670016",
              std::string("2 of the 11 ways of the Xeon Gold 6128's 19.25 MB cache: ") + kDdio},
             {std::string(kHost) + "Arfs", "true", kCai}}};
}

} // namespace

const std::vector<HostProfile>&
HostProfiles()
{
    static const std::vector<HostProfile> profiles = {WithVerbs(Host2005()),
                                                      WithVerbs(With(Host2015(), MultiQueueNicValues())),
                                                      WithVerbs(With(HostCurrent(), MultiQueueNicValues()))};
    return profiles;
}

const HostProfile*
FindHostProfile(const std::string& name)
{
    return FindProfile(HostProfiles(), name);
}

std::string
HostProfileNames()
{
    return ProfileNames(HostProfiles());
}

} // namespace ns3

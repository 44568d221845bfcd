#include "support/roce-pcap.h"

#include "support/tshark-pdml.h"

#include "roce/roce-headers.h"

#include "ns3/pcap-file.h"

#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace ns3
{
namespace iwarptest
{

std::vector<uint8_t>
RoceIpv4Packet(const std::vector<uint8_t>& transport, Ipv4Address src, Ipv4Address dst)
{
    std::vector<uint8_t> p = {0x45, 0x02, 0, 0, 0x12, 0x34, 0x40, 0x00, 64, 17, 0, 0};
    for (Ipv4Address a : {src, dst})
    {
        const uint32_t v = a.Get();
        p.insert(p.end(), {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)});
    }
    const size_t udpLen = 8 + transport.size() + roce::kIcrcLen;
    const size_t ipLen = 20 + udpLen;
    p[2] = uint8_t(ipLen >> 8);
    p[3] = uint8_t(ipLen);
    const std::vector<uint8_t> udp = {0xC3, 0x50, uint8_t(roce::kUdpPort >> 8), uint8_t(roce::kUdpPort & 0xFF),
                                      uint8_t(udpLen >> 8), uint8_t(udpLen), 0x5A, 0xA5};
    p.insert(p.end(), udp.begin(), udp.end());
    p.insert(p.end(), transport.begin(), transport.end());
    uint32_t sum = 0;
    for (size_t k = 0; k < 20; k += 2)
    {
        sum += uint32_t(p[k]) << 8 | p[k + 1];
    }
    sum = (sum & 0xFFFF) + (sum >> 16);
    sum = (sum & 0xFFFF) + (sum >> 16);
    p[10] = uint8_t(~sum >> 8);
    p[11] = uint8_t(~sum);
    return p;
}

std::string
TempPcapName(const std::string& tag)
{
    return (std::filesystem::temp_directory_path() / (tag + "-" + std::to_string(::getpid()) + ".pcap")).string();
}

void
WriteRawIpv4Pcap(const std::string& file, const std::vector<std::vector<uint8_t>>& packets)
{
    PcapFile pcap;
    pcap.Open(file, std::ios::out);
    pcap.Init(101 /* LINKTYPE_RAW: IPv4 packets */);
    for (size_t k = 0; k < packets.size(); ++k)
    {
        pcap.Write(uint32_t(k), 0, packets[k].data(), uint32_t(packets[k].size()));
    }
}

std::vector<std::vector<std::string>>
TsharkFields(const std::string& file, const std::vector<std::string>& fields, int* status, std::string* out)
{
    std::string cmd = "tshark -n -r " + file + " -T fields -E separator=/t";
    for (const std::string& f : fields)
    {
        cmd += " -e " + f;
    }
    *out = RunCommand(cmd + " 2>&1", status);
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(*out);
    for (std::string line; std::getline(lines, line);)
    {
        if (line.rfind("Running as user", 0) == 0)
        {
            continue; // tshark's warning when the tests run as root
        }
        std::vector<std::string> cells;
        std::istringstream in(line);
        for (std::string c; std::getline(in, c, '\t');)
        {
            cells.push_back(c);
        }
        cells.resize(fields.size());
        rows.push_back(cells);
    }
    return rows;
}

} // namespace iwarptest
} // namespace ns3

/*
 * A small reader of tshark's PDML output (`tshark -T pdml`, optionally followed by `-z expert,...`
 * statistics) for the MPA/DDP/RDMAP dissectors: the MPA Request and Reply, every decoded FPDU (ULPDU
 * length, CRC check, FPDUPTRs, RDMAP opcode, DDP L bit), the data segments of each direction, and
 * malformed packets / expert errors. Also runs a command and collects its standard output.
 */
#ifndef IWARP_TSHARK_PDML_H
#define IWARP_TSHARK_PDML_H

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace iwarptest
{

struct DecodedFpdu
{
    uint32_t frame{0};
    uint32_t srcport{0};
    uint32_t seq{0};    ///< relative TCP sequence number of the segment it was decoded in
    uint32_t segLen{0}; ///< that segment's payload length
    uint32_t ulpduLen{0};
    bool crcGood{false};
    bool crcBad{false};
    bool crcUnchecked{false}; ///< iwarp_mpa.crc: tshark did not check it (it thinks CRC is off)
    std::string crcText;
    int opcode{-1};
    int last{-1};
    std::vector<uint32_t> fpduptrs;
};

struct DecodedSetup
{
    bool present{false};
    uint32_t frame{0};
    uint32_t srcport{0};
    uint32_t seq{0};
    uint32_t len{0};
    int m{-1};
    int c{-1};
    int r{-1};
    unsigned long res{0};
    unsigned long rev{0};
    unsigned long pdLength{0};
    std::string pdHex;
};

struct Capture
{
    uint32_t packets{0};
    std::vector<DecodedFpdu> fpdus;
    DecodedSetup req;
    DecodedSetup rep;
    uint32_t requests{0};
    uint32_t replies{0};
    /** Data segments per source port: (relative seq, length). */
    std::map<uint32_t, std::set<std::pair<uint32_t, uint32_t>>> segments;
    std::vector<std::string> problems;  ///< malformed packets, expert errors, bad CRCs (with hex)
    std::vector<std::string> expertSummary; ///< the -z expert,warn lines after the PDML
    std::map<uint32_t, std::string> payloadHex; ///< frames with a problem: their TCP payload
};

/** Reads the PDML `text` (and the statistics lines after `</pdml>`) into `*cap`. */
void ParsePdml(const std::string& text, Capture* cap);

/** Runs `cmd`, returning its standard output and exit status. */
std::string RunCommand(const std::string& cmd, int* status);

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_TSHARK_PDML_H

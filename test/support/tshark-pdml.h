/*
 * A small reader of tshark's PDML output (`tshark -T pdml`, optionally followed by `-z expert,...`
 * statistics) for the MPA/DDP/RDMAP dissectors: the MPA Request and Reply, every decoded FPDU (ULPDU
 * length, CRC check, FPDUPTRs, RDMAP opcode, DDP L bit), the data segments of each direction, and
 * malformed packets / expert errors; and for DDP over SCTP, every DATA chunk with what the Lua dissector
 * decoded in it. Also runs a command and collects its standard output.
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

/**
 * One SCTP DATA chunk as tshark decoded it, with what the DDP-over-SCTP Lua dissector (RFC 5043; fields
 * ddp_sctp.* for PPID 16, ddp_sctp_ctl.* for PPID 17) and the iwarp_ddp_rdmap dissector made of its user data.
 */
struct DecodedDataChunk
{
    uint32_t frame{0};
    uint32_t srcport{0};
    uint32_t tsn{0};
    uint32_t ppid{0};
    int checksumStatus{-1}; ///< its packet's sctp.checksum.status: 1 good, 0 bad, 2 unverified
    int ssn{-1};            ///< ddp_sctp.ssn or ddp_sctp_ctl.ssn: -1 if the plug-in did not decode it
    bool segment{false};    ///< decoded as a DDP Segment chunk (ddp_sctp)
    bool control{false};    ///< decoded as a session control message (ddp_sctp_ctl)
    int opcode{-1};         ///< segment: iwarp_rdma.opcode
    int function{-1};       ///< control: ddp_sctp_ctl.function
    int pdLen{-1};          ///< control: ddp_sctp_ctl.private_data_len
};

/**
 * The DATA chunks of a PDML capture of SCTP, in order. The Lua dissector's items follow the SCTP tree one per
 * chunk it was given, so the n-th ddp_sctp / ddp_sctp_ctl item of a packet belongs to its n-th DATA chunk.
 * `checksums` gets every SCTP packet's sctp.checksum.status.
 */
std::vector<DecodedDataChunk> ParseSctpDataChunks(const std::string& text, std::vector<int>* checksums);

/** Runs `cmd`, returning its standard output and exit status. */
std::string RunCommand(const std::string& cmd, int* status);

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_TSHARK_PDML_H

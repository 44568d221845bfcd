/*
 * A small reader of tshark's PDML output: see tshark-pdml.h.
 */
#include "support/tshark-pdml.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ns3
{
namespace iwarptest
{

namespace
{

/** Wireshark's expert severity PI_ERROR (epan/proto.h); PI_WARN is 0x00600000, PI_NOTE 0x00400000. */
constexpr unsigned long kPiError = 0x00800000;

/** The value of attribute `attr` (e.g. ` show=`) in a PDML line, XML escapes left as they are. */
bool
Attr(const std::string& line, const char* attr, std::string* out)
{
    const std::string key = std::string(" ") + attr + "=\"";
    const std::size_t a = line.find(key);
    if (a == std::string::npos)
    {
        return false;
    }
    const std::size_t b = a + key.size();
    const std::size_t e = line.find('"', b);
    if (e == std::string::npos)
    {
        return false;
    }
    *out = line.substr(b, e - b);
    return true;
}

unsigned long
Num(const std::string& s)
{
    return s.empty() ? 0 : std::strtoul(s.c_str(), nullptr, 0);
}

} // namespace

void
ParsePdml(const std::string& text, Capture* cap)
{
    std::istringstream in(text);
    std::string line;
    uint32_t frame = 0;
    uint32_t srcport = 0;
    uint32_t seq = 0;
    uint32_t len = 0;
    std::string payload;
    std::string lastExpertMessage;
    DecodedSetup* setup = nullptr;
    bool packetProblem = false;
    bool afterPdml = false;
    auto endPacket = [&]() {
        if (packetProblem)
        {
            cap->payloadHex[frame] = payload;
        }
        packetProblem = false;
    };
    while (std::getline(in, line))
    {
        if (afterPdml)
        {
            if (!line.empty())
            {
                cap->expertSummary.push_back(line);
            }
            continue;
        }
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos)
        {
            continue;
        }
        if (line.compare(first, 8, "<packet>") == 0)
        {
            ++cap->packets;
            frame = srcport = seq = len = 0;
            payload.clear();
            setup = nullptr;
            continue;
        }
        if (line.compare(first, 9, "</packet>") == 0)
        {
            if (len > 0)
            {
                cap->segments[srcport].insert({seq, len});
            }
            endPacket();
            continue;
        }
        if (line.compare(first, 7, "</pdml>") == 0)
        {
            afterPdml = true;
            continue;
        }
        std::string name;
        if (!Attr(line, "name", &name))
        {
            continue;
        }
        std::string show;
        Attr(line, "show", &show);
        if (name == "frame.number")
        {
            frame = Num(show);
        }
        else if (name == "tcp.srcport")
        {
            srcport = Num(show);
        }
        else if (name == "tcp.seq")
        {
            seq = Num(show);
        }
        else if (name == "tcp.len")
        {
            len = Num(show);
        }
        else if (name == "tcp.payload")
        {
            Attr(line, "value", &payload);
        }
        else if (name == "_ws.malformed")
        {
            std::string sn;
            Attr(line, "showname", &sn);
            cap->problems.push_back("frame " + std::to_string(frame) + ": malformed: " + sn);
            packetProblem = true;
        }
        else if (name == "_ws.expert.message")
        {
            lastExpertMessage = show;
        }
        else if (name == "_ws.expert.severity")
        {
            if (Num(show) >= kPiError)
            {
                cap->problems.push_back("frame " + std::to_string(frame) + ": expert error: " +
                                        lastExpertMessage);
                packetProblem = true;
            }
        }
        else if (name == "iwarp_mpa.key.req" || name == "iwarp_mpa.key.rep")
        {
            const bool isReq = name == "iwarp_mpa.key.req";
            (isReq ? cap->requests : cap->replies)++;
            setup = isReq ? &cap->req : &cap->rep;
            setup->present = true;
            setup->frame = frame;
            setup->srcport = srcport;
            setup->seq = seq;
            setup->len = len;
        }
        else if (setup && name == "iwarp_mpa.marker_flag")
        {
            setup->m = int(Num(show));
        }
        else if (setup && name == "iwarp_mpa.crc_flag")
        {
            setup->c = int(Num(show));
        }
        else if (setup && name == "iwarp_mpa.rej_flag")
        {
            setup->r = int(Num(show));
        }
        else if (setup && name == "iwarp_mpa.res")
        {
            setup->res = Num(show);
        }
        else if (setup && name == "iwarp_mpa.rev")
        {
            setup->rev = Num(show);
        }
        else if (setup && name == "iwarp_mpa.pdlength")
        {
            setup->pdLength = Num(show);
        }
        else if (setup && name == "iwarp_mpa.privatedata")
        {
            Attr(line, "value", &setup->pdHex);
        }
        else if (name == "iwarp_mpa.ulpdulength")
        {
            DecodedFpdu d;
            d.frame = frame;
            d.srcport = srcport;
            d.seq = seq;
            d.segLen = len;
            d.ulpduLen = Num(show);
            cap->fpdus.push_back(d);
        }
        else if (!cap->fpdus.empty() && cap->fpdus.back().frame == frame)
        {
            DecodedFpdu& d = cap->fpdus.back();
            if (name == "iwarp_mpa.crc_check")
            {
                Attr(line, "showname", &d.crcText);
                d.crcGood = d.crcText.find("(Good CRC32)") != std::string::npos;
                d.crcBad = !d.crcGood;
                if (d.crcBad)
                {
                    cap->problems.push_back("frame " + std::to_string(frame) + ": " + d.crcText);
                    packetProblem = true;
                }
            }
            else if (name == "iwarp_mpa.crc")
            {
                d.crcUnchecked = true;
            }
            else if (name == "iwarp_mpa.marker_fpduptr")
            {
                d.fpduptrs.push_back(Num(show));
            }
            else if (name == "iwarp_rdma.opcode" && d.opcode < 0)
            {
                d.opcode = int(Num(show));
            }
            else if (name == "iwarp_ddp.last_flag" && d.last < 0)
            {
                d.last = int(Num(show));
            }
        }
    }
}

std::vector<DecodedDataChunk>
ParseSctpDataChunks(const std::string& text, std::vector<int>* checksums)
{
    std::vector<DecodedDataChunk> out;
    std::istringstream in(text);
    std::string line;
    uint32_t frame = 0;
    uint32_t srcport = 0;
    int checksum = -1;
    size_t packetFirst = 0; ///< index in `out` of this packet's first chunk
    size_t decodeNext = 0;  ///< index in `out` of the chunk the next ddp_sctp / ddp_sctp_ctl item belongs to
    DecodedDataChunk* current = nullptr; ///< the chunk the latest DDP item decoded
    bool inSctp = false;
    while (std::getline(in, line))
    {
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos)
        {
            continue;
        }
        if (line.compare(first, 8, "<packet>") == 0)
        {
            frame = srcport = 0;
            checksum = -1;
            packetFirst = decodeNext = out.size();
            current = nullptr;
            inSctp = false;
            continue;
        }
        if (line.compare(first, 9, "</packet>") == 0)
        {
            if (inSctp)
            {
                checksums->push_back(checksum);
            }
            for (size_t k = packetFirst; k < out.size(); ++k)
            {
                out[k].checksumStatus = checksum;
            }
            continue;
        }
        std::string name;
        if (!Attr(line, "name", &name))
        {
            continue;
        }
        std::string show;
        Attr(line, "show", &show);
        if (name == "frame.number")
        {
            frame = Num(show);
        }
        else if (name == "sctp")
        {
            inSctp = true;
        }
        else if (name == "sctp.srcport")
        {
            srcport = Num(show);
        }
        else if (name == "sctp.checksum.status")
        {
            checksum = int(Num(show));
        }
        else if (name == "sctp.data_tsn")
        {
            DecodedDataChunk c;
            c.frame = frame;
            c.srcport = srcport;
            c.tsn = Num(show);
            out.push_back(c);
        }
        else if (name == "sctp.data_tsn_raw" && out.size() > packetFirst)
        {
            out.back().tsn = Num(show); // with relative TSNs on (the default), data_tsn counts from 0
        }
        else if (name == "sctp.data_payload_proto_id" && out.size() > packetFirst)
        {
            out.back().ppid = Num(show);
        }
        else if ((name == "ddp_sctp.ssn" || name == "ddp_sctp_ctl.ssn") && decodeNext < out.size())
        {
            current = &out[decodeNext++];
            current->ssn = int(Num(show));
            (name == "ddp_sctp.ssn" ? current->segment : current->control) = true;
        }
        else if (current && name == "iwarp_rdma.opcode" && current->opcode < 0)
        {
            current->opcode = int(Num(show));
        }
        else if (current && name == "ddp_sctp_ctl.function")
        {
            current->function = int(Num(show));
        }
        else if (current && name == "ddp_sctp_ctl.private_data_len")
        {
            current->pdLen = int(Num(show));
        }
    }
    return out;
}

/** Runs `cmd`, returning its standard output and exit status. */
std::string
RunCommand(const std::string& cmd, int* status)
{
    std::string out;
    FILE* f = popen(cmd.c_str(), "r");
    if (!f)
    {
        *status = -1;
        return out;
    }
    char buf[1 << 16];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    {
        out.append(buf, n);
    }
    *status = pclose(f);
    return out;
}

} // namespace iwarptest
} // namespace ns3

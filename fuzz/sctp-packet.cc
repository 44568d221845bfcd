/*
 * Fuzz target sctp-packet: the SCTP packet codec (model/sctp/sctp-packet.*, the chunk classes of model/sctp)
 * on untrusted octets. The input is one packet as it would come off the wire.
 *
 * Invariants beyond "no crash":
 *  - checksum: with verification, a packet parses exactly when it parses without and its CRC32c field is
 *    ComputeChecksum's; stamping the checksum makes verification pass on the same octets;
 *  - round trip: a parsed packet serializes (ToBytes) to GetSize() octets that parse again, checksum
 *    verified, and serialize to the same octets (re-serialization is a fixed point);
 *  - the offset of a bad chunk lies inside the packet.
 */
#include "fuzz-common.h"

#include "sctp/sctp-packet.h"

using namespace ns3;
using namespace ns3::fuzz;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    SctpPacket pkt;
    size_t badOffset = 0;
    const SctpParseError plain = SctpPacket::Parse(data, size, &pkt, false, &badOffset);
    FUZZ_CHECK(plain == SctpParseError::None || plain == SctpParseError::TooShort || badOffset < size,
               "the bad chunk lies inside the packet");

    if (size >= SctpCommonHeader::kSize)
    {
        const uint32_t wire = uint32_t(data[8]) | (uint32_t(data[9]) << 8) | (uint32_t(data[10]) << 16) |
                              (uint32_t(data[11]) << 24);
        SctpPacket checked;
        const SctpParseError verified = SctpPacket::Parse(data, size, &checked, true);
        const bool sumOk = wire == SctpPacket::ComputeChecksum(data, size);
        FUZZ_CHECK((verified == SctpParseError::None) == (plain == SctpParseError::None && sumOk),
                   "checksum verification decides exactly on the CRC32c");

        Bytes stamped(data, data + size);
        SctpPacket::StampChecksum(stamped.data(), stamped.size());
        SctpPacket again;
        FUZZ_CHECK(SctpPacket::Parse(stamped.data(), stamped.size(), &again, true) == plain,
                   "a stamped packet verifies and parses as the unverified one");
    }

    if (plain == SctpParseError::None)
    {
        const Bytes first = pkt.ToBytes();
        FUZZ_CHECK(first.size() == pkt.GetSize(), "GetSize is the serialized size");
        SctpPacket reparsed;
        const SctpParseError e = SctpPacket::Parse(first.data(), first.size(), &reparsed, true);
        FUZZ_CHECK(e == SctpParseError::None, std::string("a serialized packet parses: ") + SctpParseErrorName(e));
        FUZZ_CHECK(reparsed.chunks.size() == pkt.chunks.size(), "the same number of chunks");
        FUZZ_CHECK(reparsed.ToBytes() == first, "re-serialization is a fixed point");
    }
    return 0;
}

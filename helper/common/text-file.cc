#include "helper/common/text-file.h"

#include "helper/common/units.h"

#include <fstream>

namespace ns3
{

std::string
ReadTextFile(const std::string& path, uint64_t limit)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw TextFileError("cannot be opened (missing or unreadable)");
    }
    // One octet past the limit tells a file of exactly `limit` octets from a longer one; a
    // device such as /dev/zero is never read further than that.
    std::string text(limit + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    if (in.bad())
    {
        throw TextFileError("cannot be read");
    }
    const uint64_t got = uint64_t(in.gcount());
    if (got > limit)
    {
        throw TextFileError("is larger than " + scenario::FormatSize(limit) + ", the most this program reads");
    }
    text.resize(got);
    return text;
}

} // namespace ns3

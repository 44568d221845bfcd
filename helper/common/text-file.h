/*
 * Reading a text file that a user names (a scenario, a GraphML topology) with a bound on its size,
 * so that /dev/zero or a runaway generated file ends in a clear error after at most `limit` + 1
 * octets instead of exhausting memory.  The limits themselves are in doc/scenario-format.md.
 */
/**
 * \file
 * \ingroup iwarp-helper-common
 */
#ifndef IWARP_COMMON_TEXT_FILE_H
#define IWARP_COMMON_TEXT_FILE_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/** what() is the detail without the file name: "cannot be opened", "is larger than ...". */
class TextFileError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/** The whole file, or TextFileError when it cannot be read or holds more than `limit` octets. */
std::string ReadTextFile(const std::string& path, uint64_t limit);

} // namespace ns3

#endif // IWARP_COMMON_TEXT_FILE_H

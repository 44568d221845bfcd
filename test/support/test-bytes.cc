#include "support/test-bytes.h"

#include <cctype>
#include <cstdio>

namespace ns3
{
namespace iwarptest
{

Bytes
Hx(const std::string& text)
{
    Bytes b;
    std::string digits;
    for (char c : text)
    {
        if (std::isxdigit(static_cast<unsigned char>(c)))
        {
            digits += c;
        }
    }
    for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
    {
        b.push_back(uint8_t(std::stoul(digits.substr(i, 2), nullptr, 16)));
    }
    return b;
}

std::string
Hex(const Bytes& b)
{
    std::string s;
    char buf[4];
    for (uint8_t x : b)
    {
        std::snprintf(buf, sizeof buf, "%02X ", x);
        s += buf;
    }
    return s;
}

Bytes
Be(uint64_t v, int n)
{
    Bytes b;
    for (int i = n - 1; i >= 0; --i)
    {
        b.push_back(uint8_t(v >> (8 * i)));
    }
    return b;
}

Bytes
Ascii(const std::string& s)
{
    return Bytes(s.begin(), s.end());
}

Bytes
Sub(const Bytes& b, std::size_t off, std::size_t len)
{
    return Bytes(b.begin() + off, b.begin() + off + len);
}

Bytes
Cat(std::initializer_list<Bytes> parts)
{
    Bytes out;
    for (const Bytes& p : parts)
    {
        out.insert(out.end(), p.begin(), p.end());
    }
    return out;
}

Bytes
PacketBytes(Ptr<const Packet> p)
{
    Bytes b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

Ptr<Packet>
PayloadPacket(const Bytes& b)
{
    return Create<Packet>(b.data(), b.size());
}

} // namespace iwarptest
} // namespace ns3

#include "fuzz-common.h"

#include "ns3/callback.h"
#include "ns3/log.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace ns3
{
namespace fuzz
{

uint8_t
Reader::U8()
{
    return m_pos < m_size ? m_data[m_pos++] : 0;
}

uint16_t
Reader::U16()
{
    const uint16_t hi = U8();
    return uint16_t((hi << 8) | U8());
}

uint32_t
Reader::U32()
{
    const uint32_t hi = U16();
    return (hi << 16) | U16();
}

Bytes
Reader::Take(size_t n)
{
    n = std::min(n, Remaining());
    Bytes b(m_data + m_pos, m_data + m_pos + n);
    m_pos += n;
    return b;
}

void
PutU16(Bytes& out, uint16_t v)
{
    out.push_back(uint8_t(v >> 8));
    out.push_back(uint8_t(v));
}

void
PutU32(Bytes& out, uint32_t v)
{
    PutU16(out, uint16_t(v >> 16));
    PutU16(out, uint16_t(v));
}

void
PutRecord(Bytes& out, const Bytes& record)
{
    PutU16(out, uint16_t(record.size()));
    out.insert(out.end(), record.begin(), record.end());
}

Bytes
PacketOctets(Ptr<const Packet> p)
{
    Bytes b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

void
Init()
{
    static bool done = false;
    if (!done)
    {
        done = true;
        LogComponentDisableAll(LOG_LEVEL_ALL);
    }
}

void
Fail(const std::string& what)
{
    std::cerr << "fuzz invariant violated: " << what << std::endl;
    std::abort();
}

bool
IsListedTerminateCause(const iwarp::ErrorCause& c, TermLlp llp)
{
    auto in = [&c](std::initializer_list<uint8_t> codes) {
        for (uint8_t k : codes)
        {
            if (c.code == k)
            {
                return true;
            }
        }
        return false;
    };
    switch (c.layer)
    {
    case 0x0: // RDMA
        return c.etype == 0x0 || (c.etype == 0x1 && in({0x00, 0x01, 0x02, 0x03, 0x04, 0x09, 0xFF})) ||
               (c.etype == 0x2 && in({0x05, 0x06, 0x07, 0x08, 0x09, 0xFF}));
    case 0x1: // DDP
        return (c.etype == 0x0 && c.code == 0x00) || (c.etype == 0x1 && c.code <= 0x04) ||
               (c.etype == 0x2 && c.code >= 0x01 && c.code <= 0x06);
    case 0x2: // LLP: only MPA defines codes (RFC 5044 0x01-0x04, RFC 6581 0x05-0x07), EType 0
        return llp == TermLlp::Mpa && c.etype == 0x0 && c.code >= 0x01 && c.code <= 0x07;
    default:
        return false;
    }
}

void
TerminateWatch::Watch(Ptr<RdmapEndpoint> ep)
{
    m_counters.push_back(Counter{this});
    ep->TraceConnectWithoutContext("TerminateSent", MakeBoundCallback(&TerminateWatch::OnSent, &m_counters.back()));
}

void
TerminateWatch::OnSent(Counter* c, const RdmapTerminateHeader& h)
{
    const iwarp::ErrorCause cause = h.GetCause();
    FUZZ_CHECK(IsListedTerminateCause(cause, c->watch->m_llp), "a Terminate with the unlisted cause " + cause.ToString());
    FUZZ_CHECK(++c->sent == 1, "a second Terminate on one stream (" + cause.ToString() + ")");
    ++c->watch->m_total;
}

uint64_t
CheckReceives(const std::vector<RdmapCompletion>& completions, const std::map<uint64_t, uint32_t>& posted)
{
    std::set<uint64_t> done;
    uint64_t ok = 0;
    for (const RdmapCompletion& c : completions)
    {
        if (c.IsRecv())
        {
            FUZZ_CHECK(done.insert(c.id).second, "a receive buffer completed twice");
            const auto it = posted.find(c.id);
            FUZZ_CHECK(it != posted.end(), "a completion for a buffer never posted");
            FUZZ_CHECK(c.status != WcStatus::Success || c.byteLength <= it->second,
                       "a receive completion longer than its buffer");
            ok += c.status == WcStatus::Success;
        }
    }
    return ok;
}

namespace
{
std::string g_scratch;

void
RemoveScratch()
{
    std::error_code ec;
    std::filesystem::remove_all(g_scratch, ec);
}
} // namespace

const std::string&
ScratchDir()
{
    if (g_scratch.empty())
    {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/iwarp-fuzz-XXXXXX";
        if (!mkdtemp(templ.data()))
        {
            Fail("cannot make a scratch folder " + templ);
        }
        g_scratch = templ;
        std::atexit(RemoveScratch);
    }
    return g_scratch;
}

std::string
WriteScratchFile(const std::string& name, const uint8_t* data, size_t size)
{
    const std::string path = ScratchDir() + "/" + name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    if (!out)
    {
        Fail("cannot write " + path);
    }
    return path;
}

} // namespace fuzz
} // namespace ns3

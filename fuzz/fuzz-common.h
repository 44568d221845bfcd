/*
 * What the libFuzzer targets of fuzz/ share (doc/fuzzing.md): a front-to-back reader that turns the input into
 * the decisions a target makes (record lengths, split points, modes), one-time ns-3 set-up, the invariant check
 * that turns a broken promise into a finding, the list of Terminate causes the project may send, and a scratch
 * folder for targets that must hand a file name to the code under test.
 *
 * Every target aborts on a violated invariant (FUZZ_CHECK), as NS_FATAL_ERROR and NS_ASSERT do: libFuzzer
 * records an abort as a crash and keeps the input, so all three are findings.
 */
#ifndef IWARP_FUZZ_COMMON_H
#define IWARP_FUZZ_COMMON_H

#include "common/iwarp-constants.h"
#include "rdmap/rdmap-endpoint.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace fuzz
{

using Bytes = std::vector<uint8_t>;

/**
 * Reads the fuzz input from the front. Past the end every read yields zeros / nothing, so a target never needs
 * to check lengths; Empty() tells it to stop looping. The seed generator (fuzz/make-seeds.cc) writes inputs in
 * the same order, so each seed is a meaningful structured input.
 */
class Reader
{
  public:
    Reader(const uint8_t* data, size_t size)
        : m_data(data),
          m_size(size)
    {
    }

    bool Empty() const { return m_pos >= m_size; }
    size_t Remaining() const { return m_size - m_pos; }
    uint8_t U8();
    /** Big-endian, as the wire formats and the seed generator write them. */
    uint16_t U16();
    uint32_t U32();
    /** `n` octets (fewer at the end of the input). */
    Bytes Take(size_t n);
    /** A record: a 16-bit length, then that many octets. */
    Bytes Record() { return Take(U16()); }
    Bytes Rest() { return Take(Remaining()); }

  private:
    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos{0};
};

/** Writes what Reader reads (the seed generator and the targets that build their own inputs). */
void PutU16(Bytes& out, uint16_t v);
void PutU32(Bytes& out, uint32_t v);
void PutRecord(Bytes& out, const Bytes& record);
/** Every octet of `p`. */
Bytes PacketOctets(Ptr<const Packet> p);

/**
 * Once per process: ns-3 logging off (a target runs millions of times; NS_LOG in the environment must not
 * flood the output) and nothing else that would change what the code under test does.
 */
void Init();

/** A violated invariant: prints "fuzz invariant violated: <what>" and aborts (a libFuzzer finding). */
[[noreturn]] void Fail(const std::string& what);

#define FUZZ_CHECK(cond, what)                                                                     \
    do                                                                                             \
    {                                                                                              \
        if (!(cond))                                                                               \
        {                                                                                          \
            ::ns3::fuzz::Fail(std::string(#cond) + ": " + (what));                                 \
        }                                                                                          \
    } while (false)

/** Which LLP a Terminate went over: MPA defines Layer 2 codes; the SCTP adaptation defines none. */
enum class TermLlp
{
    Mpa,
    Sctp,
    None, ///< a test LLP: Layer 2 is never sent by DDP/RDMAP themselves
};

/**
 * True when (Layer, EType, Code) is a cause of the Terminate error-code table of doc/conformance.md (as
 * model/common/iwarp-constants.h and model/mpa/mpa-constants.h spell it): RDMAP 0/0/any,
 * 0/1/{00-04,09,FF}, 0/2/{05-09,FF}; DDP 1/0/00, 1/1/{00-04}, 1/2/{01-06}; LLP 2/0/{01-07} over MPA only.
 */
bool IsListedTerminateCause(const iwarp::ErrorCause& c, TermLlp llp);

/**
 * Watches the Terminates RDMAP endpoints send (their TerminateSent trace): each must carry a listed cause
 * (IsListedTerminateCause for `llp`), and an endpoint sends at most one (RDMAP-053: once per stream).
 * Declare it before the objects it watches so that it outlives them.
 */
class TerminateWatch
{
  public:
    explicit TerminateWatch(TermLlp llp)
        : m_llp(llp)
    {
    }
    void Watch(Ptr<RdmapEndpoint> ep);
    /** Terminates sent by all watched endpoints. */
    uint32_t Sent() const { return m_total; }

  private:
    struct Counter
    {
        TerminateWatch* watch;
        uint32_t sent{0};
    };
    static void OnSent(Counter* c, const RdmapTerminateHeader& h);

    TermLlp m_llp;
    std::deque<Counter> m_counters; // stable addresses for the bound callbacks
    uint32_t m_total{0};
};

/**
 * Checks the receive completions among `completions` against the buffers posted (id -> size): each is of a
 * posted buffer, completes at most once, and a successful one is no longer than its buffer. Returns how many
 * succeeded. (Delivered lengths are not bounded by the octets a peer sent: a message's length is MO plus its
 * last segment, DDP-046, and the sink need not check that every octet arrived, DDP-038.)
 */
uint64_t CheckReceives(const std::vector<RdmapCompletion>& completions, const std::map<uint64_t, uint32_t>& posted);

/**
 * A folder of this process's own under $TMPDIR (made on first use, removed at exit), for targets that must
 * give the code under test a file name.
 */
const std::string& ScratchDir();
/** Writes `data` to ScratchDir()/name and returns the path. */
std::string WriteScratchFile(const std::string& name, const uint8_t* data, size_t size);

} // namespace fuzz
} // namespace ns3

#endif // IWARP_FUZZ_COMMON_H

/*
 * The conformance harness of doc/conformance.md §4.0, as an ns-3 TestCase base class.
 *
 * DUT: an RdmapEndpoint over a DdpEndpoint over one TestLowerLayer, with a MemoryRegistry
 * holding fixture F's STags. Injector: the other TestLowerLayer, which sends raw octets
 * (well-formed or not) and captures every segment the DUT sends. Observer: the DUT's
 * completions and events, and its registered memory.
 *
 * A test overrides DoRun(), calls SetUpFixture(), drives the injector and the DUT's ULP,
 * calls RunFor(), and asserts on what was captured and observed. The Expect* helpers check
 * the error postconditions P1-P5 so that each negative test states only what differs.
 */
#ifndef IWARP_CONFORMANCE_FIXTURE_H
#define IWARP_CONFORMANCE_FIXTURE_H

#include "ddp/ddp-endpoint.h"
#include "ddp/test-lower-layer.h"
#include "rdmap/rdmap-endpoint.h"
#include "rnic/completion-queue.h"
#include "rnic/memory-registry.h"

#include "support/conformance-data.h"
#include "support/test-bytes.h"

#include "ns3/test.h"

#include <string>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** A completion status or work request type as text, so that NS_TEST_* can print it. */
inline std::string
St(WcStatus s)
{
    return ToString(s);
}

inline std::string
St(RdmapWrType t)
{
    return ToString(t);
}

/** Builders for the Injector's raw segments (big-endian, doc/conformance.md §1). */
namespace seg
{
/** DDP octet 0 for a segment; dv and rsvd let a test inject malformed values. */
uint8_t DdpCtrl(bool tagged, bool last, uint8_t dv = 1, uint8_t rsvd = 0);
/** RDMAP octet 1 (RV in the top two bits, opcode in the low four). */
uint8_t RdmapCtrl(uint8_t opcode, uint8_t rv = 1, uint8_t rsv = 0);

Bytes Tagged(uint8_t ctrl0, uint8_t ctrl1, uint32_t stag, uint64_t to, const Bytes& payload);
Bytes Untagged(uint8_t ctrl0,
               uint8_t ctrl1,
               uint32_t invStag,
               uint32_t qn,
               uint32_t msn,
               uint32_t mo,
               const Bytes& payload);

/** A well-formed single-segment RDMA Write. */
Bytes Write(uint32_t stag, uint64_t to, const Bytes& payload, bool last = true);
/** A well-formed Send-type segment on QN 0 (opcode 0x3 unless given). */
Bytes Send(uint32_t msn, uint32_t mo, const Bytes& payload, bool last = true, uint8_t opcode = 0x3,
           uint32_t invStag = 0);
/** A well-formed Read Request (46 octets). */
Bytes ReadRequest(uint32_t msn, uint32_t sinkStag, uint64_t sinkTo, uint32_t size, uint32_t srcStag,
                  uint64_t srcTo);
/** A Read Response segment (tagged, opcode 0x2). */
Bytes ReadResponse(uint32_t stag, uint64_t to, const Bytes& payload, bool last);

/** `n` octets of a recognisable pattern starting at `seed`. */
Bytes Pattern(std::size_t n, uint8_t seed = 1);

uint32_t Be32(const uint8_t* p);
uint64_t Be64(const uint8_t* p);
} // namespace seg

/** A DDP segment captured from the DUT, decoded. */
struct Captured
{
    Bytes bytes;
    bool tagged{false};
    bool last{false};
    uint8_t ctrl0{0};
    uint8_t ctrl1{0};
    uint8_t opcode{0};
    uint32_t stag{0};    ///< tagged
    uint64_t to{0};      ///< tagged
    uint32_t invStag{0}; ///< untagged octets 2-5
    uint32_t qn{0};
    uint32_t msn{0};
    uint32_t mo{0};
    uint32_t payloadLength{0};
    Bytes Payload() const;
    bool IsTerminate() const { return !tagged && opcode == 0x7; }
};

class ConformanceFixture : public TestCase
{
  public:
    explicit ConformanceFixture(const std::string& name);

  protected:
    struct Options
    {
        uint32_t ird{4};
        uint32_t ord{4};
        uint32_t recvBuffers{8};
        uint32_t recvBufferSize{4096};
        uint32_t mulpdu{1500};
        /** Associate A with streams S1 and S2 explicitly. */
        bool shareAAcrossStreams{false};
    };

    /** Build fixture F (and run the simulator until the LLP is established). */
    void SetUpFixture(const Options& o);
    void SetUpFixture() { SetUpFixture(Options{}); }
    /** Runs in DoTeardown: destroys the simulator and the objects. */
    void DoTeardown() override;

    /** The conformance id the case's name starts with ("D-20(b)", "R-03"). */
    std::string Id() const { return GetName().substr(0, GetName().find(' ')); }

    /** Advance simulated time by `t` (events scheduled up to then run). */
    void RunFor(Time t = MilliSeconds(10));

    // ---- injector
    void Inject(const Bytes& segment) { m_inj->SendRaw(segment); }
    /** Arm(), then inject `offending` and run. */
    void InjectOffending(const Bytes& offending);

    // ---- what the DUT sent
    const std::vector<Captured>& Sent() const { return m_sent; }
    std::vector<Captured> SentTerminates() const;
    std::vector<Captured> SentNonTerminates() const;

    // ---- the DUT's ULP
    /** Post a send WR with any payload source (e.g. an empty packet or a huge virtual one). */
    bool PostSource(uint64_t id, RdmapWrType type, Ptr<DdpPayloadSource> src, uint32_t stag = 0,
                    uint64_t to = 0, uint32_t invStag = 0);
    /** Post a send WR whose payload is `data` (real octets). */
    bool PostSendBytes(uint64_t id, RdmapWrType type, const Bytes& data, uint32_t stag = 0,
                       uint64_t to = 0, uint32_t invStag = 0);
    bool PostRead(uint64_t id, uint32_t srcStag, uint64_t srcTo, uint32_t len, uint32_t sinkStag,
                  uint64_t sinkTo);
    const std::vector<RdmapCompletion>& Completions() const { return m_completions; }
    std::vector<RdmapCompletion> RecvCompletions() const;
    std::vector<RdmapCompletion> SendCompletions() const;
    /** The receive completion of buffer `id`, if any. */
    const RdmapCompletion* RecvCompletion(uint64_t id) const;
    /** Receive completions with status Success. */
    std::size_t RecvOk() const;
    const std::vector<RdmapEventInfo>& Events() const { return m_events; }
    bool HasEvent(RdmapEvent type) const;
    /** Events other than stream establishment. */
    std::size_t UlpEvents() const;
    /** The cause of the first TerminateSent event, if any. */
    bool FirstErrorEvent(iwarp::ErrorCause* cause) const;

    // ---- memory
    Ptr<MemoryRegion> Region(uint32_t stag) const { return m_registry->Lookup(stag); }
    /** The octets of region `stag` at tagged offset `to`. */
    Bytes ReadRegion(uint32_t stag, uint64_t to, std::size_t len) const;
    /** Put `data` into region `stag` at tagged offset `to` (the DUT's local memory). */
    void Fill(uint32_t stag, uint64_t to, const Bytes& data);
    /** Every octet of every region and receive buffer, to prove nothing was placed (P1). */
    std::vector<Bytes> SnapshotMemory() const;
    /** Receive buffer `i` (posted with id i, 0-based). */
    Ptr<ByteBuffer> RecvBuffer(std::size_t i) const { return m_recvBuffers.at(i); }
    /** `len` octets of receive buffer `i` at offset `off`. */
    Bytes RecvBytes(std::size_t i, std::size_t off, std::size_t len) const;

    // ---- postconditions
    /** Receive completion `c` delivered `data` successfully into receive buffer `buffer`. */
    void ExpectDelivered(const RdmapCompletion& c, uint64_t buffer, const Bytes& data,
                         const std::string& what);
    /** No Terminate, and the ULP was told of no error. */
    void ExpectNoError();
    /** P3: the DDP header of Terminate `t` (untagged, L=1, 0x41 0x47, zero, QN 2, MSN 1, MO 0). */
    void ExpectTerminateSegment(const Captured& t, const std::string& what);
    /**
     * P1-P4 of doc/conformance.md §4.0 for a negative test: exactly one Terminate, well formed, with
     * this L/ET/EC and MDR; the DUT's ULP got the same cause; copied headers and the
     * segment length match `offending` (D/M), `rdmaHeader` (R); memory equals `before`
     * (pass nullptr to skip that check, e.g. for D-14(c)).
     */
    void ExpectTerminate(uint8_t layer, uint8_t etype, uint8_t code, bool m, bool d, bool r,
                         const Bytes* offending, const Bytes* rdmaHeader,
                         const std::vector<Bytes>* before);
    /**
     * The Terminate's cause is one of `accepted`, preferred first (AMBIG rows); prints which
     * one occurred, with `ambig` (e.g. "AMBIG A3") for the record, and returns it.
     */
    iwarp::ErrorCause ExpectTerminateOneOf(const std::vector<iwarp::ErrorCause>& accepted,
                                           const std::string& ambig = "");
    /** P5: a valid Write injected now is dropped silently, and no second Terminate appears. */
    void ExpectSilentAfterError();

    /** Take the P1 snapshot and the P2 baseline right before the offending injection. */
    void Arm();
    /**
     * After InjectOffending(offending): TERM layer/etype/code MDR=110 for it, plus P1-P6:
     * nothing placed, not completed, exactly one Terminate, copied header and length, later
     * segments dropped, no abortive teardown by the DUT on its own.
     */
    void ExpectDdpError(uint8_t layer, uint8_t etype, uint8_t code, const Bytes& offending);
    /** P2 (not completed), P3/P5 (nothing more sent or placed), P6 (no abortive close). */
    void ExpectAfterError();
    /**
     * D-13 / R-26: inject V1 (a Write to BAD) and expect TERM 1.1.0x00 MDR=110 (P1-P4) laid
     * out as V5 byte for byte; the P1 snapshot is left in m_before.
     */
    void InjectV1ExpectV5();

    Ptr<TestLowerLayer> m_dutLlp;
    Ptr<TestLowerLayer> m_inj;
    Ptr<DdpEndpoint> m_ddp;
    Ptr<RdmapEndpoint> m_rdmap;
    Ptr<MemoryRegistry> m_registry;
    Ptr<CompletionQueue> m_cq;
    Ptr<ProtectionDomain> m_p1;
    Ptr<ProtectionDomain> m_p2;
    /** Set by Arm(): memory and the count of successful receives before the offending input. */
    std::vector<Bytes> m_before;
    std::size_t m_okBefore{0};

  private:
    void OnCapture(Ptr<Packet> p, uint64_t order);
    void OnCompletion(const RdmapCompletion& c);
    void OnEvent(const RdmapEventInfo& e);

    std::vector<Captured> m_sent;
    std::vector<RdmapCompletion> m_completions;
    std::vector<RdmapEventInfo> m_events;
    std::vector<Ptr<ByteBuffer>> m_recvBuffers;
};

/**
 * A TestCase class Cls derived from Base (a ConformanceFixture with Base's constructors) that
 * is only a DoRun(): the block after the macro. It is named at registration.
 */
#define IWARP_CONFORMANCE_CASE(Cls, Base)                                                          \
    class Cls : public Base                                                                        \
    {                                                                                              \
      public:                                                                                      \
        using Base::Base;                                                                          \
                                                                                                   \
      private:                                                                                     \
        void DoRun() override;                                                                     \
    };                                                                                             \
    void Cls::DoRun()

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_CONFORMANCE_FIXTURE_H

/*
 * Fuzz target sctp-association: a live SCTP association (model/sctp: SctpL4Protocol, SctpSocket and its state
 * machine, queues and timers) between two ns-3 nodes (test/sctp/sctp-two-node-fixture) fed raw packets under
 * ns-3's Simulator while real traffic flows. The raw octets enter SctpL4Protocol::Receive as if IP had handed
 * them up, so parsing, demultiplexing, the verification-tag checks and every chunk handler see them.
 *
 * Input: a config octet (how many client messages of background traffic, 0..31), then packets, each a control
 * octet, a record of octets and a gap (1/10 ms units) to run afterwards. Control bits: 0 = to the server (else
 * the client), 1 = put the association's ports in, 2 = put the receiver's verification tag in, 3 = stamp the
 * CRC32c (without 1-3 most packets are out of the blue or dropped, which is tested too).
 *
 * Invariants beyond "no crash":
 *  - each end reports at most one close (normal or error) and the client at most one connect outcome;
 *  - once an end is Closed it stays Closed (no state after Closed in its State trace);
 *  - an end never receives more message octets than the other end sent plus all injected octets;
 *  - the simulation ends: every timer chain stops by itself (the run is bounded by simulated time, and
 *    libFuzzer's -timeout catches a hang).
 */
#include "fuzz-common.h"
#include "sctp/sctp-two-node-fixture.h"

#include "sctp/sctp-packet.h"

using namespace ns3;
using namespace ns3::fuzz;
using namespace ns3::iwarptest;

namespace
{

uint64_t
Octets(const std::vector<SctpTestMessage>& messages)
{
    uint64_t n = 0;
    for (const SctpTestMessage& m : messages)
    {
        n += m.data.size();
    }
    return n;
}

void
CheckEnd(const SctpEndLog& log, const char* who)
{
    FUZZ_CHECK(log.normalClose + log.errorClose <= 1, std::string(who) + " reported more than one close");
    bool closed = false;
    for (SctpState s : log.states)
    {
        FUZZ_CHECK(!closed, std::string(who) + " left the Closed state");
        closed = s == SctpState::Closed;
    }
}

void
PutU16At(Bytes& b, size_t at, uint16_t v)
{
    if (b.size() >= at + 2)
    {
        b[at] = uint8_t(v >> 8);
        b[at + 1] = uint8_t(v);
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Init();
    Reader in(data, size);
    const uint8_t config = in.U8();
    SctpTwoNodeFixture f({});
    f.Start();
    Simulator::Stop(MilliSeconds(50)); // the handshake takes two round trips of ~10 ms
    Simulator::Run();
    if (config & 31)
    {
        f.QueueMessages(true, config & 31, 2000, 2, config);
    }

    uint64_t injected = 0;
    while (!in.Empty())
    {
        const uint8_t ctl = in.U8();
        Bytes raw = in.Record();
        const uint32_t to = (ctl & 1) ? 1 : 0;
        Ptr<SctpSocket> receiver = to == 1 ? f.server : f.client;
        if ((ctl & 2) && f.client)
        {
            Address local;
            f.client->GetSockName(local);
            const uint16_t clientPort = InetSocketAddress::ConvertFrom(local).GetPort();
            PutU16At(raw, 0, to == 1 ? clientPort : 5000);
            PutU16At(raw, 2, to == 1 ? 5000 : clientPort);
        }
        if ((ctl & 4) && receiver && raw.size() >= 8)
        {
            const uint32_t tag = receiver->GetLocalVerificationTag();
            PutU16At(raw, 4, uint16_t(tag >> 16));
            PutU16At(raw, 6, uint16_t(tag));
        }
        if ((ctl & 8) && raw.size() >= SctpCommonHeader::kSize)
        {
            SctpPacket::StampChecksum(raw.data(), raw.size());
        }
        injected += raw.size();
        Ipv4Header h;
        h.SetSource(f.Addr(1 - to));
        h.SetDestination(f.Addr(to));
        h.SetProtocol(SctpL4Protocol::PROT_NUMBER);
        f.L4(to)->Receive(Create<Packet>(raw.data(), uint32_t(raw.size())), h, nullptr);
        Simulator::Stop(MicroSeconds(100 * (1 + in.U8())));
        Simulator::Run();
    }
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    CheckEnd(f.clientLog, "the client");
    CheckEnd(f.serverLog, "the server");
    FUZZ_CHECK(f.clientLog.connected + f.clientLog.connectFailed <= 1, "the client's connect ended twice");
    FUZZ_CHECK(Octets(f.serverLog.received) <= Octets(f.Sent(true)) + injected,
               "the server received octets nobody sent");
    FUZZ_CHECK(Octets(f.clientLog.received) <= Octets(f.Sent(false)) + injected,
               "the client received octets nobody sent");
    return 0;
}

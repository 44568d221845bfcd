/*
 * HostModel's offloads of the sockets path (doc/host-model.md, "Offloads"): their attributes, DDIO's
 * accounting of what is still in the cache, and the core RSS or aRFS gives a connection's receive stack.
 */
#include "host/host-model.h"

#include "ns3/boolean.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

TypeId
HostModel::AddOffloadAttributes(TypeId tid)
{
    return tid
        .AddAttribute("ChecksumOffload",
                      "The NIC computes and checks TCP/IP checksums. Off: the host computes them in "
                      "software (HostCpuModel::ChecksumCyclesPerByte over each octet sent and received, "
                      "folded into the copy as Linux's csum-and-copy does: no extra bus traffic), and a "
                      "zero-copy send falls back to a copy, as Linux's does without checksum offload",
                      BooleanValue(true),
                      MakeBooleanAccessor(&HostModel::m_checksumOffload),
                      MakeBooleanChecker())
        .AddAttribute("InterruptDelay",
                      "Receive interrupt coalescing (ethtool rx-usecs): data that reaches an idle "
                      "connection is seen by the host this long after its first packet, or at once when "
                      "InterruptFrames packets have arrived; data arriving while a read is in processing or "
                      "waiting for its core is polled without one (NAPI). 0: an interrupt per arrival. At "
                      "most 1 ms",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&HostModel::m_interruptDelay),
                      MakeTimeChecker(Time(0), MilliSeconds(1)))
        .AddAttribute("InterruptFrames",
                      "Receive interrupt coalescing (ethtool rx-frames): packets of a connection that "
                      "raise the interrupt before InterruptDelay has passed (1 to 65535)",
                      UintegerValue(64),
                      MakeUintegerAccessor(&HostModel::m_interruptFrames),
                      MakeUintegerChecker<uint32_t>(1, 65535))
        .AddAttribute("DdioOctets",
                      "Direct placement of received data into the last-level cache (Intel DDIO): the "
                      "octets of cache the NIC's writes may fill (0: off, every DMA crosses the bus). A "
                      "received segment that fewer than this many octets of later NIC writes have "
                      "followed when the read that copies it is taken is read from the cache: neither its "
                      "DMA nor the copy's read crosses the memory bus; older data has been evicted and "
                      "crosses both",
                      UintegerValue(0),
                      MakeUintegerAccessor(&HostModel::m_ddioOctets),
                      MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 34))
        .AddAttribute("ReceiveQueues",
                      "Receive queues the NIC spreads connections over (RSS), queue i interrupting core i "
                      "mod Cores (0: one per core); unused with Arfs, which puts the stack on the "
                      "application's core",
                      UintegerValue(0),
                      MakeUintegerAccessor(&HostModel::m_receiveQueues),
                      MakeUintegerChecker<uint32_t>(0, 4096))
        .AddAttribute("Arfs",
                      "Accelerated receive flow steering: a connection's receive stack runs on its "
                      "application's core. Off: on the core of the receive queue RSS gives it, and the "
                      "copy to user on the application's core after it",
                      BooleanValue(true),
                      MakeBooleanAccessor(&HostModel::m_arfs),
                      MakeBooleanChecker());
}

uint64_t
HostModel::NoteNicWrite(uint64_t octets)
{
    m_nicWritten += octets;
    return m_nicWritten;
}

uint64_t
HostModel::CachedOctets(uint64_t mark, uint64_t octets) const
{
    // DDIO writes into a few ways of the cache that later NIC writes recycle, oldest first: data is
    // still there while fewer than DdioOctets octets have been written after it.
    return m_ddioOctets > 0 && m_nicWritten - mark < m_ddioOctets ? octets : 0;
}

uint32_t
HostModel::StackCore(uint32_t appCore, uint32_t flowHash) const
{
    if (m_arfs)
    {
        return appCore;
    }
    const uint32_t cores = GetCpu()->GetCores();
    const uint32_t queues = m_receiveQueues == 0 ? cores : m_receiveQueues;
    return (flowHash % queues) % cores;
}

} // namespace ns3

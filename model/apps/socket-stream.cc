#include "apps/socket-stream.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SocketStream");
NS_OBJECT_ENSURE_REGISTERED(SocketStream);


TypeId
SocketStream::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t = TypeId("ns3::SocketStream")
                       .SetParent<Application>()
                       .SetGroupName("Iwarp")
                       .AddConstructor<SocketStream>();
        AddConnectionAttributes(t, "Client (connects and sends) or Server (listens and receives)", 9101);
        t.AddAttribute("Size",
                       "Octets per message (at least the 16-octet stamp)",
                       UintegerValue(65536),
                       MakeUintegerAccessor(&SocketStream::m_size),
                       MakeUintegerChecker<uint32_t>(kStampSize))
            .AddAttribute("TotalBytes",
                          "Octets to post, rounded up to whole messages (0: no limit, Duration "
                          "ends the stream)",
                          UintegerValue(10 << 20),
                          MakeUintegerAccessor(&SocketStream::m_totalBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Duration",
                          "Stop posting this long after the first post (0: no limit)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SocketStream::m_duration),
                          MakeTimeChecker(Time(0)));
        AddHostAttributes(t);
        return t.AddTraceSource("Posted",
                                "The client posted a message (message number, octets)",
                                MakeTraceSourceAccessor(&SocketStream::m_postedTrace),
                                "ns3::SocketStream::PostedTracedCallback")
            .AddTraceSource("Delivered",
                            "A whole message reached the server's user (message number, octets, "
                            "latency from its post)",
                            MakeTraceSourceAccessor(&SocketStream::m_deliveredTrace),
                            "ns3::SocketStream::DeliveredTracedCallback")
            .AddTraceSource("FirstOctet",
                            "A message's first octets reached the server's user (the read that took its stamp "
                            "completed): message number",
                            MakeTraceSourceAccessor(&SocketStream::m_firstOctetTrace),
                            "ns3::SocketStream::FirstOctetTracedCallback")
            .AddTraceSource("PostingEnded",
                            "The client posts no more: TotalBytes or Duration reached (messages, octets)",
                            MakeTraceSourceAccessor(&SocketStream::m_postingEndedTrace),
                            "ns3::SocketStream::PostingEndedTracedCallback");
    }();
    return tid;
}

SocketStream::SocketStream()
    : SocketApp(9101),
      m_size(65536),
      m_totalBytes(10 << 20)
{
}

DataRate
SocketStream::GetThroughput() const
{
    if (m_deliveredBytes == 0 || m_lastDelivery <= m_firstPost)
    {
        return DataRate(0);
    }
    return DataRate(uint64_t(double(m_deliveredBytes) * 8.0 / (m_lastDelivery - m_firstPost).GetSeconds()));
}

void
SocketStream::StopApplication()
{
    m_running = false;
    if (m_socket && !m_closed)
    {
        m_closed = true;
        m_socket->Close();
    }
}

void
SocketStream::OnConnectFailed(Ptr<Socket> /*s*/)
{
    NS_LOG_WARN("SocketStream: connection to " << m_remote << " failed");
}

void
SocketStream::ClientConnected()
{
    m_path->SetSendIdleCallback(MakeCallback(&SocketStream::PostMessages, this));
    m_start = Simulator::Now();
    PostMessages();
}

bool
SocketStream::MorePosts() const
{
    if (!m_running)
    {
        return false;
    }
    if (m_totalBytes > 0 && m_postedBytes >= m_totalBytes)
    {
        return false;
    }
    return m_duration.IsZero() || Simulator::Now() - m_start < m_duration;
}

void
SocketStream::PostMessages()
{
    // One message in send() at a time: the next is posted when the last is in the socket.
    while (m_path->IsSendIdle() && MorePosts())
    {
        const uint64_t k = m_posted++;
        m_postedBytes += m_size;
        m_postedTrace(k, m_size);
        m_path->SendMessage(MessageStamp::MakeMessage(uint32_t(k), m_size, Simulator::Now()));
    }
    if (m_path->IsSendIdle() && !MorePosts() && !m_closed)
    {
        m_closed = true;
        m_postingEndedTrace(m_posted, m_postedBytes);
        m_socket->Close(); // TCP sends its FIN once the buffer has drained
    }
}

void
SocketStream::ServerAccepted(Socket* key, Ptr<SocketHostPath> path)
{
    m_conns[key].path = path;
    path->SetDeliverCallback(MakeCallback(&SocketStream::OnDeliver, this, key));
}

void
SocketStream::OnDeliver(Socket* key, Ptr<Packet> chunk)
{
    const Time now = Simulator::Now();
    m_deliveredBytes += chunk->GetSize();
    m_lastDelivery = now;
    m_conns.at(key).reader.Consume(
        chunk,
        [this, now](const MessageStamp& m) {
            m_firstPost = std::min(m_firstPost, m.posted);
            m_latencies.push_back(now - m.posted);
            m_deliveredTrace(m.number, m.size, now - m.posted);
        },
        [this](const MessageStamp& m) { m_firstOctetTrace(m.number); });
}

} // namespace ns3

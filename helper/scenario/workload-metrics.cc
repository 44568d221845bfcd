#include "helper/scenario/workload-metrics.h"

namespace ns3
{

void
SummarizeMessages(const std::vector<MessageRecord>& messages, const WorkloadMetricsInput& in, WorkloadResult& out)
{
    std::vector<double> fct;
    std::vector<double> senderCompletion;
    uint64_t windowOctets = 0;
    for (const MessageRecord& m : messages)
    {
        ++out.messagesPosted;
        out.octetsPosted += m.size;
        out.firstPost = out.firstPost ? std::min(*out.firstPost, m.post) : m.post;
        if (m.completed && !m.failed)
        {
            ++out.messagesCompleted;
            senderCompletion.push_back(double((*m.completed - m.post).GetNanoSeconds()));
        }
        switch (m.Status())
        {
        case MessageStatus::Delivered:
            ++out.messagesDelivered;
            out.octetsDelivered += m.size;
            out.lastDelivery = out.lastDelivery ? std::max(*out.lastDelivery, *m.delivered) : *m.delivered;
            fct.push_back(double(m.Fct()->GetNanoSeconds()));
            if (in.window && *m.delivered >= in.window->first && *m.delivered < in.window->second)
            {
                windowOctets += m.size;
            }
            break;
        case MessageStatus::Flushed:
            ++out.messagesFlushed;
            break;
        case MessageStatus::Outstanding:
            ++out.messagesOutstanding;
            break;
        case MessageStatus::Injected:
            break;
        }
    }
    out.fctNs = ComputeStats(fct);
    out.senderCompletionNs = ComputeStats(senderCompletion);
    out.pingPong = in.pingPong;
    if (in.pingPong)
    {
        for (const auto& [size, samples] : in.halfRttNs)
        {
            out.latencyBySize.push_back(SizeLatency{size, ComputeStats(samples)});
        }
    }
    else if (out.octetsDelivered > 0 && out.lastDelivery && *out.lastDelivery > *out.firstPost)
    {
        out.goodputBps = double(out.octetsDelivered) * 8.0 / (*out.lastDelivery - *out.firstPost).GetSeconds();
    }
    if (in.window && !in.pingPong)
    {
        out.goodputWindowBps = double(windowOctets) * 8.0 / (in.window->second - in.window->first).GetSeconds();
    }
    const bool injected = !messages.empty() && messages.front().op == "inject";
    if (injected)
    {
        out.completed = messages.front().completed.has_value();
    }
    else if (in.expectedMessages)
    {
        // Ping-pong: every round trip came back; the others: every message reached the sink.
        const uint64_t done = in.pingPong ? out.messagesCompleted : out.messagesDelivered;
        out.completed = done == *in.expectedMessages;
    }
    else
    {
        out.completed = in.postingEnded && out.messagesDelivered == out.messagesPosted;
    }
}

} // namespace ns3

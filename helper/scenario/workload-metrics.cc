#include "helper/scenario/workload-metrics.h"

#include "helper/scenario/slowdown.h"

#include <algorithm>

namespace ns3
{

std::pair<Time, Time>
ArrivalSpan(const MessageRecord& m, Time previous)
{
    const Time end = *m.delivered;
    return {std::min(end, m.firstPlaced ? *m.firstPlaced : std::max(m.post, previous)), end};
}

std::vector<double>
OctetsPerInterval(const std::vector<MessageRecord>& messages, const std::vector<Time>& ends)
{
    std::vector<double> octets(ends.size(), 0.0);
    std::map<std::string, Time> previousDelivery; // per sender, as SummarizeMessages keeps it
    for (const MessageRecord& m : messages)
    {
        if (m.Status() != MessageStatus::Delivered)
        {
            continue;
        }
        const auto [start, end] = ArrivalSpan(m, previousDelivery[m.sender]);
        previousDelivery[m.sender] = end;
        // The first interval that ends after the span starts (at its end, for an instant arrival).
        std::size_t k = std::upper_bound(ends.begin(), ends.end(), start) - ends.begin();
        if (end == start)
        {
            if (k < ends.size())
            {
                octets[k] += double(m.size);
            }
            continue;
        }
        for (Time from = start; k < ends.size() && from < end; ++k)
        {
            const Time to = std::min(end, ends[k]);
            octets[k] += double(m.size) * (to - from).GetSeconds() / (end - start).GetSeconds();
            from = to;
        }
    }
    return octets;
}

namespace
{
/** One flow's longest time without a delivery in [from, to), counted from `from`; whether a delivery ended it. */
std::pair<Time, bool>
LongestGap(const std::vector<const MessageRecord*>& flow, Time from, Time to)
{
    std::vector<Time> deliveries;
    bool outstandingAtEnd = false;
    for (const MessageRecord* m : flow)
    {
        if (m->delivered && *m->delivered >= from && *m->delivered < to)
        {
            deliveries.push_back(*m->delivered);
        }
        outstandingAtEnd |= m->post < to && (!m->delivered || *m->delivered >= to) && !m->failed;
    }
    std::sort(deliveries.begin(), deliveries.end());
    Time previous = from;
    Time longest;
    for (const Time& d : deliveries)
    {
        longest = std::max(longest, d - previous);
        previous = d;
    }
    if (outstandingAtEnd && to - previous > longest)
    {
        return {to - previous, false}; // still waiting when the window closed
    }
    return {longest, true};
}
} // namespace

std::vector<Outage>
Outages(const std::vector<MessageRecord>& messages, const std::vector<Time>& failures, Time end)
{
    std::map<std::pair<std::string, std::string>, std::vector<const MessageRecord*>> flows;
    for (const MessageRecord& m : messages)
    {
        if (m.Status() != MessageStatus::Injected)
        {
            flows[{m.sender, m.receiver}].push_back(&m);
        }
    }
    std::vector<Outage> out;
    for (std::size_t i = 0; i < failures.size(); ++i)
    {
        Outage o{failures[i]};
        // The window ends at the next failure after this one (one at the same instant shares the window).
        const auto next = std::upper_bound(failures.begin(), failures.end(), o.at);
        const Time to = next != failures.end() ? *next : end;
        for (const auto& [key, flow] : flows)
        {
            // A flow sees the failure when it has a message outstanding at it (an idle one does not).
            const bool active = std::any_of(flow.begin(), flow.end(), [&o](const MessageRecord* m) {
                return m->post < o.at && (!m->delivered || *m->delivered >= o.at) && !m->failed;
            });
            if (!active)
            {
                continue;
            }
            ++o.flows;
            const auto [gap, recovered] = LongestGap(flow, o.at, std::max(to, o.at));
            if (!o.longest || gap > *o.longest)
            {
                o.longest = gap;
                o.recovered = recovered;
            }
        }
        out.push_back(o);
    }
    return out;
}

Time
LongestStall(const std::vector<MessageRecord>& messages, Time end)
{
    // Each message is outstanding from its post to its delivery (its flush, or `end`) and arriving over
    // its ArrivalSpan; a sweep over those edges in time order keeps both counts.
    struct Edge
    {
        Time at;
        int outstanding;
        int arriving;
    };
    std::vector<Edge> edges;
    std::map<std::string, Time> previousDelivery; // per sender, as SummarizeMessages keeps it
    for (const MessageRecord& m : messages)
    {
        Time until = end;
        switch (m.Status())
        {
        case MessageStatus::Injected:
            continue;
        case MessageStatus::Delivered: {
            const auto [from, to] = ArrivalSpan(m, previousDelivery[m.sender]);
            previousDelivery[m.sender] = to;
            until = to;
            edges.push_back({from, 0, 1});
            edges.push_back({to, 0, -1});
            break;
        }
        case MessageStatus::Flushed:
            until = m.completed ? *m.completed : end;
            break;
        case MessageStatus::Outstanding:
            break;
        }
        edges.push_back({m.post, 1, 0});
        edges.push_back({std::max(m.post, until), -1, 0});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.at < b.at; });
    Time longest;
    Time stretch; // the stall that runs up to the edge before edges[i]
    int outstanding = 0;
    int arriving = 0;
    for (std::size_t i = 0; i < edges.size(); ++i)
    {
        if (i > 0 && edges[i].at > edges[i - 1].at)
        {
            const Time span = edges[i].at - edges[i - 1].at;
            stretch = outstanding > 0 && arriving == 0 ? stretch + span : Time(0);
            longest = std::max(longest, stretch);
        }
        outstanding += edges[i].outstanding;
        arriving += edges[i].arriving;
        if (edges[i].arriving > 0)
        {
            // Octets arrived: the stall so far ends, even for a message placed in one instant (a
            // single-segment message's span has no length, and its edges cancel at that instant).
            stretch = Time(0);
        }
    }
    return longest;
}

namespace
{

/** The share of a delivered message's octets that arrived within `window` (ArrivalSpan). */
double
OctetsInWindow(const MessageRecord& m, Time previous, const std::pair<Time, Time>& window)
{
    const auto [start, end] = ArrivalSpan(m, previous);
    if (end == start)
    {
        return end >= window.first && end < window.second ? double(m.size) : 0.0;
    }
    const Time from = std::max(start, window.first);
    const Time to = std::min(end, window.second);
    return to > from ? double(m.size) * (to - from).GetSeconds() / (end - start).GetSeconds() : 0.0;
}

} // namespace

void
SummarizeMessages(const std::vector<MessageRecord>& messages, const WorkloadMetricsInput& in, WorkloadResult& out)
{
    std::vector<double> fct;
    std::vector<double> senderCompletion;
    double windowOctets = 0;
    std::map<std::string, Time> previousDelivery; // per sender: where the next message's data starts
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
            if (in.window)
            {
                windowOctets += OctetsInWindow(m, previousDelivery[m.sender], *in.window);
            }
            previousDelivery[m.sender] = *m.delivered;
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
    if (!in.pingPong && !messages.empty() && messages.front().op != "inject")
    {
        out.longestStall = LongestStall(messages, in.end);
    }
    if (in.slowdown)
    {
        out.slowdown = SlowdownBuckets(messages);
    }
    out.outages = Outages(messages, in.failures, in.end);
    if (in.window && !in.pingPong)
    {
        out.goodputWindowBps = windowOctets * 8.0 / (in.window->second - in.window->first).GetSeconds();
    }
    WorkloadProgress progress;
    progress.injected = !messages.empty() && messages.front().op == "inject";
    progress.posted = out.messagesPosted;
    progress.delivered = out.messagesDelivered;
    // An injection counts as handed over once the LLP took it, whatever the peer made of it.
    progress.completed = progress.injected ? (messages.front().completed ? 1 : 0) : out.messagesCompleted;
    out.completed = WorkloadCompleted(in, progress);
}

bool
WorkloadCompleted(const WorkloadMetricsInput& in, const WorkloadProgress& p)
{
    if (p.injected)
    {
        return p.completed > 0;
    }
    if (in.expectedMessages)
    {
        // Ping-pong: every round trip came back; the others: every message reached the sink.
        return (in.pingPong ? p.completed : p.delivered) == *in.expectedMessages;
    }
    return in.postingEnded && p.delivered == p.posted;
}

} // namespace ns3

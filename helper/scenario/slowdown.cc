#include "helper/scenario/slowdown.h"

#include "helper/scenario/stats.h"

#include <algorithm>
#include <map>

namespace ns3
{

std::vector<SlowdownBucket>
SlowdownBuckets(const std::vector<MessageRecord>& messages)
{
    struct Samples
    {
        SlowdownBucket bucket;
        std::vector<double> slowdowns;
        std::vector<double> fctNs;
    };
    std::map<uint64_t, Samples> byFloor; // by the bucket's smallest size, a power of ten
    for (const MessageRecord& m : messages)
    {
        uint64_t floor = 1;
        while (m.size / floor >= 10)
        {
            floor *= 10;
        }
        Samples& s = byFloor[floor];
        s.bucket.minOctets = floor;
        s.bucket.maxOctets = floor * 10;
        ++s.bucket.flows;
        const std::optional<Time> fct = m.Fct();
        if (!fct || !m.idealFct || !m.idealFct->IsStrictlyPositive())
        {
            ++s.bucket.notCompleted; // never delivered, or its connection never came up
            continue;
        }
        s.slowdowns.push_back(fct->GetSeconds() / m.idealFct->GetSeconds());
        s.fctNs.push_back(double(fct->GetNanoSeconds()));
    }
    std::vector<SlowdownBucket> out;
    for (auto& [floor, s] : byFloor)
    {
        if (!s.slowdowns.empty())
        {
            std::sort(s.slowdowns.begin(), s.slowdowns.end());
            s.bucket.p50 = NearestRankPercentile(s.slowdowns, 50);
            s.bucket.p95 = NearestRankPercentile(s.slowdowns, 95);
            s.bucket.p99 = NearestRankPercentile(s.slowdowns, 99);
            s.bucket.p999 = NearestRankPercentile(s.slowdowns, 99.9);
            std::sort(s.fctNs.begin(), s.fctNs.end());
            s.bucket.fctP50Ns = NearestRankPercentile(s.fctNs, 50);
            s.bucket.fctP99Ns = NearestRankPercentile(s.fctNs, 99);
        }
        out.push_back(s.bucket);
    }
    return out;
}

} // namespace ns3

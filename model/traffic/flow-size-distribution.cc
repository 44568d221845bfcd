#include "traffic/flow-size-distribution.h"

#include "traffic/built-in-flow-sizes.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace
{

/** Why `points` is no CDF of flow sizes, or "" when it is one; `at` gets the index of the point at fault. */
std::string
Problem(const std::vector<FlowSizePoint>& points, std::size_t& at)
{
    at = 0;
    if (points.size() < 2)
    {
        return "a distribution needs at least two points (the first at fraction 0, the last at 1)";
    }
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        at = i;
        const FlowSizePoint& p = points[i];
        if (!std::isfinite(p.octets) || p.octets < 0)
        {
            return "a size is a number of octets, at least 0";
        }
        if (!std::isfinite(p.fraction) || p.fraction < 0 || p.fraction > 1)
        {
            return "a cumulative fraction is in [0, 1] (or a percentage, when the last is 100)";
        }
        if (i > 0 && (p.octets <= points[i - 1].octets || p.fraction < points[i - 1].fraction))
        {
            return "sizes must increase and fractions must not decrease from one point to the next";
        }
    }
    if (points.front().fraction != 0)
    {
        at = 0;
        return "the first point's fraction must be 0 (no flow is smaller than its size)";
    }
    if (points.back().fraction != 1)
    {
        at = points.size() - 1;
        return "the last point's fraction must be 1 (no flow is larger than its size)";
    }
    if (points.back().octets < 1)
    {
        at = points.size() - 1;
        return "the largest size must be at least one octet";
    }
    return "";
}

} // namespace

FlowSizeDistribution::FlowSizeDistribution(std::string name, std::string source, std::vector<FlowSizePoint> points)
    : m_name(std::move(name)),
      m_source(std::move(source)),
      m_points(std::move(points))
{
    std::size_t at = 0;
    const std::string why = Problem(m_points, at);
    if (!why.empty())
    {
        throw std::invalid_argument(m_name + ": point " + std::to_string(at + 1) + ": " + why);
    }
}

FlowSizeDistribution
FlowSizeDistribution::Parse(const std::string& text, const std::string& name, const std::string& source)
{
    std::vector<FlowSizePoint> points;
    std::vector<std::size_t> lines; // the line of each point, for the errors
    std::istringstream in(text);
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number)
    {
        const std::string content = line.substr(0, line.find('#'));
        std::istringstream fields(content);
        FlowSizePoint p{};
        std::string extra;
        if (!(fields >> std::ws).good() || fields.peek() == EOF)
        {
            continue; // empty or a comment
        }
        if (!(fields >> p.octets >> p.fraction) || (fields >> extra))
        {
            throw std::invalid_argument(name + ":" + std::to_string(number) +
                                        ": expected \"<size in octets> <cumulative fraction>\", got \"" + content +
                                        "\"");
        }
        points.push_back(p);
        lines.push_back(number);
    }
    if (!points.empty() && points.back().fraction == 100)
    {
        for (FlowSizePoint& p : points)
        {
            p.fraction /= 100; // percentages, as HPCC's files give them
        }
    }
    std::size_t at = 0;
    const std::string why = Problem(points, at);
    if (!why.empty())
    {
        throw std::invalid_argument(name + ":" + (lines.empty() ? std::string("1") : std::to_string(lines[at])) +
                                    ": " + why);
    }
    return FlowSizeDistribution(name, source, points);
}

double
FlowSizeDistribution::MeanOctets() const
{
    // Linear between the points: each stretch holds its share of the flows, spread evenly over its sizes.
    double mean = 0;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const FlowSizePoint& a = m_points[i - 1];
        const FlowSizePoint& b = m_points[i];
        mean += (b.fraction - a.fraction) * (a.octets + b.octets) / 2;
    }
    return mean;
}

double
FlowSizeDistribution::Quantile(double p) const
{
    if (!(p >= 0 && p <= 1))
    {
        throw std::invalid_argument(m_name + ": a quantile is taken at a fraction in [0, 1]");
    }
    const auto above = std::find_if(m_points.begin(), m_points.end(),
                                    [p](const FlowSizePoint& q) { return q.fraction >= p; });
    if (above == m_points.begin())
    {
        return above->octets;
    }
    const FlowSizePoint& a = *(above - 1);
    const FlowSizePoint& b = *above;
    return a.octets + (b.octets - a.octets) * (p - a.fraction) / (b.fraction - a.fraction);
}

double
FlowSizeDistribution::CumulativeFraction(double octets) const
{
    const auto above = std::find_if(m_points.begin(), m_points.end(),
                                    [octets](const FlowSizePoint& q) { return q.octets >= octets; });
    if (above == m_points.end())
    {
        return 1;
    }
    if (above == m_points.begin())
    {
        return octets < above->octets ? 0 : above->fraction;
    }
    const FlowSizePoint& a = *(above - 1);
    const FlowSizePoint& b = *above;
    return a.fraction + (b.fraction - a.fraction) * (octets - a.octets) / (b.octets - a.octets);
}

Ptr<EmpiricalRandomVariable>
FlowSizeDistribution::MakeSampler(int64_t stream) const
{
    Ptr<EmpiricalRandomVariable> v = CreateObject<EmpiricalRandomVariable>();
    v->SetInterpolate(true);
    for (const FlowSizePoint& p : m_points)
    {
        v->CDF(p.octets, p.fraction);
    }
    v->SetStream(stream);
    return v;
}

uint64_t
FlowSizeDistribution::Draw(const Ptr<EmpiricalRandomVariable>& sampler)
{
    return std::max<uint64_t>(1, uint64_t(std::llround(sampler->Interpolate())));
}

const std::vector<FlowSizeDistribution>&
BuiltInFlowSizeDistributions()
{
    static const std::vector<FlowSizeDistribution> all = {WebSearchFlowSizes(), DataMiningFlowSizes(),
                                                          HadoopFlowSizes()};
    return all;
}

const FlowSizeDistribution*
FindBuiltInFlowSizeDistribution(const std::string& name)
{
    for (const FlowSizeDistribution& d : BuiltInFlowSizeDistributions())
    {
        if (d.Name() == name)
        {
            return &d;
        }
    }
    return nullptr;
}

} // namespace ns3

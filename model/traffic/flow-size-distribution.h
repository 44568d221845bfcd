/*
 * FlowSizeDistribution: the sizes of the flows of a data-center load, as the literature publishes them: a
 * cumulative distribution given at a few points, linear between them (the convention of the traffic
 * generators that carry these distributions, HPCC's and HKUST's among them). Built in are three published ones
 * (BuiltInFlowSizeDistributions, one file each with its source); others are read from a text file of points.
 *
 * A file has one point per line, "<size in octets> <cumulative fraction>", in increasing order of both, the
 * first fraction 0 and the last 1 (a fraction may instead be a percentage when the file's last one is 100);
 * '#' starts a comment. Parse refuses anything else with the line at fault.
 *
 * Draws come from ns-3's EmpiricalRandomVariable (MakeSampler), linear between the points (its Interpolate),
 * on a stream the caller assigns, so that a seed gives the same flows; a draw is rounded to whole octets and
 * is at least one.
 */
/**
 * \file
 * \ingroup iwarp-traffic
 */
#ifndef IWARP_FLOW_SIZE_DISTRIBUTION_H
#define IWARP_FLOW_SIZE_DISTRIBUTION_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** One point of a flow-size CDF: the fraction of flows of at most `octets`. */
struct FlowSizePoint
{
    double octets;
    double fraction;
};

class FlowSizeDistribution
{
  public:
    /** `points` as Parse checks them; throws std::invalid_argument naming `name` otherwise. */
    FlowSizeDistribution(std::string name, std::string source, std::vector<FlowSizePoint> points);

    /**
     * The distribution in `text` (the file format above), called `name`; `source` says where it comes from.
     * Throws std::invalid_argument: "<name>:<line>: <what is wrong>".
     */
    static FlowSizeDistribution Parse(const std::string& text, const std::string& name, const std::string& source);

    const std::string& Name() const { return m_name; }
    /** Where the points come from: the paper that measured them, and the file that carries them. */
    const std::string& Source() const { return m_source; }
    const std::vector<FlowSizePoint>& Points() const { return m_points; }

    /** The mean flow size in octets, exact for the piecewise-linear CDF. */
    double MeanOctets() const;
    /** The size at cumulative fraction `p` in [0, 1], linear between the points. */
    double Quantile(double p) const;
    /** The fraction of flows of at most `octets` (the CDF itself, linear between the points). */
    double CumulativeFraction(double octets) const;
    /** The largest size it can draw. */
    double MaxOctets() const { return m_points.back().octets; }

    /** A sampler of its sizes, on `stream` (ns-3's RandomVariableStream::SetStream); draw with Draw. */
    Ptr<EmpiricalRandomVariable> MakeSampler(int64_t stream) const;
    /** One draw of `sampler` as a flow size: rounded to whole octets, at least one. */
    static uint64_t Draw(const Ptr<EmpiricalRandomVariable>& sampler);

  private:
    std::string m_name;
    std::string m_source;
    std::vector<FlowSizePoint> m_points;
};

/** The built-in distributions, each with its source: web-search, data-mining, hadoop. */
const std::vector<FlowSizeDistribution>& BuiltInFlowSizeDistributions();
/** The built-in distribution called `name`, or null. */
const FlowSizeDistribution* FindBuiltInFlowSizeDistribution(const std::string& name);

} // namespace ns3

#endif // IWARP_FLOW_SIZE_DISTRIBUTION_H

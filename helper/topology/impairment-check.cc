/*
 * CheckImpairment: the rules an impairment obeys, stated once. The scenario reader calls it on
 * every link entry it reads and the topology builder on every spec it is given, so a scenario and
 * a spec written in C++ are refused for the same reasons.
 */
#include "helper/topology/topology-spec.h"

#include <sstream>

namespace ns3
{
namespace
{

std::optional<ImpairmentProblem>
OutsideUnitRange(double v, const std::string& field)
{
    if (v >= 0.0 && v <= 1.0) // written so that NaN fails too
    {
        return std::nullopt;
    }
    std::ostringstream m;
    m << field << " must be in [0, 1] (got " << v << ")";
    return ImpairmentProblem{ImpairmentProblem::Rule::NotProbability, field, m.str()};
}

} // namespace

std::optional<ImpairmentProblem>
CheckImpairment(const ImpairmentSpec& imp)
{
    std::vector<std::pair<double, std::string>> probabilities;
    if (imp.loss)
    {
        probabilities.emplace_back(*imp.loss, "loss");
    }
    if (const auto& ge = imp.gilbertElliott)
    {
        probabilities.insert(probabilities.end(), {{ge->p, "gilbert-elliott.p"},
                                                   {ge->r, "gilbert-elliott.r"},
                                                   {ge->lossGood, "gilbert-elliott.loss-good"},
                                                   {ge->lossBad, "gilbert-elliott.loss-bad"}});
    }
    if (imp.reorder)
    {
        probabilities.emplace_back(imp.reorder->fraction, "reorder.fraction");
    }
    for (const auto& [value, field] : probabilities)
    {
        if (auto problem = OutsideUnitRange(value, field))
        {
            return problem;
        }
    }
    // ns-3's Time::IsNegative() holds for zero as well; a zero delay is allowed (it reorders nothing).
    if (imp.reorder && imp.reorder->delay.IsStrictlyNegative())
    {
        return ImpairmentProblem{ImpairmentProblem::Rule::NegativeDelay, "reorder.delay",
                                 "reorder.delay must not be negative"};
    }
    // The builder models independent loss as a Gilbert-Elliott chain that never leaves its good
    // state: one link has one chain, so the two cannot add up.
    if (imp.gilbertElliott && imp.loss.value_or(0.0) > 0.0)
    {
        return ImpairmentProblem{ImpairmentProblem::Rule::TwoLossModels, "loss",
                                 "loss and gilbert-elliott on one link; give the loss outside the "
                                 "bursts as gilbert-elliott.loss-good"};
    }
    return std::nullopt;
}

} // namespace ns3

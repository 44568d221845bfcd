/*
 * The scenario reader's impairment keys (loss, gilbert-elliott, reorder) on `links`, the dumbbell's
 * bottleneck and per-link entries. The rules they obey are CheckImpairment's (topology-spec.h), the
 * ones the TopologyBuilder applies to a spec built in code; this file only places a broken rule
 * at the key that broke it, with the file's line and column.
 */
#include "helper/scenario/scenario-network.h"
#include "helper/scenario/scenario-reader.h"
#include "helper/scenario/sections/scenario-sections.h"

#include <sstream>

namespace ns3
{
namespace scenario
{
namespace
{

std::string
NumberText(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

/** The node at a dotted key path below `n` ("gilbert-elliott.p"); const lookups leave the tree as is. */
YAML::Node
NodeAt(const YAML::Node& n, const std::string& dotted)
{
    const std::size_t dot = dotted.find('.');
    if (dot == std::string::npos)
    {
        return n[dotted];
    }
    return NodeAt(n[dotted.substr(0, dot)], dotted.substr(dot + 1));
}

constexpr const char* kOneLossModel =
    "a link has one loss model (give the loss outside the bursts as gilbert-elliott's loss-good)";
constexpr const char* kOneLossModelHere =
    "a link has one loss model: set loss: 0 on this link (and give the loss outside the bursts as "
    "gilbert-elliott's loss-good)";

} // namespace

ImpairmentSpec
ScenarioReader::ReadImpairment(const YAML::Node& n, const std::string& path) const
{
    const SchemaNode& linkSchema = LinkNode();
    ImpairmentSpec imp;
    if (n["loss"])
    {
        imp.loss = ProbabilityNumber(n["loss"], Join(path, "loss"));
    }
    if (const YAML::Node g = n["gilbert-elliott"])
    {
        const std::string p = Join(path, "gilbert-elliott");
        CheckKeys(g, p, *linkSchema.fields.at("gilbert-elliott"));
        GilbertElliottSpec ge;
        ge.p = ProbabilityNumber(Required(g, p, "p"), Join(p, "p"));
        ge.r = ProbabilityNumber(Required(g, p, "r"), Join(p, "r"));
        if (g["loss-good"])
        {
            ge.lossGood = ProbabilityNumber(g["loss-good"], Join(p, "loss-good"));
        }
        if (g["loss-bad"])
        {
            ge.lossBad = ProbabilityNumber(g["loss-bad"], Join(p, "loss-bad"));
        }
        imp.gilbertElliott = ge;
    }
    if (const YAML::Node r = n["reorder"])
    {
        const std::string p = Join(path, "reorder");
        CheckKeys(r, p, *linkSchema.fields.at("reorder"));
        imp.reorder = ReorderSpec{ProbabilityNumber(Required(r, p, "fraction"), Join(p, "fraction")),
                                  TimeOf(Required(r, p, "delay"), Join(p, "delay"), Quantity::Propagation)};
    }
    const std::optional<ImpairmentProblem> problem = CheckImpairment(imp);
    // Two loss models may meet only once `links` is overlaid, and the message then says which
    // entry brought which: CheckImpairments reports that rule, after every link entry is read.
    if (problem && problem->rule != ImpairmentProblem::Rule::TwoLossModels)
    {
        const YAML::Node at = NodeAt(n, problem->field);
        const std::string where = Join(path, problem->field);
        if (problem->rule == ImpairmentProblem::Rule::NotProbability)
        {
            FailNotProbability(at, where);
        }
        Fail(at, where, problem->message);
    }
    return imp;
}

void
ScenarioReader::CheckImpairments(const YAML::Node& root, const ScenarioConfig& cfg) const
{
    // A per-link entry (or the bottleneck) takes the parts it does not set from `links`; the
    // entry that sets loss or gilbert-elliott itself is the one at fault.
    auto check = [&](const YAML::Node& entry,
                     const std::string& path,
                     const ImpairmentSpec& own,
                     const ImpairmentSpec& inherited) {
        const ImpairmentSpec effective = Overlay(inherited, own);
        const std::optional<ImpairmentProblem> problem = CheckImpairment(effective);
        if (!problem || problem->rule != ImpairmentProblem::Rule::TwoLossModels ||
            (!own.loss && !own.gilbertElliott))
        {
            return; // no conflict (other rules: ReadImpairment), or one `links` itself has (reported there)
        }
        if (own.loss && own.gilbertElliott)
        {
            // Point at the one an override set, if any: that is the change that made the conflict.
            const char* key = m_overrides.count(Join(path, "loss")) ? "loss" : "gilbert-elliott";
            Fail(entry[key], Join(path, key), "loss and gilbert-elliott on one link; " + std::string(kOneLossModel));
        }
        if (own.gilbertElliott)
        {
            Fail(entry["gilbert-elliott"], Join(path, "gilbert-elliott"),
                 "gilbert-elliott on a link that also takes loss " + NumberText(*effective.loss) + " from 'links'; " +
                     kOneLossModelHere);
        }
        Fail(entry["loss"], Join(path, "loss"),
             "loss on a link that also takes gilbert-elliott from 'links'; " + std::string(kOneLossModel));
    };
    check(root["links"], "links", cfg.links.impairment, ImpairmentSpec{});
    if (cfg.topology.kind == TopologyKind::Dumbbell)
    {
        check(root["topology"]["bottleneck"], "topology.bottleneck", cfg.topology.bottleneck.impairment,
              cfg.links.impairment);
    }
    for (std::size_t i = 0; i < cfg.perLink.size(); ++i)
    {
        check(root["per-link"][i], Join("per-link", std::to_string(i)), cfg.perLink[i].link.impairment,
              cfg.links.impairment);
    }
}

} // namespace scenario
} // namespace ns3

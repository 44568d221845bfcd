/*
 * `events`: timed actions on links and nodes (doc/failures.md). Each entry's keys are declared here; the reader
 * (ScenarioReader::ReadEvents, scenario-reader-events.cc) reads them and checks the link, the time, that each
 * link goes down before it comes up, and that a link-change changes something and only a link-change does.
 */
#include "helper/scenario/sections/scenario-sections.h"

namespace ns3
{
namespace scenario
{

const Names<LinkEventAction>&
LinkEventActionNames()
{
    static const Names<LinkEventAction> names{{"link-down", LinkEventAction::Down},
                                              {"link-up", LinkEventAction::Up},
                                              {"node-down", LinkEventAction::NodeDown},
                                              {"node-up", LinkEventAction::NodeUp},
                                              {"link-change", LinkEventAction::Change}};
    return names;
}

const Names<LinkDirection>&
LinkDirectionNames()
{
    static const Names<LinkDirection> names{{"both", LinkDirection::Both}, {"forward", LinkDirection::Forward}};
    return names;
}

const std::vector<SectionKey<LinkEventConfig>>&
EventKeys()
{
    static const std::vector<SectionKey<LinkEventConfig>> keys = [] {
        using K = SectionKey<LinkEventConfig>;
        KeyInfo between = Facts(ValueKind::Link, "`[node, node]`", "link events: **required**",
                                "the link's two endpoints, which must share a link (every link between them)");
        KeyInfo loss = Facts(ValueKind::Number, "prob", "",
                             "link-change: independent loss at each named way's receiving end, in place of the "
                             "link's loss model (0: none)");
        loss.defaultText = "unchanged";
        loss.minimum = 0;
        loss.maximum = 1;
        KeyInfo queue = Facts(ValueKind::Queue, "queue, or `unlimited`", "",
                              "link-change: each named way's sending port's limit (its queue disc's, else its device "
                              "queue's); packets over a smaller limit stay, arrivals drop until it is met");
        queue.defaultText = "unchanged";
        queue.choices = {"unlimited"};
        return std::vector<K>{
            TimeKey("at", &LinkEventConfig::at, Quantity::RunTime, false, "when: before `stop`").Required(),
            ChoiceKey("action", &LinkEventConfig::action, LinkEventActionNames(), "event action",
                      "`link-down`: every packet that reaches the far end of the link from then on is lost (one "
                      "on the wire included), until `link-up`; `node-down`: so for every link of `node`, both "
                      "ways, until `node-up`; `link-change`: the link's `rate`, `delay`, `loss` or `queue` from "
                      "then on")
                .Required(),
            DeclaredKey<LinkEventConfig>("between", between, &ScalarListNode()),
            DeclaredKey<LinkEventConfig>("node", Facts(ValueKind::Node, "node", "node events: **required**",
                                                       "the node whose links a `node-down` or `node-up` acts on "
                                                       "(a switch or a host)")),
            ChoiceKey("direction", &LinkEventConfig::direction, LinkDirectionNames(), "link direction",
                      "`forward`: only from the first node of `between` to the second"),
            RateKey("rate", &LinkEventConfig::rateBps, Quantity::LinkRate,
                    "link-change: the rate each named way's sending port transmits at (a packet being "
                    "serialised finishes at the old rate)")
                .Default("unchanged"),
            TimeKey("delay", &LinkEventConfig::delay, Quantity::Propagation, false,
                    "link-change: the propagation delay of packets sent from then on (the channel's, so both ways; "
                    "packets on the wire keep theirs)")
                .Default("unchanged"),
            CustomKey<LinkEventConfig>("loss", loss,
                                       [](const ScenarioReader& r, const YAML::Node& v, const std::string& p,
                                          LinkEventConfig& c) { c.loss = r.Probability(v, p); }),
            CustomKey<LinkEventConfig>("queue", queue,
                                       [](const ScenarioReader& r, const YAML::Node& v, const std::string& p,
                                          LinkEventConfig& c) { c.queue = r.QueueText(v, p); })};
    }();
    return keys;
}

const SchemaNode&
EventsNode()
{
    static const SchemaNode entry = SectionNode(EventKeys(), &ScalarNode());
    static const SchemaNode list = Of(SchemaNode::Kind::List, &entry);
    return list;
}

} // namespace scenario
} // namespace ns3

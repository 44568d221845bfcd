/*
 * `events`: timed actions on links and nodes (doc/failures.md). Each entry's keys are declared here; the reader
 * (ScenarioReader::ReadEvents, scenario-reader-events.cc) reads them and checks the link, the time and
 * that each link goes down before it comes up.
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
                                              {"node-up", LinkEventAction::NodeUp}};
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
        return std::vector<K>{
            TimeKey("at", &LinkEventConfig::at, Quantity::RunTime, false, "when: before `stop`").Required(),
            ChoiceKey("action", &LinkEventConfig::action, LinkEventActionNames(), "event action",
                      "`link-down`: every packet that reaches the far end of the link from then on is lost (one "
                      "on the wire included), until `link-up`; `node-down`: so for every link of `node`, both "
                      "ways, until `node-up`")
                .Required(),
            DeclaredKey<LinkEventConfig>("between", between, &ScalarListNode()),
            DeclaredKey<LinkEventConfig>("node", Facts(ValueKind::Node, "node", "node events: **required**",
                                                       "the node whose links a `node-down` or `node-up` acts on "
                                                       "(a switch or a host)")),
            ChoiceKey("direction", &LinkEventConfig::direction, LinkDirectionNames(), "link direction",
                      "`forward`: only from the first node of `between` to the second")};
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

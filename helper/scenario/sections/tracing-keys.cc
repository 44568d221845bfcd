/*
 * `tracing` (pcaps and the time series) and `measure` (the goodput window). The pcap links, the pcap folder
 * and the series are read with the checks that need the topology and the workloads (ScenarioReader::
 * ReadTracing, scenario-reader-series.cc); `measure` is read here, its window checked against the stop time
 * by ScenarioReader::ReadMeasure.
 */
#include "helper/scenario/sections/scenario-sections.h"

namespace ns3
{
namespace scenario
{
namespace
{

std::string
SeriesQuantityWords(std::vector<std::string>& words)
{
    std::string text;
    for (const auto& [word, quantity] : SeriesQuantityNames())
    {
        words.emplace_back(word);
        text += (text.empty() ? "`" : ", `") + std::string(word) + "`";
    }
    return text;
}

const SchemaNode&
LinkListNode()
{
    static const SchemaNode n = Of(SchemaNode::Kind::List, &ScalarListNode());
    return n;
}

const SchemaNode&
SeriesNode()
{
    static const SchemaNode n = [] {
        using K = SectionKey<SeriesConfig>;
        KeyInfo interval = Facts(ValueKind::Time, "time, > 0, at most `stop`", "**required**",
                                 "a sample at the end of every interval, the last at the stop");
        interval.required = true;
        KeyInfo what = Facts(ValueKind::List, "", "goodput, cwnd, rtt and queue",
                             "per flow: goodput at the sink, the sender's congestion window and smoothed RTT, and "
                             "(`paths`) an SCTP sender's data path (0: the primary) and HEARTBEATs sent; per link "
                             "direction: packets and octets queued (`queue` gives both)");
        what.type = "list of " + SeriesQuantityWords(what.choices);
        std::vector<K> keys{
            DeclaredKey<SeriesConfig>("interval", interval),
            DeclaredKey<SeriesConfig>("what", what, &ScalarListNode()),
            DeclaredKey<SeriesConfig>(
                "flows",
                Facts(ValueKind::List, "list of workload names or indices", "every workload but inject and traffic",
                      "the flows of these workloads (one per incast sender); only with a flow quantity in `what`; "
                      "not inject, not traffic (a load of many short flows: sample its links' queues); a "
                      "ping-pong needs `cwnd` or `rtt` (it has no goodput)"),
                &ScalarListNode()),
            DeclaredKey<SeriesConfig>(
                "links",
                Facts(ValueKind::List, "list of `[node, node]` links", "every link, when `queue` is sampled",
                      "both directions of each; each pair must share a link, once; only with `queue` in `what`"),
                &LinkListNode())};
        return SectionNode(keys, &ScalarNode());
    }();
    return n;
}

std::vector<SectionKey<TracingConfig>>
DeclareTracing()
{
    KeyInfo pcap = Facts(ValueKind::Any, "`all`, `none`, or a list of `[node, node]` links", "none",
                         "links to capture; each pair must share a link");
    pcap.choices = {"all", "none"};
    return {DeclaredKey<TracingConfig>("pcap", pcap),
            DeclaredKey<TracingConfig>(
                "directory",
                Facts(ValueKind::Text, "text", "`" + InitialValue(&TracingConfig::directory) + "`",
                      "the pcap folder inside the results folder: a relative path without empty, `.` or `..` parts "
                      "(a folder outside it would escape the all-or-nothing of the results folder); summary.json's "
                      "`files.pcap` names it")),
            DeclaredKey<TracingConfig>("series",
                                       Facts(ValueKind::Map, "mapping", "none",
                                             "time series into `series.csv` (below; the quantities are defined in "
                                             "`doc/metrics.md`, \"Time series\")"),
                                       &SeriesNode())};
}

} // namespace

const std::vector<SectionKey<TracingConfig>>&
TracingKeys()
{
    static const std::vector<SectionKey<TracingConfig>> keys = DeclareTracing();
    return keys;
}

const SchemaNode&
TracingNode()
{
    static const SchemaNode n = SectionNode(TracingKeys(), &ScalarNode());
    return n;
}

const std::vector<SectionKey<MeasureWindow>>&
MeasureKeys()
{
    static const std::vector<SectionKey<MeasureWindow>> keys{
        TimeKey("from", &MeasureWindow::from, Quantity::RunTime, false, "the window's start, >= 0").Required(),
        TimeKey("to", &MeasureWindow::to, Quantity::RunTime, false, "the window's end: after `from`, at most `stop`")
            .Required()};
    return keys;
}

const SchemaNode&
MeasureNode()
{
    static const SchemaNode n = SectionNode(MeasureKeys(), &ScalarNode());
    return n;
}

} // namespace scenario
} // namespace ns3

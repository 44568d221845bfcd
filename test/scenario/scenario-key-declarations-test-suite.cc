/*
 * iwarp-scenario-key-declarations: the keys of every section but `transport` (helper/scenario/sections/,
 * section-keys.h) are declared once, with their facts, and what is printed from them agrees with what the
 * loader does: every key of the schema tree has its facts; each bound integer key refuses one past either
 * end of its declared range and takes both ends; the JSON Schema lists exactly the schema's keys; the unit
 * patterns accept what the parsers accept and refuse what they refuse for its spelling. Workload keys, declared per
 * kind (helper/scenario/workloads/), are held to their declared ranges the same way.
 */
#include "common/iwarp-constants.h"
#include "helper/scenario/key-docs.h"
#include "helper/scenario/scenario-schema.h"
#include "helper/scenario/sections/scenario-sections.h"
#include "helper/scenario/workloads/workload-kind.h"
#include "helper/common/units.h"

#include "support/scenario-run-util.h"

#include "ns3/test.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include <regex>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using scenario::KeyInfo;
using scenario::SchemaNode;
using scenario::ScenarioReader;
using scenario::SectionKey;
using scenario::ValueKind;

/** Every Map node under `node`, with its key path. */
void
Maps(const SchemaNode& node, const std::string& path, std::vector<std::pair<std::string, const SchemaNode*>>& out)
{
    if (node.kind == SchemaNode::Kind::Map)
    {
        out.emplace_back(path, &node);
        for (const auto& [key, child] : node.fields)
        {
            Maps(*child, path.empty() ? key : path + "." + key, out);
        }
    }
    else if (node.element)
    {
        Maps(*node.element, path + ".*", out);
    }
}

class EveryKeyHasItsFactsTestCase : public TestCase
{
  public:
    EveryKeyHasItsFactsTestCase()
        : TestCase("every key of the schema tree has its facts, at least a type; no facts without a key")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::pair<std::string, const SchemaNode*>> maps;
        Maps(scenario::ScenarioSchema(), "", maps);
        NS_TEST_EXPECT_MSG_GT(maps.size(), 20u, "the tree reaches the nested sections");
        for (const auto& [path, node] : maps)
        {
            for (const auto& [key, child] : node->fields)
            {
                const auto it = std::find_if(node->docs.begin(), node->docs.end(),
                                             [&key = key](const auto& d) { return d.first == key; });
                NS_TEST_EXPECT_MSG_EQ((it != node->docs.end()), true, path << "." << key << ": declared with facts");
                if (it != node->docs.end())
                {
                    NS_TEST_EXPECT_MSG_EQ(it->second.type.empty(), false, path << "." << key << ": a type");
                }
            }
            NS_TEST_EXPECT_MSG_EQ(node->docs.size(), node->fields.size(), path << ": no facts without a key");
        }
    }
};

/** The message of reading `key: text` into a fresh C through the declaration of `key` in `keys`; "" when taken. */
template <typename C>
std::string
ReadOne(const std::vector<SectionKey<C>>& keys, const std::string& key, const std::string& text)
{
    const ScenarioReader reader("k.yaml", "");
    const YAML::Node n = YAML::Load("{" + key + ": " + text + "}");
    std::vector<SectionKey<C>> one;
    std::copy_if(keys.begin(), keys.end(), std::back_inserter(one), [&key](const auto& k) { return k.name == key; });
    C c{};
    return ThrownMessage<ScenarioError>([&] { ReadSection(reader, one, n, "", c); });
}

class DeclaredRangesAreTheLoadersTestCase : public TestCase
{
  public:
    DeclaredRangesAreTheLoadersTestCase()
        : TestCase("each bound integer key takes both ends of its declared range and refuses one past them")
    {
    }

  private:
    /** Both ends of each bound integer key's range are taken, one past each end refused; returns how many keys. */
    template <typename C>
    int CheckIntRanges(const std::vector<SectionKey<C>>& keys, const std::string& section)
    {
        int checked = 0;
        for (const SectionKey<C>& k : keys)
        {
            if (k.info.value != ValueKind::Int || !k.read)
            {
                continue;
            }
            const auto min = uint64_t(*k.info.minimum);
            const std::string key = section + "." + k.name;
            NS_TEST_EXPECT_MSG_EQ(ReadOne(keys, k.name, std::to_string(min)), "", key << ": its smallest value is taken");
            if (k.info.maximum)
            {
                const auto max = uint64_t(*k.info.maximum);
                NS_TEST_EXPECT_MSG_EQ(ReadOne(keys, k.name, std::to_string(max)), "", key << ": its largest is taken");
                NS_TEST_EXPECT_MSG_NE(ReadOne(keys, k.name, std::to_string(max + 1)), "", key << ": one above is refused");
            }
            if (min > 0)
            {
                NS_TEST_EXPECT_MSG_NE(ReadOne(keys, k.name, std::to_string(min - 1)), "", key << ": one below is refused");
            }
            ++checked;
        }
        return checked;
    }

    void DoRun() override
    {
        const int checked = CheckIntRanges(scenario::TopLevelKeys(), "top") +
                            CheckIntRanges(scenario::TopologyKeys(), "topology") +
                            CheckIntRanges(scenario::LinkKeys(), "links") + CheckIntRanges(scenario::CoDelKeys(true), "fq-codel");
        NS_TEST_EXPECT_MSG_EQ(checked, 10,
                              "seed, run, hosts-per-side, leaves, spines, hosts-per-leaf, planes, k, mtu, flows");
        // Through the loader, with the place: the declared minimum of leaves (regression: it was a hand check).
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("stop: 1ms\ntopology: {kind: leaf-spine, leaves: 0}\nworkloads:\n"
                                      "  - {kind: stream, from: h0, to: h1, count: 1}\n"),
                              "s.yaml:2:38: topology.leaves: leaves must be at least 1", "leaves 0");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("stop: 1ms\nseed: 0\ntopology: {kind: two-hosts}\nworkloads:\n"
                                      "  - {kind: stream, from: h0, to: h1, count: 1}\n"),
                              "s.yaml:2:7: seed: seed must be at least 1", "seed 0");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("stop: 1ms\ntopology: {kind: two-hosts}\nlinks: {queue-disc: {kind: fq-codel, "
                                      "fq-codel: {flows: 0}}}\nworkloads:\n"
                                      "  - {kind: stream, from: h0, to: h1, count: 1}\n"),
                              "s.yaml:3:56: links.queue-disc.fq-codel.flows: flows must be at least 1", "flows 0");
    }
};

/** A workload of `kind` that loads, with `extra` keys ("size: 4KiB, "), for the range checks below. */
std::string
WorkloadOf(const WorkloadKindInfo& kind, const std::string& extra)
{
    // A host group's ends are its hosts (every host by default); a load's required keys come with them (a
    // closed loop's `outstanding` instead of Poisson's `load`).
    const bool load = kind.name == "traffic" || kind.name == "sockets-traffic";
    const bool loop = extra.find("outstanding:") != std::string::npos;
    const std::string ends = load && loop ? "arrivals: closed-loop, flow-sizes: hadoop"
                             : load       ? "load: 0.5, flow-sizes: hadoop"
                             : kind.hostGroup   ? "algorithm: ring-allreduce"
                             : kind.manySenders ? "senders: [h0], to: h1"
                                                : "from: h0, to: h1";
    return "stop: 1ms\ntopology: {kind: two-hosts}\nworkloads:\n  - {kind: " + kind.name + ", " + ends + ", " + extra +
           "}\n";
}

class WorkloadRangesAreTheLoadersTestCase : public TestCase
{
  public:
    WorkloadRangesAreTheLoadersTestCase()
        : TestCase("each workload kind's bound integer keys take both ends of the declared range, refuse one past")
    {
    }

  private:
    void DoRun() override
    {
        int checked = 0;
        for (const WorkloadKindInfo* kind : WorkloadKinds())
        {
            if (kind->replacesCommon)
            {
                continue; // inject: its fields are read together (checked by iwarp-scenario-config)
            }
            for (const WorkloadKey& k : kind->keys)
            {
                if (k.info.value != ValueKind::Int || !k.read)
                {
                    continue;
                }
                const std::string what = kind->name + "." + k.name;
                const bool counted = std::any_of(kind->keys.begin(), kind->keys.end(),
                                                 [](const WorkloadKey& key) { return key.name == "count"; });
                const std::string count = k.name == "count" || !counted ? "" : "count: 1, ";
                auto load = [&](uint64_t v) { return ErrorOf(WorkloadOf(*kind, count + k.name + ": " + std::to_string(v))); };
                const auto min = uint64_t(*k.info.minimum);
                NS_TEST_EXPECT_MSG_EQ(load(min), "", what << ": its smallest value is taken");
                NS_TEST_EXPECT_MSG_NE(load(min - 1), "", what << ": one below is refused");
                if (k.info.maximum)
                {
                    const auto max = uint64_t(*k.info.maximum);
                    // The largest may still be implausible (a count above a billion: doc/scenario-format.md), but
                    // never out of range; one more is.
                    const std::string atMax = load(max);
                    NS_TEST_EXPECT_MSG_EQ(atMax.find("above the largest allowed"), std::string::npos,
                                          what << ": its largest is in range (" << atMax << ")");
                    NS_TEST_EXPECT_MSG_NE(load(max + 1).find("above the largest allowed, " + std::to_string(max)),
                                          std::string::npos, what << ": one above is refused with the declared bound");
                }
                ++checked;
            }
        }
        // count and outstanding of every RDMA and sockets kind (their number grows with the kinds registered).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(checked, 9, "count (6 kinds) and outstanding (3 kinds) at least");
        // A key written without a value is not given (regression: `count: ~` left a stream with neither count
        // nor duration).
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(WorkloadOf(*FindWorkloadKind("stream"), "count: ~")),
                              "s.yaml:4:5: workloads.0.count: missing required key 'count' (or 'duration')",
                              "a null count");
        // The bound a ping-pong's count declares is 32 bits (its applications' Count), a stream's 64.
        const WorkloadKindInfo& pingPong = *FindWorkloadKind("ping-pong");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(WorkloadOf(pingPong, "count: 4294967296")),
                              "s.yaml:4:48: workloads.0.count: value 4294967296 is above the largest allowed, 4294967295",
                              "ping-pong counts round trips in 32 bits");
    }
};

class DefaultsAreTheConfigsTestCase : public TestCase
{
  public:
    DefaultsAreTheConfigsTestCase()
        : TestCase("the docs' defaults are the config's initial values and the builder's")
    {
    }

  private:
    void DoRun() override
    {
        const auto def = [](const auto& keys, const std::string& name) {
            for (const auto& k : keys)
            {
                if (k.name == name)
                {
                    return k.info.defaultText;
                }
            }
            return std::string("(no key)");
        };
        NS_TEST_EXPECT_MSG_EQ(def(scenario::TopologyKeys(), "leaves"), std::to_string(TopologyConfig().leaves), "leaves");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::TopologyKeys(), "switch-fast-path"), "true", "fast path");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::TopLevelKeys(), "seed"), "1", "seed");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::LinkKeys(), "rate"),
                              scenario::FormatRate(LinkParams().rate.GetBitRate()), "the builder's rate");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::LinkKeys(), "delay"), scenario::FormatTime(LinkParams().delay), "delay");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::LinkKeys(), "mtu"), "1500 (ns-3's PointToPointNetDevice)", "mtu");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::RedKeys(), "max-p"), "0.02", "RED's max-p");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::CoDelKeys(false), "ecn"), "false", "codel marks not by default");
        NS_TEST_EXPECT_MSG_EQ(def(scenario::CoDelKeys(true), "ecn"), "true", "fq_codel does");
        // And the loader reads them so: a file that leaves them out gets these.
        const ScenarioConfig cfg = LoadScenarioString("stop: 1ms\ntopology: {kind: leaf-spine}\nlinks: {queue-disc: "
                                                      "{kind: fq-codel}}\nworkloads:\n"
                                                      "  - {kind: stream, from: h0, to: h1, count: 1}\n");
        NS_TEST_EXPECT_MSG_EQ(cfg.topology.leaves, 2u, "leaves");
        NS_TEST_EXPECT_MSG_EQ(cfg.links.queueDisc->codel.ecn, true, "fq-codel's ecn");
        NS_TEST_EXPECT_MSG_EQ(cfg.links.queueDisc->codel.flows, 1024u, "fq-codel's flows");
    }
};

/** The property names of every object of `schema` under `path`, as "a.b" paths (array items as "*"). */
void
JsonKeys(const nlohmann::json& schema, const std::string& path, std::set<std::string>& out)
{
    if (schema.contains("properties"))
    {
        for (const auto& [key, sub] : schema["properties"].items())
        {
            const std::string p = path.empty() ? key : path + "." + key;
            out.insert(p);
            JsonKeys(sub, p, out);
        }
    }
    for (const char* nested : {"items", "additionalProperties"})
    {
        if (schema.contains(nested) && schema[nested].is_object())
        {
            JsonKeys(schema[nested], path + ".*", out);
        }
    }
}

void
SchemaKeys(const SchemaNode& node, const std::string& path, std::set<std::string>& out)
{
    if (node.kind == SchemaNode::Kind::Map)
    {
        for (const auto& [key, child] : node.fields)
        {
            const std::string p = path.empty() ? key : path + "." + key;
            out.insert(p);
            SchemaKeys(*child, p, out);
        }
    }
    else if (node.element)
    {
        SchemaKeys(*node.element, path + ".*", out);
    }
}

class JsonSchemaListsTheKeysTestCase : public TestCase
{
  public:
    JsonSchemaListsTheKeysTestCase()
        : TestCase("the JSON Schema lists exactly the schema tree's keys, unknown ones refused, required ones required")
    {
    }

  private:
    void DoRun() override
    {
        const nlohmann::json schema = nlohmann::json::parse(scenario::ScenarioJsonSchema());
        std::set<std::string> json;
        std::set<std::string> tree;
        JsonKeys(schema, "", json);
        SchemaKeys(scenario::ScenarioSchema(), "", tree);
        NS_TEST_EXPECT_MSG_EQ((json == tree), true, "the same key paths (" << json.size() << " and " << tree.size() << ")");
        NS_TEST_EXPECT_MSG_EQ(schema["additionalProperties"], false, "an unknown top-level key is refused");
        NS_TEST_EXPECT_MSG_EQ(schema["required"].dump(), R"(["stop","topology","workloads"])", "required at the top");
        const nlohmann::json& mtu = schema["properties"]["links"]["properties"]["mtu"];
        NS_TEST_EXPECT_MSG_EQ(mtu["minimum"], double(iwarp::kIpv4MinMtu), "mtu's declared minimum");
        NS_TEST_EXPECT_MSG_EQ(schema["properties"]["topology"]["properties"]["kind"]["enum"].size(),
                              scenario::TopologyKindNames().size(), "every topology kind");
    }
};

/** Whether `text` is taken by `parse`. */
template <typename F>
bool
Parses(F parse, const std::string& text)
{
    try
    {
        parse(text);
        return true;
    }
    catch (const scenario::UnitError&)
    {
        return false;
    }
}

class PatternsAgreeWithParsersTestCase : public TestCase
{
  public:
    PatternsAgreeWithParsersTestCase()
        : TestCase("the JSON Schema's unit patterns take what the parsers take and refuse their spelling errors")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> corpus = {
            "0",     "4096",  "4KiB",  "4 KiB", "1.5MiB", "0.5KB",  "4kib", "4 KB ", "KiB",  "1e3",  "10ns",
            "2.5us", "10 ms", "1s",    "0s",    "0.0",    "10",     "10sec", "us",   ".5ms", "10Gbps", "2.5Gbps",
            "1 Mbps", "10gbps", "10G", "100p",  "0p",     "-5",     "+3ms",  "3ms ", " 7B", "12.ms", "1..5ms"};
        struct Family
        {
            const char* name;
            std::string pattern;
            std::function<void(const std::string&)> parse;
        };
        const std::vector<Family> families = {
            {"size", scenario::SizePattern(), [](const std::string& t) { scenario::ParseSize(t); }},
            {"time", scenario::TimePattern(), [](const std::string& t) { scenario::ParseTime(t); }},
            {"rate", scenario::RatePattern(), [](const std::string& t) { scenario::ParseRate(t); }},
            {"queue", scenario::QueuePattern(), [](const std::string& t) { scenario::ParseQueue(t); }}};
        for (const Family& f : families)
        {
            const std::regex re(f.pattern, std::regex::ECMAScript);
            for (const std::string& text : corpus)
            {
                    // The parser decides values (a zero rate, half a nanosecond); the pattern the spelling.
                if (Parses(f.parse, text))
                {
                    NS_TEST_EXPECT_MSG_EQ(std::regex_search(text, re), true, f.name << " \"" << text << "\" parses");
                }
            }
        }
        // Misspelt: an unknown unit, no number, no unit where one is needed; refused by parser and pattern alike.
        const std::vector<std::pair<std::string, std::string>> misspelt = {
            {"size", "4kib"}, {"size", "KiB"},   {"size", "1e3"},  {"time", "10sec"}, {"time", "10"},
            {"time", "us"},   {"time", "1..5ms"}, {"rate", "10gbps"}, {"rate", "10G"},  {"queue", "p"}};
        for (const auto& [family, text] : misspelt)
        {
            const auto f = std::find_if(families.begin(), families.end(),
                                        [&family = family](const Family& x) { return family == x.name; });
            NS_TEST_EXPECT_MSG_EQ(Parses(f->parse, text), false, family << " \"" << text << "\": the parser refuses");
            NS_TEST_EXPECT_MSG_EQ(std::regex_search(text, std::regex(f->pattern)), false,
                                  family << " \"" << text << "\": the pattern refuses");
        }
        NS_TEST_EXPECT_MSG_EQ(std::regex_search("4kib", std::regex(scenario::SizePattern())), false,
                              "\"4kib\" is refused by both (regression: Python once took it)");
    }
};

class KeyDeclarationsTestSuite : public TestSuite
{
  public:
    KeyDeclarationsTestSuite()
        : TestSuite("iwarp-scenario-key-declarations", UNIT)
    {
        AddTestCase(new EveryKeyHasItsFactsTestCase, TestCase::QUICK);
        AddTestCase(new DeclaredRangesAreTheLoadersTestCase, TestCase::QUICK);
        AddTestCase(new WorkloadRangesAreTheLoadersTestCase, TestCase::QUICK);
        AddTestCase(new DefaultsAreTheConfigsTestCase, TestCase::QUICK);
        AddTestCase(new JsonSchemaListsTheKeysTestCase, TestCase::QUICK);
        AddTestCase(new PatternsAgreeWithParsersTestCase, TestCase::QUICK);
    }
};

KeyDeclarationsTestSuite g_keyDeclarationsTestSuite;

} // namespace
} // namespace ns3

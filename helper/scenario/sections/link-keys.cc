/*
 * The keys of a link (`links`, `topology.bottleneck`, a `per-link` entry), of its queues and queue disc, and
 * of a host's NIC queues (`host-nic`, `per-host.<host>.nic`). The queue sizes and the impairments are read
 * together with the checks that span them (scenario-reader-queues.cc, scenario-reader-impairments.cc);
 * their facts are declared here all the same.
 */
#include "common/iwarp-constants.h"
#include "helper/scenario/sections/scenario-sections.h"

#include "ns3/abort.h"
#include "ns3/point-to-point-net-device.h"

#include <sstream>

namespace ns3
{
namespace scenario
{
namespace
{

/** 0.02, 1: a number as the docs write it. */
std::string
Decimal(double x)
{
    std::ostringstream out;
    out << x;
    return out.str();
}

/** The initial value of attribute `name` of `tid`, as text. */
std::string
AttributeDefault(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(name, &info), tid.GetName() << " has no attribute " << name);
    return info.initialValue->SerializeToString(info.checker);
}

/** A probability in [0, 1] into a double member. */
template <typename C>
SectionKey<C>
ProbabilityKey(const std::string& name, double C::*m, std::string type, std::string meaning)
{
    KeyInfo info = Facts(ValueKind::Number, std::move(type), "", std::move(meaning));
    info.minimum = 0;
    info.maximum = 1;
    info.defaultText = Decimal(InitialValue(m));
    return SectionKey<C>{name, info, nullptr,
                         [m](const ScenarioReader& r, const YAML::Node& v, const std::string& path, C& out) {
                             out.*m = r.Probability(v, path);
                         }};
}

KeyInfo
QueueFacts(std::string type, std::string def, std::string meaning)
{
    KeyInfo info = Facts(ValueKind::Queue, std::move(type), std::move(def), std::move(meaning));
    info.choices = {"unlimited"};
    return info;
}

std::vector<SectionKey<RedSpec>>
DeclareRed()
{
    using K = SectionKey<RedSpec>;
    std::vector<K> keys;
    keys.push_back(DeclaredKey<RedSpec>(
        "threshold",
        QueueFacts("like `queue`", "`65p`", "DCTCP's K: sets `min-th` = `max-th` (the DCTCP paper's K at 10 Gb/s)")));
    keys.push_back(DeclaredKey<RedSpec>(
        "min-th", QueueFacts("like `queue`", "", "RED's lower threshold, with `max-th` (both, or `threshold`)")));
    keys.push_back(DeclaredKey<RedSpec>("max-th", QueueFacts("like `queue`", "", "RED's upper threshold")));
    K weight = ProbabilityKey("weight", &RedSpec::weight, "number in (0, 1]",
                              "weight of the newest sample in RED's average (1: the instantaneous queue)");
    weight.info.exclusiveMinimum = true;
    keys.push_back(weight);
    K maxP = ProbabilityKey("max-p", &RedSpec::maxP, "number in (0, 1]",
                            "marking probability at `max-th` when `min-th` < `max-th`");
    maxP.info.exclusiveMinimum = true;
    keys.push_back(maxP);
    keys.push_back(BoolKey("gentle", &RedSpec::gentle, "probability ramps to 1 between `max-th` and 2 `max-th`"));
    keys.push_back(BoolKey("ecn", &RedSpec::ecn,
                           "mark ECN-capable packets CE instead of dropping them; non-ECT packets are dropped "
                           "where ECT ones are marked"));
    keys.push_back(BoolKey("hard-drop", &RedSpec::hardDrop, "drop above `max-th` even ECN-capable packets"));
    return keys;
}

std::vector<SectionKey<CoDelSpec>>
DeclareCoDel(bool fq)
{
    std::vector<SectionKey<CoDelSpec>> keys;
    keys.push_back(TimeKey("target", &CoDelSpec::target, Quantity::ProtocolTimer, false,
                           "CoDel's acceptable standing queue delay (RFC 8289)")
                       .Default(FormatTime(InitialValue(&CoDelSpec::target))));
    keys.push_back(TimeKey("interval", &CoDelSpec::interval, Quantity::ProtocolTimer, false,
                           "CoDel's sliding window (RFC 8289)")
                       .Default(FormatTime(InitialValue(&CoDelSpec::interval))));
    // Linux's fq_codel marks ECN-capable packets by default, its codel does not (ReadQueueDisc).
    keys.push_back(BoolKey("ecn", &CoDelSpec::ecn, "mark instead of drop, as Linux's " +
                                                       std::string(fq ? "fq_codel" : "codel"))
                       .Default(fq ? "true" : "false"));
    if (fq)
    {
        keys.push_back(UIntKey("flows", &CoDelSpec::flows, 1, 65536, "flow queues (RFC 8290, Linux's default)"));
    }
    return keys;
}

std::vector<SectionKey<QueueDiscSpec>>
DeclareQueueDisc()
{
    std::vector<SectionKey<QueueDiscSpec>> keys;
    KeyInfo kind = Facts(ValueKind::Choice, "", "**required**",
                         "`none`: no queue disc, the device queue holds `queue` (the model before queue discs); "
                         "`fifo`: drop-tail at `queue`");
    kind.required = true;
    for (QueueDiscKind k :
         {QueueDiscKind::None, QueueDiscKind::Fifo, QueueDiscKind::Red, QueueDiscKind::CoDel, QueueDiscKind::FqCoDel})
    {
        kind.choices.emplace_back(ToString(k));
        kind.type += (kind.type.empty() ? "`" : ", `") + std::string(ToString(k)) + "`";
    }
    keys.push_back(DeclaredKey<QueueDiscSpec>("kind", kind));
    keys.push_back(DeclaredKey<QueueDiscSpec>("red", Facts(ValueKind::Map, "mapping", "", "RED's settings (kind red)"),
                                              &RedNode()));
    keys.push_back(DeclaredKey<QueueDiscSpec>(
        "codel", Facts(ValueKind::Map, "mapping", "", "CoDel's settings (kind codel)"), &CoDelNode(false)));
    keys.push_back(DeclaredKey<QueueDiscSpec>(
        "fq-codel", Facts(ValueKind::Map, "mapping", "", "FQ-CoDel's settings (kind fq-codel)"), &CoDelNode(true)));
    return keys;
}

std::string
Text(const QueueSize& q)
{
    std::ostringstream out;
    out << q;
    return out.str();
}

/** `queue`, `device-queue` and `queue-disc`: of a switch port on a link, of a host's NIC in `nic`. */
template <typename C>
void
AddQueueKeys(std::vector<SectionKey<C>>& keys, bool nic)
{
    const std::string whose = nic ? "the host's NIC" : "each switch port";
    // The defaults: a host's NIC's (DefaultHostNic) and a switch port's (the builder's LinkParams).
    const PortQueueSpec defaults = nic ? DefaultHostNic() : LinkParams().Ports();
    const std::string queue = IsUnlimited(defaults.queue) ? "unlimited" : "`" + Text(defaults.queue) + "`";
    keys.push_back(DeclaredKey<C>("queue", QueueFacts("queue, or `unlimited` (2^32-1 packets)", queue,
                                                      whose + "'s buffer: its queue disc's limit (see Queues)")));
    keys.push_back(DeclaredKey<C>("device-queue", QueueFacts("like `queue`", "`" + Text(defaults.deviceQueue) + "`",
                                                             whose + "'s device queue under its queue disc")));
    keys.push_back(DeclaredKey<C>("queue-disc",
                                  Facts(ValueKind::Map, "`{kind, red, codel, fq-codel}`",
                                        "`{kind: " + std::string(ToString(defaults.disc.kind)) + "}`",
                                        whose + "'s queue discipline (see Queues)"),
                                  &QueueDiscNode()));
}

KeyInfo
Probability(std::string meaning, bool required = false)
{
    KeyInfo info = Facts(ValueKind::Number, "prob", required ? "**required**" : "", std::move(meaning));
    info.minimum = 0;
    info.maximum = 1;
    info.required = required;
    return info;
}

const SchemaNode&
GilbertNode()
{
    static const SchemaNode n = [] {
        using K = SectionKey<GilbertElliottSpec>;
        std::vector<K> keys{DeclaredKey<GilbertElliottSpec>("p", Probability("Good -> Bad per packet", true)),
                            DeclaredKey<GilbertElliottSpec>("r", Probability("Bad -> Good per packet", true)),
                            DeclaredKey<GilbertElliottSpec>("loss-good", Probability("loss in Good")),
                            DeclaredKey<GilbertElliottSpec>("loss-bad", Probability("loss in Bad"))};
        keys[2].info.defaultText = Decimal(InitialValue(&GilbertElliottSpec::lossGood));
        keys[3].info.defaultText = Decimal(InitialValue(&GilbertElliottSpec::lossBad));
        return SectionNode(keys, &ScalarNode());
    }();
    return n;
}

const SchemaNode&
ReorderNode()
{
    static const SchemaNode n = [] {
        KeyInfo delay = Facts(ValueKind::Time, "time", "**required**", "how long they are held back");
        delay.required = true;
        std::vector<SectionKey<ReorderSpec>> keys{
            DeclaredKey<ReorderSpec>("fraction", Probability("the fraction of packets held back", true)),
            DeclaredKey<ReorderSpec>("delay", delay)};
        return SectionNode(keys, &ScalarNode());
    }();
    return n;
}

std::vector<SectionKey<LinkConfig>>
DeclareLink()
{
    using K = SectionKey<LinkConfig>;
    std::vector<K> keys;
    // Unset, a link takes the topology builder's LinkParams, and its devices their own MTU.
    const LinkParams builder;
    keys.push_back(RateKey("rate", &LinkConfig::rateBps, Quantity::LinkRate, "link rate")
                       .Default(FormatRate(builder.rate.GetBitRate())));
    keys.push_back(TimeKey("delay", &LinkConfig::delay, Quantity::Propagation, false, "propagation delay")
                       .Default(FormatTime(builder.delay)));
    AddQueueKeys(keys, false);
    K mtu = UIntKey("mtu", &LinkConfig::mtu, iwarp::kIpv4MinMtu, 65535,
                    "IPv4's minimum is " + std::to_string(iwarp::kIpv4MinMtu) +
                        "; on a workload's paths at least what its LLP needs (below, \"MTUs and segment sizes\")");
    mtu.read = [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, LinkConfig& c) {
        c.mtu = uint32_t(r.UInt(v, path, 65535));
        if (*c.mtu < iwarp::kIpv4MinMtu)
        {
            r.Fail(v, path, "MTU below IPv4's minimum of " + std::to_string(iwarp::kIpv4MinMtu));
        }
    };
    mtu.info.defaultText = AttributeDefault(PointToPointNetDevice::GetTypeId(), "Mtu") + " (ns-3's PointToPointNetDevice)";
    keys.push_back(mtu);
    keys.push_back(DeclaredKey<LinkConfig>("loss", Probability("independent random loss per packet")));
    keys.back().info.defaultText = "none";
    keys.push_back(DeclaredKey<LinkConfig>(
        "gilbert-elliott",
        Facts(ValueKind::Map, "`{p, r, loss-good, loss-bad}`", "",
              "bursty loss: Good->Bad with `p`, Bad->Good with `r` (both required, prob), loss in each state "
              "(defaults 0 and 1)"),
        &GilbertNode()));
    keys.back().info.defaultText = "none";
    keys.push_back(DeclaredKey<LinkConfig>(
        "reorder",
        Facts(ValueKind::Map, "`{fraction, delay}`", "", "that fraction of packets held back by `delay` (both required)"),
        &ReorderNode()));
    keys.back().info.defaultText = "none";
    return keys;
}

} // namespace

const std::vector<SectionKey<LinkConfig>>&
LinkKeys()
{
    static const std::vector<SectionKey<LinkConfig>> keys = DeclareLink();
    return keys;
}

const SchemaNode&
LinkNode()
{
    static const SchemaNode n = SectionNode(LinkKeys(), &ScalarNode());
    return n;
}

const SchemaNode&
PerLinkNode()
{
    static const SchemaNode entry = [] {
        std::vector<SectionKey<LinkConfig>> keys = LinkKeys();
        KeyInfo between = Facts(ValueKind::Link, "`[node, node]`", "**required**",
                                "the link's two endpoints, which must share a link");
        between.required = true;
        between.only = "per-link";
        keys.insert(keys.begin(), DeclaredKey<LinkConfig>("between", between, &ScalarListNode()));
        return SectionNode(keys, &ScalarNode());
    }();
    static const SchemaNode list = Of(SchemaNode::Kind::List, &entry);
    return list;
}

const std::vector<SectionKey<RedSpec>>&
RedKeys()
{
    static const std::vector<SectionKey<RedSpec>> keys = DeclareRed();
    return keys;
}

const SchemaNode&
RedNode()
{
    static const SchemaNode n = SectionNode(RedKeys(), &ScalarNode());
    return n;
}

const std::vector<SectionKey<CoDelSpec>>&
CoDelKeys(bool fq)
{
    static const std::vector<SectionKey<CoDelSpec>> codel = DeclareCoDel(false);
    static const std::vector<SectionKey<CoDelSpec>> fqCodel = DeclareCoDel(true);
    return fq ? fqCodel : codel;
}

const SchemaNode&
CoDelNode(bool fq)
{
    static const SchemaNode codel = SectionNode(CoDelKeys(false), &ScalarNode());
    static const SchemaNode fqCodel = SectionNode(CoDelKeys(true), &ScalarNode());
    return fq ? fqCodel : codel;
}

const SchemaNode&
QueueDiscNode()
{
    static const SchemaNode n = SectionNode(DeclareQueueDisc(), &ScalarNode());
    return n;
}

const SchemaNode&
NicNode()
{
    static const SchemaNode n = [] {
        std::vector<SectionKey<NicConfig>> keys;
        AddQueueKeys(keys, true);
        return SectionNode(keys, &ScalarNode());
    }();
    return n;
}

const SchemaNode&
PerHostNode()
{
    static const SchemaNode entry = [] {
        std::vector<SectionKey<NodeAttributeConfig>> keys{
            DeclaredKey<NodeAttributeConfig>("host", Facts(ValueKind::Dict, "attributes", "none",
                                                           "ns-3 Attributes of this host's objects"),
                                             &AttributesNode()),
            DeclaredKey<NodeAttributeConfig>("rnic", Facts(ValueKind::Dict, "attributes", "none",
                                                           "ns-3 Attributes of this host's RNIC"),
                                             &AttributesNode()),
            DeclaredKey<NodeAttributeConfig>("nic", Facts(ValueKind::Map, "like `host-nic`", "`host-nic`",
                                                          "this host's NIC queues"),
                                             &NicNode())};
        return SectionNode(keys, &ScalarNode());
    }();
    static const SchemaNode dict = Of(SchemaNode::Kind::Dict, &entry);
    return dict;
}

} // namespace scenario
} // namespace ns3

#include "helper/scenario/workloads/common-keys.h"

#include "helper/scenario/llp-descriptors.h"

#include "common/iwarp-constants.h"

#include <algorithm>
#include <set>

namespace ns3
{
namespace workloadkeys
{
namespace
{

using scenario::Facts;
using scenario::Join;
using scenario::KeyInfo;
using scenario::ScenarioReader;
using scenario::ValueKind;
using Shape = WorkloadKey::Shape;

/** The words of `op` and `payload`: their ToString names (scenario-config.h). */
const scenario::Names<RdmaOp> kOps = {{ToString(RdmaOp::Write), RdmaOp::Write},
                                      {ToString(RdmaOp::Send), RdmaOp::Send},
                                      {ToString(RdmaOp::Read), RdmaOp::Read}};
const scenario::Names<PayloadMode> kPayloads = {{ToString(PayloadMode::Virtual), PayloadMode::Virtual},
                                                {ToString(PayloadMode::Real), PayloadMode::Real}};

WorkloadKey
Key(std::string name, Shape shape, KeyInfo info, WorkloadKey::Reader read)
{
    return WorkloadKey{std::move(name), shape, std::move(info), {}, std::move(read)};
}

/** The facts of a message size of at least `min` octets (`why`: the reason when above one). */
KeyInfo
SizeFacts(ValueKind kind, std::string type, uint64_t min, const std::string& why, std::string def, std::string meaning)
{
    KeyInfo info = Facts(kind, std::move(type) + scenario::IntRangeText(min, iwarp::kMaxUlpMsgLen) +
                                   (why.empty() ? "" : " (" + why + ")"),
                         std::move(def), std::move(meaning));
    info.minimum = double(min);
    info.maximum = double(iwarp::kMaxUlpMsgLen);
    return info;
}

/**
 * A message size of workload `w`: at least its kind's smallest message, and at most 2^32-1 octets, the largest
 * RDMA message (DDP-030) and the applications' 32-bit sizes (ns-3's attribute checker would abort on more).
 */
uint64_t
MessageSize(const ScenarioReader& r,
            const YAML::Node& v,
            const std::string& path,
            const WorkloadConfig& w,
            uint64_t min,
            const std::string& why)
{
    const uint64_t s = r.SizeOf(v, path);
    if (s < min)
    {
        r.Fail(v, path,
               "size " + std::to_string(s) + " is below the smallest message of workload kind '" + ToString(w.kind) +
                   "' (" + std::to_string(min) + (min == 1 ? " octet)" : " octets: " + why + ")"));
    }
    if (s > iwarp::kMaxUlpMsgLen)
    {
        r.Fail(v, path,
               "size " + std::to_string(s) +
                   (IsRdma(w.kind) ? " is above the largest RDMA message (2^32-1 octets, DDP-030)"
                                   : " is above the largest message of the sockets applications (2^32-1 octets)"));
    }
    return s;
}

void
ReadSenders(const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w)
{
    r.RequireList(v, path);
    if (v.size() == 0)
    {
        r.Fail(v, path, std::string(ToString(w.kind)) + " needs at least one sender");
    }
    std::set<std::string> listed;
    for (std::size_t i = 0; i < v.size(); ++i)
    {
        const std::string p = Join(path, std::to_string(i));
        const std::string sender = r.Str(v[i], p);
        r.CheckNode(v[i], p, sender, true);
        if (!listed.insert(sender).second)
        {
            r.Fail(v[i], p, "sender '" + sender + "' is listed twice");
        }
        w.senders.push_back(sender);
    }
}

} // namespace

KeyInfo
RequiredFacts(ValueKind kind, std::string type, std::string meaning)
{
    KeyInfo info = Facts(kind, std::move(type), "**required**", std::move(meaning));
    info.required = true;
    return info;
}

WorkloadKey
Scalar(scenario::SectionKey<WorkloadConfig> key)
{
    return Key(key.name, Shape::Scalar, key.info, key.read);
}

WorkloadKey
Start()
{
    auto key = scenario::TimeKey("start", &WorkloadConfig::start, scenario::Quantity::RunTime, false,
                                 "when the workload starts (with `after`: how long after the last of them completed)");
    key.info.type = "time, before `stop`";
    return Scalar(std::move(key).Default("0"));
}

WorkloadKey
After()
{
    KeyInfo info = Facts(ValueKind::List, "list of workload names or indices", "none: it starts at `start`",
                         "start once every workload listed has completed (doc/metrics.md, `completed`), `start` "
                         "after the last of them; a workload that never completes holds it back, and the results "
                         "say so");
    return Key("after", Shape::List, info,
               [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig&) {
                   // The names resolve once every workload is read (ScenarioReader::ResolveAfter).
                   r.RequireList(v, path);
                   if (v.size() == 0)
                   {
                       r.Fail(v, path, "after needs at least one workload");
                   }
               });
}

WorkloadKey
From()
{
    return Key("from", Shape::Scalar, RequiredFacts(ValueKind::Node, "host", "the initiator (client)"),
               [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                   w.from = r.Str(v, path);
                   r.CheckNode(v, path, w.from, true);
               });
}

WorkloadKey
Senders()
{
    return Key("senders", Shape::List,
               RequiredFacts(ValueKind::List, "list of distinct hosts, not empty", "the senders, one flow each"),
               ReadSenders);
}

WorkloadKey
To(std::string meaning)
{
    // Read after `from` or `senders` (every kind lists it after them): the ends must differ.
    return Key("to", Shape::Scalar, RequiredFacts(ValueKind::Node, "host", std::move(meaning)),
               [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                   w.to = r.Str(v, path);
                   r.CheckNode(v, path, w.to, true);
                   if (w.to == w.from || std::count(w.senders.begin(), w.senders.end(), w.to))
                   {
                       r.Fail(v, path, "a workload cannot send to its own node '" + w.to + "'");
                   }
               });
}

WorkloadKey
Op(const std::vector<RdmaOp>& ops)
{
    KeyInfo info = Facts(ValueKind::Choice, "", ToString(ops.front()), "the RDMA operation");
    for (RdmaOp op : ops)
    {
        info.choices.emplace_back(ToString(op));
        info.type += (info.type.empty() ? "" : ", ") + std::string(ToString(op));
    }
    return Key("op", Shape::Scalar, info,
               [ops](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                   w.op = Pick(r, v, path, kOps, "op");
                   if (std::find(ops.begin(), ops.end(), w.op) == ops.end())
                   {
                       r.Fail(v, path, "op '" + std::string(ToString(w.op)) + "' is not possible for workload kind '" +
                                           ToString(w.kind) + "'");
                   }
               });
}

WorkloadKey
Size(uint64_t min, std::string why, std::string meaning)
{
    return Key("size", Shape::Scalar,
               SizeFacts(ValueKind::Size, "size, ", min, why, std::to_string(WorkloadConfig().size), std::move(meaning)),
               [min, why](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                   w.size = MessageSize(r, v, path, w, min, why);
               });
}

WorkloadKey
Sizes(uint64_t min, std::string why)
{
    KeyInfo info = SizeFacts(ValueKind::List, "list of at most " + std::to_string(kMaxSizes) + " sizes, each ", min,
                             why, "", "a sweep: one run of `count` per size");
    info.minimum.reset(); // the bounds are the elements', which the list's schema does not carry
    info.maximum.reset();
    return Key("sizes", Shape::List, info,
               [min, why](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                   r.RequireList(v, path, kMaxSizes);
                   if (v.size() == 0)
                   {
                       r.Fail(v, path, "sizes needs at least one size");
                   }
                   for (std::size_t i = 0; i < v.size(); ++i)
                   {
                       w.sizes.push_back(MessageSize(r, v[i], Join(path, std::to_string(i)), w, min, why));
                   }
               });
}

WorkloadKey
Hosts(std::string meaning)
{
    KeyInfo info =
        scenario::Facts(ValueKind::List, "list of at least two distinct hosts", "every host", std::move(meaning));
    return WorkloadKey{
        "hosts", Shape::List, info, {},
        [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
            r.RequireList(v, path);
            std::set<std::string> listed;
            for (std::size_t i = 0; i < v.size(); ++i)
            {
                const std::string p = scenario::Join(path, std::to_string(i));
                const std::string host = r.Str(v[i], p);
                r.CheckNode(v[i], p, host, true);
                if (!listed.insert(host).second)
                {
                    r.Fail(v[i], p, "host '" + host + "' is listed twice");
                }
                w.hosts.push_back(host);
            }
            if (w.hosts.size() < 2)
            {
                r.Fail(v, path, "`hosts` needs at least two hosts");
            }
        }};
}

WorkloadKey
Count(uint64_t max)
{
    auto key = scenario::UIntKey("count", &WorkloadConfig::count, 1, max, "messages (incast: per sender)");
    key.info.type += max == UINT64_MAX ? ", with count × size at most 2^64-1" : "";
    key.info.defaultText = "one of `count`/`duration` **required**";
    const auto readCount = key.read;
    key.read = [readCount](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
        readCount(r, v, path, w);
        // `size` is read before `count` (every kind lists it first).
        if (*w.count > UINT64_MAX / w.size)
        {
            r.Fail(v, path,
                   "count " + std::to_string(*w.count) + " x size " + std::to_string(w.size) +
                       " is more than 2^64-1 octets");
        }
        r.RequirePlausible(v, path, scenario::Quantity::MessageCount, double(*w.count));
    };
    return Scalar(std::move(key));
}

WorkloadKey
Duration()
{
    return Scalar(scenario::TimeKey("duration", &WorkloadConfig::duration, scenario::Quantity::RunTime, true,
                                    "keep posting this long; instead of `count`"));
}

WorkloadKey
Outstanding()
{
    return Scalar(scenario::UIntKey("outstanding", &WorkloadConfig::outstanding, 1, 65535, "messages in flight"));
}

/** The values and their labels from the LLP descriptors (llp-descriptors.h): "tcp, sctp". */
WorkloadKey
LlpKey()
{
    KeyInfo info = Facts(ValueKind::Text, "", DefaultLlp().name, "");
    std::string labels;
    for (const LlpDescriptor& d : LlpDescriptors())
    {
        info.choices.emplace_back(d.name);
        info.type += (info.type.empty() ? "" : ", ") + std::string(d.name);
        labels += (labels.empty() ? "" : ", or ") + std::string(d.label);
    }
    info.type += ", or their connectors' TypeIds";
    info.meaning = labels + "; results name it by its short name either way. An RNIC runs one LLP at a time in this "
                            "model (the runner sets the connection managers of the workload's nodes to it as the "
                            "workload starts), so all RDMA workloads that share a node (`from`, `to` or `senders`) "
                            "must use the same LLP, whatever their start times; the loader checks it";
    return Key("llp", Shape::Scalar, info,
               [](const ScenarioReader& r, const YAML::Node& v, const std::string& path, WorkloadConfig& w) {
                   w.llp = PickLlp(r, v, path);
               });
}

WorkloadKey
Payload()
{
    return Scalar(scenario::ChoiceKey("payload", &WorkloadConfig::payload, kPayloads, "payload mode",
                                      "whether messages carry real octets (doc/architecture.md, \"Payload modes\")"));
}

std::vector<WorkloadKey>
RdmaStreamKeys(const std::vector<RdmaOp>& ops)
{
    return {Start(), After(), From(), To(), Op(ops), Size(), Count(), Duration(), Outstanding(), LlpKey(), Payload()};
}

} // namespace workloadkeys
} // namespace ns3

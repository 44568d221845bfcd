/*
 * inject: one crafted DDP segment handed to the LLP of another workload's connection, by header
 * fields or as raw octets.  Its target and direction are checked once every workload is read
 * (ScenarioReader::ResolveInjects).
 */
#include "helper/scenario/workloads/built-in-kinds.h"
#include "helper/scenario/workloads/common-keys.h"

#include "helper/scenario/scenario-reader.h"

#include "common/iwarp-constants.h"

#include <cctype>

namespace ns3
{
namespace
{

using scenario::Join;
using scenario::ScenarioReader;

/** RDMAP opcodes by name: iwarp::kOpcodeNames, as the numbers an inject's `opcode` key takes. */
scenario::Names<uint8_t>
OpcodeNames()
{
    scenario::Names<uint8_t> names;
    for (const iwarp::OpcodeName& n : iwarp::kOpcodeNames)
    {
        names.emplace_back(n.name, uint8_t(n.opcode));
    }
    return names;
}

/** "`write`, `read-request`, ...": the opcode names `opcode` takes. */
std::string
OpcodeWords()
{
    std::string words;
    for (const iwarp::OpcodeName& n : iwarp::kOpcodeNames)
    {
        words += (words.empty() ? "`" : ", `") + std::string(n.name) + "`";
    }
    return words;
}

using scenario::Facts;
using scenario::KeyInfo;
using scenario::ValueKind;
using Shape = WorkloadKey::Shape;

/** A field's key: its facts; ReadInjectFields reads the fields together (which apply depends on `tagged`). */
WorkloadKey
Field(const char* name, KeyInfo info)
{
    return WorkloadKey{name, Shape::Scalar, std::move(info), {}, {}};
}

/** An integer field of at most `max`. */
WorkloadKey
IntField(const char* name, uint64_t max, std::string type, std::string def, const char* meaning)
{
    KeyInfo info = Facts(ValueKind::Int, std::move(type), std::move(def), meaning);
    info.minimum = 0;
    info.maximum = double(max);
    return Field(name, std::move(info));
}

/** RsvdULP is 8 bits in a tagged header and 40 in an untagged one (RFC 5041 §4.2, §4.3). */
constexpr uint64_t kRsvdUlpTaggedMax = 0xFFull;
constexpr uint64_t kRsvdUlpUntaggedMax = 0xFFFFFFFFFFull;

/** The keys of `fields`: one per header field an injected segment may set (RFC 5041 §4, RFC 5040 §4). */
std::vector<WorkloadKey>
FieldKeys()
{
    KeyInfo opcode = Facts(ValueKind::Any, "0..15, or " + OpcodeWords(), "write (tagged), send (untagged)",
                           "RDMAP's opcode");
    return {Field("tagged", Facts(ValueKind::Bool, "bool", InjectFields::kTaggedByDefault ? "true" : "false",
                                  "DDP's T flag: a tagged segment")),
            Field("last", Facts(ValueKind::Bool, "bool", "true", "DDP's L flag: the last segment of its message")),
            IntField("dv", 3, "int, 0..3", std::to_string(iwarp::kDdpVersion), "DDP's version"),
            IntField("rsvdulp", kRsvdUlpUntaggedMax, "int, 8 bits tagged, 40 bits untagged",
                     "RDMAP's control octet (rv, opcode)", "DDP's RsvdULP, given whole"),
            IntField("stag", UINT32_MAX, "int, 32 bits", "0", "tagged: the STag"),
            Field("to", Facts(ValueKind::Int, "int, 64 bits", "0", "tagged: the tagged offset")),
            IntField("qn", UINT32_MAX, "int, 32 bits", "0", "untagged: the queue number"),
            IntField("msn", UINT32_MAX, "int, 32 bits", std::to_string(iwarp::kMsnInitial),
                     "untagged: the message sequence number"),
            IntField("mo", UINT32_MAX, "int, 32 bits", "0", "untagged: the message offset"),
            IntField("rv", 3, "int, 0..3", std::to_string(iwarp::kRdmapVersion), "RDMAP's version"),
            Field("opcode", opcode),
            IntField("payload", iwarp::kMaxUlpMsgLen, "int, octets below 2^32", "0",
                     "octets of payload after the headers")};
}

/** The largest value of integer field `key` (its declaration's maximum; none: 64 bits). */
uint64_t
FieldMax(const std::string& key)
{
    static const std::vector<WorkloadKey> fields = FieldKeys();
    for (const WorkloadKey& f : fields)
    {
        if (f.name == key && f.info.maximum)
        {
            return uint64_t(*f.info.maximum);
        }
    }
    return UINT64_MAX;
}

InjectFields
ReadInjectFields(const ScenarioReader& r, const YAML::Node& n, const std::string& path)
{
    r.CheckKeys(n, path, *scenario::ScenarioSchema().fields.at("workloads")->element->fields.at("fields"));
    InjectFields f;
    auto num = [&](const char* key, uint64_t max = 0) -> std::optional<uint64_t> {
        if (!n[key])
        {
            return std::nullopt;
        }
        return r.UInt(n[key], Join(path, key), max ? max : FieldMax(key));
    };
    if (n["tagged"])
    {
        f.tagged = r.Bool(n["tagged"], Join(path, "tagged"));
    }
    if (n["last"])
    {
        f.last = r.Bool(n["last"], Join(path, "last"));
    }
    if (auto v = num("dv"))
    {
        f.dv = uint8_t(*v);
    }
    const bool tagged = f.Tagged();
    f.rsvdUlp = num("rsvdulp", tagged ? kRsvdUlpTaggedMax : kRsvdUlpUntaggedMax);
    if (auto v = num("stag"))
    {
        f.stag = uint32_t(*v);
    }
    f.to = num("to");
    if (auto v = num("qn"))
    {
        f.qn = uint32_t(*v);
    }
    if (auto v = num("msn"))
    {
        f.msn = uint32_t(*v);
    }
    if (auto v = num("mo"))
    {
        f.mo = uint32_t(*v);
    }
    if (auto v = num("rv"))
    {
        f.rv = uint8_t(*v);
    }
    if (const YAML::Node op = n["opcode"])
    {
        static const scenario::Names<uint8_t> kOpcodes = OpcodeNames();
        const std::string s = r.Str(op, Join(path, "opcode"));
        f.opcode = !s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))
                       ? uint8_t(r.UInt(op, Join(path, "opcode"), 15))
                       : Pick(r, op, Join(path, "opcode"), kOpcodes, "RDMAP opcode");
    }
    if (auto v = num("payload"))
    {
        f.payload = uint32_t(*v);
    }
    if (tagged && (f.qn || f.msn || f.mo))
    {
        r.Fail(n, path, "qn, msn and mo belong to untagged segments (tagged: false; a segment is tagged by default)");
    }
    if (!tagged && (f.stag || f.to))
    {
        r.Fail(n, path, "stag and to belong to tagged segments (tagged: true)");
    }
    return f;
}

/** The raw segment of `hex`: hex digits, spaces and colons ignored, a whole number of octets. */
std::vector<uint8_t>
ReadHex(const ScenarioReader& r, const YAML::Node& n, const std::string& path)
{
    std::string digits;
    for (char c : r.Str(n, path))
    {
        if (std::isxdigit(static_cast<unsigned char>(c)))
        {
            digits += c;
        }
        else if (!std::isspace(static_cast<unsigned char>(c)) && c != ':')
        {
            r.Fail(n, path, std::string("not a hex digit: '") + c + "'");
        }
    }
    if (digits.empty() || digits.size() % 2 != 0)
    {
        r.Fail(n, path, "hex needs a whole, non-zero number of octets (pairs of digits)");
    }
    std::vector<uint8_t> raw;
    for (std::size_t i = 0; i < digits.size(); i += 2)
    {
        raw.push_back(uint8_t(std::stoul(digits.substr(i, 2), nullptr, 16)));
    }
    return raw;
}

void
ReadInject(const ScenarioReader& r, const YAML::Node& n, const std::string& path, WorkloadConfig& w)
{
    InjectConfig in;
    in.at = r.TimeOf(r.Required(n, path, "at"), Join(path, "at"), scenario::Quantity::RunTime);
    // from/to and the target are checked against the target workload in ResolveInjects.
    in.from = r.Str(r.Required(n, path, "from"), Join(path, "from"));
    in.to = r.Str(r.Required(n, path, "to"), Join(path, "to"));
    r.Required(n, path, "target");
    if (n["fields"] && n["hex"])
    {
        r.Fail(n["hex"], Join(path, "hex"), "give either fields or hex, not both");
    }
    if (n["fields"])
    {
        in.fields = ReadInjectFields(r, n["fields"], Join(path, "fields"));
    }
    else if (n["hex"])
    {
        in.raw = ReadHex(r, n["hex"], Join(path, "hex"));
    }
    else
    {
        r.Fail(n, Join(path, "fields"), "missing required key 'fields' (or 'hex')");
    }
    w.inject = in;
}

} // namespace

WorkloadKindInfo
InjectKind()
{
    using workloadkeys::RequiredFacts;
    WorkloadKindInfo k;
    k.name = "inject";
    k.family = WorkloadFamily::Inject;
    k.summary = "one crafted DDP segment into the LLP connection of workload `target`, at `at`";
    k.keys = {Field("target", RequiredFacts(ValueKind::Any, "workload name or index",
                                       "an RDMA workload (not sockets-*, not inject) whose connection carries the "
                                       "segment")),
              Field("from", RequiredFacts(ValueKind::Node, "host",
                                     "the sending end of the target's connection (for incast, a sender)")),
              Field("to", RequiredFacts(ValueKind::Node, "host", "the receiving end (for incast, the receiver)")),
              Field("at", RequiredFacts(ValueKind::Time, "time, before `stop`",
                                   "when; if the LLP has no room then, as soon as it has (retried every microsecond). "
                                   "A segment longer than the MULPDU of the target's connection in that direction is "
                                   "refused when loading (doc/scenario-format.md, \"inject\")")),
              WorkloadKey{"fields", Shape::Map,
                          Facts(ValueKind::Map, "mapping", "", "header fields by name (below); instead of `hex`"),
                          FieldKeys(), {}},
              Field("hex", Facts(ValueKind::Text, "text", "",
                                 "the raw DDP segment, hex digits (spaces and colons ignored); instead of `fields`"))};
    k.read = ReadInject;
    k.replacesCommon = true;
    k.install = [](WorkloadSite& site) { site.InstallInject(); };
    k.opLabel = [](const WorkloadConfig&) { return std::string("inject"); };
    k.metrics = {};
    return k;
}

} // namespace ns3

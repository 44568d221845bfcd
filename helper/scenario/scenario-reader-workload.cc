/*
 * The workload, inject and tracing sections of the scenario reader, and the node-name checks.
 */
#include "helper/scenario/scenario-reader.h"

#include "apps/socket-stream.h"
#include "common/iwarp-constants.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace ns3
{
namespace scenario
{
namespace
{

const Names<WorkloadKind> kWorkloadKinds = {{"ping-pong", WorkloadKind::PingPong},
                                            {"stream", WorkloadKind::Stream},
                                            {"read", WorkloadKind::Read},
                                            {"sockets-stream", WorkloadKind::SocketsStream},
                                            {"sockets-ping-pong", WorkloadKind::SocketsPingPong},
                                            {"incast", WorkloadKind::Incast},
                                            {"inject", WorkloadKind::Inject}};
const Names<RdmaOp> kOps = {{"write", RdmaOp::Write}, {"send", RdmaOp::Send}, {"read", RdmaOp::Read}};
const Names<PayloadMode> kPayloads = {{"virtual", PayloadMode::Virtual}, {"real", PayloadMode::Real}};
/** RDMAP opcodes by name: iwarp::kOpcodeNames, as the numbers an inject's `opcode` key takes. */
Names<uint8_t>
OpcodeNames()
{
    Names<uint8_t> names;
    for (const iwarp::OpcodeName& n : iwarp::kOpcodeNames)
    {
        names.emplace_back(n.name, uint8_t(n.opcode));
    }
    return names;
}

const Names<uint8_t> kOpcodes = OpcodeNames();

/**
 * Keys each workload kind takes besides name and kind: the "kinds" column of the workloads
 * table in doc/scenario-format.md, key for key.  The sockets baseline has no LLP (it is plain
 * TCP), and an inject has `at`, not `start`: either would otherwise be read and never used.
 */
const std::map<WorkloadKind, std::set<std::string>> kWorkloadKeys = {
    {WorkloadKind::PingPong, {"start", "from", "to", "op", "poll", "size", "sizes", "count", "duration", "llp", "payload"}},
    {WorkloadKind::Stream,
     {"start", "from", "to", "op", "size", "count", "duration", "outstanding", "llp", "payload"}},
    {WorkloadKind::Read, {"start", "from", "to", "op", "size", "count", "duration", "outstanding", "llp", "payload"}},
    {WorkloadKind::SocketsStream, {"start", "from", "to", "size", "count", "duration"}},
    {WorkloadKind::SocketsPingPong, {"start", "from", "to", "size", "sizes", "count", "duration"}},
    {WorkloadKind::Incast,
     {"start", "senders", "to", "op", "size", "count", "duration", "outstanding", "llp", "payload"}},
    {WorkloadKind::Inject, {"target", "from", "to", "at", "fields", "hex"}},
};

/** DDP-030: an RDMA message is shorter than 2^32 octets. */
constexpr uint64_t kMaxMessage = 0xFFFFFFFFull;

} // namespace

void
ScenarioReader::CheckNode(const YAML::Node& n, const std::string& path, const std::string& name, bool hostOnly) const
{
    const auto& known = hostOnly ? m_hosts : m_nodes;
    if (std::find(known.begin(), known.end(), name) != known.end())
    {
        return;
    }
    if (hostOnly && std::find(m_nodes.begin(), m_nodes.end(), name) != m_nodes.end())
    {
        Fail(n, path, "'" + name + "' is a switch, not a host");
    }
    std::string detail = "unknown " + std::string(hostOnly ? "host" : "node") + " '" + name + "'; " + m_topologyText;
    if (m_namesFromFile)
    {
        // Names from a file follow no pattern: list them (the first few).
        auto list = [](const std::vector<std::string>& names, std::size_t from) {
            std::string text;
            for (std::size_t i = from; i < names.size() && i < from + 8; ++i)
            {
                text += (text.empty() ? "" : ", ") + names[i];
            }
            return names.size() > from + 8 ? text + ", ..." : text;
        };
        detail += " has hosts " + list(m_hosts, 0);
        if (!hostOnly && m_nodes.size() > m_hosts.size())
        {
            detail += " and switches " + list(m_nodes, m_hosts.size());
        }
    }
    else
    {
        detail += " has hosts h0..h" + std::to_string(m_hosts.size() - 1);
        if (!hostOnly && m_nodes.size() > m_hosts.size())
        {
            detail += " and switches " + m_nodes[m_hosts.size()] + ".." + m_nodes.back();
        }
    }
    const std::string close = ClosestKey(name, known);
    if (!close.empty())
    {
        detail += "; did you mean '" + close + "'?";
    }
    Fail(n, path, detail);
}

std::pair<std::string, std::string>
ScenarioReader::ReadEndpoints(const YAML::Node& n, const std::string& path) const
{
    if (!n.IsSequence() || n.size() != 2)
    {
        Fail(n, path, "a link is given by its two endpoints, [a, b]");
    }
    const std::string a = Str(n[0], Join(path, "0"));
    const std::string b = Str(n[1], Join(path, "1"));
    CheckNode(n[0], Join(path, "0"), a, false);
    CheckNode(n[1], Join(path, "1"), b, false);
    if (a == b)
    {
        Fail(n, path, "a link joins two different nodes, got '" + a + "' twice");
    }
    return {a, b};
}

WorkloadConfig
ScenarioReader::ReadWorkload(const YAML::Node& n, const std::string& path, std::size_t index) const
{
    CheckKeys(n, path, *ScenarioSchema().fields.at("workloads")->element);
    WorkloadConfig w;
    w.kind = Pick(*this, Required(n, path, "kind"), Join(path, "kind"), kWorkloadKinds, "workload kind");
    const std::string kindName = ToString(w.kind);
    const auto& own = kWorkloadKeys.at(w.kind);
    for (const auto& kv : n)
    {
        const std::string key = kv.first.Scalar();
        if (key == "name" || key == "kind" || own.count(key))
        {
            continue;
        }
        std::string users;
        for (const auto& [kind, keys] : kWorkloadKeys)
        {
            if (keys.count(key))
            {
                users += (users.empty() ? "" : ", ") + std::string(ToString(kind));
            }
        }
        Fail(kv.first, Join(path, key),
             "key '" + key + "' does not apply to workload kind '" + kindName + "' (it applies to: " + users + ")");
    }
    w.name = n["name"] ? Str(n["name"], Join(path, "name")) : kindName + "-" + std::to_string(index);
    if (n["start"])
    {
        w.start = TimeOf(n["start"], Join(path, "start"));
    }

    if (w.kind == WorkloadKind::Inject)
    {
        InjectConfig in;
        in.at = TimeOf(Required(n, path, "at"), Join(path, "at"));
        // from/to and the target are checked against the target workload in ResolveInjects.
        in.from = Str(Required(n, path, "from"), Join(path, "from"));
        in.to = Str(Required(n, path, "to"), Join(path, "to"));
        Required(n, path, "target");
        if (n["fields"] && n["hex"])
        {
            Fail(n["hex"], Join(path, "hex"), "give either fields or hex, not both");
        }
        if (n["fields"])
        {
            in.fields = ReadInjectFields(n["fields"], Join(path, "fields"));
        }
        else if (n["hex"])
        {
            std::string digits;
            for (char c : Str(n["hex"], Join(path, "hex")))
            {
                if (std::isxdigit(static_cast<unsigned char>(c)))
                {
                    digits += c;
                }
                else if (!std::isspace(static_cast<unsigned char>(c)) && c != ':')
                {
                    Fail(n["hex"], Join(path, "hex"), std::string("not a hex digit: '") + c + "'");
                }
            }
            if (digits.empty() || digits.size() % 2 != 0)
            {
                Fail(n["hex"], Join(path, "hex"), "hex needs a whole, non-zero number of octets (pairs of digits)");
            }
            for (std::size_t i = 0; i < digits.size(); i += 2)
            {
                in.raw.push_back(uint8_t(std::stoul(digits.substr(i, 2), nullptr, 16)));
            }
        }
        else
        {
            Fail(n, Join(path, "fields"), "missing required key 'fields' (or 'hex')");
        }
        w.inject = in;
        return w;
    }

    // Endpoints
    if (w.kind == WorkloadKind::Incast)
    {
        const YAML::Node s = Required(n, path, "senders");
        RequireList(s, Join(path, "senders"));
        if (s.size() == 0)
        {
            Fail(s, Join(path, "senders"), "incast needs at least one sender");
        }
        std::set<std::string> listed;
        for (std::size_t i = 0; i < s.size(); ++i)
        {
            const std::string p = Join(Join(path, "senders"), std::to_string(i));
            const std::string sender = Str(s[i], p);
            CheckNode(s[i], p, sender, true);
            if (!listed.insert(sender).second)
            {
                Fail(s[i], p, "sender '" + sender + "' is listed twice");
            }
            w.senders.push_back(sender);
        }
    }
    else
    {
        w.from = Str(Required(n, path, "from"), Join(path, "from"));
        CheckNode(n["from"], Join(path, "from"), w.from, true);
    }
    w.to = Str(Required(n, path, "to"), Join(path, "to"));
    CheckNode(n["to"], Join(path, "to"), w.to, true);
    if (w.to == w.from || std::count(w.senders.begin(), w.senders.end(), w.to))
    {
        Fail(n["to"], Join(path, "to"), "a workload cannot send to its own node '" + w.to + "'");
    }

    // Operation
    if (w.kind == WorkloadKind::Read)
    {
        w.op = RdmaOp::Read;
    }
    if (n["op"])
    {
        w.op = Pick(*this, n["op"], Join(path, "op"), kOps, "op");
        const bool ok = w.kind == WorkloadKind::Stream || (w.kind == WorkloadKind::Read) == (w.op == RdmaOp::Read);
        if (!ok)
        {
            Fail(n["op"], Join(path, "op"),
                 "op '" + std::string(ToString(w.op)) + "' is not possible for workload kind '" + kindName + "'");
        }
    }

    if (n["poll"])
    {
        w.poll = Bool(n["poll"], Join(path, "poll"));
        if (w.poll && w.op != RdmaOp::Write)
        {
            Fail(n["poll"], Join(path, "poll"),
                 "poll: true waits for a Write's last octet, but op is '" + std::string(ToString(w.op)) +
                     "' (poll applies to op write only)");
        }
    }

    // Sizes: the applications take 32-bit sizes of at least one octet (a sockets-stream message
    // carries its 16-octet send timestamp), so anything else would abort in ns-3's attribute checker.
    const uint64_t minSize = w.kind == WorkloadKind::SocketsStream ? SocketStream::kStampSize : 1;
    auto checkSize = [&](const YAML::Node& v, const std::string& p) {
        const uint64_t s = SizeOf(v, p);
        if (s < minSize)
        {
            Fail(v, p,
                 "size " + std::to_string(s) + " is below the smallest message of workload kind '" + kindName + "' (" +
                     std::to_string(minSize) + (minSize == 1 ? " octet)" : " octets: its send timestamp)"));
        }
        if (s > kMaxMessage)
        {
            Fail(v, p,
                 "size " + std::to_string(s) +
                     (IsRdma(w.kind) ? " is above the largest RDMA message (2^32-1 octets, DDP-030)"
                                     : " is above the largest message of the sockets applications (2^32-1 octets)"));
        }
        return s;
    };
    if (n["size"] && n["sizes"])
    {
        Fail(n["sizes"], Join(path, "sizes"), "give either size or sizes, not both");
    }
    if (n["size"])
    {
        w.size = checkSize(n["size"], Join(path, "size"));
    }
    if (const YAML::Node s = n["sizes"])
    {
        RequireList(s, Join(path, "sizes"), kMaxSizes);
        if (s.size() == 0)
        {
            Fail(s, Join(path, "sizes"), "sizes needs at least one size");
        }
        for (std::size_t i = 0; i < s.size(); ++i)
        {
            w.sizes.push_back(checkSize(s[i], Join(Join(path, "sizes"), std::to_string(i))));
        }
    }

    // How much
    if (n["count"] && n["duration"])
    {
        Fail(n["duration"], Join(path, "duration"), "give either count or duration, not both");
    }
    if (n["count"])
    {
        // Ping-pongs count round trips in 32 bits; streams post count x size octets in 64.
        const bool pingPong = w.kind == WorkloadKind::PingPong || w.kind == WorkloadKind::SocketsPingPong;
        w.count = UInt(n["count"], Join(path, "count"), pingPong ? UINT32_MAX : UINT64_MAX);
        if (*w.count == 0)
        {
            Fail(n["count"], Join(path, "count"), "count must be at least 1");
        }
        if (!pingPong && *w.count > UINT64_MAX / w.size)
        {
            Fail(n["count"], Join(path, "count"),
                 "count " + std::to_string(*w.count) + " x size " + std::to_string(w.size) +
                     " is more than 2^64-1 octets");
        }
    }
    else if (n["duration"])
    {
        w.duration = TimeOf(n["duration"], Join(path, "duration"));
        if (!w.duration->IsStrictlyPositive())
        {
            Fail(n["duration"], Join(path, "duration"), "duration must be above zero");
        }
    }
    else
    {
        Fail(n, Join(path, "count"), "missing required key 'count' (or 'duration')");
    }
    if (n["outstanding"])
    {
        w.outstanding = uint32_t(UInt(n["outstanding"], Join(path, "outstanding"), 65535));
        if (w.outstanding == 0)
        {
            Fail(n["outstanding"], Join(path, "outstanding"), "outstanding must be at least 1");
        }
    }
    if (n["llp"])
    {
        w.llp = PickLlp(*this, n["llp"], Join(path, "llp"));
    }
    if (n["payload"])
    {
        w.payload = Pick(*this, n["payload"], Join(path, "payload"), kPayloads, "payload mode");
    }
    return w;
}

InjectFields
ScenarioReader::ReadInjectFields(const YAML::Node& n, const std::string& path) const
{
    CheckKeys(n, path, *ScenarioSchema().fields.at("workloads")->element->fields.at("fields"));
    InjectFields f;
    auto num = [&](const char* key, uint64_t max) -> std::optional<uint64_t> {
        if (!n[key])
        {
            return std::nullopt;
        }
        return UInt(n[key], Join(path, key), max);
    };
    if (n["tagged"])
    {
        f.tagged = Bool(n["tagged"], Join(path, "tagged"));
    }
    if (n["last"])
    {
        f.last = Bool(n["last"], Join(path, "last"));
    }
    if (auto v = num("dv", 3))
    {
        f.dv = uint8_t(*v);
    }
    // RsvdULP is 8 bits in a tagged header and 40 in an untagged one (RFC 5041 §4.2, §4.3).
    const bool tagged = f.tagged.value_or(false);
    f.rsvdUlp = num("rsvdulp", tagged ? 0xFFull : 0xFFFFFFFFFFull);
    if (auto v = num("stag", UINT32_MAX))
    {
        f.stag = uint32_t(*v);
    }
    f.to = num("to", UINT64_MAX);
    if (auto v = num("qn", UINT32_MAX))
    {
        f.qn = uint32_t(*v);
    }
    if (auto v = num("msn", UINT32_MAX))
    {
        f.msn = uint32_t(*v);
    }
    if (auto v = num("mo", UINT32_MAX))
    {
        f.mo = uint32_t(*v);
    }
    if (auto v = num("rv", 3))
    {
        f.rv = uint8_t(*v);
    }
    if (const YAML::Node op = n["opcode"])
    {
        const std::string s = Str(op, Join(path, "opcode"));
        f.opcode = !s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))
                       ? uint8_t(UInt(op, Join(path, "opcode"), 15))
                       : Pick(*this, op, Join(path, "opcode"), kOpcodes, "RDMAP opcode");
    }
    if (auto v = num("payload", kMaxMessage))
    {
        f.payload = uint32_t(*v);
    }
    if (tagged && (f.qn || f.msn || f.mo))
    {
        Fail(n, path, "qn, msn and mo belong to untagged segments (tagged: false)");
    }
    if (f.tagged && !tagged && (f.stag || f.to))
    {
        Fail(n, path, "stag and to belong to tagged segments (tagged: true)");
    }
    return f;
}

std::size_t
ScenarioReader::WorkloadIndex(const YAML::Node& n,
                              const std::string& path,
                              const std::vector<WorkloadConfig>& workloads) const
{
    const std::string text = Str(n, path);
    std::size_t index = workloads.size();
    const bool isIndex = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (isIndex)
    {
        index = text.size() > 18 ? workloads.size() : std::size_t(std::stoull(text)); // past the end
    }
    else
    {
        for (std::size_t j = 0; j < workloads.size(); ++j)
        {
            index = workloads[j].name == text ? j : index;
        }
    }
    if (index >= workloads.size())
    {
        Fail(n, path, "no workload '" + text + "' (give a workload name or index)");
    }
    return index;
}

void
ScenarioReader::ResolveInjects(const YAML::Node& list, const std::string& path, ScenarioConfig& cfg) const
{
    for (std::size_t i = 0; i < cfg.workloads.size(); ++i)
    {
        WorkloadConfig& w = cfg.workloads[i];
        if (w.kind != WorkloadKind::Inject)
        {
            continue;
        }
        const std::string p = Join(path, std::to_string(i));
        const YAML::Node t = list[i]["target"];
        const std::size_t target = WorkloadIndex(t, Join(p, "target"), cfg.workloads);
        const WorkloadConfig& tw = cfg.workloads[target];
        if (!IsRdma(tw.kind))
        {
            Fail(t, Join(p, "target"), "workload '" + tw.name + "' (" + ToString(tw.kind) +
                                           ") has no DDP stream to inject into");
        }
        InjectConfig& in = *w.inject;
        in.targetIndex = target;
        // One end must be the target's responder, the other its initiator (or an incast sender).
        auto isSender = [&](const std::string& n) {
            return tw.kind == WorkloadKind::Incast ? std::count(tw.senders.begin(), tw.senders.end(), n) > 0
                                                   : n == tw.from;
        };
        const bool ok = (isSender(in.from) && in.to == tw.to) || (in.from == tw.to && isSender(in.to));
        if (!ok)
        {
            Fail(list[i]["from"], Join(p, "from"),
                 "'" + in.from + "' -> '" + in.to + "' is not a direction of workload '" + tw.name + "'s connection");
        }
    }
}

void
ScenarioReader::ReadTracing(const YAML::Node& n, const std::string& path, TracingConfig& t) const
{
    CheckKeys(n, path, *ScenarioSchema().fields.at("tracing"));
    if (const YAML::Node p = n["pcap"])
    {
        const std::string pp = Join(path, "pcap");
        if (p.IsScalar())
        {
            const std::string s = p.Scalar();
            if (s == "all")
            {
                t.pcapAll = true;
            }
            else if (s != "none")
            {
                Fail(p, pp, "pcap is 'all', 'none' or a list of links [a, b], got \"" + s + "\"");
            }
        }
        else
        {
            RequireList(p, pp);
            for (std::size_t i = 0; i < p.size(); ++i)
            {
                t.pcapLinks.push_back(ReadEndpoints(p[i], Join(pp, std::to_string(i))));
            }
        }
    }
    if (n["directory"])
    {
        t.directory = Str(n["directory"], Join(path, "directory"));
        while (t.directory.size() > 1 && t.directory.back() == '/')
        {
            t.directory.pop_back(); // "traces/" is the folder "traces"
        }
        // Inside the results folder, which appears whole or not at all: a path out of it would be
        // written outside that promise (and left behind by a failed run).
        bool inside = !t.directory.empty() && t.directory[0] != '/';
        for (std::size_t b = 0; inside && b <= t.directory.size();)
        {
            const std::size_t e = std::min(t.directory.find('/', b), t.directory.size());
            const std::string part = t.directory.substr(b, e - b);
            inside = !part.empty() && part != "." && part != "..";
            b = e + 1;
        }
        if (!inside)
        {
            Fail(n["directory"], Join(path, "directory"),
                 "the pcap folder is a relative path inside the results folder, without empty, '.' or '..' parts; "
                 "got \"" + t.directory + "\"");
        }
    }
}

} // namespace scenario
} // namespace ns3

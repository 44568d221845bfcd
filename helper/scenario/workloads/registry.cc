/*
 * The workload registry's table: the built-in kinds, listed here by a function (not by static
 * objects of their files, which a static link could drop), then whatever RegisterWorkloadKind adds.
 */
#include "helper/scenario/workloads/built-in-kinds.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <stdexcept>

namespace ns3
{
namespace
{

struct Registry
{
    std::deque<WorkloadKindInfo> entries; ///< a deque: entries never move, handles keep their names
    std::vector<const WorkloadKindInfo*> list;
    uint64_t version{0};

    void Add(WorkloadKindInfo info)
    {
        entries.push_back(std::move(info));
        list.push_back(&entries.back());
        ++version;
    }
};

Registry&
TheRegistry()
{
    static Registry r = [] {
        Registry built;
        // The documented order (doc/scenario-format.md): error messages list the kinds in it.
        for (WorkloadKindInfo (*kind)() : {PingPongKind,
                                           StreamKind,
                                           ReadKind,
                                           SocketsStreamKind,
                                           SocketsPingPongKind,
                                           IncastKind,
                                           InjectKind,
                                           TrafficKind,
                                           SocketsTrafficKind,
                                           CollectiveKind})
        {
            built.Add(kind());
        }
        return built;
    }();
    return r;
}

const char*
ShapeName(WorkloadKey::Shape s)
{
    return s == WorkloadKey::Shape::Scalar ? "scalar" : s == WorkloadKey::Shape::List ? "list" : "map";
}

/** A key for `iwarp-sim workloads --json`: its facts as the docs give them, and the range the loader checks. */
nlohmann::json
KeyJson(const WorkloadKey& key)
{
    nlohmann::json j = {{"name", key.name},
                        {"shape", ShapeName(key.shape)},
                        {"type", key.info.type},
                        {"default", key.info.defaultText},
                        {"doc", key.info.meaning},
                        {"required", key.info.required}};
    if (key.info.minimum)
    {
        j["minimum"] = *key.info.minimum;
    }
    if (key.info.maximum)
    {
        j["maximum"] = *key.info.maximum;
    }
    if (!key.info.choices.empty())
    {
        j["choices"] = key.info.choices;
    }
    if (!key.fields.empty())
    {
        j["fields"] = key.FieldNames();
    }
    return j;
}

} // namespace

std::vector<std::string>
WorkloadKey::FieldNames() const
{
    std::vector<std::string> names;
    for (const WorkloadKey& f : fields)
    {
        names.push_back(f.name);
    }
    return names;
}

const char*
ToString(WorkloadFamily f)
{
    return f == WorkloadFamily::Rdma ? "rdma" : f == WorkloadFamily::Sockets ? "sockets" : "inject";
}

const std::vector<const WorkloadKindInfo*>&
WorkloadKinds()
{
    return TheRegistry().list;
}

const WorkloadKindInfo*
FindWorkloadKind(const std::string& name)
{
    for (const WorkloadKindInfo* k : WorkloadKinds())
    {
        if (k->name == name)
        {
            return k;
        }
    }
    return nullptr;
}

const WorkloadKindInfo&
Describe(WorkloadKind kind)
{
    if (const WorkloadKindInfo* k = FindWorkloadKind(kind.Name()))
    {
        return *k;
    }
    // A handle is made from a registry name or a built-in constant: this is a programming error.
    throw std::logic_error(std::string("workload kind '") + kind.Name() + "' is not registered");
}

bool
IsRdma(WorkloadKind k)
{
    return Describe(k).family == WorkloadFamily::Rdma;
}

void
RegisterWorkloadKind(WorkloadKindInfo info)
{
    if (info.name.empty())
    {
        throw std::invalid_argument("a workload kind needs a name");
    }
    if (FindWorkloadKind(info.name))
    {
        throw std::invalid_argument("workload kind '" + info.name + "' is already registered");
    }
    if (!info.install)
    {
        throw std::invalid_argument("workload kind '" + info.name + "' has no installer");
    }
    if (info.replacesCommon && !info.read)
    {
        throw std::invalid_argument("workload kind '" + info.name + "' replaces the common keys but has no reader");
    }
    if (info.family == WorkloadFamily::Inject && !(info.replacesCommon && info.read))
    {
        // Only its own reader can fill the inject an Inject kind rides on (WorkloadConfig::inject).
        throw std::invalid_argument("workload kind '" + info.name + "' is an inject: it needs a reader that "
                                    "replaces the common keys and fills its inject");
    }
    // The schema has one node per key name: a key two kinds share has one shape, and so a key of one kind.
    for (std::size_t i = 0; i < info.keys.size(); ++i)
    {
        for (std::size_t j = 0; j < i; ++j)
        {
            if (info.keys[j].name == info.keys[i].name)
            {
                throw std::invalid_argument("workload kind '" + info.name + "' lists key '" + info.keys[i].name +
                                            "' twice");
            }
        }
    }
    for (const WorkloadKey& key : info.keys)
    {
        for (const WorkloadKindInfo* other : WorkloadKinds())
        {
            for (const WorkloadKey& theirs : other->keys)
            {
                if (theirs.name == key.name && (theirs.shape != key.shape || theirs.FieldNames() != key.FieldNames()))
                {
                    throw std::invalid_argument("key '" + key.name + "' of workload kind '" + info.name + "' is a " +
                                                ShapeName(key.shape) + ", but a " + ShapeName(theirs.shape) +
                                                " (with the same fields) for '" + other->name + "'");
                }
            }
        }
    }
    TheRegistry().Add(std::move(info));
}

uint64_t
WorkloadRegistryVersion()
{
    return TheRegistry().version;
}

std::string
WorkloadKindsJson()
{
    nlohmann::json kinds = nlohmann::json::array();
    for (const WorkloadKindInfo* k : WorkloadKinds())
    {
        nlohmann::json keys = nlohmann::json::array();
        uint64_t minSize = 1; // the `size` key's minimum, where the kind has one
        for (const WorkloadKey& key : k->keys)
        {
            keys.push_back(KeyJson(key));
            if (key.name == "size" && key.info.minimum)
            {
                minSize = uint64_t(*key.info.minimum);
            }
        }
        nlohmann::json ops = nlohmann::json::array();
        for (RdmaOp op : k->ops)
        {
            ops.push_back(ToString(op));
        }
        kinds.push_back({{"name", k->name},
                         {"family", ToString(k->family)},
                         {"rdma", k->family == WorkloadFamily::Rdma},
                         {"summary", k->summary},
                         {"ping_pong", k->pingPong},
                         {"many_senders", k->manySenders},
                         {"host_group", k->hostGroup},
                         {"ops", ops},
                         {"min_size", minSize},
                         {"metrics", k->metrics},
                         {"keys", keys}});
    }
    return kinds.dump(2) + "\n";
}

} // namespace ns3

/*
 * The keys of a `transport` level (doc/scenario-format.md, "transport"), each declared once: its name, what
 * it takes, its default and that default's source, the socket attributes it sets, and how it is read,
 * resolved, recorded in summary.json and applied to a host's sockets. The reader, the key schema, the
 * resolution per host, the runner, summary.json and the table of doc/scenario-format.md all walk this list;
 * none of them names a transport key. Adding one is an entry in transport-keys.cc, the settings fields it
 * fills (transport-settings.h) and a test; in prose, a line on why its default was chosen (doc/transports.md,
 * "Defaults") and its summary.json field (doc/metrics.md, "transport").
 *
 * What spans keys stays by hand: ECN's default under DCTCP (ResolveTransport) and the contradictions
 * between keys and hosts (ScenarioReader::CheckTransport).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_TRANSPORT_KEYS_H
#define IWARP_SCENARIO_TRANSPORT_KEYS_H

#include "helper/scenario/transport-settings.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <vector>

namespace YAML
{
class Node;
}

namespace ns3
{
class TransportProfile;

namespace scenario
{
class ScenarioReader;
}

/** One key of a `transport` level (the section itself, or an entry of its `hosts`). */
struct TransportKey
{
    /** As the file spells it below the level: "tcp.min-rto", "buffers.send". */
    std::string key;
    /** What it takes, for the docs: "time > 0". */
    std::string value;
    /** The docs' default where it is a rule rather than a value; empty: the default setting, as text. */
    std::string defaultText;
    /** Where the default comes from. */
    std::string source;
    /** The socket attributes it sets (full names): a `host:` or `rnic:` map may not set them too. */
    std::vector<std::string> attributes;

    /** Reads the value `v` found at `path` into `level`, refusing what is out of range. */
    std::function<void(const scenario::ScenarioReader&, const YAML::Node& v, const std::string& path,
                       TransportLevelConfig& level)>
        read;
    /** Puts its default into `s`; empty for a key with no setting of its own (`buffers.*`). */
    std::function<void(TransportSettings& s)> setDefault;
    /**
     * Copies `level`'s value into `s` and returns the key below the level that gave it ("tcp.send-buffer",
     * or the shared "buffers.send"); returns "" when the level gives none. Empty like setDefault.
     */
    std::function<std::string(const TransportLevelConfig& level, TransportSettings& s)> take;
    /** Adds its summary.json fields (doc/metrics.md, "transport") to `out`, the `tcp` or `sctp` object. */
    std::function<void(const TransportSettings& s, nlohmann::json& out)> record;
    /** The setting as text (the docs' default column). */
    std::function<std::string(const TransportSettings& s)> text;
    /** Sets it on a host's sockets. */
    std::function<void(const TransportSettings& s, TransportProfile& profile)> apply;

    /** "tcp", "sctp" or "buffers". */
    std::string Section() const;
    /** The name within its section: "min-rto". */
    std::string Name() const;
};

/** Every key, in the order the docs list them. */
const std::vector<TransportKey>& TransportKeys();

/** The sections of `transport`, in the order of their first key in TransportKeys(): "tcp", "sctp", "buffers". */
const std::vector<std::string>& TransportSections();

/** The key table of doc/scenario-format.md ("transport"), as Markdown (`iwarp-sim keys --markdown`). */
std::string TransportKeysMarkdown();

} // namespace ns3

#endif // IWARP_SCENARIO_TRANSPORT_KEYS_H

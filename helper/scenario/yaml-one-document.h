/*
 * LoadOneYamlDocument: the scenario file's YAML as one document, refusing a second one, without
 * YAML::LoadAll. yaml-cpp 0.7 (Debian 12) loops in LoadAll, allocating without end, on some
 * malformed input (the parser reports an empty document again and again without consuming a
 * token; fixed upstream after 0.8). The fuzz target scenario-loader found such an input: the
 * checker ran out of memory instead of answering.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_YAML_ONE_DOCUMENT_H
#define IWARP_YAML_ONE_DOCUMENT_H

#include <yaml-cpp/yaml.h>

#include <string>

namespace ns3
{
namespace scenario
{

/**
 * The first document of `text`. Throws YAML::ParserException for a syntax error, for a second
 * document that holds anything (an empty one after a trailing '---' is accepted), and where the
 * parser stops making progress; each with the mark where it happened.
 */
YAML::Node LoadOneYamlDocument(const std::string& text);

} // namespace scenario
} // namespace ns3

#endif // IWARP_YAML_ONE_DOCUMENT_H

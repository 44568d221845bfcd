/*
 * GraphML files for the loader's tests: GraphMl writes a file of two hosts and one edge into the
 * temporary folder, OnGraphMl is a scenario on it, EdgeError what loading it says of the edge
 * (iwarp-scenario-input, iwarp-scenario-plausibility).
 */
#ifndef IWARP_TEST_GRAPHML_FILE_H
#define IWARP_TEST_GRAPHML_FILE_H

#include "support/scenario-run-util.h"

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace ns3
{

/** A GraphML file of hosts a and b and one edge with `edgeData`; node a is called `a`. */
inline std::string
GraphMl(const std::string& name, const std::string& edgeData, const std::string& a = "a")
{
    namespace fs = std::filesystem;
    const std::string path = (fs::temp_directory_path() / ("iwarp-input-" + std::to_string(::getpid()) + "-" + name))
                                 .string();
    std::ofstream(path) << "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                           "<key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
                           "<key id=\"r\" for=\"edge\" attr.name=\"rate\" attr.type=\"string\"/>\n"
                           "<key id=\"d\" for=\"edge\" attr.name=\"delay\" attr.type=\"string\"/>\n"
                           "<key id=\"q\" for=\"edge\" attr.name=\"queue\" attr.type=\"string\"/>\n"
                           "<graph edgedefault=\"undirected\">\n"
                           "<node id=\"" + a + "\"><data key=\"k\">host</data></node>\n"
                           "<node id=\"b\"><data key=\"k\">host</data></node>\n"
                           "<edge source=\"" + a + "\" target=\"b\">" + edgeData + "</edge>\n"
                           "</graph>\n</graphml>\n";
    return path;
}

/** A scenario on the GraphML file `path`: a stream from `a` to b, and `more`. */
inline std::string
OnGraphMl(const std::string& path, const std::string& more = "", const std::string& a = "a")
{
    return "stop: 10ms\ntopology: {kind: graphml, file: " + path + "}\nworkloads:\n  - {kind: stream, from: \"" + a +
           "\", to: b, count: 1}\n" + more;
}

/**
 * What loading a scenario on a GraphML file (named `name`) whose one edge has `edgeData` says of that
 * edge: the error after the prefix naming the scenario's line, the file and the edge, or the whole
 * error when it does not begin so ("" when the scenario loads).
 */
inline std::string
EdgeError(const std::string& name, const std::string& edgeData)
{
    const std::string path = GraphMl(name, edgeData);
    const std::string prefix =
        "s.yaml:2:33: topology.file: GraphML file '" + path + "': <edge source=\"a\" target=\"b\">: ";
    const std::string error = ErrorOf(OnGraphMl(path));
    return error.rfind(prefix, 0) == 0 ? error.substr(prefix.size()) : error;
}

} // namespace ns3

#endif // IWARP_TEST_GRAPHML_FILE_H

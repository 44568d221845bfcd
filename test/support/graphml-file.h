/*
 * GraphML files for the loader's tests: GraphMl writes a file of two hosts and one edge into the
 * temporary folder, OnGraphMl is a scenario on it (iwarp-scenario-input, iwarp-scenario-plausibility).
 */
#ifndef IWARP_TEST_GRAPHML_FILE_H
#define IWARP_TEST_GRAPHML_FILE_H

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

} // namespace ns3

#endif // IWARP_TEST_GRAPHML_FILE_H

/*
 * The one exception a scenario file's problems leave through.  what() is the whole message, in
 * the form compilers use so that editors can jump to it:
 *
 *   incast.yaml:12:11: workloads.0.size: unknown unit 'KQ' in size "64KQ" (expected one of ...)
 *
 * For a value that came from a --set override the location is the override instead:
 *
 *   --set workloads.0.size=64KQ: workloads.0.size: unknown unit 'KQ' ...
 *
 * Line and column are 1-based; 0 when there is no position (a file that cannot be opened).
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_ERROR_H
#define IWARP_SCENARIO_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

class ScenarioError : public std::runtime_error
{
  public:
    ScenarioError(std::string source, int line, int column, std::string path, std::string detail)
        : std::runtime_error(Format(source, line, column, path, detail)),
          m_source(std::move(source)),
          m_line(line),
          m_column(column),
          m_path(std::move(path)),
          m_detail(std::move(detail))
    {
    }

    const std::string& Source() const { return m_source; } ///< file name, "<string>" or "--set k=v"
    int Line() const { return m_line; }
    int Column() const { return m_column; }
    const std::string& Path() const { return m_path; }     ///< dot path of the key, "" for the root
    const std::string& Detail() const { return m_detail; } ///< the message without the location

  private:
    static std::string Format(const std::string& source,
                              int line,
                              int column,
                              const std::string& path,
                              const std::string& detail)
    {
        std::string s = source;
        if (line > 0)
        {
            s += ":" + std::to_string(line) + ":" + std::to_string(column);
        }
        s += ": ";
        if (!path.empty())
        {
            s += path + ": ";
        }
        return s + detail;
    }

    std::string m_source;
    int m_line;
    int m_column;
    std::string m_path;
    std::string m_detail;
};

} // namespace ns3

#endif // IWARP_SCENARIO_ERROR_H

/*
 * series.csv read back in a test (doc/metrics.md, "Time series"): its rows, and its series by (subject, quantity).
 */
#ifndef IWARP_TEST_SERIES_CSV_H
#define IWARP_TEST_SERIES_CSV_H

#include "ns3/abort.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace iwarptest
{

/** One row of series.csv. */
struct Row
{
    int64_t timeNs;
    std::string subject;
    std::string quantity;
    double value;
    std::string unit;
};

inline std::vector<Row>
ReadCsv(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    NS_ABORT_MSG_UNLESS(line == "time_ns,subject,quantity,value,unit", "series.csv header: " << line);
    std::vector<Row> rows;
    while (std::getline(in, line))
    {
        std::istringstream s(line);
        std::string time, subject, quantity, value, unit;
        std::getline(s, time, ',');
        std::getline(s, subject, ',');
        std::getline(s, quantity, ',');
        std::getline(s, value, ',');
        std::getline(s, unit, ',');
        rows.push_back(Row{std::stoll(time), subject, quantity, std::stod(value), unit});
    }
    return rows;
}

/** (subject, quantity) -> its rows' (time, value), in time order. */
inline std::map<std::pair<std::string, std::string>, std::vector<std::pair<int64_t, double>>>
BySeries(const std::vector<Row>& rows)
{
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<int64_t, double>>> s;
    for (const Row& r : rows)
    {
        s[{r.subject, r.quantity}].emplace_back(r.timeNs, r.value);
    }
    return s;
}

} // namespace iwarptest
} // namespace ns3

#endif // IWARP_TEST_SERIES_CSV_H

/*
 * Shared by the two scenario-runner suites (scenario-runner-test-suite.cc,
 * scenario-runner-behaviour-test-suite.cc): ReadAll, the whole text of a results file.
 */
#ifndef IWARP_TEST_SCENARIO_RUNNER_TEST_UTIL_H
#define IWARP_TEST_SCENARIO_RUNNER_TEST_UTIL_H

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ns3
{
namespace runnertest
{

inline std::string
ReadAll(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace runnertest
} // namespace ns3

#endif // IWARP_TEST_SCENARIO_RUNNER_TEST_UTIL_H

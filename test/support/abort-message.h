/*
 * What `f` prints to stderr as it aborts (NS_ABORT_MSG, NS_FATAL_ERROR), or "" when it returns:
 * `f` runs in a forked child, so a fatal error can be tested without ending the test runner.
 */
#ifndef IWARP_TEST_ABORT_MESSAGE_H
#define IWARP_TEST_ABORT_MESSAGE_H

#include <functional>
#include <string>

namespace ns3
{

std::string AbortMessage(const std::function<void()>& f);

} // namespace ns3

#endif // IWARP_TEST_ABORT_MESSAGE_H

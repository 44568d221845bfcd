/*
 * The message of the exception of type E that `f` throws, or "" when it throws none: the error
 * cases of the loader, unit and topology suites compare it with the exact text a user sees.
 */
#ifndef IWARP_TEST_THROWN_MESSAGE_H
#define IWARP_TEST_THROWN_MESSAGE_H

#include <functional>
#include <string>

namespace ns3
{

template <class E>
std::string
ThrownMessage(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        return e.what();
    }
    return "";
}

} // namespace ns3

#endif // IWARP_TEST_THROWN_MESSAGE_H

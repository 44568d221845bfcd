#include "helper/scenario/interrupt-cleanup.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include <pthread.h>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

// Never destroyed: the signal thread may still use them while the process runs its exit handlers.
std::mutex&
RegistryMutex()
{
    static auto* m = new std::mutex;
    return *m;
}

std::map<std::string, std::vector<std::string>>&
Registry()
{
    static auto* r = new std::map<std::string, std::vector<std::string>>;
    return *r;
}

std::string&
ProgramName()
{
    static auto* name = new std::string("iwarp");
    return *name;
}

/** One line on stderr with write(2): no stream locks that another thread might hold. */
void
Say(const std::string& line)
{
    const std::string text = ProgramName() + ": " + line + "\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
}

/**
 * Remove the folders a few times over: the simulation thread keeps running meanwhile, and a
 * writer that was being constructed may register its folder just after the first pass.
 */
void
RemoveRepeatedly()
{
    for (int pass = 0; pass < 5; ++pass)
    {
        RemoveTemporaryFolders();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

void
WaitForSignals(sigset_t set)
{
    int sig = 0;
    while (::sigwait(&set, &sig) != 0)
    {
    }
    RemoveRepeatedly();
    Say("interrupted; nothing written");
    ::_exit(128 + sig);
}

[[noreturn]] void
OnTerminate()
{
    // An uncaught exception (or ns-3's NS_FATAL_ERROR / NS_ASSERT, which call std::terminate):
    // say what it was, leave no temporary folder, and exit as a failed run rather than abort.
    std::string what = "fatal error";
    if (std::exception_ptr e = std::current_exception())
    {
        try
        {
            std::rethrow_exception(e);
        }
        catch (const std::exception& ex)
        {
            what += ": " + std::string(ex.what());
        }
        catch (...)
        {
            what += ": an unknown exception";
        }
    }
    RemoveRepeatedly();
    Say(what + "; nothing written");
    ::_exit(1);
}

} // namespace

void
RegisterTemporaryFolder(const std::string& temp, const std::vector<std::string>& createdParents)
{
    std::lock_guard<std::mutex> lock(RegistryMutex());
    Registry()[temp] = createdParents;
}

void
UnregisterTemporaryFolder(const std::string& temp)
{
    std::lock_guard<std::mutex> lock(RegistryMutex());
    Registry().erase(temp);
}

std::size_t
RemoveTemporaryFolders()
{
    std::lock_guard<std::mutex> lock(RegistryMutex());
    for (const auto& [temp, parents] : Registry())
    {
        RemoveFolderAndParents(temp, parents);
    }
    return Registry().size();
}

void
RemoveFolderAndParents(const std::string& temp, const std::vector<std::string>& createdParents)
{
    std::error_code ec;
    fs::remove_all(temp, ec);
    for (const auto& dir : createdParents)
    {
        fs::remove(dir, ec); // only if empty
    }
}

void
InstallInterruptCleanup(const std::string& program)
{
    ProgramName() = program;
    std::set_terminate(OnTerminate);
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM})
    {
        struct sigaction old = {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN)
        {
            sigaddset(&set, sig);
        }
    }
    if (sigisemptyset(&set))
    {
        return;
    }
    // Blocked before the thread starts, so that it and every later thread inherit the mask and
    // only sigwait ever takes these signals.
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(WaitForSignals, set).detach();
}

} // namespace ns3

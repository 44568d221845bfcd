#include "helper/scenario/interrupt-cleanup.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

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

/** The signal a crashed thread stopped on (0: none), set by OnCrash for the waiting thread. */
std::atomic<int> g_crash{0};

/** What wakes the waiting thread after a crash: blocked in every thread, so only sigwait takes it. */
constexpr int kCrashWakeUp = SIGUSR2;

/** The signals OnCrash handles. */
constexpr int kCrashSignals[] = {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT};

void
WaitForSignals(sigset_t set, bool interrupts)
{
    // A crash signal sent to the process (kill -SEGV) must reach a simulation thread, not this one,
    // which OnCrash would keep from doing the cleanup.
    sigset_t crashes;
    sigemptyset(&crashes);
    for (int sig : kCrashSignals)
    {
        sigaddset(&crashes, sig);
    }
    ::pthread_sigmask(SIG_BLOCK, &crashes, nullptr);
    int sig = 0;
    for (;;)
    {
        while (::sigwait(&set, &sig) != 0)
        {
        }
        if (sig != kCrashWakeUp)
        {
            break; // SIGINT, SIGTERM
        }
        if (const int crash = g_crash.load())
        {
            RemoveRepeatedly();
            Say(std::string("crashed (") + ::sigabbrev_np(crash) + "); nothing written");
            ::_exit(128 + crash);
        }
        // A SIGUSR2 from outside: not ours to act on.
    }
    if (!interrupts)
    {
        return;
    }
    RemoveRepeatedly();
    Say("interrupted; nothing written");
    ::_exit(128 + sig);
}

/**
 * A fatal signal of the simulation itself (SIGSEGV, SIGFPE, SIGBUS, SIGILL, a stray SIGABRT):
 * nothing may be done here that is not async-signal-safe, so the waiting thread removes the
 * folders and ends the process; this thread only wakes it and waits.  Should that not happen
 * within a few seconds (the crash broke what the cleanup needs), the signal takes its course.
 */
void
OnCrash(int sig)
{
    int none = 0;
    if (g_crash.compare_exchange_strong(none, sig))
    {
        ::kill(::getpid(), kCrashWakeUp);
        for (int i = 0; i < 300; ++i)
        {
            const struct timespec tick = {0, 10 * 1000 * 1000};
            ::nanosleep(&tick, nullptr);
        }
    }
    ::signal(sig, SIG_DFL);
    ::raise(sig);
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
    bool interrupts = false;
    for (int sig : {SIGINT, SIGTERM})
    {
        struct sigaction old = {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN)
        {
            sigaddset(&set, sig);
            interrupts = true;
        }
    }
    sigaddset(&set, kCrashWakeUp);
    // Blocked before the thread starts, so that it and every later thread inherit the mask and
    // only sigwait ever takes these signals.
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(WaitForSignals, set, interrupts).detach();
    // An alternate stack, so that a stack overflow (SIGSEGV) can still be handled on this thread.
    static std::vector<char> altStack(64 * 1024);
    stack_t ss = {};
    ss.ss_sp = altStack.data();
    ss.ss_size = altStack.size();
    ::sigaltstack(&ss, nullptr);
    for (int sig : kCrashSignals)
    {
        struct sigaction crash = {};
        crash.sa_handler = OnCrash;
        crash.sa_flags = SA_ONSTACK;
        sigemptyset(&crash.sa_mask);
        ::sigaction(sig, &crash, nullptr);
    }
}

} // namespace ns3

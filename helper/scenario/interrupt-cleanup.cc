#include "helper/scenario/interrupt-cleanup.h"

#include "helper/scenario/remove-tree-no-alloc.h"

#include <atomic>
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

/** The program's name for the messages, fixed at installation (no heap use when saying them). */
char g_program[64] = "iwarp";

/** Append `text` to the line being built in `line` (of `capacity` octets), truncating. */
void
Append(char* line, std::size_t capacity, std::size_t& used, const char* text)
{
    for (; *text != '\0' && used + 1 < capacity; ++text)
    {
        line[used++] = *text;
    }
    line[used] = '\0';
}

/**
 * "<program>: <first><second><third>" on stderr with one write(2): no stream locks, no heap, so that it
 * also works after a crash inside malloc.
 */
void
Say(const char* first, const char* second = "", const char* third = "")
{
    char line[256];
    std::size_t used = 0;
    Append(line, sizeof(line), used, g_program);
    Append(line, sizeof(line), used, ": ");
    Append(line, sizeof(line), used, first);
    Append(line, sizeof(line), used, second);
    Append(line, sizeof(line), used, third);
    Append(line, sizeof(line), used, "\n");
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, line, used);
}

/*
 * The registry as the signal thread reads it: the same folders, flattened into a fixed buffer that
 * Register/Unregister rewrite under a sequence lock.  Each entry is the temporary folder, then its
 * created parents, each ending in a NUL, and an empty string after them; an empty string where an
 * entry would start ends the list.  The signal thread copies it without taking RegistryMutex (a
 * crashed thread may hold it) and without allocating (it may have crashed inside malloc).
 */
constexpr std::size_t kSnapshotBytes = 64 * 1024;
char g_snapshot[kSnapshotBytes] = {};
/** Odd while a writer rewrites g_snapshot. */
std::atomic<unsigned> g_snapshotVersion{0};
/** Entries left out of the snapshot for lack of room (they are still removed by their writer). */
std::atomic<std::size_t> g_snapshotOmitted{0};

/** Rewrite g_snapshot from Registry(); called with RegistryMutex held. */
void
PublishSnapshot()
{
    const unsigned version = g_snapshotVersion.load(std::memory_order_relaxed);
    g_snapshotVersion.store(version + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    std::size_t used = 0;
    std::size_t omitted = 0;
    for (const auto& [temp, parents] : Registry())
    {
        std::size_t need = temp.size() + 2; // its NUL and the empty string closing the entry
        for (const auto& parent : parents)
        {
            need += parent.size() + 1;
        }
        if (used + need + 1 > kSnapshotBytes) // + 1: the empty string closing the list
        {
            ++omitted;
            continue;
        }
        auto put = [&used](const std::string& text) {
            std::memcpy(g_snapshot + used, text.c_str(), text.size() + 1);
            used += text.size() + 1;
        };
        put(temp);
        for (const auto& parent : parents)
        {
            put(parent);
        }
        g_snapshot[used++] = '\0';
    }
    g_snapshot[used] = '\0';
    g_snapshotOmitted.store(omitted, std::memory_order_relaxed);
    g_snapshotVersion.store(version + 2, std::memory_order_release);
}

/**
 * Copy g_snapshot into `copy` once no writer is rewriting it; false if a writer is still at it
 * after a few tries (a thread that crashed while registering a folder).
 */
bool
ReadSnapshot(char* copy)
{
    for (int attempt = 0; attempt < 100; ++attempt)
    {
        const unsigned before = g_snapshotVersion.load(std::memory_order_acquire);
        if ((before & 1U) == 0)
        {
            std::memcpy(copy, g_snapshot, kSnapshotBytes);
            std::atomic_thread_fence(std::memory_order_acquire);
            if (g_snapshotVersion.load(std::memory_order_relaxed) == before)
            {
                return true;
            }
        }
        const struct timespec tick = {0, 1000 * 1000};
        ::nanosleep(&tick, nullptr);
    }
    return false;
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
        const struct timespec pause = {0, 20 * 1000 * 1000};
        ::nanosleep(&pause, nullptr);
    }
    if (g_snapshotOmitted.load(std::memory_order_relaxed) > 0)
    {
        Say("some temporary results folders did not fit the cleanup list (64 KiB of paths) and are left");
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
            const char* name = ::sigabbrev_np(crash);
            Say("crashed (", name != nullptr ? name : "?", "); nothing written");
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
    Say(what.c_str(), "; nothing written");
    ::_exit(1);
}

} // namespace

void
RegisterTemporaryFolder(const std::string& temp, const std::vector<std::string>& createdParents)
{
    std::lock_guard<std::mutex> lock(RegistryMutex());
    Registry()[temp] = createdParents;
    PublishSnapshot();
}

void
UnregisterTemporaryFolder(const std::string& temp)
{
    std::lock_guard<std::mutex> lock(RegistryMutex());
    Registry().erase(temp);
    PublishSnapshot();
}

std::size_t
RemoveTemporaryFolders()
{
    // Only the snapshot, and no heap: this runs on the signal thread after a crash (see ReadSnapshot).
    static char copy[kSnapshotBytes];
    if (!ReadSnapshot(copy))
    {
        return 0;
    }
    std::size_t entries = 0;
    for (const char* p = copy; *p != '\0';)
    {
        const char* temp = p;
        p += std::strlen(p) + 1;
        RemoveTreeNoAlloc(temp);
        for (; *p != '\0'; p += std::strlen(p) + 1)
        {
            ::rmdir(p); // a created parent, only if empty: another run may have put results there
        }
        ++p; // the empty string closing the entry
        ++entries;
    }
    return entries;
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
    std::strncpy(g_program, program.c_str(), sizeof(g_program) - 1);
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

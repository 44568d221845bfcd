/*
 * What an interrupted program must remove: the temporary results folders in progress.
 *
 * ResultsWriter registers its hidden ".<name>.tmp-<pid>" folder (and the parent folders it
 * created) here while it exists; an orderly failure removes it through the writer itself
 * (Abandon), but a SIGINT or SIGTERM ends the process without unwinding.  A command-line
 * program that wants Ctrl-C to leave nothing calls InstallInterruptCleanup first thing in main:
 *
 *   int main(int argc, char** argv)
 *   {
 *       InstallInterruptCleanup("iwarp-sim");   // before any other thread exists
 *       ...
 *
 * The signals are blocked in every thread and taken by one thread of their own with sigwait, so
 * the cleanup is not confined to a signal handler while the simulation thread goes on.  It still
 * takes no lock and allocates nothing (remove-tree-no-alloc.h): after a crash, the crashed thread
 * may hold the allocator's lock.  Libraries and the Python bindings do not install it: signals belong to the program
 * (Python has its own KeyboardInterrupt); for them the registry is only a list.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_INTERRUPT_CLEANUP_H
#define IWARP_SCENARIO_INTERRUPT_CLEANUP_H

#include <string>
#include <vector>

namespace ns3
{

/** `temp` is in progress; `createdParents` (deepest first) are removed after it when empty. */
void RegisterTemporaryFolder(const std::string& temp, const std::vector<std::string>& createdParents);
/** `temp` was committed or removed by its owner. */
void UnregisterTemporaryFolder(const std::string& temp);
/**
 * Remove `temp` with everything in it, then each of `createdParents` (deepest first) if it is empty:
 * another run may have put its results there meanwhile. ResultsWriter::Abandon and the interrupt
 * cleanup both leave a failed run's folders this way.
 */
void RemoveFolderAndParents(const std::string& temp, const std::vector<std::string>& createdParents);

/**
 * Remove every registered folder and its created parents (when empty); returns how many were
 * registered.  Takes no lock and allocates nothing, so that it works after a crash; one caller at a
 * time (the signal thread).
 */
std::size_t RemoveTemporaryFolders();

/**
 * Block SIGINT and SIGTERM in the calling thread (and so in every thread started after) and start
 * a thread that waits for them: on one it removes the registered folders, writes
 * "<program>: interrupted; nothing written" on stderr and ends the process with 128 + the signal
 * number (130, 143), as a shell reports a process killed by it.  A signal the program was started
 * with ignored (a background job of a non-interactive shell ignores SIGINT) stays ignored.  Also
 * sets a std::terminate handler (an uncaught exception, an ns-3 NS_FATAL_ERROR or NS_ASSERT) that
 * removes the folders and exits with status 1 instead of aborting, and handlers for a crash
 * (SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT) that have the same thread remove them, say
 * "<program>: crashed (SEGV); nothing written" and end with 128 + the signal number, as the
 * shell reports a crash.  SIGUSR2 is taken for that (blocked in every thread).
 */
void InstallInterruptCleanup(const std::string& program);

} // namespace ns3

#endif // IWARP_SCENARIO_INTERRUPT_CLEANUP_H

/*
 * Removing a folder tree from a crashed process: no heap, no locks.
 *
 * After a SIGSEGV the crashed thread may have stopped inside malloc or free holding the
 * allocator's lock (under AddressSanitizer, its stack-depot lock), so the thread that cleans up
 * must not allocate: std::filesystem::remove_all and opendir both do.  These functions use only
 * system calls (openat, getdents64, unlinkat) and stack buffers.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_SCENARIO_REMOVE_TREE_NO_ALLOC_H
#define IWARP_SCENARIO_REMOVE_TREE_NO_ALLOC_H

namespace ns3
{

/** Deepest folder level RemoveTreeNoAlloc descends to; anything below is left in place. */
constexpr int kRemoveTreeMaxDepth = 32;

/**
 * Remove `path` (relative to the working directory, or absolute) with everything in it; a
 * symbolic link is removed, never followed.  Returns true when `path` is gone afterwards (also
 * when it never existed).  Async-signal-safe.
 */
bool RemoveTreeNoAlloc(const char* path);

} // namespace ns3

#endif // IWARP_SCENARIO_REMOVE_TREE_NO_ALLOC_H

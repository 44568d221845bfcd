/*
 * The time resolution the module runs at: picoseconds. ns-3's default, nanoseconds, rounds every
 * serialisation time that is not a whole number of nanoseconds: a 1502-octet frame takes 300.4 ns at
 * 40 Gb/s and 120.16 ns at 100 Gb/s, and a link that sends each frame in 300 ns carries 0.13 % more
 * than its rate, which the physics checks catch (goodput above the payload limit). At picoseconds the
 * frame times of 10, 25, 40, 100, 200 and 400 Gb/s links are exact for every whole number of octets,
 * and a run may last 2^63 ps, about 106 days of simulated time.
 *
 * ns-3 lets a program change the resolution once, before its first Simulator::Run: Time converts the Times
 * made before then, and a second change, or one after a run, crashes inside ns-3. So the module does not
 * change it behind a program's back; every program of this repository calls UseModuleTimeResolution() first
 * thing in main (iwarp-sim, the test runner, the examples, the benchmarks), as does the Python module when it
 * is imported. A program of your own that links the module should do the same (doc/architecture.md, "Time
 * resolution"); the scenario runner refuses to run at any other resolution, and the model itself works at
 * any, with the rounding above.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_TIME_RESOLUTION_H
#define IWARP_TIME_RESOLUTION_H

#include "ns3/nstime.h"

namespace ns3
{
namespace iwarp
{

/** The resolution of every run of the scenario runner, the examples and the Python bindings. */
inline constexpr Time::Unit kTimeResolution = Time::PS;

/** Sets ns-3's resolution to kTimeResolution, or nothing when it already is (UseModuleTimeResolution). */
void SetModuleTimeResolution();

/**
 * Sets ns-3's resolution to kTimeResolution, or nothing when it already is. Call it first thing in main:
 * ns-3 allows one change, before the first Simulator::Run (Time::SetResolution).
 *
 * Inline, so that it runs in the caller's shared object: ns-3 reaches its resolution table through an inline
 * function (Time::PeekResolution) whose first call in an object with a copy of its own (a Python extension
 * built with hidden symbols) resets the table to nanoseconds. The caller's first call is made here, before the
 * table is set, so that it cannot come later and undo it.
 */
inline void
UseModuleTimeResolution()
{
    (void)NanoSeconds(1);
    SetModuleTimeResolution();
}

/** Whether ns-3 runs at kTimeResolution (a program may have set another before its first run). */
bool AtModuleTimeResolution();

} // namespace iwarp
} // namespace ns3

#endif // IWARP_TIME_RESOLUTION_H

/*
 * HostProfile: a named host of an era, as the attribute values of its HostMemoryModel, HostCpuModel and
 * HostModel, each with the published figure or the specification it comes from (doc/host-model.md,
 * "Host profiles", has them as a table with the calibration each profile reproduces). A profile is a
 * starting point: a scenario (`host: {profile: NAME}`) or a program (HostHelper::SetProfile) may set any
 * of its attributes over it.
 *
 *   host-2005  a server of the study the comparisons started from (Foong et al., ISPASS 2003): no
 *              offloads, about 1 Hz of core per bit/s received
 *   host-2015  a Xeon E5 v3 server with TSO and GRO; receive cost from Linux's tcp_mmap measurement
 *   current    a Xeon Scalable server with TSO/GRO (Cai et al., SIGCOMM 2021): one core receives about
 *              42 Gb/s of one flow, half of its cycles in the copy
 */
/**
 * \file
 * \ingroup iwarp-host
 */
#ifndef IWARP_HOST_PROFILE_H
#define IWARP_HOST_PROFILE_H

#include "common/attribute-profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** The profile a scenario's hosts run unless it names another (`host: {profile: NAME}`). */
inline constexpr const char* kDefaultHostProfile = "current";
/** The name that asks for no profile: the parts' own attribute defaults. */
inline constexpr const char* kNoHostProfile = "none";

/** A host profile's values and the profile itself (common/attribute-profile.h). */
using HostProfileValue = ProfileValue;
using HostProfile = AttributeProfile;

/**
 * The RDMA verbs' host costs as times on the host's core (host-profile.cc gives each source); a profile
 * sets them in cycles at its own clock, and HostModel's defaults are them at HostCpuModel's default 2.5 GHz.
 */
struct VerbsCostNs
{
    static constexpr double kPost = 200;            ///< one work request posted with its doorbell
    static constexpr double kPoll = 80;             ///< one completion reaped
    static constexpr double kEvent = 3000;          ///< one completion event (interrupt, wake-up, re-arm)
    static constexpr double kRegister = 16000;      ///< one registration, fixed part
    static constexpr double kRegisterPage = 250;    ///< one registration, per 4 KiB page
};

/** Cycles that `ns` nanoseconds take on a core of `hz`, rounded to the nearest cycle. */
constexpr uint64_t
CyclesAt(double ns, double hz)
{
    return uint64_t(ns * hz / 1e9 + 0.5);
}

/** The built-in profiles, oldest first. */
const std::vector<HostProfile>& HostProfiles();

/** The built-in profile called `name`, or null. */
const HostProfile* FindHostProfile(const std::string& name);

/** The built-in profiles' names, comma-separated ("host-2005, host-2015, current"). */
std::string HostProfileNames();

} // namespace ns3

#endif // IWARP_HOST_PROFILE_H

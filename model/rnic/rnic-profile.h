/*
 * RnicProfile: a named iWARP adapter class, as the attribute values of its RNIC engine (RnicPipeline),
 * each with the published figure it is calibrated to (doc/rnic-model.md, "Engine profiles", has them as a
 * table with the figures each reproduces). A scenario names one (`rnic: {profile: NAME}`, or per host);
 * otherwise each host gets the profile of its link's rate class (RnicProfileForLink).
 *
 *   10g-2007  a 10 GbE iWARP RNIC of 2007-2009 (NetEffect NE010, Chelsio T3): about 6 us one way,
 *             87 % of line rate
 *   t5-40g    Chelsio T5 (2013), 10/40 GbE: about 1.5 us application to application
 *   t6-100g   Chelsio T6 (2016), 25/100 GbE: about 1 us, line rate at 100 GbE
 */
/**
 * \file
 * \ingroup iwarp-rnic
 */
#ifndef IWARP_RNIC_PROFILE_H
#define IWARP_RNIC_PROFILE_H

#include "common/attribute-profile.h"

#include <string>
#include <vector>

namespace ns3
{

/** The name that asks for the profile of each host's link rate class (the default). */
inline constexpr const char* kAutoRnicProfile = "auto";
/** The name that asks for no profile: RnicPipeline's own attribute defaults. */
inline constexpr const char* kNoRnicProfile = "none";

/** The built-in engine profiles, oldest first. */
const std::vector<AttributeProfile>& RnicProfiles();

/** The built-in engine profile called `name`, or null. */
const AttributeProfile* FindRnicProfile(const std::string& name);

/** The built-in engine profiles' names, comma-separated. */
std::string RnicProfileNames();

/**
 * The profile for a host whose fastest link runs at `linkBps`: t5-40g up to 40 Gb/s (the T5 comes as
 * 10 and 40 GbE adapters), t6-100g above (no faster iWARP adapter has published figures: at 200 and
 * 400 Gb/s the T6's engine, not the link, bounds a stream, and summary.json says so).
 */
const AttributeProfile& RnicProfileForLink(double linkBps);

} // namespace ns3

#endif // IWARP_RNIC_PROFILE_H

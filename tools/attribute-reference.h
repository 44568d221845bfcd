/*
 * The attribute reference of `iwarp-sim attributes [--markdown]`: every TypeId this module
 * registers, with its attributes (value type, default, help) and trace sources (callback
 * signature, help).  doc/attributes.md is this output with --markdown; the CTest
 * iwarp-attributes-doc fails when it is stale.
 *
 * "This module's" TypeIds are those of group name kIwarpGroupName (each TypeId of libiwarp calls
 * SetGroupName("Iwarp"), as ns-3's own modules name theirs); the CTest iwarp-attributes-complete
 * checks that the list matches the TypeId names declared in model/ and helper/, so a TypeId that
 * forgets its group name, or is never registered, does not silently go missing.
 */
#ifndef IWARP_TOOLS_ATTRIBUTE_REFERENCE_H
#define IWARP_TOOLS_ATTRIBUTE_REFERENCE_H

#include "ns3/type-id.h"

#include <ostream>
#include <vector>

namespace ns3
{

/** The group name every TypeId of this module carries. */
extern const char* const kIwarpGroupName;

/** The registered TypeIds whose group name is `group`, sorted by name. */
std::vector<TypeId> TypeIdsOfGroup(const std::string& group);

/** Write the reference of `tids`: plain text for a terminal, or Markdown (doc/attributes.md). */
void WriteAttributeReference(std::ostream& out, const std::vector<TypeId>& tids, bool markdown);

} // namespace ns3

#endif

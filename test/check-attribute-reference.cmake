# CTests of the attribute reference (`iwarp-sim attributes --markdown`, tools/attribute-reference.h):
#
#   cmake -DSIM=iwarp-sim -DSOURCE_DIR=. -DMODE=doc -P check-attribute-reference.cmake
#       iwarp-attributes-doc: doc/attributes.md is exactly what the tool prints now, so a changed attribute,
#       default or help text makes it stale until regenerated (`make attributes-doc`).
#   cmake -DSIM=iwarp-sim -DSOURCE_DIR=. -DMODE=complete -P check-attribute-reference.cmake
#       iwarp-attributes-complete: the TypeIds listed are exactly those declared as TypeId("ns3::...") in model/
#       and helper/ (less the private ones below), so that one missing its SetGroupName("Iwarp") or its
#       NS_OBJECT_ENSURE_REGISTERED is caught, and nothing of ns-3's own is listed as ours.
cmake_minimum_required(VERSION 3.16)
foreach(_v SIM SOURCE_DIR MODE)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "usage: cmake -DSIM=... -DSOURCE_DIR=... -DMODE=doc|complete -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
endforeach()

# Header classes registered with ns-3 only when first used (no NS_OBJECT_ENSURE_REGISTERED), without attributes
# or trace sources (literal octets around a payload, a private SSN header): nothing a user can configure, so not
# in the reference. Each must still
# be declared in the sources (checked below), so that this list does not outlive them.
set(_private ns3::OctetsHeader ns3::OctetsTrailer ns3::SctpDdpSsnHeader)

execute_process(COMMAND "${SIM}" attributes --markdown
                OUTPUT_VARIABLE _generated ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "iwarp-sim attributes --markdown failed (${_rc}): ${_err}")
endif()

if(MODE STREQUAL "doc")
  set(_doc "${SOURCE_DIR}/doc/attributes.md")
  if(NOT EXISTS "${_doc}")
    message(FATAL_ERROR "${_doc} is missing: generate it with `make attributes-doc` "
                        "(build/iwarp-sim attributes --markdown > doc/attributes.md)")
  endif()
  file(READ "${_doc}" _committed)
  if(NOT _committed STREQUAL _generated)
    # Name the first line that differs, so the failure says what changed (read line by line with string(FIND):
    # the text holds ';' and '[', which CMake lists would split or group).
    set(_line 1)
    while(1)
      string(FIND "${_committed}" "\n" _ea)
      string(FIND "${_generated}" "\n" _eb)
      string(SUBSTRING "${_committed}" 0 ${_ea} _la)
      string(SUBSTRING "${_generated}" 0 ${_eb} _lb)
      if(NOT _la STREQUAL _lb OR _ea EQUAL -1 OR _eb EQUAL -1)
        break()
      endif()
      math(EXPR _ea "${_ea} + 1")
      math(EXPR _eb "${_eb} + 1")
      string(SUBSTRING "${_committed}" ${_ea} -1 _committed)
      string(SUBSTRING "${_generated}" ${_eb} -1 _generated)
      math(EXPR _line "${_line} + 1")
    endwhile()
    message(FATAL_ERROR "doc/attributes.md is stale: regenerate it with `make attributes-doc` "
                        "(build/iwarp-sim attributes --markdown > doc/attributes.md) and commit it.\n"
                        "First difference, line ${_line}:\n  doc/attributes.md: ${_la}\n  iwarp-sim now:     ${_lb}")
  endif()
  message(STATUS "doc/attributes.md matches iwarp-sim attributes --markdown")
elseif(MODE STREQUAL "complete")
  string(REGEX MATCHALL "\n## ns3::[A-Za-z0-9_]+" _headings "${_generated}")
  set(_listed)
  foreach(_h IN LISTS _headings)
    string(REGEX REPLACE "\n## " "" _name "${_h}")
    list(APPEND _listed "${_name}")
  endforeach()
  file(GLOB_RECURSE _sources "${SOURCE_DIR}/model/*.cc" "${SOURCE_DIR}/model/*.h"
                             "${SOURCE_DIR}/helper/*.cc" "${SOURCE_DIR}/helper/*.h")
  set(_declared)
  foreach(_f IN LISTS _sources)
    file(STRINGS "${_f}" _lines REGEX "TypeId\\(\"ns3::[A-Za-z0-9_]+\"\\)")
    foreach(_l IN LISTS _lines)
      string(REGEX MATCHALL "TypeId\\(\"ns3::[A-Za-z0-9_]+\"\\)" _ms "${_l}")
      foreach(_m IN LISTS _ms)
        string(REGEX REPLACE "TypeId\\(\"(ns3::[A-Za-z0-9_]+)\"\\)" "\\1" _name "${_m}")
        list(APPEND _declared "${_name}")
      endforeach()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES _declared)
  set(_bad "")
  foreach(_n IN LISTS _private)
    if(NOT _n IN_LIST _declared)
      string(APPEND _bad "\n  ${_n} is listed as private in this script but no longer declared: drop it from the list")
    endif()
    if(_n IN_LIST _listed)
      string(APPEND _bad "\n  ${_n} is listed as private in this script but iwarp-sim lists it: drop it from the list")
    endif()
  endforeach()
  foreach(_n IN LISTS _declared)
    if(NOT _n IN_LIST _listed AND NOT _n IN_LIST _private)
      string(APPEND _bad "\n  ${_n} is declared in model/ or helper/ but iwarp-sim attributes does not list it: "
                         "does it call SetGroupName(\"Iwarp\") and NS_OBJECT_ENSURE_REGISTERED?")
    endif()
  endforeach()
  foreach(_n IN LISTS _listed)
    if(NOT _n IN_LIST _declared)
      string(APPEND _bad "\n  ${_n} is listed by iwarp-sim attributes but not declared in model/ or helper/")
    endif()
  endforeach()
  if(_bad)
    message(FATAL_ERROR "the attribute reference and the module's TypeIds disagree:${_bad}")
  endif()
  list(LENGTH _listed _n)
  message(STATUS "iwarp-sim attributes lists all ${_n} TypeIds of model/ and helper/")
else()
  message(FATAL_ERROR "MODE must be doc or complete, not '${MODE}'")
endif()

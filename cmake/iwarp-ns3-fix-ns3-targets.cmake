# Included by CMakeLists.txt after find_package(ns3), and by the installed iwarp-ns3-config.cmake after
# find_dependency(ns3), so that the module and the programs built against it configure alike.
#
# Debian's exported ns-3 targets list /usr/include/python3.11 in INTERFACE_INCLUDE_DIRECTORIES (an artefact of the
# package build).  CMake refuses to generate when an imported target names a directory that does not exist, so on
# a machine without the Python headers (python3-dev is not a dependency of libns3-dev) configuration would fail.
# Drop such non-existent directories from every ns-3 imported target.
if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.21)
  get_property(_iwarp_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
else()
  set(_iwarp_imported)
  foreach(_m antenna aodv applications bridge buildings config-store core csma csma-layout dsdv dsr energy
             fd-net-device flow-monitor internet internet-apps lr-wpan lte mesh mobility netanim network
             nix-vector-routing olsr point-to-point point-to-point-layout propagation sixlowpan spectrum stats
             tap-bridge topology-read traffic-control uan virtual-net-device wave wifi wimax)
    list(APPEND _iwarp_imported ns3::lib${_m})
  endforeach()
endif()
foreach(_t IN LISTS _iwarp_imported)
  if(_t MATCHES "^ns3::" AND TARGET ${_t})
    get_target_property(_dirs ${_t} INTERFACE_INCLUDE_DIRECTORIES)
    if(_dirs)
      set(_kept)
      foreach(_d IN LISTS _dirs)
        if(EXISTS "${_d}" OR _d MATCHES "\\$<")
          list(APPEND _kept "${_d}")
        endif()
      endforeach()
      set_target_properties(${_t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_kept}")
    endif()
  endif()
endforeach()


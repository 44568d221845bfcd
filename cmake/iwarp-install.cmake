# Install rules of iwarp-ns3 (included at the end of CMakeLists.txt): `cmake --install build [--prefix P]`,
# `make install PREFIX=P` and the Debian package (cmake/iwarp-package.cmake) all run these.
#
#   lib/libiwarp-ns3.so.X.Y.Z                  the module; links as iwarp-ns3::iwarp through the CMake package
#   lib/libiwarp-ns3-scenario.so.X.Y.Z         the scenario loader and runner; iwarp-ns3::iwarp-scenario
#   lib/cmake/iwarp-ns3/                       find_package(iwarp-ns3 CONFIG) (config, version, targets)
#   lib/pkgconfig/iwarp-ns3.pc                 pkg-config
#   include/iwarp-ns3/{ddp,rdmap,...,helper}/  the headers, so "ddp/ddp-endpoint.h", "helper/iwarp-helper.h" work
#   bin/iwarp-sim, bin/iwarp-scenario-check    the command-line tools
#   share/iwarp-ns3/scenarios, examples/, doc/ the shipped scenarios, example scenarios, the out-of-tree example
#                                              project, README and doc/
#   lib/<arch>/wireshark/plugins/              the DDP-over-SCTP Lua dissector, where Debian's Wireshark reads it
#   <python dir>/iwarpsim/                     the Python package and its compiled module (IWARP_PYTHON_INSTALL_DIR)
#
# Programs are installed with a RUNPATH relative to themselves ($ORIGIN), so a copy under any prefix finds its
# own libiwarp-ns3 without LD_LIBRARY_PATH.
include(CMakePackageConfigHelpers)

set(IWARP_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/iwarp-ns3")
set(IWARP_DATA_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/iwarp-ns3")
set(IWARP_INCLUDE_INSTALL_DIR "${CMAKE_INSTALL_INCLUDEDIR}/iwarp-ns3")
set(IWARP_WIRESHARK_PLUGIN_DIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}/wireshark/plugins" CACHE STRING
    "Where the DDP-over-SCTP Lua dissector is installed, relative to the prefix (Debian's Wireshark reads Lua \
plugins from /usr/lib/<arch>/wireshark/plugins: tshark -G folders, 'Global Lua Plugins')")

# $ORIGIN-relative RUNPATH from an installed file in FROM_DIR (relative to the prefix) to the library folder.
function(iwarp_runpath_to_libdir from_dir out)
  file(RELATIVE_PATH _rel "/prefix/${from_dir}" "/prefix/${CMAKE_INSTALL_LIBDIR}")
  set(${out} "$ORIGIN/${_rel}" PARENT_SCOPE)
endfunction()

# ---- the library, its headers, the CMake package and the pkg-config file ------------------------------------------
# libiwarp-ns3, not libiwarp: a name of its own in /usr/lib. The soname carries the major version.
set_target_properties(iwarp PROPERTIES OUTPUT_NAME iwarp-ns3 EXPORT_NAME iwarp
                                       VERSION "${PROJECT_VERSION}" SOVERSION "${PROJECT_VERSION_MAJOR}")
set_target_properties(iwarp-scenario PROPERTIES OUTPUT_NAME iwarp-ns3-scenario EXPORT_NAME iwarp-scenario
                                                VERSION "${PROJECT_VERSION}" SOVERSION "${PROJECT_VERSION_MAJOR}")
install(TARGETS iwarp iwarp-scenario EXPORT iwarp-ns3-targets
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/model/" DESTINATION "${IWARP_INCLUDE_INSTALL_DIR}"
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/helper" DESTINATION "${IWARP_INCLUDE_INSTALL_DIR}"
        FILES_MATCHING PATTERN "*.h")

install(EXPORT iwarp-ns3-targets NAMESPACE iwarp-ns3:: FILE iwarp-ns3-targets.cmake
        DESTINATION "${IWARP_CMAKE_INSTALL_DIR}")
# The ns-3 version the module was built against: its ABI is that version's (Debian ships one ns-3 at a time).
set(IWARP_NS3_VERSION "${ns3_VERSION}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/iwarp-ns3-config.cmake.in"
                              "${PROJECT_BINARY_DIR}/iwarp-ns3-config.cmake"
                              INSTALL_DESTINATION "${IWARP_CMAKE_INSTALL_DIR}")
# 0.x: a new minor version may change the API, so only the same major.minor satisfies find_package(iwarp-ns3 X.Y).
write_basic_package_version_file("${PROJECT_BINARY_DIR}/iwarp-ns3-config-version.cmake"
                                 VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/iwarp-ns3-config.cmake" "${PROJECT_BINARY_DIR}/iwarp-ns3-config-version.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/iwarp-ns3-fix-ns3-targets.cmake"
        DESTINATION "${IWARP_CMAKE_INSTALL_DIR}")

# pkg-config: the prefix is found from the .pc file's own folder, so the file is right under any prefix.
file(RELATIVE_PATH IWARP_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" IWARP_PC_TO_PREFIX "${IWARP_PC_TO_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/iwarp-ns3.pc.in" "${PROJECT_BINARY_DIR}/iwarp-ns3.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/iwarp-ns3.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# ---- the command-line tools, scenarios, examples and documents -------------------------------------------------
iwarp_runpath_to_libdir("${CMAKE_INSTALL_BINDIR}" _iwarp_bin_runpath)
set_target_properties(iwarp-sim iwarp-scenario-check PROPERTIES INSTALL_RPATH "${_iwarp_bin_runpath}")
install(TARGETS iwarp-sim iwarp-scenario-check RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/scenarios/" DESTINATION "${IWARP_DATA_INSTALL_DIR}/scenarios"
        FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/scenarios/"
        DESTINATION "${IWARP_DATA_INSTALL_DIR}/examples/scenarios" FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/external-project/"
        DESTINATION "${IWARP_DATA_INSTALL_DIR}/examples/external-project")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${IWARP_DATA_INSTALL_DIR}/doc")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/doc/" DESTINATION "${IWARP_DATA_INSTALL_DIR}/doc"
        FILES_MATCHING PATTERN "*.md")

# ---- Wireshark ---------------------------------------------------------------------------------------------------
install(FILES "${IWARP_DDP_SCTP_LUA}" DESTINATION "${IWARP_WIRESHARK_PLUGIN_DIR}")

# ---- Python ------------------------------------------------------------------------------------------------------
# Where /usr/bin/python3 (Debian's) looks depends on the prefix, which `cmake --install --prefix` may choose only
# at install time, so the folder is chosen then (the DESTINATIONs below name ${_iwarp_pydir}, set by the install
# code before them), unless IWARP_PYTHON_INSTALL_DIR names one:
#   /usr                     lib/python3/dist-packages        Debian's folder for packaged modules (the .deb)
#   a venv (has pyvenv.cfg)  lib/python3.X/site-packages       the venv's python (Debian's, with
#                                                              --system-site-packages) reads it
#   /usr/local               lib/python3.X/dist-packages       /usr/bin/python3 reads it
#   any other prefix         lib/python3.X/site-packages       read by nothing by itself: a message says so
# All are three folders below the prefix, so the compiled module's RUNPATH ($ORIGIN/../../..) reaches lib/.
if(TARGET _iwarpsim)
  set(IWARP_PYTHON_INSTALL_DIR "" CACHE STRING
      "Folder (relative to the prefix) to install the iwarpsim Python package into; empty: chosen at install time")
  set(_iwarp_pyver "${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}")
  if(IWARP_PYTHON_INSTALL_DIR)
    iwarp_runpath_to_libdir("${IWARP_PYTHON_INSTALL_DIR}/iwarpsim" _iwarp_py_runpath)
  else()
    iwarp_runpath_to_libdir("lib/python3/dist-packages/iwarpsim" _iwarp_py_runpath)
  endif()
  set_target_properties(_iwarpsim PROPERTIES INSTALL_RPATH "${_iwarp_py_runpath}")
  install(CODE "set(_iwarp_pydir \"${IWARP_PYTHON_INSTALL_DIR}\")\nset(_iwarp_pyver \"${_iwarp_pyver}\")")
  install(CODE [[
    string(REGEX REPLACE "/+$" "" _iwarp_prefix "${CMAKE_INSTALL_PREFIX}")
    if(_iwarp_pydir)
    elseif(_iwarp_prefix STREQUAL "/usr")
      set(_iwarp_pydir "lib/python3/dist-packages")
    elseif(EXISTS "$ENV{DESTDIR}${_iwarp_prefix}/pyvenv.cfg")
      set(_iwarp_pydir "lib/python${_iwarp_pyver}/site-packages")
    elseif(_iwarp_prefix STREQUAL "/usr/local")
      set(_iwarp_pydir "lib/python${_iwarp_pyver}/dist-packages")
    else()
      set(_iwarp_pydir "lib/python${_iwarp_pyver}/site-packages")
      message(STATUS "iwarpsim: ${_iwarp_prefix}/${_iwarp_pydir} is not on Python's path by itself: set "
                     "PYTHONPATH to it, or install into a venv (python3 -m venv --system-site-packages PREFIX)")
    endif()
    message(STATUS "iwarpsim: Python package into ${_iwarp_prefix}/${_iwarp_pydir}/iwarpsim")
  ]])
  install(TARGETS _iwarpsim LIBRARY DESTINATION "\${_iwarp_pydir}/iwarpsim")
  install(FILES ${IWARP_PY_SOURCES} DESTINATION "\${_iwarp_pydir}/iwarpsim")
endif()

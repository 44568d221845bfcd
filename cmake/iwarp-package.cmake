# The Debian package (included at the end of CMakeLists.txt): `make package` (cmake --build build --target package)
# writes build/iwarp-ns3_<version>_amd64.deb, installable with `apt-get install ./build/iwarp-ns3_*.deb`. It holds
# everything cmake/iwarp-install.cmake installs, under /usr.
#
# Depends: what dpkg-shlibdeps finds the ELF files link (the ns-3 libraries, yaml-cpp, Boost.Graph, libstdc++ ...),
# plus the Python the compiled module is built for. Recommends: what a program built against the module needs
# besides (the -dev packages find_package(iwarp-ns3) looks for) and what the iwarpsim sweeps and plots import;
# Suggests: Wireshark for the dissector, Dask for distributed sweeps.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "iwarp-ns3")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "iwarp-ns3")
set(CPACK_PACKAGE_CONTACT "iwarp-ns3 maintainers <iwarp-ns3@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "iWARP (RDMAP, DDP, MPA/TCP, DDP over SCTP) module for ns-3")
set(CPACK_PACKAGE_DESCRIPTION
    "An ns-3 module that simulates iWARP: RDMAP (RFC 5040) and DDP (RFC 5041) over MPA/TCP (RFC 5044) and over\n\
its own SCTP model (RFC 5043), with RNIC and host models, topologies, the iwarp-sim scenario runner,\n\
the iwarpsim Python package and a Wireshark dissector for DDP over SCTP.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES OFF)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # iwarp-ns3_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The tools and the Python module find libiwarp-ns3 in the package itself through their RUNPATH.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${PROJECT_BINARY_DIR}")
set(_iwarp_control)
if(TARGET _iwarpsim)
  # _iwarpsim.cpython-3X-...so loads only into that Python; the package's .py files need nothing else to import.
  math(EXPR _iwarp_py_next "${Python_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}), python3 (<< ${Python_VERSION_MAJOR}.${_iwarp_py_next})")
  # Byte-compile on install and remove the byte code on removal, as dh_python3's scripts do.
  configure_file("${PROJECT_SOURCE_DIR}/cmake/debian-postinst.in" "${PROJECT_BINARY_DIR}/debian/postinst" @ONLY)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/debian-prerm.in" "${PROJECT_BINARY_DIR}/debian/prerm" @ONLY)
  list(APPEND _iwarp_control "${PROJECT_BINARY_DIR}/debian/postinst" "${PROJECT_BINARY_DIR}/debian/prerm")
endif()
# ldconfig runs after the package is installed or removed, as for any package shipping a shared library (CPack's
# GENERATE_SHLIBS would add the same trigger, and warn about the Python module, which has no soname).
file(WRITE "${PROJECT_BINARY_DIR}/debian/triggers" "activate-noawait ldconfig\n")
list(APPEND _iwarp_control "${PROJECT_BINARY_DIR}/debian/triggers")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${_iwarp_control}")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "libns3-dev, libyaml-cpp-dev, libboost-graph-dev, nlohmann-json3-dev, python3-pandas, python3-yaml, \
python3-matplotlib, python3-tqdm")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "tshark | wireshark, python3-distributed")

include(CPack)

# CTest iwarp-install: the module works as an installed ns-3 module, away from its build folder.
#
#   cmake -DBUILD_DIR=build -DWORKDIR=DIR -DVERSION=x.y.z -DLIBDIR=lib -DWIRESHARK_DIR=lib/<arch>/wireshark/plugins
#         -DCXX=/usr/bin/c++ [-DPYTHON=/usr/bin/python3 -DPYVER=3.11] -P check-install.cmake
#
#  1. The prefix WORKDIR/prefix is made a venv of Debian's python (--system-site-packages, so pandas & co. come
#     from apt), then `cmake --install BUILD_DIR --prefix` it: that is how /usr/bin/python3 itself, run as the
#     venv's bin/python3, reads a package under an arbitrary prefix with no PYTHONPATH. Every kind of file lands
#     where cmake/iwarp-install.cmake says.
#  2. The installed iwarp-sim prints the version and runs a shipped scenario from share/iwarp-ns3/scenarios, with
#     its library from the prefix; pkg-config finds the module there.
#  3. The out-of-tree example (share/iwarp-ns3/examples/external-project) configures with find_package(iwarp-ns3)
#     from the prefix (CMAKE_PREFIX_PATH), builds, runs, and moves its whole stream.
#  4. `import iwarpsim` with PYTHONPATH unset finds the package and its compiled module in the prefix, loads
#     libiwarp-ns3 from the prefix, and runs a short scenario.
#  5. Staged installs (DESTDIR) for /usr and /usr/local put the Python package where /usr/bin/python3 reads it
#     (lib/python3/dist-packages, lib/python3.X/dist-packages) and the dissector where Debian's Wireshark does.
# WORKDIR is removed when everything passed; after a failure it is kept for a look (and removed by the next run).
cmake_minimum_required(VERSION 3.16)
foreach(_v BUILD_DIR WORKDIR VERSION LIBDIR WIRESHARK_DIR CXX)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check-install.cmake: -D${_v}=... missing")
  endif()
endforeach()

set(_prefix "${WORKDIR}/prefix")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
# Nothing from the caller's environment may help the installed copy find itself.
set(_clean_env "${CMAKE_COMMAND}" -E env --unset=PYTHONPATH --unset=LD_LIBRARY_PATH --unset=CMAKE_PREFIX_PATH
                                          --unset=PKG_CONFIG_PATH)

# run(NAME OUT_VAR COMMAND...): run, fail with its output unless it exits 0; its stdout goes to OUT_VAR. (The
# arguments pass through a CMake list: no ';' in them.)
function(run name out)
  execute_process(COMMAND ${_clean_env} ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _e
                  WORKING_DIRECTORY "${WORKDIR}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${name} failed (${_rc}); ${WORKDIR} kept\n  command: ${ARGN}\n${_o}\n${_e}")
  endif()
  set(${out} "${_o}" PARENT_SCOPE)
endfunction()

function(require_files root)
  foreach(_f IN LISTS ARGN)
    if(NOT EXISTS "${root}/${_f}")
      message(FATAL_ERROR "not installed: ${root}/${_f} (${WORKDIR} kept)")
    endif()
  endforeach()
endfunction()

# libiwarp-ns3 (and libiwarp-ns3-scenario, where the file needs it) as the dynamic loader resolves them for an
# installed ELF file: must be the prefix's.
function(require_prefix_library elf)
  run("ldd ${elf}" _ldd ldd "${elf}")
  get_filename_component(_want "${_prefix}/${LIBDIR}" REALPATH)
  foreach(_lib iwarp-ns3 iwarp-ns3-scenario)
    string(REGEX MATCH "lib${_lib}\\.so\\.[0-9]+ => ([^ \t\n]+)" _m "${_ldd}")
    if(NOT _m AND _lib STREQUAL "iwarp-ns3-scenario")
      continue() # a program of the model alone (the external project)
    endif()
    get_filename_component(_dir "${CMAKE_MATCH_1}" DIRECTORY)
    get_filename_component(_dir "${_dir}" REALPATH)
    if(NOT _m OR NOT _dir STREQUAL _want)
      message(FATAL_ERROR "${elf} does not load lib${_lib} from ${_want}:\n${_ldd}")
    endif()
  endforeach()
endfunction()

# ---- 1. install into a venv prefix ----------------------------------------------------------------------------
if(PYTHON)
  run("${PYTHON} -m venv" _o "${PYTHON}" -m venv --system-site-packages --without-pip "${_prefix}")
endif()
run("cmake --install" _o "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${_prefix}")
require_files("${_prefix}"
  "${LIBDIR}/libiwarp-ns3.so" "${LIBDIR}/libiwarp-ns3.so.${VERSION}"
  "${LIBDIR}/libiwarp-ns3-scenario.so" "${LIBDIR}/libiwarp-ns3-scenario.so.${VERSION}"
  "${LIBDIR}/cmake/iwarp-ns3/iwarp-ns3-config.cmake" "${LIBDIR}/cmake/iwarp-ns3/iwarp-ns3-config-version.cmake"
  "${LIBDIR}/pkgconfig/iwarp-ns3.pc"
  include/iwarp-ns3/helper/iwarp-helper.h include/iwarp-ns3/helper/rdma-app-helper.h
  include/iwarp-ns3/ddp/ddp-endpoint.h include/iwarp-ns3/helper/scenario/scenario-runner.h
  bin/iwarp-sim bin/iwarp-scenario-check
  share/iwarp-ns3/scenarios/two-hosts-latency.yaml share/iwarp-ns3/examples/scenarios/two-hosts-ping-pong.yaml
  share/iwarp-ns3/examples/external-project/CMakeLists.txt share/iwarp-ns3/doc/README.md
  share/iwarp-ns3/doc/attributes.md "${WIRESHARK_DIR}/ddp-over-sctp.lua")

# ---- 2. the installed tools and pkg-config --------------------------------------------------------------------
run("iwarp-sim --version" _o "${_prefix}/bin/iwarp-sim" --version)
if(NOT _o STREQUAL "iwarp-sim ${VERSION}\n")
  message(FATAL_ERROR "installed iwarp-sim --version printed '${_o}', not 'iwarp-sim ${VERSION}'")
endif()
require_prefix_library("${_prefix}/bin/iwarp-sim")
run("installed iwarp-sim run" _o "${_prefix}/bin/iwarp-sim" run
    "${_prefix}/share/iwarp-ns3/scenarios/two-hosts-latency.yaml" --out "${WORKDIR}/run" --quiet --strict)
require_files("${WORKDIR}/run" summary.json messages.csv host.csv)
run("installed iwarp-scenario-check" _o "${_prefix}/bin/iwarp-scenario-check"
    "${_prefix}/share/iwarp-ns3/examples/scenarios/two-hosts-ping-pong.yaml")
find_program(_pkgconfig pkg-config)
if(NOT _pkgconfig)
  message(FATAL_ERROR "pkg-config is not installed (Debian package pkg-config, in scripts/install-deps.sh)")
else()
  set(_pc_env "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${_prefix}/${LIBDIR}/pkgconfig" "${_pkgconfig}")
  run("pkg-config --modversion" _version ${_pc_env} --modversion iwarp-ns3)
  run("pkg-config --cflags --libs" _flags ${_pc_env} --cflags --libs iwarp-ns3)
  if(NOT _version STREQUAL "${VERSION}\n" OR NOT _flags MATCHES "-I[^ ]*/include/iwarp-ns3 .*-liwarp-ns3")
    message(FATAL_ERROR "pkg-config iwarp-ns3 from ${_prefix}: unexpected answer\n${_version}${_flags}")
  endif()
endif()

# ---- 3. the out-of-tree example against the prefix ------------------------------------------------------------
set(_ext "${WORKDIR}/external-build")
run("configure examples/external-project" _o "${CMAKE_COMMAND}"
    -S "${_prefix}/share/iwarp-ns3/examples/external-project" -B "${_ext}"
    "-DCMAKE_PREFIX_PATH=${_prefix}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release)
file(STRINGS "${_ext}/CMakeCache.txt" _dir REGEX "^iwarp-ns3_DIR:")
if(NOT _dir STREQUAL "iwarp-ns3_DIR:PATH=${_prefix}/${LIBDIR}/cmake/iwarp-ns3")
  message(FATAL_ERROR "the example found iwarp-ns3 elsewhere than in ${_prefix}: ${_dir}")
endif()
run("build examples/external-project" _o "${CMAKE_COMMAND}" --build "${_ext}")
require_prefix_library("${_ext}/rdma-stream-two-nodes")
run("run rdma-stream-two-nodes" _o "${_ext}/rdma-stream-two-nodes" --bytes=1000000)
if(NOT _o MATCHES "Write 1000000 of 1000000 octets .*: complete")
  message(FATAL_ERROR "rdma-stream-two-nodes did not move its stream:\n${_o}")
endif()
message(STATUS "external project: ${_o}")

# ---- 4. Python from the prefix, no PYTHONPATH -----------------------------------------------------------------
if(PYTHON)
  run("import iwarpsim" _o "${_prefix}/bin/python3" -c [[
import iwarpsim
maps = {l.split()[-1] for l in open("/proc/self/maps") if "libiwarp-ns3" in l}
r = iwarpsim.run({"stop": "2ms", "topology": {"kind": "two-hosts"},
                  "workloads": [{"kind": "ping-pong", "from": "h0", "to": "h1", "size": "64", "count": 3}]})
print(iwarpsim.__file__)
print(iwarpsim._core._iwarpsim.__file__)
print(",".join(sorted(maps)))
print(r.summary["workloads"][0]["messages"]["delivered"])
]])
  string(REPLACE "\n" ";" _lines "${_o}")
  list(GET _lines 0 _init)
  list(GET _lines 1 _module)
  list(GET _lines 2 _lib)
  list(GET _lines 3 _delivered)
  set(_pydir "${_prefix}/lib/python${PYVER}/site-packages/iwarpsim")
  if(NOT _init STREQUAL "${_pydir}/__init__.py" OR NOT _module MATCHES "^${_pydir}/_iwarpsim\\.cpython-"
     OR NOT _lib MATCHES "^${_prefix}/${LIBDIR}/libiwarp-ns3-scenario\\.so\\.${VERSION},${_prefix}/${LIBDIR}/libiwarp-ns3\\.so\\.${VERSION}$"
     OR NOT _delivered EQUAL 3)
    message(FATAL_ERROR "import iwarpsim from ${_prefix}: package, module, library or run not as expected:\n${_o}")
  endif()
else()
  message(STATUS "no Python bindings in this build: the Python checks did not run")
endif()

# ---- 5. staged installs for /usr and /usr/local ---------------------------------------------------------------
foreach(_p /usr /usr/local)
  set(_stage "${WORKDIR}/stage${_p}")
  run("DESTDIR install for ${_p}" _o "${CMAKE_COMMAND}" -E env "DESTDIR=${WORKDIR}/stage"
      "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${_p}")
  require_files("${_stage}" bin/iwarp-sim "${WIRESHARK_DIR}/ddp-over-sctp.lua")
  if(PYTHON)
    if(_p STREQUAL "/usr")
      set(_py lib/python3/dist-packages)
    else()
      set(_py "lib/python${PYVER}/dist-packages")
    endif()
    require_files("${_stage}" "${_py}/iwarpsim/__init__.py")
    # ... a folder that Debian's python reads for that prefix (when it exists: site.getsitepackages()).
    run("site-packages of ${PYTHON}" _site "${PYTHON}" -c "import site\nprint(*site.getsitepackages(), sep='\\n')")
    if(NOT _site MATCHES "(^|\n)${_p}/${_py}\n")
      message(FATAL_ERROR "${PYTHON} does not read ${_p}/${_py}:\n${_site}")
    endif()
  endif()
  file(REMOVE_RECURSE "${WORKDIR}/stage")
endforeach()

file(REMOVE_RECURSE "${WORKDIR}")
message(STATUS "iwarp-ns3 ${VERSION}: installed, built against, run and imported from a prefix of its own")

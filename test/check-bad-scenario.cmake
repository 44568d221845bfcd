# CTest iwarp-sim-bad-scenario (CMakeLists.txt): `iwarp-sim run` on a bad scenario file must exit
# with status 2, name FILE:LINE and the key on stderr, and write nothing: neither the --out folder
# nor the default results/<name> in its working directory.
# With -DCHECK=build/iwarp-scenario-check, the checker must refuse the file the same way (status 2,
# the same message): a scenario the checker passes must not fail when loaded for a run.  -DARGS
# adds arguments after the file for both, separated by commas ("--set,workloads.0.size=0").
#   cmake -DSIM=build/iwarp-sim -DSCENARIO=test/data/bad-scenario.yaml -DWORKDIR=<empty dir>
#         -DEXPECT=<regex for stderr> [-DCHECK=build/iwarp-scenario-check] [-DARGS=a,b]
#         -P test/check-bad-scenario.cmake
cmake_minimum_required(VERSION 3.16)
foreach(_v SIM SCENARIO WORKDIR EXPECT)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check-bad-scenario.cmake: -D${_v}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
string(REPLACE "," ";" _extra "${ARGS}")

foreach(_args "--out;${WORKDIR}/out" "")
  execute_process(COMMAND "${SIM}" run "${SCENARIO}" --no-progress ${_args} ${_extra}
                  WORKING_DIRECTORY "${WORKDIR}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message(STATUS "iwarp-sim run ${SCENARIO} ${_args}: exit ${_rc}, stderr: ${_err}")
  if(NOT _rc STREQUAL "2")
    message(FATAL_ERROR "expected exit status 2 for a bad scenario, got '${_rc}'")
  endif()
  if(NOT _err MATCHES "${EXPECT}")
    message(FATAL_ERROR "stderr does not name the file, line and key (expected /${EXPECT}/)")
  endif()
  file(GLOB_RECURSE _left LIST_DIRECTORIES true "${WORKDIR}/*" "${WORKDIR}/.*")
  if(_left)
    message(FATAL_ERROR "a bad scenario left files behind: ${_left}")
  endif()
endforeach()

if(DEFINED CHECK)
  execute_process(COMMAND "${CHECK}" "${SCENARIO}" ${_extra}
                  WORKING_DIRECTORY "${WORKDIR}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message(STATUS "iwarp-scenario-check ${SCENARIO}: exit ${_rc}, stderr: ${_err}")
  if(NOT _rc STREQUAL "2")
    message(FATAL_ERROR "expected exit status 2 from iwarp-scenario-check, got '${_rc}'")
  endif()
  if(NOT _err MATCHES "${EXPECT}")
    message(FATAL_ERROR "iwarp-scenario-check's message does not match /${EXPECT}/")
  endif()
endif()

# CTest iwarp-sim-interrupt-int / -term / -segv (CMakeLists.txt): `iwarp-sim run` interrupted by SIGINT or
# SIGTERM must exit 130 / 143, say "interrupted; nothing written" on stderr (a SIGSEGV: 139, "crashed
# (SEGV); nothing written", the regex EXPECT_MSG), and leave nothing:
# neither the results folder, nor its hidden temporary sibling ".r.tmp-<pid>", nor the parent
# folders the run created.  The scenario (test/data/long-run.yaml) runs for minutes; `timeout`
# sends the signal after a few seconds, in the foreground (a backgrounded command would ignore
# SIGINT).
#   cmake -DSIM=build/iwarp-sim -DSCENARIO=test/data/long-run.yaml -DWORKDIR=<empty dir>
#         -DSIGNAL=INT -DEXPECT_RC=130 [-DEXPECT_MSG=<regex>] -P test/check-interrupt.cmake
cmake_minimum_required(VERSION 3.16)
foreach(_v SIM SCENARIO WORKDIR SIGNAL EXPECT_RC)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check-interrupt.cmake: -D${_v}=... is required")
  endif()
endforeach()
find_program(_timeout timeout)
if(NOT _timeout)
  message(FATAL_ERROR "check-interrupt.cmake: the coreutils 'timeout' program is needed")
endif()
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

# --out two levels down: the parent folder the writer creates must go too.
execute_process(COMMAND "${_timeout}" --preserve-status -s ${SIGNAL} 3
                        "${SIM}" run "${SCENARIO}" --no-progress --out "${WORKDIR}/sub/r"
                WORKING_DIRECTORY "${WORKDIR}"
                TIMEOUT 120
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message(STATUS "iwarp-sim run interrupted by SIG${SIGNAL}: exit ${_rc}, stderr: ${_err}")
if(NOT _rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "expected exit status ${EXPECT_RC} after SIG${SIGNAL}, got '${_rc}'")
endif()
if(NOT DEFINED EXPECT_MSG)
  set(EXPECT_MSG "interrupted; nothing written")
endif()
if(NOT _err MATCHES "iwarp-sim: ${EXPECT_MSG}")
  message(FATAL_ERROR "stderr does not say 'iwarp-sim: ${EXPECT_MSG}'")
endif()
file(GLOB_RECURSE _left LIST_DIRECTORIES true "${WORKDIR}/*" "${WORKDIR}/.*")
if(_left)
  message(FATAL_ERROR "an interrupted run left files behind: ${_left}")
endif()

# CTest iwarp-sim-strict-<scenario> (CMakeLists.txt): a shipped scenario, run whole with --strict, passes
# every physics check of its results (doc/metrics.md, "Checks"): iwarp-sim exits 0, not 3, and warns of nothing.
#   cmake -DSIM=build/iwarp-sim -DSCENARIO=scenarios/x.yaml -DOUT=<results folder, removed first> -P test/run-strict.cmake
cmake_minimum_required(VERSION 3.16)
foreach(_v SIM SCENARIO OUT)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "run-strict.cmake: -D${_v}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${SIM}" run "${SCENARIO}" --out "${OUT}" --strict --no-progress
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message(STATUS "iwarp-sim run ${SCENARIO} --strict: exit ${_rc}\n${_out}${_err}")
file(REMOVE_RECURSE "${OUT}")
if(NOT _rc STREQUAL "0")
  message(FATAL_ERROR "expected exit status 0 with --strict, got '${_rc}'")
endif()
if(_err MATCHES "check failed")
  message(FATAL_ERROR "a physics check failed: ${_err}")
endif()

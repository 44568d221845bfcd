# CTest iwarp-sim-bad-inputs (CMakeLists.txt): inputs that used to crash or abort iwarp-sim (issue 14,
# items 3, 4, 6) are each a scenario error: `iwarp-sim run` and `iwarp-scenario-check` exit with
# status 2, name the file (or the override), the key and the problem on stderr, and nothing is
# written: no results folder, no temporary sibling.
#   cmake -DSIM=build/iwarp-sim -DCHECK=build/iwarp-scenario-check -DDATA=test/data/bad-inputs
#         -DWORKDIR=<empty dir> -P test/check-bad-inputs.cmake
cmake_minimum_required(VERSION 3.16)
foreach(_v SIM CHECK DATA WORKDIR)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check-bad-inputs.cmake: -D${_v}=... is required")
  endif()
endforeach()

# Each case: a name, the scenario file, the arguments after it (,-separated), a regex for stderr.
set(_cases
  "zero-rate|${DATA}/zero-rate.yaml||zero-rate\\.yaml:4:[0-9]+: topology\\.file: GraphML file .*: rate \"0bps\" must be above zero"
  "size-0|${DATA}/stream.yaml|--set,workloads.0.size=0|--set workloads\\.0\\.size=0: workloads\\.0\\.size: size 0 is below"
  "huge-index|${DATA}/stream.yaml|--set,workloads.18446744073709551616.size=1|no element 18446744073709551616 in 'workloads'"
  "rate-junk|${DATA}/stream.yaml|--set,rnic.RnicPipeline::EngineRate=1Gbps x|not a valid value for ns3::RnicPipeline::EngineRate .*: one word"
  "segment-1|${DATA}/stream.yaml|--set,host.TcpSocket::SegmentSize=1|a segment of 1 octets is below the 80 MPA over TCP needs"
  "mtu-70|${DATA}/stream.yaml|--set,links.mtu=70|links\\.mtu: MTU 70 on the path of workload 'stream-0' \\(h0 to h1\\) is below the 132"
  "dev-zero|/dev/zero||/dev/zero: the scenario file is larger than 1MiB")
foreach(_case ${_cases})
  string(REPLACE "|" ";" _fields "${_case}")
  list(GET _fields 0 _name)
  list(GET _fields 1 _file)
  list(GET _fields 2 _args)
  list(GET _fields 3 _expect)
  string(REPLACE "," ";" _args "${_args}")
  set(_dir "${WORKDIR}/${_name}")
  file(REMOVE_RECURSE "${_dir}")
  file(MAKE_DIRECTORY "${_dir}")
  foreach(_tool SIM CHECK)
    if(_tool STREQUAL "SIM")
      set(_cmd "${SIM}" run "${_file}" --no-progress --out "${_dir}/out" ${_args})
    else()
      set(_cmd "${CHECK}" "${_file}" ${_args})
    endif()
    execute_process(COMMAND ${_cmd} WORKING_DIRECTORY "${_dir}" TIMEOUT 60
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    message(STATUS "${_name}: ${_cmd}: exit ${_rc}, stderr: ${_err}")
    if(NOT _rc STREQUAL "2")
      message(FATAL_ERROR "${_name}: expected exit status 2, got '${_rc}'")
    endif()
    if(NOT _err MATCHES "${_expect}")
      message(FATAL_ERROR "${_name}: stderr does not match /${_expect}/")
    endif()
  endforeach()
  file(GLOB_RECURSE _left LIST_DIRECTORIES true "${_dir}/*" "${_dir}/.*")
  if(_left)
    message(FATAL_ERROR "${_name}: a bad input left files behind: ${_left}")
  endif()
endforeach()

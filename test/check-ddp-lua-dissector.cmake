# CTest iwarp-ddp-lua-dissector: the in-tree Wireshark dissector (tools/wireshark/ddp-over-sctp.lua) on hand-made
# SCTP DATA chunks, each with a known right decoding, malformed ones included. iwarp-sctp-ddp-tshark checks the
# well-formed traffic the simulation sends; this checks what the simulation never sends: an unknown Function
# Code, a Terminate with Private Data, 513 octets of Private Data, chunks too short for their fixed fields.
#
#   cmake -DLUA=tools/wireshark/ddp-over-sctp.lua -DWORKDIR=DIR -P check-ddp-lua-dissector.cmake
#
# text2pcap (Debian: wireshark-common, pulled in by tshark) wraps each hex dump in Ethernet/IPv4/SCTP with one
# DATA chunk of the PPID given to -S; tshark prints the decoded fields, one line per frame.
cmake_minimum_required(VERSION 3.16)
foreach(_v LUA WORKDIR)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "usage: cmake -DLUA=... -DWORKDIR=... -P check-ddp-lua-dissector.cmake (${_v} missing)")
  endif()
endforeach()
find_program(TEXT2PCAP text2pcap)
find_program(TSHARK tshark)
if(NOT TEXT2PCAP OR NOT TSHARK)
  message(FATAL_ERROR "text2pcap and tshark are needed (Debian package tshark)")
endif()
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

# An installed copy (the Debian package, make install PREFIX=/usr) is loaded before any -X lua_script: and the
# later copy then does nothing (see the file's head), so a different installed copy would be what gets tested.
execute_process(COMMAND "${TSHARK}" -G folders OUTPUT_VARIABLE _folders ERROR_QUIET)
if(_folders MATCHES "Global Lua Plugins:[ \t]*([^\n]+)")
  set(_installed "${CMAKE_MATCH_1}/ddp-over-sctp.lua")
  if(EXISTS "${_installed}")
    file(READ "${_installed}" _a)
    file(READ "${LUA}" _b)
    if(NOT _a STREQUAL _b)
      message(FATAL_ERROR "${_installed} (an installed iwarp-ns3) differs from ${LUA} and is what tshark would "
                          "run: install the new one or remove the package (apt-get remove iwarp-ns3)")
    endif()
  endif()
endif()

# hex_of(N BYTE OUT): N copies of the octet BYTE as text2pcap hex.
function(hex_of n byte out)
  string(REPEAT " ${byte}" ${n} _h)
  set(${out} "${_h}" PARENT_SCOPE)
endfunction()
hex_of(513 5a _pd513)
hex_of(512 5a _pd512)

# One case per frame: PPID, user data (hex), then what tshark must print for it as
# "ssn|function|private data length|expert messages" (PPID 17) or "ssn|expert messages" (PPID 16).
set(_ppids
  17 17 17 17 17 17 17
  16 16)
set(_data
  "00 00 00 01 61 62 63"        # Initiate, 3 octets of Private Data (doc/conformance.md V7)
  "00 01 00 02${_pd512}"        # Accept with the most Private Data allowed
  "00 05 00 04"                 # Terminate, no Private Data
  "00 05 00 04 61 62 63 64"     # Terminate with Private Data (SCTP-021)
  "00 01 00 05"                 # Function Code 5 (doc/conformance.md S-13 c)
  "00 00 00 01${_pd513}"        # Initiate with 513 octets of Private Data (SCTP-020)
  "00 07"                       # only the DDP-SSN
  "00 03 c0 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00" # a tagged DDP segment (STag 1, TO 0) at DDP-SSN 3
  "00")                         # not even a DDP-SSN
set(_expect
  "0|0x0001|3|"
  "1|0x0002|512|"
  "5|0x0004|0|"
  "5|0x0004|4|a Session Terminate must not carry Private Data"
  "1|0x0005|0|Function Code is none of 1 .. 4"
  "0|0x0001|513|Private Data longer than 512 octets"
  "|||Session control message shorter than DDP-SSN + Function Code (4 octets)"
  "3|"
  "|DDP Segment chunk without a whole DDP-SSN")

list(LENGTH _ppids _n)
math(EXPR _last "${_n} - 1")
set(_failures "")
foreach(_i RANGE ${_last})
  list(GET _ppids ${_i} _ppid)
  list(GET _data ${_i} _hex)
  list(GET _expect ${_i} _want)
  set(_in "${WORKDIR}/case-${_i}.txt")
  set(_pcap "${WORKDIR}/case-${_i}.pcap")
  file(WRITE "${_in}" "0000 ${_hex}\n")
  execute_process(COMMAND "${TEXT2PCAP}" -q -S 5000,5001,${_ppid} "${_in}" "${_pcap}"
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "text2pcap failed on case ${_i} (${_rc}): ${_err}")
  endif()
  if(_ppid EQUAL 17)
    set(_fields -e ddp_sctp_ctl.ssn -e ddp_sctp_ctl.function -e ddp_sctp_ctl.private_data_len)
  else()
    set(_fields -e ddp_sctp.ssn)
  endif()
  execute_process(COMMAND "${TSHARK}" -r "${_pcap}" -X "lua_script:${LUA}" --disable-heuristic rpcrdma_iwarp
                          -T fields -E separator=| -E occurrence=a -E aggregator=, ${_fields}
                          -e _ws.expert.message
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0 OR _err MATCHES "[Ll]ua")
    message(FATAL_ERROR "tshark failed on case ${_i} (${_rc}): ${_err}")
  endif()
  if(NOT _out STREQUAL _want)
    string(APPEND _failures "\n  case ${_i} (PPID ${_ppid}, ${_hex}): got '${_out}', want '${_want}'")
  endif()
endforeach()
if(_failures)
  message(FATAL_ERROR "ddp-over-sctp.lua decoded wrongly:${_failures}")
endif()
file(REMOVE_RECURSE "${WORKDIR}")
message(STATUS "ddp-over-sctp.lua: ${_n} hand-made chunks decoded as expected")

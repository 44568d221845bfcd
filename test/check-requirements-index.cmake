# CTest iwarp-requirements-index: the repository documents itself.
#
#   cmake -DSOURCE_DIR=<repository> -P check-requirements-index.cmake
#
# 1. Every requirement id (DDP-062, RDMAP-085, SCTP-017, MPA-nnn), conformance case id (D-14, D-14a, R-29, S-05)
#    and ambiguity resolution (A16) cited by a file under model/ helper/ test/ fuzz/ tools/ bench/ doc/ or by
#    README.md has a row of its own in doc/conformance.md: the id in the row's first cell. Ranges and lists
#    cite every id inside them ("DDP-069..078", "SCTP-038–040", "SCTP-017, 025, 028", "SCTP-002/004",
#    "S-09 .. S-17"), so each needs its row too.
# 2. No file of the repository (outside .git and the build folders) points into the reference folder that sat
#    beside the repository during development, or names one of its documents: a user has only the clone.
# Each failure names the id (or the path) and the file that cites it.
cmake_minimum_required(VERSION 3.16)
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<repository> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
set(_index_file "${SOURCE_DIR}/doc/conformance.md")
if(NOT EXISTS "${_index_file}")
  message(FATAL_ERROR "${_index_file} is missing")
endif()

# Identifier shapes. A match starts after a character that cannot be part of a word, and is taken whole up to
# the next such character, so that "DDP-0620" or "A1B" are not read as ids and "A4/A5/A6" gives three.
set(_b "(^|[^A-Za-z0-9_])")
set(_req "(DDP|RDMAP|SCTP|MPA)-[0-9]+")
set(_case "[DRS]-[0-9]+[A-Za-z_]*")
set(_amb "A[0-9]+[A-Za-z_]*")
# Range separators "..", "...", "…", "–" (en dash); list separators "," and "/".
set(_sep "( ?(\\.\\.\\.?|…|–) ?|, ?|/)")

# Drops the boundary character a match starts with.
macro(_strip_boundary _var)
  string(REGEX REPLACE "^[^A-Za-z]" "" ${_var} "${${_var}}")
endmacro()

# _append_whole(OUT TEXT PATTERN SHAPE): appends to the list OUT every word of TEXT that PATTERN finds and that,
# taken whole, matches SHAPE.
function(_append_whole _out _text _pattern _shape)
  set(_list "${${_out}}")
  string(REGEX MATCHALL "${_b}${_pattern}" _found "${_text}")
  foreach(_f IN LISTS _found)
    _strip_boundary(_f)
    if(_f MATCHES "${_shape}")
      list(APPEND _list "${_f}")
    endif()
  endforeach()
  set(${_out} "${_list}" PARENT_SCOPE)
endfunction()

# _ids_in(TEXT OUT): the ids TEXT cites, ranges and lists expanded, in a list (duplicates kept).
function(_ids_in _text _out)
  set(_ids "")
  # Requirement ids, alone or leading a list or range ("SCTP-013/014/015/042", "SCTP-015 .. SCTP-021").
  string(REGEX MATCHALL "${_b}${_req}(${_sep}(${_req}|[0-9][0-9][0-9]?))*" _runs "${_text}")
  foreach(_run IN LISTS _runs)
    _strip_boundary(_run)
    string(REGEX MATCHALL "${_req}|[0-9]+|\\.\\.\\.?|…|–" _tokens "${_run}")
    set(_prefix "")
    set(_range 0)
    set(_prev "")
    foreach(_t IN LISTS _tokens)
      if(_t MATCHES "^([A-Z]+)-([0-9]+)$")
        if(NOT CMAKE_MATCH_1 STREQUAL _prefix)
          set(_prev "") # a range between two protocols means nothing
        endif()
        set(_prefix "${CMAKE_MATCH_1}")
        set(_t "${CMAKE_MATCH_2}")
      elseif(NOT _t MATCHES "^[0-9]+$")
        set(_range 1)
        continue()
      endif()
      string(LENGTH "${_t}" _width)
      if(_range AND NOT _prev STREQUAL "" AND _t GREATER _prev)
        math(EXPR _from "${_prev} + 1")
        foreach(_n RANGE ${_from} ${_t})
          set(_padded "00${_n}")
          string(LENGTH "${_padded}" _plen)
          math(EXPR _start "${_plen} - ${_width}")
          string(SUBSTRING "${_padded}" ${_start} ${_width} _padded)
          list(APPEND _ids "${_prefix}-${_padded}")
        endforeach()
      elseif(_width GREATER_EQUAL 2 AND _width LESS_EQUAL 3)
        list(APPEND _ids "${_prefix}-${_t}")
      endif()
      set(_range 0)
      set(_prev "${_t}")
    endforeach()
  endforeach()
  # Conformance cases: two digits, optionally one lower-case letter naming a sub-case ("D-14a").
  _append_whole(_ids "${_text}" "${_case}" "^[DRS]-[0-9][0-9][a-z]?$")
  string(REGEX MATCHALL "${_b}([DRS])-([0-9][0-9]) ?(\\.\\.\\.?|…|–) ?[DRS]-[0-9][0-9]" _cranges "${_text}")
  foreach(_r IN LISTS _cranges)
    _strip_boundary(_r)
    string(REGEX MATCHALL "[DRS]-[0-9][0-9]" _ends "${_r}")
    list(GET _ends 0 _lo)
    list(GET _ends 1 _hi)
    string(SUBSTRING "${_lo}" 0 1 _letter)
    string(SUBSTRING "${_hi}" 0 1 _letter_hi)
    string(SUBSTRING "${_lo}" 2 2 _lo)
    string(SUBSTRING "${_hi}" 2 2 _hi)
    if(_letter STREQUAL _letter_hi)
      math(EXPR _lo "${_lo}")
      math(EXPR _hi "${_hi}")
      foreach(_n RANGE ${_lo} ${_hi})
        if(_n LESS 10)
          set(_n "0${_n}")
        endif()
        list(APPEND _ids "${_letter}-${_n}")
      endforeach()
    endif()
  endforeach()
  # Ambiguity resolutions. A single-digit "A1" next to a hex octet ("00 00 A1 01") is an octet of a test
  # vector, not an id: blank those first (the octet before it, or a following one that holds a digit).
  string(REGEX REPLACE "(^|[^0-9A-Za-z_])([0-9A-Fa-f][0-9A-Fa-f] )A[0-9]([^0-9A-Za-z_]|$)" "\\1\\2__\\3"
                       _text "${_text}")
  string(REGEX REPLACE "(^|[^0-9A-Za-z_])A[0-9]( ([0-9][0-9A-Fa-f]|[A-Fa-f][0-9]))([^0-9A-Za-z_]|$)" "\\1__\\2\\4"
                       _text "${_text}")
  _append_whole(_ids "${_text}" "${_amb}" "^A[0-9][0-9]?$")
  set(${_out} "${_ids}" PARENT_SCOPE)
endfunction()

# The ids doc/conformance.md defines: those in the first cell of a table row.
file(READ "${_index_file}" _index)
string(REGEX MATCHALL "\n\\|[^|\n]*\\|" _first_cells "\n${_index}")
set(_defined "")
foreach(_cell IN LISTS _first_cells)
  _ids_in("${_cell}" _cell_ids)
  list(APPEND _defined ${_cell_ids})
endforeach()
list(REMOVE_DUPLICATES _defined)
list(LENGTH _defined _n_defined)

# Every file the index must cover. file(STRINGS) reads text and binary alike (fuzz corpora) and keeps only the
# lines that can hold an id; the rest of the scan runs on those.
set(_citing "")
foreach(_dir model helper test fuzz tools bench doc)
  file(GLOB_RECURSE _files LIST_DIRECTORIES false "${SOURCE_DIR}/${_dir}/*")
  list(APPEND _citing ${_files})
endforeach()
list(APPEND _citing "${SOURCE_DIR}/README.md")
list(REMOVE_ITEM _citing "${_index_file}")

set(_failures 0)
set(_n_cited 0)
foreach(_file IN LISTS _citing)
  file(STRINGS "${_file}" _lines ENCODING UTF-8 REGEX "[A-Z]-[0-9]|A[0-9]")
  if(NOT _lines)
    continue()
  endif()
  string(REPLACE ";" "\n" _text "${_lines}")
  _ids_in("${_text}" _ids)
  list(REMOVE_DUPLICATES _ids)
  file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_file}")
  foreach(_id IN LISTS _ids)
    math(EXPR _n_cited "${_n_cited} + 1")
    if(NOT _id IN_LIST _defined)
      message(SEND_ERROR "${_id}, cited by ${_rel}, has no row in doc/conformance.md")
      math(EXPR _failures "${_failures} + 1")
    endif()
  endforeach()
endforeach()

# No pointer out of the clone, and no name of a document that sat in that folder (the requirement checklist, the
# design, style and ns-3 notes, the reference list, the MPA and SCTP notes): what a comment relies on from them is
# in doc/ (conformance.md, architecture.md, sctp.md), which is what it cites. The spellings are assembled here so
# that this file does not match itself.
set(_up "..")
set(_md ".md")
string(CONCAT _pointer "${_up}/shared|/work[/]shared|CHECK" "LIST|DESIGN${_md}|STYLE${_md}|NS3-" "NOTES"
                       "|REFERENCES${_md}|MPA${_md}|SCTP${_md}")
string(REPLACE "." "\\." _pointer_re "${_pointer}")
file(GLOB _top LIST_DIRECTORIES true "${SOURCE_DIR}/*" "${SOURCE_DIR}/.*")
set(_all "")
foreach(_entry IN LISTS _top)
  get_filename_component(_name "${_entry}" NAME)
  if(_name STREQUAL ".git" OR _name MATCHES "^build")
    continue()
  endif()
  if(IS_DIRECTORY "${_entry}")
    file(GLOB_RECURSE _files LIST_DIRECTORIES false "${_entry}/*")
    list(APPEND _all ${_files})
  else()
    list(APPEND _all "${_entry}")
  endif()
endforeach()
foreach(_file IN LISTS _all)
  file(STRINGS "${_file}" _hits REGEX "${_pointer_re}")
  if(_hits)
    file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_file}")
    list(GET _hits 0 _first)
    string(STRIP "${_first}" _first)
    message(SEND_ERROR "${_rel} points outside the repository (cite doc/ instead): ${_first}")
    math(EXPR _failures "${_failures} + 1")
  endif()
endforeach()

if(_failures GREATER 0)
  message(FATAL_ERROR "${_failures} problem(s): doc/conformance.md must index every cited id "
                      "and no file may point outside the repository")
endif()
list(LENGTH _citing _n_files)
list(LENGTH _all _n_all)
message(STATUS "doc/conformance.md defines ${_n_defined} ids; ${_n_cited} citations in ${_n_files} files "
               "all found; ${_n_all} files point nowhere outside the repository")

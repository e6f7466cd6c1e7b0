# SPDX-License-Identifier: GPL-2.0-only
# Runs photonic-rails-delay-sweep (PROGRAM) with ARGS ("|"-separated) writing to OUT_DIR and
# checks that its children's messages stay out of its stderr: exit status 0, every line of
# stderr is one of the sweep's own ("[sweep] ..."), and each run folder in RUNS
# ("|"-separated) holds a run.log with that run's "[sim] <fabric>: iteration" line.
# (Children printing to the shared stderr interleaved their lines mid-line.)
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE ${OUT_DIR})
execute_process(COMMAND ${PROGRAM} ${args} --out=${OUT_DIR} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status '${rc}', expected 0\n${err}")
endif()
string(REGEX REPLACE "\n$" "" lines "${err}")
string(REPLACE ";" "," lines "${lines}") # a ';' would split a line into list items
string(REPLACE "\n" ";" lines "${lines}")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^\\[sweep\\] ")
    message(FATAL_ERROR "a line of stderr is not the sweep's: '${line}'\n${err}")
  endif()
endforeach()
string(REPLACE "|" ";" runs "${RUNS}")
foreach(run IN LISTS runs)
  set(log ${OUT_DIR}/runs/${run}/run.log)
  if(NOT EXISTS ${log})
    message(FATAL_ERROR "${log} was not written\n${err}")
  endif()
  file(READ ${log} text)
  string(REGEX REPLACE "-[0-9.]+ms$" "" fabric "${run}")
  if(NOT text MATCHES "\\[sim\\] ${fabric}: iteration [^\n]*\n")
    message(FATAL_ERROR "${log} lacks the run's '[sim] ${fabric}: iteration' line:\n${text}")
  endif()
endforeach()
message(STATUS "stderr holds the sweep's lines only; ${runs} have their run.log")

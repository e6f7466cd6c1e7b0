# SPDX-License-Identifier: GPL-2.0-only
# Runs photonic-rails-sim (PROGRAM) with ARGS ("|"-separated) writing to OUT_DIR and checks
# that every fabric of FABRICS ("|"-separated) wrote the same iteration times to its
# summary.json, to the last digit, and ran ALGORITHM for every collective ("ring" x 8).
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE ${OUT_DIR})
execute_process(COMMAND ${PROGRAM} ${args} --out=${OUT_DIR} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status '${rc}', expected 0\n${err}")
endif()
string(REPLACE "|" ";" fabrics "${FABRICS}")
set(first "")
foreach(fabric ${fabrics})
  file(READ ${OUT_DIR}/${fabric}/summary.json summary)
  string(REGEX MATCH "\"iteration_times_s\": \\[[^]]*\\]" times "${summary}")
  if(times STREQUAL "")
    message(FATAL_ERROR "${fabric}/summary.json has no iteration_times_s:\n${summary}")
  endif()
  if(NOT summary MATCHES "${ALGORITHM}")
    message(FATAL_ERROR "${fabric} did not run '${ALGORITHM}':\n${summary}")
  endif()
  if(first STREQUAL "")
    set(first "${times}")
    set(first_fabric ${fabric})
  elseif(NOT times STREQUAL first)
    message(FATAL_ERROR "${fabric}: ${times}\n${first_fabric}: ${first}\n${out}")
  endif()
endforeach()

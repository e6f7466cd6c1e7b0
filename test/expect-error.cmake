# SPDX-License-Identifier: GPL-2.0-only
# Runs PROGRAM with ARGS ("|"-separated) and checks that it fails the way a bad input must:
# exit status 1 and an error line on stderr matching EXPECT (no abort, no core dump).
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "exit status '${rc}', expected 1\n${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "stderr does not match '${EXPECT}':\n${err}")
endif()

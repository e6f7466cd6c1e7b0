# SPDX-License-Identifier: GPL-2.0-only
# Runs PROGRAM with ARGS ("|"-separated) and checks that it fails the way a bad input must:
# exit status 1 and an error line on stderr matching EXPECT (no abort, no core dump).
# FIFO (optional): a named pipe made there first, for an input that must be refused unread.
string(REPLACE "|" ";" args "${ARGS}")
if(DEFINED FIFO)
  file(REMOVE ${FIFO})
  execute_process(COMMAND mkfifo ${FIFO} RESULT_VARIABLE made)
  if(NOT made EQUAL 0)
    message(FATAL_ERROR "mkfifo ${FIFO} failed")
  endif()
endif()
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "exit status '${rc}', expected 1\n${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "stderr does not match '${EXPECT}':\n${err}")
endif()

# SPDX-License-Identifier: GPL-2.0-only
# Proves the test runner registers exactly the suites CTest runs one entry each for
# (derived from the file names: test/<name>-test-suite.cc defines photonic-rails-<name>).
# Without this, a suite whose name differs from its file would silently never run.
# Usage: cmake -DRUNNER=<test-runner> -DEXPECTED="a;b;c" -P check-suite-list.cmake
execute_process(COMMAND ${RUNNER} --print-test-name-list
                OUTPUT_VARIABLE listed RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "test-runner --print-test-name-list failed with ${rc}")
endif()
string(REGEX REPLACE "\n$" "" listed "${listed}")
string(REPLACE "\n" ";" listed "${listed}")
set(ours "")
foreach(name ${listed})
  string(STRIP "${name}" name)
  list(FIND EXPECTED "${name}" where)
  if(where EQUAL -1)
    message(FATAL_ERROR "suite '${name}' is registered but not named after its file "
                        "(photonic-rails-<name> in test/<name>-test-suite.cc); CTest would never run it")
  endif()
  list(APPEND ours "${name}")
endforeach()
list(SORT ours)
if(NOT "${ours}" STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "registered suites [${ours}] differ from test files [${EXPECTED}]")
endif()
message(STATUS "suites: ${ours}")

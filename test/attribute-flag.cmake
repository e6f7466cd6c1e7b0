# SPDX-License-Identifier: GPL-2.0-only
# Runs photonic-rails-sim (PROGRAM) with ARGS ("|"-separated) twice, the second time with
# --ns3::RailTransport::RetransmitTimeout=5ms, and checks that the attribute took effect: a
# NIC port dies under traffic, and the data it stopped moves to the other port one RTO
# after its last progress, so recovery_s grows by exactly 5 ms - 1 ms (the default RTO).
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE ${OUT_DIR})
foreach(run default slow)
  set(extra "")
  if(run STREQUAL "slow")
    set(extra "--ns3::RailTransport::RetransmitTimeout=5ms")
  endif()
  execute_process(COMMAND ${PROGRAM} ${args} ${extra} --out=${OUT_DIR}/${run}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run}: exit status '${rc}', expected 0\n${err}")
  endif()
  file(READ ${OUT_DIR}/${run}/summary.json summary)
  string(JSON recovery_${run} GET "${summary}" faults recovery_s)
endforeach()
# CMake has no floating point: compare in nanoseconds, as integers.
foreach(run default slow)
  if(NOT recovery_${run} MATCHES "^([0-9]+)\\.?([0-9]*)$")
    message(FATAL_ERROR "recovery_s '${recovery_${run}}' is not a plain decimal")
  endif()
  set(seconds ${CMAKE_MATCH_1})
  string(SUBSTRING "${CMAKE_MATCH_2}000000000" 0 9 fraction)
  math(EXPR ns_${run} "${seconds} * 1000000000 + ${fraction}") # leading zeros: decimal
endforeach()
math(EXPR grew "${ns_slow} - ${ns_default}")
if(NOT grew EQUAL 4000000)
  message(FATAL_ERROR "recovery ${recovery_default} s with the default RTO, ${recovery_slow} s "
                      "with 5 ms: grew by ${grew} ns, expected 4000000")
endif()
message(STATUS "recovery ${recovery_default} s -> ${recovery_slow} s: the attribute took effect")

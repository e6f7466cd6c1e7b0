# SPDX-License-Identifier: GPL-2.0-only
# A user's program against the installed package: installs the build to a temporary prefix,
# configures and builds test/out-of-tree/ with -DCMAKE_PREFIX_PATH=<prefix> only, runs it
# and checks what it prints (values derived by hand in rails-user.cc).
# -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= -DCXX= [-DLAUNCHER=] [-DFLAGS=]
file(REMOVE_RECURSE ${WORK_DIR})

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "out-of-tree: ${what} failed (${status}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step(install ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
set(options -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CXX_COMPILER=${CXX}
            "-DCMAKE_CXX_FLAGS=${FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}")
if(LAUNCHER)
  list(APPEND options -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR}/test/out-of-tree -B ${WORK_DIR}/build ${options})
step(build ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(run ${WORK_DIR}/build/rails-user)
set(expected "5 frames of 4110 bytes at 400Gbps: 411 ns
rank 13: server 1, rail 5; PXN proxy for 3 -> 13: rank 5
")
if(NOT step_output STREQUAL expected)
  message(FATAL_ERROR "out-of-tree: rails-user printed\n${step_output}instead of\n${expected}")
endif()
message(STATUS "out-of-tree: built against ${WORK_DIR}/prefix and printed the expected values")

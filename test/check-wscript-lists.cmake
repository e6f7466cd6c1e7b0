# SPDX-License-Identifier: GPL-2.0-only
# Proves that the legacy wscript files list the same sources, headers, tests and examples
# as the CMake files. Usage: cmake -DSOURCE_DIR=<module root> -P check-wscript-lists.cmake

# Quoted file names in a text, sorted.
function(quoted_files text out)
  string(REGEX MATCHALL "'[^']+\\.(cc|h)'" items "${text}")
  string(REPLACE "'" "" items "${items}")
  list(SORT items)
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# Whitespace-separated file names of CMake's set(<variable> ...), sorted.
function(cmake_set_files text variable out)
  string(REGEX MATCH "set\\(${variable}[^)]*\\)" block "${text}")
  string(REGEX MATCHALL "[A-Za-z0-9_./-]+\\.(cc|h)" items "${block}")
  list(SORT items)
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# The python list assigned to <attribute> in a wscript text.
function(waf_list text attribute out)
  string(REGEX MATCH "${attribute} = \\[[^]]*\\]" block "${text}")
  quoted_files("${block}" items)
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

function(expect_equal what cmake_list waf_list)
  if(NOT "${cmake_list}" STREQUAL "${waf_list}")
    message(FATAL_ERROR "${what} differ:\n  CMake: ${cmake_list}\n  waf:   ${waf_list}")
  endif()
  list(LENGTH cmake_list n)
  message(STATUS "${what}: ${n} files agree")
endfunction()

file(READ ${SOURCE_DIR}/CMakeLists.txt cmake_text)
file(READ ${SOURCE_DIR}/wscript waf_text)
foreach(kind sources headers test_sources gtest_sources)
  cmake_set_files("${cmake_text}" "photonic_rails_${kind}" cmake_files)
  if(kind STREQUAL "sources")
    waf_list("${waf_text}" "module.source" waf_files)
  elseif(kind STREQUAL "headers")
    waf_list("${waf_text}" "headers.source" waf_files)
  elseif(kind STREQUAL "test_sources")
    waf_list("${waf_text}" "module_test.source" waf_files)
  else()
    waf_list("${waf_text}" "gtest_sources" waf_files)
  endif()
  if(NOT cmake_files)
    message(FATAL_ERROR "no ${kind} found in CMakeLists.txt")
  endif()
  expect_equal("${kind}" "${cmake_files}" "${waf_files}")
endforeach()

# Every GoogleTest file is listed (the list replaced a glob, which could not miss one).
file(GLOB gtest_files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/test/gtest/*.cc)
list(SORT gtest_files)
cmake_set_files("${cmake_text}" "photonic_rails_gtest_sources" cmake_gtest_files)
expect_equal("GoogleTest files on disk and listed" "${gtest_files}" "${cmake_gtest_files}")

# Examples: the program names and their sources.
file(READ ${SOURCE_DIR}/examples/CMakeLists.txt cmake_examples)
file(READ ${SOURCE_DIR}/examples/wscript waf_examples)
string(REGEX MATCHALL "NAME [A-Za-z0-9_-]+" cmake_names "${cmake_examples}")
string(REPLACE "NAME " "" cmake_names "${cmake_names}")
list(SORT cmake_names)
string(REGEX MATCHALL "create_ns3_program\\('[A-Za-z0-9_-]+'" waf_names "${waf_examples}")
string(REPLACE "create_ns3_program('" "" waf_names "${waf_names}")
string(REPLACE "'" "" waf_names "${waf_names}")
list(SORT waf_names)
expect_equal("example programs" "${cmake_names}" "${waf_names}")
string(REGEX MATCHALL "[A-Za-z0-9_-]+\\.cc" cmake_example_sources "${cmake_examples}")
list(SORT cmake_example_sources)
quoted_files("${waf_examples}" waf_example_sources)
expect_equal("example sources" "${cmake_example_sources}" "${waf_example_sources}")

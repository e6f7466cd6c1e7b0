# SPDX-License-Identifier: GPL-2.0-only
# Standalone build against Debian bookworm's installed ns-3 3.37.
#
# Provides build_lib() and build_lib_example() with the same arguments as ns-3's own macros,
# so CMakeLists.txt is shared verbatim with the in-tree (contrib/) build, and adds what ns-3's
# tree would otherwise provide: a test runner, CTest registration and GoogleTest.

if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
# Sanitize: AddressSanitizer + UndefinedBehaviorSanitizer, any report fatal (ns-3 itself is
# not instrumented; ASan still sees every heap access our code makes). Leak checking is off
# (see photonic_rails_standalone_tests): ns-3 keeps singletons alive until exit by design.
# GCC 12 at -O1 with the sanitizers warns falsely about <regex>'s std::function members
# (maybe-uninitialized); the Release build keeps that warning.
set(pr_sanitizers -fsanitize=address,undefined)
add_compile_options("$<$<CONFIG:Sanitize>:-O1;-g;-fno-omit-frame-pointer;${pr_sanitizers};-fno-sanitize-recover=all;-Wno-maybe-uninitialized>")
add_link_options("$<$<CONFIG:Sanitize>:${pr_sanitizers}>")
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

find_package(ns3 3.37 EXACT REQUIRED)
# The standalone build always builds the tests (an ns-3 tree's --enable-tests sets this).
set(ENABLE_TESTS ON)
include(CTest)
include(GoogleTest)

# Module variables in ns-3's naming, so the shared lists can say ${libcore}.
foreach(module core network point-to-point stats applications)
  set(lib${module} ns3::lib${module})
endforeach()

# Our headers are included as "ns3/<file>.h", as in an ns-3 tree: mirror them there.
set(PR_INCLUDE_DIR ${CMAKE_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${PR_INCLUDE_DIR}/ns3)

# Debian's g++ links with --as-needed, which would drop a library whose only use is static
# registration (TypeIds, TestSuites). ns-3 links its own modules this way for that reason.
function(pr_link_module target)
  target_link_libraries(${target} PRIVATE -Wl,--no-as-needed ${ARGN} -Wl,--as-needed)
endfunction()

# The tree builds without a warning under GCC; CI ('./rails test') keeps it so with -Werror.
# Off by default: another compiler may warn where GCC does not, which is no reason to fail.
option(PR_WERROR "Treat compiler warnings in photonic-rails' own targets as errors" OFF)

function(pr_compile_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter
                                           $<$<BOOL:${PR_WERROR}>:-Werror>)
  target_compile_definitions(${target} PRIVATE NS3_LOG_ENABLE
                                               $<$<CONFIG:Debug>:NS3_ASSERT_ENABLE>)
  target_include_directories(${target} PRIVATE ${PR_INCLUDE_DIR})
endfunction()

function(build_lib)
  cmake_parse_arguments(BLIB "" "LIBNAME"
                        "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES" ${ARGN})
  set(module_header_body "")
  foreach(header ${BLIB_HEADER_FILES})
    get_filename_component(name ${header} NAME)
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${header} ${PR_INCLUDE_DIR}/ns3/${name} COPYONLY)
    string(APPEND module_header_body "#include \"ns3/${name}\"\n")
  endforeach()
  file(WRITE ${PR_INCLUDE_DIR}/ns3/${BLIB_LIBNAME}-module.h
       "#ifndef PHOTONIC_RAILS_MODULE_H\n#define PHOTONIC_RAILS_MODULE_H\n"
       "${module_header_body}#endif\n")

  add_library(${BLIB_LIBNAME} SHARED ${BLIB_SOURCE_FILES})
  add_library(ns3::lib${BLIB_LIBNAME} ALIAS ${BLIB_LIBNAME})
  set_target_properties(${BLIB_LIBNAME} PROPERTIES OUTPUT_NAME ns3-${BLIB_LIBNAME})
  pr_compile_options(${BLIB_LIBNAME})
  target_include_directories(${BLIB_LIBNAME} INTERFACE $<BUILD_INTERFACE:${PR_INCLUDE_DIR}>
                                                       $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_definitions(${BLIB_LIBNAME} INTERFACE NS3_LOG_ENABLE)
  target_link_libraries(${BLIB_LIBNAME} PUBLIC ${BLIB_LIBRARIES_TO_LINK})

  # The GoogleTests are compiled once, for the test runner (suite photonic-rails-googletest)
  # and for their own executable (photonic_rails_standalone_tests).
  set(suite_sources ${BLIB_TEST_SOURCES})
  list(FILTER suite_sources EXCLUDE REGEX "^test/gtest/")
  set(gtest_sources ${BLIB_TEST_SOURCES})
  list(FILTER gtest_sources INCLUDE REGEX "^test/gtest/")
  add_library(photonic-rails-gtest-objects OBJECT ${gtest_sources})
  pr_compile_options(photonic-rails-gtest-objects)
  target_link_libraries(photonic-rails-gtest-objects PRIVATE ${BLIB_LIBNAME} GTest::gtest)

  # ns-3 TestSuites: our own runner, one CTest entry per suite. Each file
  # test/<name>-test-suite.cc defines exactly the suite photonic-rails-<name> (ns-3 prefixes
  # suites with their module); a check entry proves that the runner knows exactly these
  # suites, so none can be silently skipped.
  add_executable(test-runner test/test-runner.cc ${suite_sources}
                             $<TARGET_OBJECTS:photonic-rails-gtest-objects>)
  pr_compile_options(test-runner)
  pr_link_module(test-runner ${BLIB_LIBNAME} ${BLIB_LIBRARIES_TO_LINK})
  target_link_libraries(test-runner PRIVATE GTest::gtest)
  set(suites "")
  foreach(source ${suite_sources})
    get_filename_component(name ${source} NAME)
    string(REGEX REPLACE "-test-suite\\.cc$" "" name ${name})
    list(APPEND suites photonic-rails-${name})
    add_test(NAME suite.${name} COMMAND test-runner --suite=photonic-rails-${name})
  endforeach()
  list(SORT suites)
  add_test(NAME suite-list
           COMMAND ${CMAKE_COMMAND} -DRUNNER=$<TARGET_FILE:test-runner> "-DEXPECTED=${suites}"
                   -P ${PROJECT_SOURCE_DIR}/test/check-suite-list.cmake)
  set(PR_MODULE_LIBRARIES ${BLIB_LIBRARIES_TO_LINK} PARENT_SCOPE)

  pr_install_package(${BLIB_LIBNAME} ${BLIB_HEADER_FILES})

  add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/examples)
  # As ns-3's scratch/: every scratch/<name>.cc is a program <name>, linked as the examples
  # are (a quick experiment needs no CMake edit).
  file(GLOB scratch_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/scratch/*.cc)
  foreach(source ${scratch_sources})
    get_filename_component(name ${source} NAME_WE)
    if(TARGET ${name})
      message(FATAL_ERROR "scratch/${name}.cc: a program named ${name} exists already: rename it")
    endif()
    build_lib_example(NAME ${name} SOURCE_FILES ${source}
                      LIBRARIES_TO_LINK ${libcore} ${libnetwork} ${libpoint-to-point} ${libstats}
                                        ${libapplications})
  endforeach()
endfunction()

# 'cmake --install' installs the library, its headers as <prefix>/include/ns3/<name>.h and
# a CMake package: find_package(photonic-rails) gives photonic-rails::photonic-rails, which
# carries the include directory, NS3_LOG_ENABLE and the libraries to link, ns-3's among them
# (test/check-out-of-tree.cmake builds a program against it). In an ns-3 tree ns-3 installs
# the module itself. The generated Chakra header stays out: no public header includes it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
function(pr_install_package library)
  target_compile_features(${library} INTERFACE cxx_std_17)
  install(TARGETS ${library} EXPORT photonic-rails-targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${ARGN} ${PR_INCLUDE_DIR}/ns3/${library}-module.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
  set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/photonic-rails)
  install(EXPORT photonic-rails-targets NAMESPACE photonic-rails:: DESTINATION ${package_dir})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/photonic-rails-config.cmake.in
                                ${CMAKE_BINARY_DIR}/photonic-rails-config.cmake
                                INSTALL_DESTINATION ${package_dir})
  write_basic_package_version_file(${CMAKE_BINARY_DIR}/photonic-rails-config-version.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_BINARY_DIR}/photonic-rails-config.cmake
                ${CMAKE_BINARY_DIR}/photonic-rails-config-version.cmake
          DESTINATION ${package_dir})
endfunction()

function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK"
                        ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES})
  pr_compile_options(${BLIB_EXAMPLE_NAME})
  pr_link_module(${BLIB_EXAMPLE_NAME} photonic-rails ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
endfunction()

# Registered after build_lib: GoogleTest for pure logic, example smoke runs, and the proof
# that wscript lists the same files as CMakeLists.txt.
function(photonic_rails_standalone_tests)
  # Under the sanitizers a report (a memory error, undefined behaviour or, at exit, a leak)
  # exits with 23, never with the 1 of a clean input error, so the tests that expect exit
  # status 1 cannot mistake a memory error for the right refusal.
  set(sanitizer_environment "")
  if(CMAKE_BUILD_TYPE STREQUAL "Sanitize")
    set(sanitizer_environment "ASAN_OPTIONS=detect_leaks=1:exitcode=23"
                              "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=23")
  endif()
  add_executable(photonic-rails-gtest $<TARGET_OBJECTS:photonic-rails-gtest-objects>)
  pr_compile_options(photonic-rails-gtest)
  pr_link_module(photonic-rails-gtest photonic-rails ${PR_MODULE_LIBRARIES})
  target_link_libraries(photonic-rails-gtest PRIVATE GTest::gtest_main)
  set(gtest_properties "")
  if(sanitizer_environment)
    set(gtest_properties PROPERTIES ENVIRONMENT "${sanitizer_environment}")
  endif()
  gtest_discover_tests(photonic-rails-gtest TEST_PREFIX gtest. DISCOVERY_TIMEOUT 60
                       ${gtest_properties})

  # The tree stays clang-format clean (.clang-format, ns-3's style): where clang-format is
  # installed (Debian: clang-format), a file it would change fails this test.
  find_program(PR_CLANG_FORMAT clang-format)
  if(PR_CLANG_FORMAT)
    file(GLOB_RECURSE formatted RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
         ${PROJECT_SOURCE_DIR}/model/*/*.cc ${PROJECT_SOURCE_DIR}/model/*/*.h
         ${PROJECT_SOURCE_DIR}/helper/*.cc ${PROJECT_SOURCE_DIR}/helper/*.h
         ${PROJECT_SOURCE_DIR}/harness/*.cc ${PROJECT_SOURCE_DIR}/harness/*.h
         ${PROJECT_SOURCE_DIR}/examples/*.cc ${PROJECT_SOURCE_DIR}/scratch/*.cc
         ${PROJECT_SOURCE_DIR}/test/*.cc ${PROJECT_SOURCE_DIR}/test/*.h
         ${PROJECT_SOURCE_DIR}/test/out-of-tree/*.cc)
    add_test(NAME clang-format
             COMMAND ${PR_CLANG_FORMAT} --dry-run --Werror ${formatted}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endif()

  add_test(NAME wscript-lists
           COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                   -P ${PROJECT_SOURCE_DIR}/test/check-wscript-lists.cmake)
  # No file includes a layer above its own (photonic_rails_layers, CMakeLists.txt).
  add_test(NAME layers
           COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                   "-DLAYERS=${photonic_rails_layers}"
                   -P ${PROJECT_SOURCE_DIR}/test/check-layers.cmake)

  # A user's program builds against the installed package alone (under the sanitizers it
  # links them too, as the installed library needs them).
  set(out_of_tree_flags "")
  if(CMAKE_BUILD_TYPE STREQUAL "Sanitize")
    string(JOIN " " out_of_tree_flags ${pr_sanitizers})
  endif()
  add_test(NAME out-of-tree
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                   -DWORK_DIR=${CMAKE_BINARY_DIR}/out-of-tree -DCXX=${CMAKE_CXX_COMPILER}
                   "-DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}" "-DFLAGS=${out_of_tree_flags}"
                   -P ${PROJECT_SOURCE_DIR}/test/check-out-of-tree.cmake)

  include(${PROJECT_SOURCE_DIR}/test/example-smoke-tests.cmake)

  if(sanitizer_environment)
    get_property(all_tests DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY TESTS)
    # Appended: a test may set variables of its own (NS_ATTRIBUTE_DEFAULT).
    set_property(TEST ${all_tests} APPEND PROPERTY ENVIRONMENT ${sanitizer_environment})
  endif()
endfunction()

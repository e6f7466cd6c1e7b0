# Example programs run as smoke tests: each must exit 0 with small arguments.
# (In an ns-3 tree, test/examples-to-run.py plays this role for test.py.)
add_test(NAME example.ocs-circuit-example COMMAND ocs-circuit-example)
add_test(NAME example.ocs-circuit-example-bad-technology
         COMMAND ocs-circuit-example --technology=unobtainium)
set_tests_properties(example.ocs-circuit-example-bad-technology PROPERTIES WILL_FAIL TRUE)
add_test(NAME example.photonic-rails-bench
         COMMAND photonic-rails-bench --frames=20000 --transportBytes=4000000 --repeats=1)
add_test(NAME example.photonic-rails-cost
         COMMAND photonic-rails-cost --out=${CMAKE_BINARY_DIR}/cost-smoke)
# The paper's headline, as printed (CTest ignores the exit status here; the run above checks it).
add_test(NAME example.photonic-rails-cost-headline
         COMMAND photonic-rails-cost --gpus=1024,4096 --plot=0 --out=${CMAKE_BINARY_DIR}/cost-smoke-headline)
set_tests_properties(example.photonic-rails-cost-headline PROPERTIES
  PASS_REGULAR_EXPRESSION "Opus vs rail-optimized[^\n]*saves 70\\.46% cost \\(4096 GPUs\\) and 95\\.84% power \\(4096 GPUs\\)")
add_test(NAME example.photonic-rails-cost-bad-gpus
         COMMAND photonic-rails-cost --gpus=1024,1020 --out=${CMAKE_BINARY_DIR}/cost-smoke-bad)
set_tests_properties(example.photonic-rails-cost-bad-gpus PROPERTIES WILL_FAIL TRUE)
add_test(NAME example.photonic-rails-workload COMMAND photonic-rails-workload --model=llama3-8b --tp=4 --fsdp=2 --pp=2 --gpusPerServer=4 --microBatchSize=2 --microBatches=4 --summary=1 --out=${CMAKE_BINARY_DIR}/workload-smoke.json)
add_test(NAME example.rail-fabric-example
         COMMAND rail-fabric-example --servers=3 --bytes=1000000)
add_test(NAME example.rail-fabric-example-clos
         COMMAND rail-fabric-example --servers=8 --rail=eps-clos --radix=4 --bytes=100000)
add_test(NAME example.rail-fabric-example-ocs
         COMMAND rail-fabric-example --servers=4 --rail=ocs --nic=2x200G --bytes=1000000)
add_test(NAME example.rail-fabric-example-bad-rail COMMAND rail-fabric-example --rail=wifi)
set_tests_properties(example.rail-fabric-example-bad-rail PROPERTIES WILL_FAIL TRUE)
add_test(NAME example.photonic-rails-sim
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/two-stage.json
                 --gpusPerServer=2 --fabric=eps,eps-clos --radix=2 --iterations=2
                 --out=${CMAKE_BINARY_DIR}/sim-smoke)
add_test(NAME example.photonic-rails-sim-generated
         COMMAND photonic-rails-sim --model=llama3-8b --layers=2 --hidden=1024 --ffn=4096
                 --heads=8 --kvHeads=8 --seqLen=512 --tp=2 --fsdp=2 --pp=2 --gpusPerServer=2
                 --frameBytes=61440 --out=${CMAKE_BINARY_DIR}/sim-smoke-generated)
# Bad inputs: exit status 1 with a one-line reason (test/expect-error.cmake).
function(photonic_rails_expect_error name program args expect)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${program}> "-DARGS=${args}"
                   "-DEXPECT=${expect}" -P ${PROJECT_SOURCE_DIR}/test/expect-error.cmake)
endfunction()
photonic_rails_expect_error(example.photonic-rails-sim-deadlock photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/deadlock.json|--gpusPerServer=2|--out=${CMAKE_BINARY_DIR}/sim-smoke-deadlock"
  "error: the simulation is stuck after 0 s: 2 of 2 ranks cannot progress")
photonic_rails_expect_error(example.photonic-rails-sim-mixed-algorithms photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/mixed-algorithms.json|--gpusPerServer=2"
  "rank 1 op 0, field 'algorithm': collective #0 on group 'all'")
photonic_rails_expect_error(example.photonic-rails-sim-bad-fabric photonic-rails-sim
  "--fabric=wifi" "error: unknown --fabric 'wifi'")
photonic_rails_expect_error(example.photonic-rails-sim-dag-and-model photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-stage.json|--tp=2"
  "error: --tp is a generator flag")
# Windows mode with --figure on hand-made inputs (test/data/windows-*): the timeline's windows
# are 2 and 0.5 ms on rail 0 and 5 and 0 ms on rail 1; the phase log's 20 and 0.25 ms (see
# test/gtest/workload-window-cdf-test.cc). The CSV files must equal the expected ones, and the
# PNG is rendered when gnuplot is installed.
add_test(NAME example.photonic-rails-workload-figure
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-workload>
                 "-DARGS=--windows=windows-timeline.csv,windows-phases.txt|--gpusPerServer=2|--figure=${CMAKE_BINARY_DIR}/workload-smoke-figure"
                 -DWORKDIR=${PROJECT_SOURCE_DIR}/test/data
                 -DOUT_DIR=${CMAKE_BINARY_DIR}/workload-smoke-figure
                 -DEXPECTED_DIR=${PROJECT_SOURCE_DIR}/test/data -DPREFIX=windows-expected-
                 "-DFILES=window-cdf.csv|window-classes.csv" -DEXISTS=window-cdf.plt
                 -DIF_GNUPLOT=window-cdf.png
                 "-DEXPECT_STDOUT=all inputs\n[^\n]*\n  windows: 6, median 1\\.250 ms, min 0\\.000 ms, max 20\\.000 ms, above 1\\.000 ms: 50\\.0 %"
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
photonic_rails_expect_error(example.photonic-rails-workload-figure-zero-windows
  photonic-rails-workload
  "--windows=${PROJECT_SOURCE_DIR}/test/data/windows-zero.csv|--gpusPerServer=2|--figure=${CMAKE_BINARY_DIR}/workload-smoke-figure-zero"
  "error: --figure: no window is longer than 0 ms, nothing to draw on a log axis")
photonic_rails_expect_error(example.photonic-rails-workload-figure-without-windows
  photonic-rails-workload "--validate=${PROJECT_SOURCE_DIR}/test/data/two-stage.json|--figure=x"
  "error: --figure needs --windows=FILE")

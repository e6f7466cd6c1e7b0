# Example programs run as smoke tests: each must exit 0 with small arguments.
# (In an ns-3 tree, test/examples-to-run.py plays this role for test.py.)
add_test(NAME example.ocs-circuit-example COMMAND ocs-circuit-example)
add_test(NAME example.ocs-circuit-example-bad-technology
         COMMAND ocs-circuit-example --technology=unobtainium)
set_tests_properties(example.ocs-circuit-example-bad-technology PROPERTIES WILL_FAIL TRUE)
add_test(NAME example.photonic-rails-bench
         COMMAND photonic-rails-bench --frames=20000 --repeats=1)
add_test(NAME example.photonic-rails-workload COMMAND photonic-rails-workload --model=llama3-8b --tp=4 --fsdp=2 --pp=2 --gpusPerServer=4 --microBatchSize=2 --microBatches=4 --summary=1 --out=${CMAKE_BINARY_DIR}/workload-smoke.json)

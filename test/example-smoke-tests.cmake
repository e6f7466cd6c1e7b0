# Example programs run as smoke tests: each must exit 0 with small arguments.
# (In an ns-3 tree, test/examples-to-run.py plays this role for test.py.)
add_test(NAME example.ocs-circuit-example COMMAND ocs-circuit-example)
add_test(NAME example.ocs-circuit-example-bad-technology
         COMMAND ocs-circuit-example --technology=unobtainium)
set_tests_properties(example.ocs-circuit-example-bad-technology PROPERTIES WILL_FAIL TRUE)
add_test(NAME example.photonic-rails-bench
         COMMAND photonic-rails-bench --frames=20000 --repeats=1)

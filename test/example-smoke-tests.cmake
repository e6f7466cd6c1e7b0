# Example programs run as smoke tests: each must exit 0 with small arguments.
# (In an ns-3 tree, test/examples-to-run.py plays this role for test.py.)
add_test(NAME example.ocs-circuit-example COMMAND ocs-circuit-example)

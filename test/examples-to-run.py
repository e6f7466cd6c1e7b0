#! /usr/bin/env python3
# Examples that ns-3's test.py runs (in an ns-3 source tree) when examples are enabled:
# (example command line, condition to run it, condition to run it under valgrind).
# Standalone builds run the same programs through test/example-smoke-tests.cmake.

cpp_examples = [
    ("ocs-circuit-example", "True", "True"),
    ("photonic-rails-cost --gpus=1024,4096 --plot=0", "True", "True"),
    ("photonic-rails-bench --frames=20000 --transportBytes=4000000 --repeats=1", "True", "False"),
    ("rail-fabric-example --servers=3 --bytes=1000000", "True", "True"),
]

python_examples = []

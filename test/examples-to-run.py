#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Examples that ns-3's test.py runs (in an ns-3 source tree) when examples are enabled:
# (example command line, condition to run it, condition to run it under valgrind).
# Standalone builds run the same programs through test/example-smoke-tests.cmake.

cpp_examples = [
    ("first-collective --servers=8 --bytes=2097152", "True", "True"),
    ("ocs-circuit-example", "True", "True"),
    ("photonic-rails-cost --gpus=1024,4096 --plot=0", "True", "True"),
    ("photonic-rails-sim --model=llama3-8b --layers=2 --hidden=1024 --ffn=4096 --heads=8 "
     "--kvHeads=8 --seqLen=512 --tp=2 --fsdp=2 --pp=2 --gpusPerServer=2 --frameBytes=61440 "
     "--progress=0 --out=photonic-rails-sim-smoke", "True", "False"),
    ("photonic-rails-workload "
     "--windows=../../contrib/photonic-rails/test/data/windows-timeline.csv,"
     "../../contrib/photonic-rails/test/data/windows-phases.txt --gpusPerServer=2 "
     "--figure=photonic-rails-workload-figure --plot=0", "True", "True"),
    ("photonic-rails-bench --frames=20000 --transportBytes=4000000 --repeats=1", "True", "False"),
    ("rail-fabric-example --servers=3 --bytes=1000000", "True", "True"),
    ("photonic-rails-delay-sweep --dag=../../contrib/photonic-rails/test/data/two-phases.json "
     "--gpusPerServer=1 --nicPorts=1 --nicRate=100 --delays=0,25 --plot=0 "
     "--out=photonic-rails-delay-sweep-smoke", "True", "False"),
    ("photonic-rails-jobs --jobs=../../contrib/photonic-rails/test/data/jobs/two-rings.json "
     "--gpusPerServer=1 --variants=eps,ocs-whole --reconfigDelay=10us --plot=0 "
     "--out=photonic-rails-jobs-smoke", "True", "False"),
    # test.py runs examples in testpy-output/<date>/ below the ns-3 root.
    ("opus-phase-replay --logs=../../contrib/photonic-rails/test/data/opus-replay-stage0.txt,"
     "../../contrib/photonic-rails/test/data/opus-replay-stage1.txt --plot=0 "
     "--out=opus-phase-replay-smoke", "True", "True"),
]

python_examples = []

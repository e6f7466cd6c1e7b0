# SPDX-License-Identifier: GPL-2.0-only
# Example programs run as smoke tests: each must exit 0 with small arguments.
# (In an ns-3 tree, test/examples-to-run.py plays this role for test.py.)
add_test(NAME example.ocs-circuit-example COMMAND ocs-circuit-example)
# The first example: a ring AllGather within 1% of its closed form, every byte counted.
add_test(NAME example.first-collective COMMAND first-collective --servers=8 --bytes=2097152)
set_tests_properties(example.first-collective PROPERTIES PASS_REGULAR_EXPRESSION
  "on 8 GPUs: finished at [0-9.]+ us, closed form [0-9.]+ us \\([+-]0\\.[0-9]+%\\); bytes sent 117440512, n\\(n-1\\) x bytes 117440512\n")
add_test(NAME example.ocs-circuit-example-bad-technology
         COMMAND ocs-circuit-example --technology=unobtainium)
set_tests_properties(example.ocs-circuit-example-bad-technology PROPERTIES WILL_FAIL TRUE)
add_test(NAME example.photonic-rails-bench
         COMMAND photonic-rails-bench --frames=20000 --transportBytes=4000000 --repeats=1)
# PFC alone: two flows alternate frame by frame, so they end at the wire time with 50% each.
add_test(NAME example.photonic-rails-contention
         COMMAND photonic-rails-contention --flows=2 --rates=100 --durationMs=2 --intervalUs=50
                 --profiles=pfc-only,cx7 --plot=0 --out=${CMAKE_BINARY_DIR}/contention-smoke)
set_tests_properties(example.photonic-rails-contention PROPERTIES PASS_REGULAR_EXPRESSION
  "pfc-only +100 +2 +2.001 +2.000 +\\+0.0% +100.0% +50.0 - +50.0")
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
photonic_rails_expect_error(example.photonic-rails-contention-profile photonic-rails-contention
  "--profiles=cx7,foo"
  "photonic-rails-contention: error: --profiles: unknown profile 'foo' \\(cx7, paper-40g, pfc-only\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-qps-flow photonic-rails-sim
  "--qpsPerConnection=2|--network=flow"
  "photonic-rails-sim: error: --qpsPerConnection runs on the packet network only \\(--network=packet\\): the flow model has no queue pairs\n$")
photonic_rails_expect_error(example.first-collective-bytes first-collective "--bytes=1048577"
  "first-collective: error: --bytes must be a multiple of 4096 \\(whole frames\\)\n$")
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
# opus-phase-replay on a hand-made log pair (test/data/opus-replay-stage{0,1}.txt): per
# 1000-ms step, stage 0 changes parallelism 4 times with windows 30, 0, 20 and 800 ms, and
# stage 1 (one fused send/recv phase) twice with windows 20 and 800 ms. At 100 ms, on demand
# all 4 of stage 0's changes are on the path: 1000 + 4 x 100 = 1400 ms (+40%); provisioning
# adds (100 - 30) + 100 + (100 - 20) = 250 ms (+25%); 4 of the 12 windows of steps 2-3 are
# >= 100 ms (the 800-ms ones, 2 per stage).
set(pr_replay_data ${PROJECT_SOURCE_DIR}/test/data)
set(pr_replay_logs ${pr_replay_data}/opus-replay-stage0.txt,${pr_replay_data}/opus-replay-stage1.txt)
add_test(NAME example.opus-phase-replay
         COMMAND opus-phase-replay --logs=${pr_replay_logs}
                 --out=${CMAKE_BINARY_DIR}/replay-smoke)
add_test(NAME example.opus-phase-replay-table
         COMMAND opus-phase-replay --logs=${pr_replay_logs} --plot=0
                 --out=${CMAKE_BINARY_DIR}/replay-smoke-table)
set_tests_properties(example.opus-phase-replay-table PROPERTIES
  PASS_REGULAR_EXPRESSION " 100 +1\\.400 +\\+40\\.00% +1\\.250 +\\+25\\.00% +4 of 12")
photonic_rails_expect_error(example.opus-phase-replay-missing-log opus-phase-replay
  "--logs=${pr_replay_data}/opus-replay-stage0.txt,/nonexistent/stage1.txt|--plot=0"
  "opus-phase-replay: error: /nonexistent/stage1.txt: cannot open the file")
# The default logs (the authors', beside the source tree) when they are there: the measured
# mean of steps 2-10, by hand from the logs (stage 0 line 18 ends 61026364.520, stage 1 line
# 102 ends 61150810.394): 124445.874 ms / 9 = 13.827 s.
if(EXISTS ${PROJECT_SOURCE_DIR}/../shared/data/opus-llama3-8b-perlmutter/stage0-phases.txt)
  add_test(NAME example.opus-phase-replay-authors-logs
           COMMAND opus-phase-replay --plot=0 --out=${CMAKE_BINARY_DIR}/replay-smoke-authors)
  set_tests_properties(example.opus-phase-replay-authors-logs PROPERTIES
    PASS_REGULAR_EXPRESSION
    "over steps 2-10 \\(step 1 is Opus's profiled step\\): measured 13\\.827 s")
endif()
# The delay sweep on test/data/two-phases.json (rank 0: allgather on A = {0, 1}, 10 ms of
# compute, allgather on B = {0, 2}, 10 ms; 2 iterations, one 100 G port per GPU). The
# reported iteration is the second: on demand it shifts B -> A and A -> B, 2 d on top of
# d = 0's 20.011 ms; provisioning (profiled in iteration 0) still pays d for B -> A and
# max(0, d - 10 ms) for A -> B. Exposed waits cover both iterations: 3 d on demand,
# 2 d + max(0, d - 10 ms) with provisioning. At d = 25 ms: 70.011, 75 ms; 60.011, 65 ms.
add_test(NAME example.photonic-rails-delay-sweep
         COMMAND photonic-rails-delay-sweep --dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json
                 --gpusPerServer=1 --nicPorts=1 --nicRate=100 --iterations=2 --delays=0,10,25
                 --out=${CMAKE_BINARY_DIR}/sweep-smoke)
# One row per run; the slopes over 0, 10 and 25 ms are hand-computed least squares: on demand
# 20.011 + 2d exactly (2 s/s), provisioning 20.011, 30.011, 60.011 ms (1.632 s/s).
set_tests_properties(example.photonic-rails-delay-sweep PROPERTIES PASS_REGULAR_EXPRESSION
  "25\\.000 +ocs +70\\.011 +[^ ]+ +3 +75\\.000 [^\n]*\n +25\\.000 +ocs-provisioning +60\\.011 +[^ ]+ +3 +65\\.000 .*\nocs +2\\.000 [^\n]*\nocs-provisioning +1\\.632 ")
photonic_rails_expect_error(example.photonic-rails-delay-sweep-bad-delays photonic-rails-delay-sweep
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--delays=0,x"
  "error: --delays: 'x' is not a delay in ms")
# Opus in photonic-rails-sim: the same job, on-demand and provisioning rows, and the static
# split, which needs 2 ports on GPU 0 (peers 1 and 2).
add_test(NAME example.photonic-rails-sim-opus
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json
                 --gpusPerServer=1 --nicPorts=2 --nicRate=50 --iterations=2 --reconfigDelay=25ms
                 --fabric=eps,ocs,ocs-provisioning,ocs-oracle,ocs-static
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-opus)
set_tests_properties(example.photonic-rails-sim-opus PROPERTIES PASS_REGULAR_EXPRESSION
  "ocs +70\\.0[0-9]+ +[^ ]+ +3 +75\\.000")
photonic_rails_expect_error(example.photonic-rails-sim-static-ports photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--nicPorts=1|--fabric=ocs-static"
  "error: ocs-static: GPU 0 needs circuits to 2 peers on rail 0 at once but has 1 NIC port")
# An alltoall over 4 one-GPU servers (test/data/alltoall-four.json, S = 8 MiB per rank) with 2
# NIC ports per GPU: AUTO plans ring-relay on optical rails, so Opus serves it with the ring
# (two peers per GPU). The busiest port carries Sn/8 = 4 MiB each way: 1024 frames of
# 4096 + 62 B at 100 Gb/s = 340.62 us, plus well under 1 us of fiber and frame latency:
# 0.341 ms, no reconfiguration after the first configuration. An explicit ring (pairwise,
# 3 peers) is still rejected.
add_test(NAME example.photonic-rails-sim-opus-alltoall
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/alltoall-four.json
                 --gpusPerServer=1 --nicPorts=2 --nicRate=100 --iterations=2 --reconfigDelay=25ms
                 --fabric=ocs --out=${CMAKE_BINARY_DIR}/sim-smoke-opus-alltoall)
set_tests_properties(example.photonic-rails-sim-opus-alltoall PROPERTIES PASS_REGULAR_EXPRESSION
  "ocs +0\\.341 +[^ ]+ +0 +0\\.000")
photonic_rails_expect_error(example.photonic-rails-sim-opus-alltoall-pairwise photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/alltoall-four.json|--gpusPerServer=1|--nicPorts=2|--fabric=ocs|--algorithm=ring|--out=${CMAKE_BINARY_DIR}/sim-smoke-opus-alltoall-pairwise"
  "GPU 0 needs circuits to 3 peers on rail 0 at once but has 2 NIC port")
photonic_rails_expect_error(example.photonic-rails-sim-optical-flag photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--reconfigDelay=1ms"
  "error: --reconfigDelay applies to optical rails")
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
# Issue 11, item 10: rank 0 sends tags 1 then 2 to rank 1, which receives 2 then 1
# (test/data/tag-order.json). Electrical rails deliver sends eagerly, so the job runs there;
# under Opus a send's circuits wait for its receive to be posted, so it could never finish on
# optical rails: refused before any run (the eps run does not start either).
add_test(NAME example.photonic-rails-sim-tag-order-eps
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/tag-order.json
                 --gpusPerServer=1 --fabric=eps --out=${CMAKE_BINARY_DIR}/sim-smoke-tag-order)
photonic_rails_expect_error(example.photonic-rails-sim-tag-order-ocs photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/tag-order.json|--gpusPerServer=1|--nicPorts=2|--fabric=eps,ocs|--out=${CMAKE_BINARY_DIR}/sim-smoke-tag-order-ocs"
  "error: on optical rails Opus sets up a communication's circuits once every member asks for it, and this job cannot finish that way \\(deadlock: 4 of 4 ops never complete; e\\.g\\. rank 0 op 0 \\(send\\) waits for its peer")
# Issue 11, item 4: a comparison says where the fabrics ran different algorithms (AUTO
# alltoall: direct on electrical rails, ring-relay on optical ones), and summary.json and
# collectives.csv record the algorithm of every collective.
add_test(NAME example.photonic-rails-sim-algorithm-note
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/alltoall-four.json
                 --gpusPerServer=1 --nicPorts=2 --nicRate=100 --fabric=eps,ocs
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-algorithm-note)
set_tests_properties(example.photonic-rails-sim-algorithm-note PROPERTIES PASS_REGULAR_EXPRESSION
  "note: alltoall ran other algorithms on ocs \\(ring-relay x 4\\) than on eps \\(direct x 4\\)")

# ---- Issue 11, items 12-15: strict flags of ocs-circuit-example and rail-fabric-example,
# bounds on opus-phase-replay's logs, signals to photonic-rails-delay-sweep. ----
set(pr_strict_tests "")
function(pr_strict_error name program args expect)
  photonic_rails_expect_error(${name} ${program} "${args}" "${expect}")
  set(pr_strict_tests ${pr_strict_tests} ${name} PARENT_SCOPE)
endfunction()
# ocs-circuit-example: every flag through StrictCommandLine (a number where a number is due,
# durations >= 0 by ParseTime), bytes within 500000 frames of --mtu, a rate in [1Mbps, 10Tbps].
pr_strict_error(example.ocs-circuit-example-negative-bytes ocs-circuit-example
  "--bytes=-1" "ocs-circuit-example: error: --bytes=-1 is out of range: bytes per flow \\(at most 500000 frames of --mtu=9000 bytes\\) in \\[1, 4500000000\\]\n$")
pr_strict_error(example.ocs-circuit-example-scientific-bytes ocs-circuit-example
  "--bytes=1e18" "ocs-circuit-example: error: [^\n]*--bytes[^\n]*'1e18'")
pr_strict_error(example.ocs-circuit-example-too-many-frames ocs-circuit-example
  "--mtu=1|--bytes=500001"
  "ocs-circuit-example: error: --bytes=500001 is out of range: bytes per flow \\(at most 500000 frames of --mtu=1 bytes\\) in \\[1, 500000\\]\n$")
pr_strict_error(example.ocs-circuit-example-bad-duration ocs-circuit-example
  "--delay=abc" "ocs-circuit-example: error: --delay: 'abc' is not a duration")
pr_strict_error(example.ocs-circuit-example-negative-delay ocs-circuit-example
  "--delay=-5s" "ocs-circuit-example: error: --delay: '-5s' is not a duration")
pr_strict_error(example.ocs-circuit-example-negative-fiber ocs-circuit-example
  "--fiber=-1ns" "ocs-circuit-example: error: --fiber: '-1ns' is not a duration")
pr_strict_error(example.ocs-circuit-example-negative-reconfig-at ocs-circuit-example
  "--reconfigAt=-1s" "ocs-circuit-example: error: --reconfigAt: '-1s' is not a duration")
pr_strict_error(example.ocs-circuit-example-bad-rate ocs-circuit-example
  "--rate=-1Gbps" "ocs-circuit-example: error: --rate: '-1Gbps' is not a line rate")
pr_strict_error(example.ocs-circuit-example-rate-out-of-range ocs-circuit-example
  "--rate=20Tbps" "ocs-circuit-example: error: --rate: '20Tbps' is outside \\[1Mbps, 10Tbps\\]")
pr_strict_error(example.ocs-circuit-example-zero-mtu ocs-circuit-example
  "--mtu=0" "ocs-circuit-example: error: --mtu=0 is out of range: frame payload bytes in \\[1, 65000\\]\n$")
pr_strict_error(example.ocs-circuit-example-unknown-flag ocs-circuit-example
  "--byte=5" "ocs-circuit-example: error: unknown flag --byte ")
# --delay is the switch's delay (the helper's technology used to override it): flow C starts
# when its circuit is up at reconfigAt + delay = 200 + 100 us, then 8388608 B in 933 frames
# (+14 B each) at 400 Gb/s take 168.033 us, plus 2 x 50 ns of fiber: 468.133 us.
add_test(NAME example.ocs-circuit-example-delay
         COMMAND ocs-circuit-example --delay=100us)
set_tests_properties(example.ocs-circuit-example-delay PROPERTIES PASS_REGULAR_EXPRESSION
  "reconfiguration delay \\+100us[^\n]*\n.*C +2 -> 4 +8388608 +468\\.133 +468\\.133")
# rail-fabric-example: the same, bytes in [1, 2^40], flags only where they apply.
pr_strict_error(example.rail-fabric-example-negative-bytes rail-fabric-example
  "--bytes=-1" "rail-fabric-example: error: --bytes=-1 is out of range: bytes per GPU \\(2\\^40 at most\\) in \\[1, 1099511627776\\]\n$")
pr_strict_error(example.rail-fabric-example-zero-bytes rail-fabric-example
  "--bytes=0" "rail-fabric-example: error: --bytes=0 is out of range: bytes per GPU \\(2\\^40 at most\\) in \\[1, 1099511627776\\]\n$")
pr_strict_error(example.rail-fabric-example-one-server rail-fabric-example
  "--servers=1" "rail-fabric-example: error: --servers must be at least 2 \\(a ring\\), got 1")
pr_strict_error(example.rail-fabric-example-ocs-on-eps rail-fabric-example
  "--ocs=sip" "rail-fabric-example: error: --ocs applies to --rail=ocs only")
pr_strict_error(example.rail-fabric-example-ocs-attribute-on-eps rail-fabric-example
  "--ns3::OcsNetDevice::FiberDelay=1us"
  "rail-fabric-example: error: --ns3::OcsNetDevice::FiberDelay applies to --rail=ocs only")
pr_strict_error(example.rail-fabric-example-eps-attribute-on-ocs rail-fabric-example
  "--rail=ocs|--nic=2x200G|--ns3::EpsSwitch::EcnKmin=1000"
  "rail-fabric-example: error: --ns3::EpsSwitch::EcnKmin applies to electrical rails \\(eps, eps-clos\\) only")
pr_strict_error(example.rail-fabric-example-dcqcn-off rail-fabric-example
  "--dcqcn=0|--ns3::RailTransport::DcqcnG=0.9"
  "rail-fabric-example: error: --ns3::RailTransport::DcqcnG acts on DCQCN's rate, which no CNP changes in this run \\(--dcqcn is off\\)")
pr_strict_error(example.rail-fabric-example-ecn-off rail-fabric-example
  "--ns3::EpsSwitch::EcnEnabled=false|--ns3::RailTransport::CnpInterval=500us"
  "rail-fabric-example: error: --ns3::RailTransport::CnpInterval acts on DCQCN's rate, which no CNP changes in this run \\(no ECN mark: ECN off, or no electrical link\\)")
pr_strict_error(example.rail-fabric-example-radix-on-ocs rail-fabric-example
  "--rail=ocs|--nic=2x200G|--radix=8"
  "rail-fabric-example: error: --radix applies to electrical rails \\(eps, eps-clos\\) only")
pr_strict_error(example.rail-fabric-example-negative-oversubscription rail-fabric-example
  "--oversubscription=-1" "rail-fabric-example: error: --oversubscription must be > 0 \\(leaf down:up ratio\\), got -1")
pr_strict_error(example.rail-fabric-example-ring-rail rail-fabric-example
  "--ringRail=8" "rail-fabric-example: error: --ringRail must be below the 8 GPUs per server of dgx-h100, got 8")
pr_strict_error(example.rail-fabric-example-bad-dcqcn rail-fabric-example
  "--dcqcn=2" "rail-fabric-example: error: --dcqcn is auto, 0 or 1, got '2'")
pr_strict_error(example.rail-fabric-example-unknown-flag rail-fabric-example
  "--server=4" "rail-fabric-example: error: unknown flag --server ")
# opus-phase-replay: times in [0, 1e13] ms and in order, one stage twice refused, a UTF-8 BOM
# skipped. Broken logs are made from the hand-made stage 0 log at configure time.
file(READ ${pr_replay_data}/opus-replay-stage0.txt pr_replay_stage0)
string(REPLACE "end_time: 110.0" "end_time: 1e300" pr_replay_huge "${pr_replay_stage0}")
file(WRITE ${CMAKE_BINARY_DIR}/replay-huge-time.txt "${pr_replay_huge}")
string(REPLACE "time: " "time: -" pr_replay_negated "${pr_replay_stage0}")
file(WRITE ${CMAKE_BINARY_DIR}/replay-negated.txt "${pr_replay_negated}")
configure_file(${pr_replay_data}/opus-replay-stage0.txt ${CMAKE_BINARY_DIR}/replay-stage0-copy.txt
               COPYONLY)
pr_strict_error(example.opus-phase-replay-huge-time opus-phase-replay
  "--logs=${CMAKE_BINARY_DIR}/replay-huge-time.txt,${pr_replay_data}/opus-replay-stage1.txt|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-bad"
  "opus-phase-replay: error: [^\n]*replay-huge-time\\.txt:3: 'end_time:' needs a time in \\[0, 1e13\\] ms, found '1e300'")
pr_strict_error(example.opus-phase-replay-negated opus-phase-replay
  "--logs=${CMAKE_BINARY_DIR}/replay-negated.txt,${pr_replay_data}/opus-replay-stage1.txt|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-bad"
  "opus-phase-replay: error: [^\n]*replay-negated\\.txt:1: 'end_time:' needs a time in \\[0, 1e13\\] ms, found '-10\\.0'")
pr_strict_error(example.opus-phase-replay-same-file opus-phase-replay
  "--logs=${pr_replay_data}/opus-replay-stage0.txt,${pr_replay_data}/opus-replay-stage0.txt|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-bad"
  "opus-phase-replay: error: [^\n]*opus-replay-stage0\\.txt and [^\n]*opus-replay-stage0\\.txt are the same file")
pr_strict_error(example.opus-phase-replay-same-content opus-phase-replay
  "--logs=${pr_replay_data}/opus-replay-stage0.txt,${CMAKE_BINARY_DIR}/replay-stage0-copy.txt|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-bad"
  "opus-phase-replay: error: [^\n]*replay-stage0-copy\\.txt holds the same phases as [^\n]*opus-replay-stage0\\.txt")
# The BOM-prefixed copy of stage 1 replays exactly as stage 1 (the table of example.opus-phase-replay-table).
add_test(NAME example.opus-phase-replay-bom
         COMMAND opus-phase-replay
                 --logs=${pr_replay_data}/opus-replay-stage0.txt,${pr_replay_data}/opus-replay-stage1-bom.txt
                 --plot=0 --out=${CMAKE_BINARY_DIR}/replay-smoke-bom)
set_tests_properties(example.opus-phase-replay-bom PROPERTIES
  PASS_REGULAR_EXPRESSION " 100 +1\\.400 +\\+40\\.00% +1\\.250 +\\+25\\.00% +4 of 12")
# photonic-rails-delay-sweep: --delays quotes what was typed; a signal stops the children.
pr_strict_error(example.photonic-rails-delay-sweep-delay-with-unit photonic-rails-delay-sweep
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--delays=0,25ms"
  "photonic-rails-delay-sweep: error: --delays: '25ms' is not a delay in ms")
foreach(signal TERM INT)
  add_test(NAME example.photonic-rails-delay-sweep-sig${signal}
           COMMAND sh ${PROJECT_SOURCE_DIR}/test/delay-sweep-signal-test.sh
                   $<TARGET_FILE:photonic-rails-delay-sweep>
                   ${PROJECT_SOURCE_DIR}/test/data/two-phases.json
                   ${CMAKE_BINARY_DIR}/sweep-sig${signal} ${signal})
  list(APPEND pr_strict_tests example.photonic-rails-delay-sweep-sig${signal})
endforeach()
# Before these fixes some of the inputs hung (--bytes=-1 wrapped to 2^64 - 1 bytes).
set_tests_properties(${pr_strict_tests} PROPERTIES TIMEOUT 60)
# ---- Issue 11 (workload): DAG inputs the validator refuses, and generated jobs it checks
# before writing or running them (test/data/*.json; the GoogleTests in
# test/gtest/workload-format-test.cc cover every rule).
set(pr_dag_data ${PROJECT_SOURCE_DIR}/test/data)
photonic_rails_expect_error(example.photonic-rails-workload-iteration-gap photonic-rails-workload
  "--validate=${pr_dag_data}/iteration-five-only.json|--estimate=0"
  "rank 0 op 0, field 'iteration': iteration 5 is used but no op is in iterations 0 to 4")
photonic_rails_expect_error(example.photonic-rails-workload-iteration-decreasing
  photonic-rails-workload "--validate=${pr_dag_data}/iteration-decreasing.json|--estimate=0"
  "rank 0 op 1, field 'iteration': iteration 0 waits for op 0 of iteration 1")
photonic_rails_expect_error(example.photonic-rails-sim-iteration-mismatch photonic-rails-sim
  "--dag=${pr_dag_data}/iteration-mismatch.json|--gpusPerServer=1"
  "error: [^\n]*rank 1 op 0, field 'iteration': collective #0 on group 'all' is in iteration 1")
photonic_rails_expect_error(example.photonic-rails-workload-halving-doubling-three
  photonic-rails-workload "--validate=${pr_dag_data}/halving-doubling-three.json|--estimate=0"
  "rank 0 op 0, field 'algorithm': halving-doubling needs a power-of-two group, not 3 members")
photonic_rails_expect_error(example.photonic-rails-sim-huge-bytes photonic-rails-sim
  "--dag=${pr_dag_data}/huge-bytes.json|--gpusPerServer=1"
  "error: [^\n]*rank 0 op 0, field 'bytes': size must be at most 1099511627776")
photonic_rails_expect_error(example.photonic-rails-workload-duplicate-key photonic-rails-workload
  "--validate=${pr_dag_data}/duplicate-key.json|--estimate=0"
  "rank 0 op 0, field 'duration_us': duplicate key 'duration_us'")
photonic_rails_expect_error(example.photonic-rails-workload-validate-directory
  photonic-rails-workload "--validate=${pr_dag_data}"
  "test/data: is a directory, not a DAG file")
# A binary file: the program itself (ELF: 0x7f 'E' 'L' 'F', then 0x02 for 64 bits).
photonic_rails_expect_error(example.photonic-rails-sim-binary-dag photonic-rails-sim
  "--dag=$<TARGET_FILE:photonic-rails-sim>"
  "error: [^\n]*: not a JSON text \\(binary data: byte 0x02 at offset 4")
photonic_rails_expect_error(example.photonic-rails-workload-tiny-mfu photonic-rails-workload
  "--mfu=1e-300|--out=${CMAKE_BINARY_DIR}/workload-smoke-tiny-mfu.json"
  "error: --mfu=1e-300 is out of range: model FLOPs utilization in \\[0\\.001, 1\\]")
# A job within the flags' bounds that the format cannot hold (256 sequences of 2^20 tokens x
# 4096 x 2 B = 2^41-byte pipeline tensors): the generated job is validated before it is written
# or run, and the error names the flags behind it.
photonic_rails_expect_error(example.photonic-rails-workload-huge-activations photonic-rails-workload
  "--microBatchSize=256|--seqLen=1048576|--pp=2|--layers=2|--gpusPerServer=1|--out=${CMAKE_BINARY_DIR}/workload-smoke-huge.json"
  "error: the generated job: rank 0 op 3, field 'bytes': size must be at most 1099511627776 [^\n]*--seqLen=1048576, --microBatchSize=256")
photonic_rails_expect_error(example.photonic-rails-sim-huge-activations photonic-rails-sim
  "--model=llama3-8b|--microBatchSize=256|--seqLen=1048576|--pp=2|--layers=2|--gpusPerServer=1"
  "error: the generated job: rank 0 op 3, field 'bytes': size must be at most 1099511627776 [^\n]*--seqLen=1048576, --microBatchSize=256")
# Issue 11, item 9: ECMP collisions are shown. A 2-GPU exchange (4 MiB each way on rail 0 of
# the dgx-h100 preset, 2 x 200G ports per GPU) on a 1:1 Clos of radix 4: each direction's 2
# QPs share a link with probability 1 - (1/2)(1/2) = 3/4, and the default seeds (node id + 1)
# make them share one in both directions, which the example reports.
add_test(NAME example.rail-fabric-example-ecmp-collision
         COMMAND rail-fabric-example --servers=2 --rail=eps-clos --radix=4 --nic=2x200G
                 --bytes=4194304 --dcqcn=0)
set_tests_properties(example.rail-fabric-example-ecmp-collision PROPERTIES
  PASS_REGULAR_EXPRESSION "busiest switch-to-switch link carried 2\\.00 flows \\(")
# --- issue 11: flags -------------------------------------------------------------------------
# Bad flags: exit status 1 and one line naming the flag, its value and what it expects (items
# 5, 11 and 15 of issue 11). Each used to run with another value, abort or wrap silently.
set(pr_flags_out --out=${CMAKE_BINARY_DIR}/sim-smoke-flags|--progress=0)
set(pr_flags_job --dag=${PROJECT_SOURCE_DIR}/test/data/two-stage.json|${pr_flags_out})
photonic_rails_expect_error(example.photonic-rails-sim-flags-nic-rate-negative photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--nicRate=-5"
  "error: --nicRate=-5 is out of range: Gb/s per NIC port in \\[0\\.001, 10000\\], or 0 for the preset's\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-nic-rate-huge photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--nicRate=1e18"
  "error: --nicRate=1e18 is out of range: Gb/s per NIC port in \\[0\\.001, 10000\\], or 0 for the preset's\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-nic-ports photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--nicPorts=65"
  "error: --nicPorts=65 is out of range: NIC ports per GPU in \\[1, 64\\], or 0 for the preset's\n$")
# Perlmutter's 4.8 Tb/s scale-up with 61440-B frames: 247174 B of PFC buffer per port (see
# test/gtest/rail-fabric-spec-test.cc), 135 ports in 32 MiB.
photonic_rails_expect_error(example.photonic-rails-sim-flags-gpus-pfc photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=160"
  "error: a server's scale-up switch of 160 ports cannot be lossless: PFC needs 247174 B per port \\(headroom at 4800 Gb/s over 50-ns cables, 61440-B frames\\) and its 33554432-B buffer holds 135; use at most 135 GPUs per server, or smaller scale-up frames\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-gpus-wrap photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=4294967295"
  "error: fabric too large: 1 servers x 4294967295 GPUs x 1 NIC ports \\(at most 1048576 GPUs")
photonic_rails_expect_error(example.photonic-rails-sim-flags-oversubscription photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--fabric=eps-clos|--radix=4|--oversubscription=100"
  "error: oversubscription 100 is more than switch radix 4 allows \\(at most 3: a leaf's 4 ports split 3 down, 1 up\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-trailing-comma photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--fabric=eps,"
  "error: --fabric has an empty item in 'eps,'\n$")
photonic_rails_expect_error(example.photonic-rails-workload-flags-trailing-comma
  photonic-rails-workload
  "--windows=${PROJECT_SOURCE_DIR}/test/data/windows-phases.txt,|--gpusPerServer=2"
  "error: --windows has an empty item in '[^']*windows-phases\.txt,'\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-repeated photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--fabric=eps|--fabric=ocs"
  "error: --fabric is given twice \\(give each flag once\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-delay-out-of-range photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--fabric=ocs|--reconfigDelay=1e400s"
  "error: --reconfigDelay: '1e400s' is out of range \\(at most 10\\^6 s\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-reduce-rate photonic-rails-sim
  "${pr_flags_job}|--gpusPerServer=2|--reduceGBps=5e-15"
  "error: --reduceGBps=5e-15 is out of range: GB/s of reduction per GPU in \\[0\\.001, 1000000\\], or 0 for free reductions\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-mfu photonic-rails-sim
  "--model=llama3-8b|--mfu=1e-20|${pr_flags_out}"
  "error: --mfu=1e-20 is out of range: model FLOPs utilization in \\[0\\.001, 1\\]\n$")
# One rank computing 10^6 s per replay: replay k starts at k x 10^15 ns, and replay 9223 would
# end at 9224 x 10^15 ns > 2^63 - 1 ns = 9.223372e18 ns, where the clock wrapped silently.
photonic_rails_expect_error(example.photonic-rails-sim-flags-compute-past-clock photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/long-compute.json|--gpusPerServer=1|--iterations=10000|${pr_flags_out}"
  "error: rank 0 op 0 \\(compute\\): a duration of 1e\\+06 s at 9\\.214e\\+09 s ends past the simulator's time range \\(2\\^63 ns, about 292 years\\)\n$")
photonic_rails_expect_error(example.photonic-rails-workload-flags-iterations photonic-rails-workload
  "--model=llama3-8b|--gpusPerServer=4|--iterations=1000001|--out=${CMAKE_BINARY_DIR}/workload-smoke-flags.json"
  "error: --iterations=1000001 is out of range: iterations to emit in \\[1, 1000000\\]\n$")
# Iterations repeat the first one's ops: refused before generating them (it ran out of memory).
photonic_rails_expect_error(example.photonic-rails-workload-flags-iterations-ops
  photonic-rails-workload
  "--model=llama3-8b|--tp=4|--fsdp=2|--pp=2|--gpusPerServer=4|--iterations=100000|--out=${CMAKE_BINARY_DIR}/workload-smoke-flags.json"
  "error: --iterations=100000 would make [0-9]+00000 ops \\([0-9]+ per iteration\\), more than 20000000: emit fewer")
# Huge delays keep the comparison table's columns apart. On test/data/two-phases.json on demand
# (see the delay sweep above) the iteration is 20.011 ms + 2d and the exposed wait 3d: at
# d = 10^6 s, 2000000020.011 ms and 3000000000.000 ms; the percentage column is 15 wide.
add_test(NAME example.photonic-rails-sim-flags-wide-table
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json
                 --gpusPerServer=1 --nicPorts=1 --nicRate=100 --iterations=2
                 --reconfigDelay=1000000s --fabric=eps,ocs --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-flags-wide-table)
set_tests_properties(example.photonic-rails-sim-flags-wide-table PROPERTIES PASS_REGULAR_EXPRESSION
  "\nocs +2000000020\\.011 +\\+[0-9]+\\.[0-9][0-9]% +3 +3000000000\\.000 +[0-9]+\\.[0-9]\n")
# --- end of issue 11: flags ------------------------------------------------------------------
# Issue 11, review: provisioning on a DAG whose labelled iterations differ (a reduce in
# iteration 0, an allgather and a send in iteration 1, test/data/irregular-iterations.json)
# finishes, as on demand and with the oracle: it used to get stuck.
add_test(NAME example.photonic-rails-sim-irregular-iterations
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/irregular-iterations.json
                 --gpusPerServer=1 --nicPorts=2 --nicRate=100 --iterations=2 --progress=0
                 --fabric=ocs,ocs-provisioning,ocs-oracle
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-irregular-iterations)
# Issue 11, review: every fabric's plans and circuits are checked before any run. A 3-member
# allreduce needs 2 ring peers per GPU, more than 1 NIC port on optical rails: the error comes
# right after the workload line (eps and eps-clos never run).
photonic_rails_expect_error(example.photonic-rails-sim-check-before-runs photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/allreduce-three.json|--gpusPerServer=1|--nicPorts=1|--fabric=eps,eps-clos,ocs|--out=${CMAKE_BINARY_DIR}/sim-smoke-check-before-runs"
  "workload: 3 ranks, 3 ops, 1 iteration\\(s\\)\nphotonic-rails-sim: error: ocs: rank 0 op 0 \\(allreduce on g\\): GPU 0 needs circuits to 2 peers on rail 0 at once but has 1 NIC port")
# A 1 TiB allreduce (the DAG format's largest op) in 512 KiB chunks needs millions of plan
# steps per rank: refused before the run instead of exhausting memory.
photonic_rails_expect_error(example.photonic-rails-sim-plan-too-large photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/allreduce-one-tib.json|--gpusPerServer=1|--nicPorts=1|--out=${CMAKE_BINARY_DIR}/sim-smoke-plan-too-large"
  "error: eps: rank 0 op 0 \\(allreduce on g\\): collective plan: one rank's plan needs more than 1048576 sends, receives and reductions: use larger chunks")
# A generated job with 2^31 micro-batches is refused at once (it exhausted memory).
photonic_rails_expect_error(example.photonic-rails-workload-too-many-micro-batches photonic-rails-workload
  "--layers=1|--dp=2|--gpusPerServer=1|--microBatches=2147483648|--out=${CMAKE_BINARY_DIR}/workload-smoke-micro-batches.json"
  "error: 2147483648 micro-batches x 2 ranks x 1 layers per stage make at least 8589934592 ops, more than 20000000")

# Issue 11, review: flags
# Each bad input ends with exit status 1 and one line quoting it; each used to run silently
# with another value (review defects 6, 7, 16 and 17).
set(pr_review_data ${PROJECT_SOURCE_DIR}/test/data)
set(pr_review_job --dag=${pr_review_data}/two-phases.json|--gpusPerServer=1|--nicPorts=1|--out=${CMAKE_BINARY_DIR}/sim-smoke-review|--progress=0)
# Durations need a unit, 0 excepted: --reconfigDelay=25 ran a 25-s delay (iteration 25020 ms).
photonic_rails_expect_error(example.photonic-rails-sim-review-delay-no-unit photonic-rails-sim
  "${pr_review_job}|--fabric=ocs|--reconfigDelay=25"
  "photonic-rails-sim: error: --reconfigDelay: '25' has no unit \\(e\\.g\\. 25ms, 1\\.5s, 100us\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-review-latency-no-unit photonic-rails-sim
  "${pr_review_job}|--fabric=ocs|--controlLatency=1.5"
  "photonic-rails-sim: error: --controlLatency: '1\\.5' has no unit \\(e\\.g\\. 25ms, 1\\.5s, 100us\\)\n$")
photonic_rails_expect_error(example.ocs-circuit-example-review-delay-no-unit ocs-circuit-example
  "--delay=1.5"
  "ocs-circuit-example: error: --delay: '1\\.5' has no unit \\(e\\.g\\. 25ms, 1\\.5s, 100us\\)\n$")
photonic_rails_expect_error(example.ocs-circuit-example-review-fiber-no-unit ocs-circuit-example
  "--fiber=1e3"
  "ocs-circuit-example: error: --fiber: '1e3' has no unit \\(e\\.g\\. 25ms, 1\\.5s, 100us\\)\n$")
# 0 needs no unit: the on-demand iteration of two-phases.json without delay, 20.006 ms.
add_test(NAME example.photonic-rails-sim-review-delay-zero
         COMMAND photonic-rails-sim --dag=${pr_review_data}/two-phases.json --gpusPerServer=1
                 --nicPorts=1 --fabric=ocs --reconfigDelay=0 --controlLatency=0 --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-review-zero)
set_tests_properties(example.photonic-rails-sim-review-delay-zero PROPERTIES
  PASS_REGULAR_EXPRESSION "\nocs +20\\.006 ")
# A number that reads as 0 took 0's meaning: the preset's 200 Gb/s, free reductions, no delay.
photonic_rails_expect_error(example.photonic-rails-sim-review-nic-rate-underflow photonic-rails-sim
  "${pr_review_job}|--nicRate=1e-400"
  "photonic-rails-sim: error: bad value for --nicRate: '1e-400' is too small \\(underflows to 0\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-review-reduce-underflow photonic-rails-sim
  "${pr_review_job}|--reduceGBps=1e-400"
  "photonic-rails-sim: error: bad value for --reduceGBps: '1e-400' is too small \\(underflows to 0\\)\n$")
photonic_rails_expect_error(example.photonic-rails-delay-sweep-review-underflow
  photonic-rails-delay-sweep
  "--dag=${pr_review_data}/two-phases.json|--gpusPerServer=1|--nicPorts=1|--delays=1e-400|--out=${CMAKE_BINARY_DIR}/sweep-smoke-review"
  "photonic-rails-delay-sweep: error: --delays: '1e-400' ms is below the simulator's resolution of 1 ns \\(1e-6 ms; use 0 for none\\)\n$")
# 5e-7 ms = 0.5 ns ran at 1 ns, shown as 0.000 ms in the table and 1e-06 in the CSV.
photonic_rails_expect_error(example.photonic-rails-delay-sweep-review-below-ns
  photonic-rails-delay-sweep
  "--dag=${pr_review_data}/two-phases.json|--gpusPerServer=1|--nicPorts=1|--delays=0,5e-7|--out=${CMAKE_BINARY_DIR}/sweep-smoke-review"
  "photonic-rails-delay-sweep: error: --delays: '5e-7' ms is below the simulator's resolution of 1 ns \\(1e-6 ms; use 0 for none\\)\n$")
# Messages: out of range (not "expected a number"), empty, a fabric named twice, a control
# character escaped.
photonic_rails_expect_error(example.photonic-rails-sim-review-nic-rate-overflow photonic-rails-sim
  "${pr_review_job}|--nicRate=1e400"
  "photonic-rails-sim: error: --nicRate=1e400 is out of range: Gb/s per NIC port in \\[0\\.001, 10000\\], or 0 for the preset's\n$")
photonic_rails_expect_error(example.photonic-rails-sim-review-fabric-empty photonic-rails-sim
  "${pr_review_job}|--fabric="
  "photonic-rails-sim: error: bad value for --fabric: it is empty \\(expected a value without blanks\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-review-fabric-twice photonic-rails-sim
  "${pr_review_job}|--fabric=ocs,eps,ocs"
  "photonic-rails-sim: error: --fabric names ocs twice\n$")
string(ASCII 1 pr_review_ctrl_a)
photonic_rails_expect_error(example.photonic-rails-sim-review-control-character photonic-rails-sim
  "--microBatches=${pr_review_ctrl_a}|--out=${CMAKE_BINARY_DIR}/sim-smoke-review"
  "photonic-rails-sim: error: bad value for --microBatches: '\\\\x01' \\(expected a non-negative integer\\)\n$")
# A DAG integer out of range is quoted (it said "got a number").
photonic_rails_expect_error(example.photonic-rails-workload-review-iteration photonic-rails-workload
  "--validate=${pr_review_data}/iteration-over-max.json"
  "iteration-over-max\\.json: rank 0 op 0, field 'iteration': must be an integer in \\[0, 1000000\\], got 1000001\n")
# One bound on a job's size, 2^20: --validate took 1048576 ranks, the simulator refused more
# than 10^6 GPUs. ranks-max.json (1048576 ranks) is valid and passes the simulator's size
# check (2^20 GPUs are 262144 Perlmutter servers; the next check, the Clos of radix 64, is what
# refuses it); one rank more is refused by both; so are 1048577 GPUs.
add_test(NAME example.photonic-rails-workload-review-ranks-max
         COMMAND photonic-rails-workload --validate=${pr_review_data}/ranks-max.json)
photonic_rails_expect_error(example.photonic-rails-sim-review-ranks-max photonic-rails-sim
  "--dag=${pr_review_data}/ranks-max.json|--out=${CMAKE_BINARY_DIR}/sim-smoke-review|--progress=0"
  "photonic-rails-sim: error: a rail of 262144 ports needs more than a two-tier Clos of radix 64")
photonic_rails_expect_error(example.photonic-rails-workload-review-ranks-over-max
  photonic-rails-workload "--validate=${pr_review_data}/ranks-over-max.json"
  "ranks-over-max\\.json: field 'ranks': must be an integer in \\[1, 1048576\\], got 1048577\n")
photonic_rails_expect_error(example.photonic-rails-sim-review-ranks-over-max photonic-rails-sim
  "--dag=${pr_review_data}/ranks-over-max.json|--out=${CMAKE_BINARY_DIR}/sim-smoke-review|--progress=0"
  "ranks-over-max\\.json: field 'ranks': must be an integer in \\[1, 1048576\\], got 1048577")
photonic_rails_expect_error(example.photonic-rails-sim-review-gpus-over-max photonic-rails-sim
  "${pr_review_job}|--servers=1048577"
  "photonic-rails-sim: error: fabric too large: 1048577 servers x 1 GPUs x 1 NIC ports \\(at most 1048576 GPUs, 1048576 ports per rail and 64 NIC ports per GPU\\)\n$")

# Issue 11, review: programs
# Each of these used to crash, hang, glue numbers or exit 0 on a bad input (see the commits).
set(pr_review_tests "")
function(pr_review_error name program args expect)
  photonic_rails_expect_error(${name} ${program} "${args}" "${expect}")
  set(pr_review_tests ${pr_review_tests} ${name} PARENT_SCOPE)
endfunction()
set(pr_review_data ${PROJECT_SOURCE_DIR}/test/data)
# photonic-rails-bench: strict, bounded flags (1kbps and 1bps aborted, 0bps divided by zero,
# --frames=-1 wrapped and ran forever, 'abc' printed the help, 1.5 was read as 1).
foreach(rate 1kbps 1bps 0bps 20Tbps)
  pr_review_error(example.photonic-rails-bench-rate-${rate} photonic-rails-bench "--rate=${rate}"
    "^photonic-rails-bench: error: --rate: '${rate}' is outside \\[1Mbps, 10Tbps\\]\n$")
endforeach()
pr_review_error(example.photonic-rails-bench-negative-frames photonic-rails-bench "--frames=-1"
  "^photonic-rails-bench: error: --frames=-1 is out of range: frames per device run in \\[1, 10000000\\]\n$")
pr_review_error(example.photonic-rails-bench-text-frames photonic-rails-bench "--frames=abc"
  "^photonic-rails-bench: error: bad value for --frames: 'abc' \\(expected a non-negative integer\\)\n$")
pr_review_error(example.photonic-rails-bench-fraction-payload photonic-rails-bench "--payload=1.5"
  "^photonic-rails-bench: error: bad value for --payload: '1\\.5' \\(expected a non-negative integer\\)\n$")
pr_review_error(example.photonic-rails-bench-too-many-frames photonic-rails-bench "--frames=10000001"
  "^photonic-rails-bench: error: --frames=10000001 is out of range: frames per device run in \\[1, 10000000\\]\n$")
pr_review_error(example.photonic-rails-bench-payload-jumbo photonic-rails-bench "--payload=8987"
  "^photonic-rails-bench: error: --payload=8987 is out of range: payload bytes of a 9000-byte frame in \\[1, 8986\\]\n$")
pr_review_error(example.photonic-rails-bench-transport-bytes photonic-rails-bench
  "--transportBytes=8589934593"
  "^photonic-rails-bench: error: --transportBytes=8589934593 is out of range: bytes per transport run in \\[1, 8589934592\\]\n$")
pr_review_error(example.photonic-rails-bench-repeats photonic-rails-bench "--repeats=6"
  "^photonic-rails-bench: error: --repeats=6 is out of range: runs per case in \\[1, 5\\]\n$")
# Payloads of 1 to 24 bytes at 400 Gb/s: a frame's 0.02-0.48 ns rounded to a refill period of
# 0 ns, and the full queue was refilled forever at one instant (a hang, not slowness: 32 bytes
# took 0.2 s). Now these 1000 frames take well under a second.
foreach(payload 1 16)
  add_test(NAME example.photonic-rails-bench-payload-${payload}
           COMMAND photonic-rails-bench --frames=1000 --transportBytes=1048576 --repeats=1
                   --payload=${payload})
  set_tests_properties(example.photonic-rails-bench-payload-${payload} PROPERTIES
    PASS_REGULAR_EXPRESSION "1\\. devices: 1000 frames of ${payload} payload bytes\n.*\nOcsNetDevice \\(circuit\\) +[0-9.]+ +1000 ")
  list(APPEND pr_review_tests example.photonic-rails-bench-payload-${payload})
endforeach()
# opus-phase-replay: --delays are plain ms numbers of at most 10^9 ms = 10^6 s (1e308 gave
# -nan); on the hand-made logs (see example.opus-phase-replay-table) one step takes
# 1000 + 4d ms on demand and 1000 + (d - 30) + d + (d - 20) + (d - 800) = 150 + 4d ms with
# provisioning: at d = 10^9 ms, 4000001.000 s (+400000000.00%) and 4000000.150 s
# (+399999915.00%), each in its own column.
pr_review_error(example.opus-phase-replay-huge-delay opus-phase-replay
  "--logs=${pr_replay_logs}|--delays=1e308|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-review"
  "^opus-phase-replay: error: --delays: '1e308' ms is longer than 10\\^6 s\n$")
pr_review_error(example.opus-phase-replay-2-63-delay opus-phase-replay
  "--logs=${pr_replay_logs}|--delays=9223372036854775808|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-review"
  "^opus-phase-replay: error: --delays: '9223372036854775808' ms is longer than 10\\^6 s\n$")
pr_review_error(example.opus-phase-replay-delay-unit opus-phase-replay
  "--logs=${pr_replay_logs}|--delays=25ms|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-review"
  "^opus-phase-replay: error: --delays: '25ms' is not a delay in ms \\(a number >= 0 without a unit, e\\.g\\. 25\\)\n$")
add_test(NAME example.opus-phase-replay-longest-delay
         COMMAND opus-phase-replay --logs=${pr_replay_logs} --delays=0,1e9 --plot=0
                 --out=${CMAKE_BINARY_DIR}/replay-smoke-longest)
set_tests_properties(example.opus-phase-replay-longest-delay PROPERTIES PASS_REGULAR_EXPRESSION
  "\n +1000000000 +4000001\\.000 +\\+400000000\\.00% +4000000\\.150 +\\+399999915\\.00% +0 of 12\n")
# The two logs must share a clock: stage 1 with every time + 1000 ms starts after stage 0's
# first step ended (200 ms); it was replayed as 60 ms of waits per step (+6.00%).
pr_review_error(example.opus-phase-replay-clock-offset opus-phase-replay
  "--logs=${pr_review_data}/opus-replay-stage0.txt,${pr_review_data}/opus-replay-stage1-offset.txt|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-review"
  "^opus-phase-replay: error: [^\n]*opus-replay-stage1-offset\\.txt:1: the first phase starts at 1000 ms, after [^\n]*opus-replay-stage0\\.txt's first training step ended \\(200 ms\\): the two logs must share a clock [^\n]*\n$")
# photonic-rails-cost: prices in [0, 10^6] USD and powers in [0, 10^4] W (1e308 gave inf and
# -nan%, 1e300 300-digit cells). At the bounds, 10^6 GPUs on a fat-tree of radix 159: 10^6 USD
# x (5024559 ports + 6024559 transceivers) = 11049118 M$, and 39.44 W x 5024559 + 10 W x
# 6024559 = 258414.20 kW, in separate columns.
pr_review_error(example.photonic-rails-cost-huge-prices photonic-rails-cost
  "--switchPortCost=1e308|--transceiverCost=1e308|--plot=0|--out=${CMAKE_BINARY_DIR}/cost-smoke-review"
  "^photonic-rails-cost: error: --transceiverCost=1e308 is out of range: USD per 400G transceiver in \\[0, 1000000\\]\n$")
pr_review_error(example.photonic-rails-cost-long-price photonic-rails-cost
  "--transceiverCost=1e300|--plot=0|--out=${CMAKE_BINARY_DIR}/cost-smoke-review"
  "^photonic-rails-cost: error: --transceiverCost=1e300 is out of range")
pr_review_error(example.photonic-rails-cost-negative-power photonic-rails-cost
  "--ocsPortPower=-1|--plot=0|--out=${CMAKE_BINARY_DIR}/cost-smoke-review"
  "^photonic-rails-cost: error: --ocsPortPower=-1 is out of range: W per OCS port in \\[0, 10000\\]\n$")
add_test(NAME example.photonic-rails-cost-highest-prices
         COMMAND photonic-rails-cost --transceiverCost=1000000 --switchPortCost=1000000
                 --gpus=1000000 --plot=0 --out=${CMAKE_BINARY_DIR}/cost-smoke-highest)
set_tests_properties(example.photonic-rails-cost-highest-prices PROPERTIES PASS_REGULAR_EXPRESSION
  "\n1000000  fat-tree +159 +31601 +5024559 +0 +6024559 +11049118\\.000 +258414\\.20 ")
# Tables widen to their widest cell. The delay sweep on test/data/two-phases.json (see
# example.photonic-rails-delay-sweep): at d = 10^6 s on demand 20.011 ms + 2d and 3d exposed,
# with provisioning 10.011 ms + 2d and 3d - 10 ms.
add_test(NAME example.photonic-rails-delay-sweep-wide-table
         COMMAND photonic-rails-delay-sweep --dag=${pr_review_data}/two-phases.json
                 --gpusPerServer=1 --nicPorts=1 --nicRate=100 --iterations=2 --delays=1e9
                 --plot=0 --out=${CMAKE_BINARY_DIR}/sweep-smoke-wide-table)
set_tests_properties(example.photonic-rails-delay-sweep-wide-table PROPERTIES
  PASS_REGULAR_EXPRESSION
  "\n1000000000\\.000 +ocs +2000000020\\.011 +\\+[0-9]+\\.[0-9][0-9]% +3 +3000000000\\.000 [^\n]*\n1000000000\\.000 +ocs-provisioning +2000000010\\.011 +\\+[0-9]+\\.[0-9][0-9]% +3 +2999999990\\.000 ")
# ocs-circuit-example: robotic's 120-s delay darkens ports 2-4 for 120000000 us and flow C
# ends at 200 us + 120 s + 168.033 us + 2 x 50 ns; with 1-byte frames port 2 sends 10^6.
add_test(NAME example.ocs-circuit-example-robotic COMMAND ocs-circuit-example --technology=robotic)
set_tests_properties(example.ocs-circuit-example-robotic PROPERTIES PASS_REGULAR_EXPRESSION
  "C +2 -> 4 +8388608 +120000368\\.133 +120000368\\.133 .*\n +2 +1866 +0 +933 +0 +120000000\\.000\n")
add_test(NAME example.ocs-circuit-example-tiny-frames
         COMMAND ocs-circuit-example --mtu=1 --bytes=500000)
set_tests_properties(example.ocs-circuit-example-tiny-frames PROPERTIES PASS_REGULAR_EXPRESSION
  "\n +2 +1000000 +0 +500000 +0 +[0-9]+\\.000\n")
# photonic-rails-workload --windows: a rail or rank the input does not hold, a select below -1
# and a negative threshold are refused (they gave "windows: 0" or counted every window).
set(pr_review_timeline --windows=${pr_review_data}/windows-timeline.csv|--gpusPerServer=2)
pr_review_error(example.photonic-rails-workload-select-no-rail photonic-rails-workload
  "${pr_review_timeline}|--select=4294967297"
  "^photonic-rails-workload: error: --select=4294967297: [^\n]*windows-timeline\\.csv has no rail 4294967297 \\(its rails with --gpusPerServer=2: 0, 1\\)\n$")
pr_review_error(example.photonic-rails-workload-select-no-rank photonic-rails-workload
  "${pr_review_timeline}|--view=rank|--select=99"
  "^photonic-rails-workload: error: --select=99: [^\n]*windows-timeline\\.csv has no rank 99 \\(its ranks: 0, 1, 2, 3\\)\n$")
pr_review_error(example.photonic-rails-workload-select-negative photonic-rails-workload
  "${pr_review_timeline}|--select=-5"
  "^photonic-rails-workload: error: --select=-5: expected a rail of the input, or -1 for every rail\n$")
pr_review_error(example.photonic-rails-workload-rank-view-no-select photonic-rails-workload
  "${pr_review_timeline}|--view=rank"
  "^photonic-rails-workload: error: --view=rank needs --select=RANK \\(a rank of the input\\)\n$")
pr_review_error(example.photonic-rails-workload-negative-threshold photonic-rails-workload
  "${pr_review_timeline}|--thresholdMs=-1"
  "^photonic-rails-workload: error: --thresholdMs=-1 is out of range: a window length in ms in \\[0, 1000000000\\]\n$")
# A UTF-8 BOM before a DAG or a CSV timeline is skipped: the same windows as without it
# (example.photonic-rails-workload-figure's timeline; test/data/two-stage.json's 3 windows).
add_test(NAME example.photonic-rails-workload-bom-timeline
         COMMAND photonic-rails-workload --windows=${pr_review_data}/windows-timeline-bom.csv
                 --gpusPerServer=2)
set_tests_properties(example.photonic-rails-workload-bom-timeline PROPERTIES
  PASS_REGULAR_EXPRESSION
  "windows-timeline-bom\\.csv \\(timeline, 12 records[^\n]*\n[^\n]*\n  windows: 4, median 1\\.250 ms, min 0\\.000 ms, max 5\\.000 ms, above 1\\.000 ms: 50\\.0 %")
add_test(NAME example.photonic-rails-workload-bom-dag
         COMMAND photonic-rails-workload --windows=${pr_review_data}/two-stage-bom.json
                 --gpusPerServer=2)
set_tests_properties(example.photonic-rails-workload-bom-dag PROPERTIES PASS_REGULAR_EXPRESSION
  "two-stage-bom\\.json \\(DAG, estimated replay x2[^\n]*\n[^\n]*\n  windows: 3, ")
# --validate: one error is one error line; several are listed, then the error line.
pr_review_error(example.photonic-rails-workload-validate-missing photonic-rails-workload
  "--validate=/nonexistent/dag.json"
  "^photonic-rails-workload: error: /nonexistent/dag\\.json: cannot open the file\n$")
pr_review_error(example.photonic-rails-workload-validate-errors photonic-rails-workload
  "--validate=${pr_review_data}/not-a-dag.json"
  "\nphotonic-rails-workload: error: [^\n]*not-a-dag\\.json is invalid \\(4 errors, listed above\\)\n$")
# --figure=-1: a folder named like an option ("sh: cd: Illegal option -1").
add_test(NAME example.photonic-rails-workload-figure-dash
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-workload>
                 "-DARGS=--windows=${pr_review_data}/windows-timeline.csv|--gpusPerServer=2|--figure=-1"
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/-1
                 -DEXISTS=window-cdf.plt -DIF_GNUPLOT=window-cdf.png
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
list(APPEND pr_review_tests example.photonic-rails-workload-figure-dash)
# The delay sweep's runs write their messages to their own run.log: the sweep's stderr holds
# whole lines of its own only (children interleaved theirs mid-line). Delays that differ past
# 6 significant digits get their own folders (25 and 25.000001 ms shared one).
add_test(NAME example.photonic-rails-delay-sweep-run-logs
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-delay-sweep>
                 "-DARGS=--dag=${pr_review_data}/two-phases.json|--gpusPerServer=1|--nicPorts=1|--nicRate=100|--iterations=2|--delays=0,25,25.000001|--workers=2|--plot=0"
                 -DOUT_DIR=${CMAKE_BINARY_DIR}/sweep-smoke-run-logs
                 "-DRUNS=eps|ocs-0ms|ocs-provisioning-0ms|ocs-25ms|ocs-provisioning-25ms|ocs-25.000001ms|ocs-provisioning-25.000001ms"
                 -P ${PROJECT_SOURCE_DIR}/test/sweep-logs.cmake)
list(APPEND pr_review_tests example.photonic-rails-delay-sweep-run-logs)
# A failed run's error line (the last of its run.log) is the sweep's error line. One compute
# op of 10^6 s replayed 10^4 times passes the simulator's clock (see
# example.photonic-rails-sim-flags-compute-past-clock); --jobs=1: the baseline fails first.
pr_review_error(example.photonic-rails-delay-sweep-failed-run photonic-rails-delay-sweep
  "--dag=${pr_review_data}/long-compute.json|--gpusPerServer=1|--iterations=10000|--delays=0|--workers=1|--plot=0|--out=${CMAKE_BINARY_DIR}/sweep-smoke-failed-run"
  "\nphotonic-rails-delay-sweep: error: eps at 0 ms: rank 0 op 0 \\(compute\\): a duration of 1e\\+06 s at 9\\.214e\\+09 s ends past the simulator's time range \\(2\\^63 ns, about 292 years\\) \\(its messages: [^\n]*/runs/eps/run\\.log\\)\n$")
# rail-fabric-example: two GPUs on an optical rail with 2 x 200G ports use both (port 0 alone
# gave 2727.623 us, 196.8 Gb/s). Each port carries half of 64 MiB, 8192 frames of 4096 + 62 B,
# and before its last one 511 of the 512 ACKs (62 B, one per 16 frames) of the opposite
# flow: (8192 x 4158 + 511 x 62) x 8 / 200 Gb/s = 1363.761 us, plus 2 x 50 ns of fiber:
# 1363.861 us, 8 x 2^26 B / 1363.861 us = 393.6 Gb/s against a payload line rate of
# 400 x 4096 / 4158 = 394.0 Gb/s.
add_test(NAME example.rail-fabric-example-ocs-two-servers
         COMMAND rail-fabric-example --rail=ocs --servers=2 --nic=2x200G)
set_tests_properties(example.rail-fabric-example-ocs-two-servers PROPERTIES
  PASS_REGULAR_EXPRESSION
  "\n +0 -> 8 +1363\\.86[01] +393\\.6 +394\\.0\n +8 -> 0 +1363\\.86[01] +393\\.6 +394\\.0\n")
set_tests_properties(${pr_review_tests} PROPERTIES TIMEOUT 60)
# Issue 11, item 8: a wrong guess says so. test/data/wrong-guess.json is the opus suite's
# "wrong guess delays a request" job: the oracle guesses Y after X#0 (DAG order) while rank 0
# asks for X#1 first, 1 ms later. Its switch back waits for the guess's: on demand 1
# reconfiguration, 2g + d = 45.011 ms; oracle 3 reconfigurations, 3g + 3d = 75.017 ms (g =
# one 64 KiB allgather at 100 G, d = 25 ms), and both notes name the one guess.
add_test(NAME example.photonic-rails-sim-wrong-guess
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/wrong-guess.json
                 --gpusPerServer=1 --nicPorts=1 --nicRate=100 --reconfigDelay=25ms
                 --fabric=ocs,ocs-oracle --progress=0 --out=${CMAKE_BINARY_DIR}/sim-smoke-wrong-guess)
set_tests_properties(example.photonic-rails-sim-wrong-guess PROPERTIES PASS_REGULAR_EXPRESSION
  "\nocs +45\\.011 [^\n]* 1 [^\n]*\nocs-oracle +75\\.017 +\\+66\\.66% +3 [^\n]*\nnote: ocs-oracle: 1 of 1 speculative reconfigurations set up circuits that the communication they guessed did not run on[^\n]*\nnote: ocs-oracle: 1 of 1 speculative reconfigurations were still switching ports a request needed")
# Issue 12: the paper's testbed emulation beside the optical model, on the two-phase job
# (test/data/two-phases.json: rank 0 alternates A and B with 10 ms windows, 20.013 ms per
# iteration on electrical rails), d = 25 ms, no control latency (the emulation's default is
# the testbed's 17.5 ms), 3 iterations (the mean of
# the last two is printed): on demand 20.013 + 2 d = 70.013 ms on both; provisioning: the
# shift into an iteration is on demand (25 ms), the other costs d - W = 15 ms in iteration 1,
# both cost 15 ms in iteration 2: 20.013 + (40 + 30) / 2 = 55.013 ms. The emulation's 5
# delays are the OCS's 5 reconfigurations; its waits include the round trip of A#0.
add_test(NAME example.photonic-rails-sim-emulated
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json
                 --gpusPerServer=1 --nicPorts=1 --nicRate=100 --iterations=3
                 --reconfigDelay=25ms --controlLatency=0s --progress=0
                 --fabric=eps,emulated,emulated-provisioning,ocs,ocs-provisioning
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-emulated)
set_tests_properties(example.photonic-rails-sim-emulated PROPERTIES PASS_REGULAR_EXPRESSION
  "\nemulated +70\\.013 +[^\n]* 5 [^\n]*\nemulated-provisioning +55\\.013 [^\n]* 5 [^\n]*\nocs +70\\.011 [^\n]* 5 [^\n]*\nocs-provisioning +55\\.011 ")

# Issue 12 (fidelity): the generator's FSDP2 and job flags. Bad values are one-line errors;
# --job=b24 is the phase logs' run: 24 sequences / (4 per micro-batch x FSDP 2) = 3
# micro-batches on 16 ranks (TP 4 x PP 2 x FSDP 2), 4 GPUs per server from the job.
set(pr_gen_out --out=${CMAKE_BINARY_DIR}/workload-smoke-fsdp2.json)
photonic_rails_expect_error(example.photonic-rails-workload-flags-reshard photonic-rails-workload
  "--fsdp=2|--reshard=sometimes|${pr_gen_out}"
  "^photonic-rails-workload: error: unknown --reshard 'sometimes' \\(known: always, after-backward-only, never\\)\n$")
photonic_rails_expect_error(example.photonic-rails-workload-flags-gather-prefetch photonic-rails-workload
  "--fsdp=2|--gatherPrefetch=65|${pr_gen_out}"
  "^photonic-rails-workload: error: --gatherPrefetch=65 is out of range: FSDP gathers issued ahead of compute in \\[0, 64\\]\n$")
photonic_rails_expect_error(example.photonic-rails-workload-flags-mfu-backward photonic-rails-workload
  "--fsdp=2|--mfuBackward=1.5|${pr_gen_out}"
  "^photonic-rails-workload: error: --mfuBackward=1\\.5 is out of range: backward model FLOPs utilization in \\[0\\.001, 1\\], or 0 for --mfu's\n$")
photonic_rails_expect_error(example.photonic-rails-workload-flags-job photonic-rails-workload
  "--job=b32|${pr_gen_out}"
  "^photonic-rails-workload: error: unknown --job 'b32' \\(known: b16, b24\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-flags-job photonic-rails-sim
  "--job=b32|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-flags-job"
  "^photonic-rails-sim: error: unknown --job 'b32' \\(known: b16, b24\\)\n$")
add_test(NAME example.photonic-rails-workload-job-b24
         COMMAND photonic-rails-workload --job=b24 ${pr_gen_out})
set_tests_properties(example.photonic-rails-workload-job-b24 PROPERTIES PASS_REGULAR_EXPRESSION
  "wrote [^\n]*workload-smoke-fsdp2\\.json: 16 ranks, [0-9]+ ops, 3 micro-batches\n")
# Issue 11, review (item 8): a guess waits while one of its members has asked for another
# communication that is not served yet (test/data/oracle-same-instant.json: rank 2 asks for
# G0 at 0, rank 0 at 10.2 us; the oracle guesses G1 = {1, 2} at that instant). On demand and
# with the oracle alike, G0 switches (d = 25 ms), runs, then G1 switches: 50.053 ms, 2
# reconfigurations. The guess used to switch GPU 2's port first: G0 waited for it, G1
# switched again, 75.053 ms (+50%).
add_test(NAME example.photonic-rails-sim-oracle-same-instant
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/oracle-same-instant.json
                 --gpusPerServer=1 --nicPorts=1 --fabric=ocs,ocs-oracle --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-oracle-same-instant)
set_tests_properties(example.photonic-rails-sim-oracle-same-instant PROPERTIES
  PASS_REGULAR_EXPRESSION "\nocs +50\\.053 [^\n]* 2 [^\n]*\nocs-oracle +50\\.053 +\\+0\\.00% +2 ")
# Issue 11, review (item 5): a job whose blackouts or control round trips add up past the
# simulator's clock (2^63 ns, about 292 years) stops with one line instead of wrapping to
# negative times with exit status 0 (and undefined behaviour in ns-3's clock arithmetic):
# test/data/two-phases.json shifts twice per iteration, so 5000 iterations of 10^6-s delays
# (or 2 x 10^6-s round trips) need about 10^10 s. Runs stop at the horizon, 2^63 - 1 - 2^53 ns
# = 9214364837.600035 s, with work left. (A compute op past it is refused before it starts,
# at the op: the 9215th 10^6-s op of long-compute.json would end at 9.215e9 s.)
photonic_rails_expect_error(example.photonic-rails-sim-clock-wraps-delay photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--nicPorts=1|--fabric=ocs|--reconfigDelay=1000000s|--iterations=5000|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-clock-delay"
  "error: the job runs past the simulator's time range \\(2\\^63 ns, about 292 years\\): at 9214364837\\.600035 s it still had work to do\n$")
photonic_rails_expect_error(example.photonic-rails-sim-clock-wraps-control photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--nicPorts=1|--fabric=ocs|--reconfigDelay=0s|--controlLatency=1000000s|--iterations=5000|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-clock-control"
  "error: the job runs past the simulator's time range \\(2\\^63 ns, about 292 years\\): at 9214364837\\.600035 s")
# Issue 16: Opus's mode has one spelling, the fabric's name (ocs-provisioning, ocs-oracle,
# emulated-provisioning); the old --provisioning flag and the shim's attribute are refused.
photonic_rails_expect_error(example.photonic-rails-sim-provisioning-flag-gone photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--fabric=ocs|--provisioning=1"
  "photonic-rails-sim: error: --provisioning is gone: Opus's mode is the fabric's name: --fabric=ocs-provisioning, ocs-oracle or emulated-provisioning\n$")
photonic_rails_expect_error(example.photonic-rails-sim-provisioning-attribute photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--fabric=ocs|--ns3::OpusShim::Provisioning=oracle"
  "error: --ns3::OpusShim::Provisioning: this program sets it from the fabric's name \\(ocs-provisioning, ocs-oracle, emulated-provisioning\\) \\(give that instead\\)")

# ---- Issue 11, review fix11: regression tests (each fails on the binaries before its fix). ----
set(pr_fix11_data ${PROJECT_SOURCE_DIR}/test/data)
set(pr_fix11_tests "")
# A. A ring inside one server never reaches a rail: test/data/allreduce-two-servers.json
# (groups tp0 = [0..3] and tp1 = [4..7], 4 GPUs per server, one 1 MiB allreduce each) has the
# same plan and so the same iteration times on every fabric (ocs split it both ways, -11.15%).
add_test(NAME example.photonic-rails-sim-intra-server-ring
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--dag=${pr_fix11_data}/allreduce-two-servers.json|--gpusPerServer=4|--nicPorts=2|--fabric=eps,ocs,ocs-static|--progress=0"
                 -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-intra-server-ring
                 "-DFABRICS=eps|ocs|ocs-static"
                 "-DALGORITHM=\"allreduce\": {[^}]*\"ring\": 8"
                 -P ${PROJECT_SOURCE_DIR}/test/same-iteration-times.cmake)
list(APPEND pr_fix11_tests example.photonic-rails-sim-intra-server-ring)
# E. Input bytes a terminal would not show are escaped in messages: a second UTF-8 byte order
# mark (test/data/opus-replay-stage1-bom2.txt: the first is skipped, the second ends up in the
# first phase kind) and a label holding byte 0xff (test/data/label-byte-ff.json, op 0 of
# rank 0: "a<ff>b"; the parser stops at the byte, having read '"a').
photonic_rails_expect_error(example.opus-phase-replay-doubled-bom opus-phase-replay
  "--logs=${pr_fix11_data}/opus-replay-stage0.txt,${pr_fix11_data}/opus-replay-stage1-bom2.txt|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-fix11"
  "^opus-phase-replay: error: [^\n]*opus-replay-stage1-bom2\\.txt:1: phase kind '\\\\xef\\\\xbb\\\\xbfPP' is neither PP nor DP\n$")
photonic_rails_expect_error(example.photonic-rails-workload-label-byte-ff photonic-rails-workload
  "--validate=${pr_fix11_data}/label-byte-ff.json"
  "^photonic-rails-workload: error: [^\n]*label-byte-ff\\.json: invalid JSON: [^\n]*ill-formed UTF-8 byte; last read: '\"a\\\\xff'\n$")
photonic_rails_expect_error(example.photonic-rails-sim-label-byte-ff photonic-rails-sim
  "--dag=${pr_fix11_data}/label-byte-ff.json|--gpusPerServer=1|--out=${CMAKE_BINARY_DIR}/sim-smoke-fix11"
  "^photonic-rails-sim: error: [^\n]*label-byte-ff\\.json: invalid JSON: [^\n]*last read: '\"a\\\\xff'\n$")
list(APPEND pr_fix11_tests example.opus-phase-replay-doubled-bom
     example.photonic-rails-workload-label-byte-ff example.photonic-rails-sim-label-byte-ff)
# D. opus-phase-replay's --delays follow the delay sweep's rules (DelayMsList): a positive
# delay below 1 ns (1e-400 ran as 0 ms) and a delay named twice are refused, with the sweep's
# messages (see example.photonic-rails-delay-sweep-review-underflow).
photonic_rails_expect_error(example.opus-phase-replay-underflow-delay opus-phase-replay
  "--logs=${pr_replay_logs}|--delays=1e-400|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-fix11"
  "^opus-phase-replay: error: --delays: '1e-400' ms is below the simulator's resolution of 1 ns \\(1e-6 ms; use 0 for none\\)\n$")
photonic_rails_expect_error(example.opus-phase-replay-repeated-delay opus-phase-replay
  "--logs=${pr_replay_logs}|--delays=0,0|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-fix11"
  "^opus-phase-replay: error: --delays names 0 ms twice\n$")
photonic_rails_expect_error(example.opus-phase-replay-repeated-delay-spelled-apart opus-phase-replay
  "--logs=${pr_replay_logs}|--delays=25,1,2.5e1|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-fix11"
  "^opus-phase-replay: error: --delays names 2\\.5e1 ms twice\n$")
list(APPEND pr_fix11_tests example.opus-phase-replay-underflow-delay
     example.opus-phase-replay-repeated-delay example.opus-phase-replay-repeated-delay-spelled-apart)
# B. Every input file goes through InputText::ReadFile: a regular file of at most 4 GiB,
# checked before it is read. /dev/zero never ends: each program read it until it was killed
# for lack of memory.
set(pr_fix11_devzero "/dev/zero: is not a regular file \\(a character device\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-dag-dev-zero photonic-rails-sim
  "--dag=/dev/zero|--gpusPerServer=1|--out=${CMAKE_BINARY_DIR}/sim-smoke-fix11"
  "^photonic-rails-sim: error: ${pr_fix11_devzero}")
photonic_rails_expect_error(example.photonic-rails-delay-sweep-dag-dev-zero
  photonic-rails-delay-sweep
  "--dag=/dev/zero|--gpusPerServer=1|--delays=0|--plot=0|--out=${CMAKE_BINARY_DIR}/sweep-smoke-fix11"
  "^photonic-rails-delay-sweep: error: ${pr_fix11_devzero}")
photonic_rails_expect_error(example.photonic-rails-workload-validate-dev-zero
  photonic-rails-workload "--validate=/dev/zero"
  "^photonic-rails-workload: error: ${pr_fix11_devzero}")
photonic_rails_expect_error(example.photonic-rails-workload-windows-dev-zero
  photonic-rails-workload "--windows=/dev/zero"
  "^photonic-rails-workload: error: ${pr_fix11_devzero}")
photonic_rails_expect_error(example.opus-phase-replay-logs-dev-zero opus-phase-replay
  "--logs=/dev/zero,${pr_fix11_data}/opus-replay-stage1.txt|--plot=0|--out=${CMAKE_BINARY_DIR}/replay-smoke-fix11"
  "^opus-phase-replay: error: ${pr_fix11_devzero}")
list(APPEND pr_fix11_tests example.photonic-rails-sim-dag-dev-zero
     example.photonic-rails-delay-sweep-dag-dev-zero example.photonic-rails-workload-validate-dev-zero
     example.photonic-rails-workload-windows-dev-zero example.opus-phase-replay-logs-dev-zero)
# C. A value beyond the flag's type names the flag's own range, as a value merely out of it
# does (they named the type's: [0, 4294967295] for --iterations, [0, 18446744073709551615]
# for --bytes), and --help states the enforced ranges (--mfu said "(0,1]").
photonic_rails_expect_error(example.photonic-rails-sim-negative-iterations photonic-rails-sim
  "--iterations=-1|--out=${CMAKE_BINARY_DIR}/sim-smoke-fix11"
  "^photonic-rails-sim: error: --iterations=-1 is out of range: replays of the workload in \\[1, 1000000\\]\n$")
photonic_rails_expect_error(example.photonic-rails-sim-iterations-beyond-type photonic-rails-sim
  "--iterations=4294967296|--out=${CMAKE_BINARY_DIR}/sim-smoke-fix11"
  "^photonic-rails-sim: error: --iterations=4294967296 is out of range: replays of the workload in \\[1, 1000000\\]\n$")
# 500000 frames of --mtu=9000 bytes: 4500000000; of --mtu=2 (given after --bytes): 1000000.
photonic_rails_expect_error(example.ocs-circuit-example-bytes-beyond-type ocs-circuit-example
  "--bytes=-1"
  "^ocs-circuit-example: error: --bytes=-1 is out of range: bytes per flow \\(at most 500000 frames of --mtu=9000 bytes\\) in \\[1, 4500000000\\]\n$")
photonic_rails_expect_error(example.ocs-circuit-example-bytes-beyond-type-mtu-after
  ocs-circuit-example "--bytes=18446744073709551616|--mtu=2"
  "^ocs-circuit-example: error: --bytes=18446744073709551616 is out of range: bytes per flow \\(at most 500000 frames of --mtu=2 bytes\\) in \\[1, 1000000\\]\n$")
add_test(NAME example.photonic-rails-sim-help-ranges COMMAND photonic-rails-sim --help)
set_tests_properties(example.photonic-rails-sim-help-ranges PROPERTIES PASS_REGULAR_EXPRESSION
  "--mfu: +model FLOPs utilization of forward and recomputation \\(in \\[0\\.001, 1\\]\\) \\[0\\.4\\]\n.*--iterations: +replays of the workload, back to back \\(in \\[1, 1000000\\]\\)")
add_test(NAME example.photonic-rails-workload-help-ranges COMMAND photonic-rails-workload --help)
set_tests_properties(example.photonic-rails-workload-help-ranges PROPERTIES PASS_REGULAR_EXPRESSION
  "--mfuBackward: +model FLOPs utilization of backward \\(in \\[0\\.001, 1\\], or 0 for --mfu's\\) \\[0\\]")
list(APPEND pr_fix11_tests example.photonic-rails-sim-negative-iterations
     example.photonic-rails-sim-iterations-beyond-type example.ocs-circuit-example-bytes-beyond-type
     example.ocs-circuit-example-bytes-beyond-type-mtu-after example.photonic-rails-sim-help-ranges
     example.photonic-rails-workload-help-ranges)
set_tests_properties(${pr_fix11_tests} PROPERTIES TIMEOUT 60)
# Issue 12, review: the testbed's measured steps are printed only beside its own job on its
# own hardware: another generator flag (--layers=2 --seqLen=256 here) makes another job.
add_test(NAME example.photonic-rails-sim-measured-only-for-its-job
         COMMAND photonic-rails-sim --job=b16 --layers=2 --seqLen=256 --preset=perlmutter-testbed
                 --frameBytes=61440 --fabric=eps --iterations=2 --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-modified-job)
set_tests_properties(example.photonic-rails-sim-measured-only-for-its-job PROPERTIES
  FAIL_REGULAR_EXPRESSION "measured \\(ms\\)")
# Issue 12, review: messages name the flag and the fabric the user gave.
photonic_rails_expect_error(example.photonic-rails-delay-sweep-bad-modes photonic-rails-delay-sweep
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--modes=OCS"
  "error: unknown --modes 'OCS'")
# Issue 12, review: the shims' Ignore (the testbed emulation's) is refused on optical rails,
# where an ignored communication would wait for circuits forever.
photonic_rails_expect_error(example.photonic-rails-sim-ignore-on-ocs photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--fabric=ocs|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-ignore-on-ocs"
  "error: --ns3::OpusShim::Ignore does not apply to ocs \\(packet\\): it is for the testbed emulation on electrical rails")
set_property(TEST example.photonic-rails-sim-ignore-on-ocs APPEND PROPERTY
  ENVIRONMENT "NS_ATTRIBUTE_DEFAULT=ns3::OpusShim::Ignore=^A")

# Chakra execution traces: ASTRA-sim's 2-D sample on optical and electrical rails, a
# generated job written as Chakra and read back (the JSON it gives back is the same file),
# and the refusals.
set(pr_chakra ${PROJECT_SOURCE_DIR}/test/data/chakra-samples)
if(PR_HAVE_CHAKRA)
  add_test(NAME example.photonic-rails-sim-chakra
           COMMAND photonic-rails-sim --chakra=${pr_chakra}/process-groups-2d-16npus/trace
                   --commGroups=${pr_chakra}/process-groups-2d-16npus/comm_group.json
                   --preset=perlmutter --nicPorts=2 --fabric=eps,ocs
                   --out=${CMAKE_BINARY_DIR}/sim-smoke-chakra)
  add_test(NAME example.photonic-rails-workload-chakra-write
           COMMAND photonic-rails-workload --dag=${PROJECT_SOURCE_DIR}/test/data/two-stage.json
                   --out=${CMAKE_BINARY_DIR}/chakra-smoke --format=chakra --gzip=1)
  add_test(NAME example.photonic-rails-workload-chakra-read
           COMMAND photonic-rails-workload --chakra=${CMAKE_BINARY_DIR}/chakra-smoke
                   --commGroups=${CMAKE_BINARY_DIR}/chakra-smoke.comm_group.json
                   --out=${CMAKE_BINARY_DIR}/chakra-smoke-back.json)
  set_tests_properties(example.photonic-rails-workload-chakra-read PROPERTIES
                       DEPENDS example.photonic-rails-workload-chakra-write)
  add_test(NAME example.photonic-rails-workload-chakra-round-trip
           COMMAND ${CMAKE_COMMAND} -E compare_files ${CMAKE_BINARY_DIR}/chakra-smoke-back.json
                   ${CMAKE_BINARY_DIR}/chakra-smoke-json-again.json)
  add_test(NAME example.photonic-rails-workload-chakra-json-again
           COMMAND photonic-rails-workload --dag=${PROJECT_SOURCE_DIR}/test/data/two-stage.json
                   --out=${CMAKE_BINARY_DIR}/chakra-smoke-json-again.json)
  set_tests_properties(example.photonic-rails-workload-chakra-round-trip PROPERTIES
                       DEPENDS "example.photonic-rails-workload-chakra-read;example.photonic-rails-workload-chakra-json-again")
  add_test(NAME example.photonic-rails-workload-chakra-validate
           COMMAND photonic-rails-workload --validate=${pr_chakra}/ring-allreduce-sendrecv-8npus/custom_allreduce
                   --gpusPerServer=1)
  photonic_rails_expect_error(example.photonic-rails-sim-chakra-no-groups photonic-rails-sim
    "--chakra=${pr_chakra}/process-groups-2d-16npus/trace"
    "trace\\.0\\.et: node 1: pg_name '0\\.0' names no group: give the comm-group JSON \\(--commGroups\\)")
  photonic_rails_expect_error(example.photonic-rails-sim-chakra-missing photonic-rails-sim
    "--chakra=${CMAKE_BINARY_DIR}/no-such-trace" "no-such-trace: no Chakra trace here")
else()
  # Built without protobuf (CMakeLists.txt): asked for Chakra, a program says what to install.
  photonic_rails_expect_error(example.photonic-rails-sim-chakra-needs-protobuf photonic-rails-sim
    "--chakra=${pr_chakra}/process-groups-2d-16npus/trace"
    "trace: Chakra traces: built without protobuf: apt-get install libprotobuf-dev protobuf-compiler\n$")
  photonic_rails_expect_error(example.photonic-rails-workload-chakra-needs-protobuf
    photonic-rails-workload "--job=b16|--out=${CMAKE_BINARY_DIR}/chakra-smoke|--format=chakra"
    "chakra-smoke: Chakra traces: built without protobuf: apt-get install libprotobuf-dev protobuf-compiler\n$")
endif()
photonic_rails_expect_error(example.photonic-rails-sim-chakra-generator-flag photonic-rails-sim
  "--chakra=${pr_chakra}/process-groups-2d-16npus/trace|--tp=2"
  "--tp is a generator flag: a Chakra trace takes only --gpu and --mfu")
photonic_rails_expect_error(example.photonic-rails-sim-comm-groups-alone photonic-rails-sim
  "--commGroups=${pr_chakra}/process-groups-2d-16npus/comm_group.json"
  "--commGroups names the groups of a Chakra trace: it needs --chakra=PREFIX")
photonic_rails_expect_error(example.photonic-rails-workload-bad-format photonic-rails-workload
  "--job=b16|--out=x|--format=xml" "--format must be json or chakra")
# Both network models side by side (issue 14): one table, a folder per model, and each
# summary.json says which model produced it.
add_test(NAME example.photonic-rails-sim-network-both
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps,ocs|--network=packet,flow|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-network-both"
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-network-both
                 "-DEXISTS=packet/eps/summary.json|packet/ocs/summary.json|flow/eps/summary.json|flow/ocs/timeline.json"
                 "-DEXPECT_STDOUT=network +fabric [^\n]* vs packet\npacket +eps [^\n]*\npacket +ocs [^\n]*\nflow +eps [^\n]*\nflow +ocs "
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
foreach(model packet flow)
  add_test(NAME example.photonic-rails-sim-network-${model}-summary
           COMMAND ${CMAKE_COMMAND}
                   -DFILE=${CMAKE_BINARY_DIR}/sim-smoke-network-both/${model}/ocs/summary.json
                   "-DPATTERN=\"network\": \"${model}\""
                   -P ${PROJECT_SOURCE_DIR}/test/file-matches.cmake)
  set_tests_properties(example.photonic-rails-sim-network-${model}-summary PROPERTIES
                       DEPENDS example.photonic-rails-sim-network-both)
endforeach()
photonic_rails_expect_error(example.photonic-rails-sim-network-unknown photonic-rails-sim
  "--network=Flow" "unknown --network 'Flow' \\(packet, flow\\)")
photonic_rails_expect_error(example.photonic-rails-sim-network-twice photonic-rails-sim
  "--network=flow,flow" "--network names flow twice")
photonic_rails_expect_error(example.photonic-rails-delay-sweep-network-list
  photonic-rails-delay-sweep "--network=packet,flow"
  "the sweep runs one --network at a time \\(packet or flow\\); photonic-rails-sim takes a list")
# Controller failover (issue 30): the controller is down from 5 to 55 ms, over two-phases.json's
# phase shift; rank 0 asks for phase B at t_B = 10.005542 ms (packet; 10.005533 ms flow), which
# waits until 55 ms: the stall is 55 ms - t_B, on both network models.
add_test(NAME example.photonic-rails-sim-controller-failover
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--nicPorts=2|--nicRate=50|--reconfigDelay=25ms|--controlLatency=100us|--fabric=ocs|--network=packet,flow|--fault=controller@5ms-55ms|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-controller"
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-controller
                 "-DEXISTS=packet/faults.csv|flow/faults.csv"
                 "-DEXPECT_STDERR=ocs: controller down in 1 outage\\(s\\), 1 message\\(s\\) held; controller stall 0.044994458 s\n.*controller stall 0.044994467 s\n"
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
foreach(model_stall packet:0.044994458 flow:0.044994467)
  string(REPLACE ":" ";" model_stall ${model_stall})
  list(GET model_stall 0 model)
  list(GET model_stall 1 stall)
  add_test(NAME example.photonic-rails-sim-controller-failover-${model}
           COMMAND ${CMAKE_COMMAND}
                   -DFILE=${CMAKE_BINARY_DIR}/sim-smoke-controller/${model}/summary.json
                   "-DPATTERN=\"held_messages\": 1,\n *\"controller_stall_s\": ${stall}\n"
                   -P ${PROJECT_SOURCE_DIR}/test/file-matches.cmake)
  add_test(NAME example.photonic-rails-sim-controller-failover-${model}-csv
           COMMAND ${CMAKE_COMMAND}
                   -DFILE=${CMAKE_BINARY_DIR}/sim-smoke-controller/${model}/faults.csv
                   "-DPATTERN=^time_s,part,event\n0.005,controller,down\n0.055,controller,up\n$"
                   -P ${PROJECT_SOURCE_DIR}/test/file-matches.cmake)
  set_tests_properties(example.photonic-rails-sim-controller-failover-${model}
                       example.photonic-rails-sim-controller-failover-${model}-csv PROPERTIES
                       DEPENDS example.photonic-rails-sim-controller-failover)
endforeach()
# The hostile pass's hang: GPU 0's port 1 dies at 0, and Opus's confirmation (after its 1-ms
# hold-down) reaches the controller while it is down (1 to 2 ms): the standby acts on it once
# at the takeover (it re-held itself for ever), and no request waited: stall 0.
add_test(NAME example.photonic-rails-sim-controller-held-port-failure
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--nicPorts=2|--nicRate=50|--reconfigDelay=25ms|--controlLatency=100us|--fabric=ocs|--fault=nic:gpu0.port1@0,controller@1ms-2ms|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-controller-held"
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-controller-held
                 "-DEXPECT_STDERR=controller down in 1 outage\\(s\\), 3 message\\(s\\) held; controller stall 0 s\n"
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
set_tests_properties(example.photonic-rails-sim-controller-held-port-failure PROPERTIES TIMEOUT 60)
photonic_rails_expect_error(example.photonic-rails-sim-controller-failover-alone photonic-rails-sim
  "--fabric=ocs|--controllerFailover=1s" "--controllerFailover applies to controller faults: give controller@TIME in --fault or --faults")
photonic_rails_expect_error(example.photonic-rails-sim-controller-static photonic-rails-sim
  "--fabric=ocs-static|--fault=controller@1ms" "fault \"controller@1ms\": fabric ocs-static has no Opus controller")
photonic_rails_expect_error(example.photonic-rails-sim-controller-eps photonic-rails-sim
  "--fabric=eps|--fault=controller@1ms" "electrical rails have no Opus controller")
# Issue 30: a controller outage and a NIC fault together on the flow model.
add_test(NAME example.photonic-rails-sim-controller-flow-nic
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=ocs|--network=flow|--fault=controller@1ms,nic:gpu0.port0@1ms|--progress=0"
                 "-DFABRICS=." -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-controller-flow-nic
                 -DEVENTS=1 -P ${PROJECT_SOURCE_DIR}/test/fault-runs-agree.cmake)
# Merged ring steps (issue 14): the flow model runs with them on both kinds of rails, the
# summary says so, and the combinations that cannot work are one-line errors.
add_test(NAME example.photonic-rails-sim-ring-steps-merged
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps,ocs|--network=flow|--ringSteps=merged|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-ring-steps"
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-ring-steps
                 "-DEXISTS=eps/summary.json|ocs/summary.json|ocs/timeline.json"
                 "-DEXPECT_STDOUT=fabric [^\n]*\neps [^\n]*\nocs "
                 "-DEXPECT_STDERR=eps, ocs: ring steps merged in [0-9]+ of [0-9]+ collective calls"
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
# 32 GPUs, FSDP 4: each rank's 4 scalar allreduces (the gradient norm, 3 optimizer ones)
# move one chunk per step: 32 x 4 = 128 calls are named as hiding their steps' latency.
add_test(NAME example.photonic-rails-sim-ring-steps-latency-note
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-70b|--layers=1|--tp=8|--fsdp=4|--gpu=h100|--preset=dgx-h100|--frameBytes=61440|--network=flow|--ringSteps=merged|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-ring-steps-note"
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-ring-steps-note
                 "-DEXISTS=summary.json"
                 "-DEXPECT_STDERR=eps: note: 128 of the [0-9]+ merged calls \\(e.g. 'fsdp.allreduce.gradnorm'\\) move at most one chunk per step and channel"
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
add_test(NAME example.photonic-rails-sim-ring-steps-summary
         COMMAND ${CMAKE_COMMAND}
                 -DFILE=${CMAKE_BINARY_DIR}/sim-smoke-ring-steps/ocs/summary.json
                 "-DPATTERN=\"ring_steps\": \"merged\""
                 -P ${PROJECT_SOURCE_DIR}/test/file-matches.cmake)
set_tests_properties(example.photonic-rails-sim-ring-steps-summary PROPERTIES
                     DEPENDS example.photonic-rails-sim-ring-steps-merged)
photonic_rails_expect_error(example.photonic-rails-sim-ring-steps-unknown photonic-rails-sim
  "--ringSteps=fused" "bad value for --ringSteps: 'fused' \\(expected chunked or merged\\)")
photonic_rails_expect_error(example.photonic-rails-sim-ring-steps-packet photonic-rails-sim
  "--ringSteps=merged|--network=flow,packet" "--ringSteps=merged runs on the flow model only")
photonic_rails_expect_error(example.photonic-rails-sim-ring-steps-reduce photonic-rails-sim
  "--ringSteps=merged|--network=flow|--reduceGBps=100"
  "--ringSteps=merged needs free reductions \\(--reduceGBps=0\\)")
# Faults (issue 15): a schedule from a file and inline, on every kind of rail, runs the same
# twice and loses nothing; a fault that can never be repaired is reported with the part that
# holds the transfers; bad entries are one-line errors before the run.
add_test(NAME example.photonic-rails-sim-faults
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps,eps-clos,ocs|--radix=4|--faults=${PROJECT_SOURCE_DIR}/test/data/faults.json|--fault=nic:gpu6.port0@30ms-31ms|--progress=0"
                 "-DFABRICS=eps|eps-clos|ocs" -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-faults
                 -DEVENTS=6 -P ${PROJECT_SOURCE_DIR}/test/fault-runs-agree.cmake)
# Review finds: a peer port repaired while its data had moved to the peer's other port (two
# NIC ports), and a pair whose two circuits die under a running all-gather (Opus joins its
# live ports again); both must finish with every byte.
add_test(NAME example.photonic-rails-sim-fault-peer-port-back
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps,eps-clos|--radix=4|--nicPorts=2|--fault=nic:gpu5.port0@1ms-3ms|--progress=0"
                 "-DFABRICS=eps|eps-clos" -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-fault-peer-port
                 -DEVENTS=2 -P ${PROJECT_SOURCE_DIR}/test/fault-runs-agree.cmake)
add_test(NAME example.photonic-rails-sim-fault-reconnect
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=1|--fsdp=8|--preset=perlmutter|--frameBytes=61440|--fabric=ocs|--nicPorts=2|--fault=nic:gpu0.port0@2ms,nic:gpu4.port1@2500us|--progress=0"
                 "-DFABRICS=." -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-fault-reconnect
                 -DEVENTS=2 -P ${PROJECT_SOURCE_DIR}/test/fault-runs-agree.cmake)
# Issue 30: server 1 of job b16 fails at 7 s (in iteration 2, flow model); a spare takes its
# ranks and the job restarts from iteration 1's checkpoint. Down = detection 30 s + restore
# 60 s, and on optical rails one piezo reconfiguration (25 ms) more. Every attempt's folder,
# faults.csv and summary.json are written.
add_test(NAME example.photonic-rails-sim-server-swap
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--job=b16|--fabric=eps,ocs|--network=flow|--iterations=3|--fault=server:1@7s|--spareServers=1|--onServerFailure=swap|--checkpointInterval=1|--failureDetection=30s|--restoreTime=1min|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-server-swap"
                 -DWORKDIR=${CMAKE_BINARY_DIR}
                 -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-server-swap
                 "-DEXISTS=eps/faults.csv|eps/attempt-1/summary.json|ocs/faults.csv|ocs/summary.json|ocs/attempt-1/summary.json"
                 "-DEXPECT_STDOUT=\neps +1 +1 +[0-9.]+ +90\\.000000 [^\n]*\nocs +1 +1 +[0-9.]+ +90\\.025000 "
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
# A server that never comes back, without a spare: the job cannot go on.
photonic_rails_expect_error(example.photonic-rails-sim-server-never-back photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--gpusPerServer=1|--fabric=eps|--fault=server:1@100us|--failureDetection=1ms|--restoreTime=1ms|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-server-never-back"
  "photonic-rails-sim: error: server 1 \\(server:1\\) fails at 0.0001 s and is never repaired: give it a repair time \\(server:1@DOWN-UP\\) or spares \\(--onServerFailure=swap --spareServers=N\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-spares-without-failures photonic-rails-sim
  "--spareServers=1"
  "photonic-rails-sim: error: --spareServers acts on GPU and server failures: give gpu:gpuG or server:S in --fault or --faults\n$")
photonic_rails_expect_error(example.photonic-rails-sim-server-and-nic photonic-rails-sim
  "--fault=server:1@1ms,nic:gpu0.port0@1ms"
  "photonic-rails-sim: error: fault \"nic:gpu0.port0@1ms\": GPU and server failures run without other fault kinds \\(each restart runs the job again from a fresh start\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-swap-without-spares photonic-rails-sim
  "--fault=server:1@1ms|--onServerFailure=swap"
  "photonic-rails-sim: error: --onServerFailure=swap needs spare servers \\(--spareServers\\)\n$")
photonic_rails_expect_error(example.photonic-rails-jobs-server-failure photonic-rails-jobs
  "--fault=server:1@1ms"
  "photonic-rails-jobs: error: fault \"server:1@1ms\": this program does not run GPU or server failures \\(photonic-rails-sim does\\)\n$")
# GPU 5's only NIC port dies for good: what it sends and receives on rail 1 detours through
# its server's other GPUs, rails 0, 2 and 3 and the peer's server, on every fabric.
add_test(NAME example.photonic-rails-sim-fault-detour
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps,eps-clos,ocs|--radix=4|--fault=nic:gpu5.port0@1ms|--progress=0"
                 "-DFABRICS=eps|eps-clos|ocs" -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-fault-detour
                 -DEVENTS=1 -DDETOURED=1 -P ${PROJECT_SOURCE_DIR}/test/fault-runs-agree.cmake)
# Every NIC port of server 1 dies: no path joins the servers, so the job cannot finish.
photonic_rails_expect_error(example.photonic-rails-sim-fault-stuck photonic-rails-sim
  "--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps|--fault=nic:gpu4.port0@1ms,nic:gpu5.port0@1ms,nic:gpu6.port0@1ms,nic:gpu7.port0@1ms|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-fault-stuck"
  "GPU 1 -> GPU 5: [0-9]+ transfers? \\([0-9]+ B\\) wait: port gpu5.port0 down; no working path around them\n.*error: the simulation is stuck after [0-9.e-]+ s: [0-9]+ of 8 ranks cannot progress \\(what each waits for is listed above\\); transfers between [0-9]+ pairs of GPUs wait for failed parts")
# Issue 32: GPU 1's two cables cut for good at 300 us under a ring all-reduce: the time the
# run stopped moving is the failure plus one RetransmitTimeout (1 ms, after which its QPs give
# their paths up), not that of the last op event (0 s).
# A port that fails for good while its QP's last frame is acknowledged late: the parts queued
# on the stopped QP afterwards still move to the other port (they waited for ever before).
add_test(NAME example.photonic-rails-sim-fault-late-ack
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json
                 --gpusPerServer=1 --nicPorts=2 --fabric=eps-clos --radix=4 --chunkKiB=8
                 --fault=nic:gpu0.port0@200us --out=${CMAKE_BINARY_DIR}/sim-smoke-late-ack)
add_test(NAME example.photonic-rails-sim-fault-late-ack-pxn
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/alltoall-four.json
                 --gpusPerServer=2 --nicPorts=1 --fabric=eps --qpsPerConnection=32
                 --fault=nic:gpu0.port0@20us --out=${CMAKE_BINARY_DIR}/sim-smoke-late-ack-pxn)
add_test(NAME example.photonic-rails-sim-fault-late-ack-qps
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json
                 --gpusPerServer=1 --nicPorts=2 --fabric=eps-clos --radix=4 --qpsPerConnection=64
                 --fault=nic:gpu0.port0@100us --out=${CMAKE_BINARY_DIR}/sim-smoke-late-ack-qps)
photonic_rails_expect_error(example.photonic-rails-sim-fault-stuck-time photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--gpusPerServer=1|--nicPorts=2|--fabric=eps|--fault=nic:gpu1.port0@300us,nic:gpu1.port1@300us|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-fault-stuck-time"
  "error: the simulation is stuck after 0\\.0013[0-9]* s: 4 of 4 ranks cannot progress")
# Hostile pass: --detectionDelay acts only on Clos rails, under link or switch faults.
photonic_rails_expect_error(example.photonic-rails-sim-detection-delay-optical photonic-rails-sim
  "--fabric=ocs|--detectionDelay=5ms"
  "error: --detectionDelay applies to routing around failures in a Clos rail with spines: add eps-clos to --fabric, with a --radix below a rail's NIC ports")
photonic_rails_expect_error(example.photonic-rails-sim-detection-delay-one-switch photonic-rails-sim
  "--fabric=eps|--fault=switch:rail0@1ms|--detectionDelay=5ms"
  "error: --detectionDelay applies to routing around failures in a Clos rail with spines: add eps-clos to --fabric, with a --radix below a rail's NIC ports")
photonic_rails_expect_error(example.photonic-rails-sim-detection-delay-one-leaf photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--gpusPerServer=1|--nicPorts=2|--fabric=eps-clos|--fault=switch:rail0.leaf0@100us-300us|--detectionDelay=5ms"
  "error: --detectionDelay applies to routing around failures in a Clos rail with spines")
photonic_rails_expect_error(example.photonic-rails-sim-detection-delay-no-fault photonic-rails-sim
  "--fabric=eps-clos|--radix=4|--detectionDelay=5ms"
  "error: --detectionDelay applies to failed leaf-spine cables and switches \\(routing around them\\): give a link: or switch: fault")
photonic_rails_expect_error(example.photonic-rails-sim-detection-delay-nic-fault photonic-rails-sim
  "--fabric=eps-clos|--radix=4|--fault=nic:gpu1.port0@1ms|--detectionDelay=5ms"
  "error: --detectionDelay applies to failed leaf-spine cables and switches \\(routing around them\\): give a link: or switch: fault")
# Hostile pass 3: eps beyond one switch's radix is built as a Clos, and its faults are named
# as a Clos's (switch:rail0 failed only leaf 0, and link: faults were refused).
photonic_rails_expect_error(example.photonic-rails-sim-fault-eps-beyond-radix photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--gpusPerServer=1|--nicPorts=2|--fabric=eps|--radix=4|--fault=switch:rail0@100us-300us"
  "error: fault \"switch:rail0@100us-300us\": a Clos rail has leaves and spines: name railR.leafL or railR.spineS on fabric eps")
# Hostile pass 3: a leaf down from 1 to 15 us, routing reconverging in 1 us, under a 4-KiB
# exchange: frames dropped for want of a route (the routes come back 1 us after the repair)
# are the failure's losses, sent again when the routes return (16 us), not after the 1-ms
# RetransmitTimeout (the run took 1.004 ms; now 0.019 ms).
add_test(NAME example.photonic-rails-sim-fault-no-route-lost
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/fault-limits/leaf-pxn.json
                 --gpusPerServer=4 --nicPorts=2 --fabric=eps-clos --radix=4
                 --fault=switch:rail3.leaf1@1us-15us --detectionDelay=1us --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-fault-no-route-lost)
set_tests_properties(example.photonic-rails-sim-fault-no-route-lost PROPERTIES
  PASS_REGULAR_EXPRESSION "\neps-clos +0\\.01[0-9] ")
# Hostile pass 3: GPU 7, PXN proxy of GPU 6's send to GPU 1, loses both ports; its share
# detours along a chain whose circuits later exchanges take; every part is repaired at
# 3.27 ms. Opus joins the pairs detoured data waits for (CircuitWanted) once ports are free:
# the job finishes (it ended "stuck after 0.00426597 s").
add_test(NAME example.photonic-rails-sim-fault-detour-circuit
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/fault-limits/proxy-dies.json
                 --gpusPerServer=2 --nicPorts=2 --fabric=ocs --reconfigDelay=1ms
                 --fault=nic:gpu7.port0@1065.335us-3265.966us,nic:gpu7.port1@1065.335us-3265.966us
                 --progress=0 --out=${CMAKE_BINARY_DIR}/sim-smoke-fault-detour-circuit)
set_tests_properties(example.photonic-rails-sim-fault-detour-circuit PROPERTIES
  PASS_REGULAR_EXPRESSION "\nocs +[0-9]+\\.[0-9]+ +\\+0\\.00% ")
# Hostile pass (issue 27): a NIC port dies for good on optical rails, one port per GPU. Opus
# has the pair relay, but no lit circuit of another rail makes a path around, and nothing
# asked for one: the data waited for good ("no working path around them"). Now the transport
# asks Opus for a PXN path's circuit. GPU 0, PXN proxy of GPU 3's send to GPU 4, dies at
# 86.365 us: Opus confirms it 1 ms later (the pair relays, the share stops), lights rail 1's
# GPUs 1-5 in 1 us, and the share, stopped for a timeout already, detours at once, 64 KiB
# arriving a few us later: the job ends at 1.09x ms, its second iteration (from 0.062 ms) in
# 1.03x ms (2.035 ms when the share waited for a second timeout).
add_test(NAME example.photonic-rails-sim-fault-pxn-ocs-permanent
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/fault-limits/pxn-ocs-stuck.json
                 --gpusPerServer=4 --nicPorts=1 --fabric=ocs --reconfigDelay=1us --iterations=2
                 --fault=nic:gpu0.port0@86.365us --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-fault-pxn-ocs-permanent)
set_tests_properties(example.photonic-rails-sim-fault-pxn-ocs-permanent PROPERTIES
  PASS_REGULAR_EXPRESSION "\nocs +1\\.03[0-9] ")
# The same with provisioning: GPU 2's only port dies at 0.125 us under an all-to-all of GPUs 2
# and 6 (rail 2); the QPs stop at their first timeout (1 ms + 16 frames), rail 0's GPUs 0-4
# are joined (100 us), and the data detours at once: 1.1x ms (2.109 ms when it waited for a
# second timeout).
add_test(NAME example.photonic-rails-sim-fault-pxn-ocs-provisioning-permanent
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/fault-limits/pxn-ocs-provisioning-stuck.json
                 --gpusPerServer=4 --nicPorts=1 --fabric=ocs-provisioning --reconfigDelay=100us
                 --fault=nic:gpu2.port0@0.125us --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-fault-pxn-ocs-provisioning-permanent)
set_tests_properties(example.photonic-rails-sim-fault-pxn-ocs-provisioning-permanent PROPERTIES
  PASS_REGULAR_EXPRESSION "\nocs-provisioning +1\\.1[0-9][0-9] ")
# Hostile pass (this session): GPU 3's only NIC port dies for good (2 GPUs per server, one
# port each). Rank 0's 1 MiB to rank 3 goes by PXN to GPU 1, whose rail path to GPU 3 is
# dead, so it goes around: back to GPU 0, over rail 0, then on. A hop of that detour found
# no circuit to its next GPU and waited without asking Opus for one, as only detour
# messages asked: the run never ended (before the previous commit) or stopped as "stuck".
# Now a forwarded message past its PXN proxy asks like a detour; the run finishes.
add_test(NAME example.photonic-rails-sim-fault-pxn-around
         COMMAND photonic-rails-sim --dag=${PROJECT_SOURCE_DIR}/test/data/fault-limits/pxn-around-stuck.json
                 --gpusPerServer=2 --nicPorts=1 --fabric=ocs --reconfigDelay=0s
                 --fault=nic:gpu3.port0@8.054us,ocs-port:rail1.port3@255.658us-388.648us
                 --progress=0 --out=${CMAKE_BINARY_DIR}/sim-smoke-fault-pxn-around)
set_tests_properties(example.photonic-rails-sim-fault-pxn-around PROPERTIES
  PASS_REGULAR_EXPRESSION "\nocs +[0-9]+\\.[0-9]+ +\\+0\\.00% ")
# Issue 30, detour circuits: GPU 5's only NIC port dies at 2 s under the paper's b16 job on
# optical rails. Its pairs relay, and their detours rode circuits of rail 0 and rail 2 that
# other communications held; once later requests took them, the detoured data waited for
# good ("stuck after 5.76588 s", GPUs 5 and 13 relaying). Now Opus holds, for each relayed
# pair, the circuit of another rail that joins the GPUs of its two servers (here rail 0's
# GPUs 4 and 12, lit for their own data-parallel group) until the pair's communication
# ends: 4785.209 ms, 38 reconfigurations.
add_test(NAME example.photonic-rails-sim-fault-b16-only-port
         COMMAND photonic-rails-sim --job=b16 --fabric=ocs-provisioning
                 --fault=nic:gpu5.port0@2s --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-fault-b16-only-port)
set_tests_properties(example.photonic-rails-sim-fault-b16-only-port PROPERTIES
  PASS_REGULAR_EXPRESSION "\nocs-provisioning +4785\\.209 +\\+0\\.00% +38 ")
photonic_rails_expect_error(example.photonic-rails-sim-detour-no-fault photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--gpusPerServer=1|--fabric=eps|--ns3::RailTransport::Detour=false"
  "error: --ns3::RailTransport::Detour acts on failures \\(detours, Opus's wait before it plans around a failed port\\): give --fault or --faults")
photonic_rails_expect_error(example.photonic-rails-sim-fault-between-nanoseconds photonic-rails-sim
  "--fault=nic:gpu1.port0@1.5ns-2.4ns"
  "error: fault \"nic:gpu1.port0@1.5ns-2.4ns\": '1.5ns' is not a whole number of nanoseconds")
# ns-3's --ns3::Type::Attribute=value sets a default, checked like our own flags.
add_test(NAME example.photonic-rails-sim-attribute-flag
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps|--nicPorts=2|--fault=nic:gpu5.port0@2ms|--progress=0"
                 -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-attribute-flag
                 -P ${PROJECT_SOURCE_DIR}/test/attribute-flag.cmake)
photonic_rails_expect_error(example.photonic-rails-sim-attribute-misspelt photonic-rails-sim
  "--ns3::RailTransport::RetransmitTimout=5ms"
  "error: unknown flag --ns3::RailTransport::RetransmitTimout: ns3::RailTransport has no attribute 'RetransmitTimout' \\(see --PrintAttributes=ns3::RailTransport\\)")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-type photonic-rails-sim
  "--ns3::RailTransprt::Window=8"
  "error: unknown flag --ns3::RailTransprt::Window: no TypeId 'ns3::RailTransprt' \\(see --PrintTypeIds\\)")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-value photonic-rails-sim
  "--ns3::RailTransport::RetransmitTimeout=abc"
  "error: --ns3::RailTransport::RetransmitTimeout: 'abc' is not a duration \\(e.g. 25ms, 1.5s, 100us\\)")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-reserved photonic-rails-sim
  "--ns3::RailTransport::Mtu=1000"
  "error: --ns3::RailTransport::Mtu: this program sets it from --frameBytes \\(give that instead\\)")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-rng photonic-rails-sim
  "--RngRun=3"
  "error: --RngRun: this program sets the random run from --seed \\(give --seed=N\\)")
# Issues 32 (items 4, 6) and 34 (items 3, 4): each class of bad attribute value is one line and
# exit status 1, before anything runs (the rules: the user doc's "Attributes from the command
# line"; the numbers: the job's rail switch of 3 ports, 32 MiB / 3 - 20592 B of headroom).
set(pr_tiny "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--progress=0|--out=${CMAKE_BINARY_DIR}/sim-smoke-attribute-bad")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-parse photonic-rails-sim
  "--ns3::RailTransport::Window=1e3"
  "photonic-rails-sim: error: bad value for --ns3::RailTransport::Window: '1e3' \\(expected an integer in \\[1, 4294967295\\]\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-nan photonic-rails-sim
  "--ns3::EpsSwitch::DtAlpha=nan"
  "photonic-rails-sim: error: bad value for --ns3::EpsSwitch::DtAlpha: 'nan' \\(expected a number in \\[0, 1.79769e\\+308\\]\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-wrap photonic-rails-sim
  "--ns3::EpsSwitch::BufferSize=-1"
  "photonic-rails-sim: error: bad value for --ns3::EpsSwitch::BufferSize: '-1' \\(expected an integer in \\[1, 18446744073709551615\\]\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-wrap-time photonic-rails-sim
  "--ns3::EpsChannel::Delay=1e400s"
  "photonic-rails-sim: error: --ns3::EpsChannel::Delay: '1e400s' is out of range \\(at most 10\\^6 s\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-object photonic-rails-sim
  "--ns3::Node::DeviceList=x"
  "photonic-rails-sim: error: --ns3::Node::DeviceList takes ns3::Ptr< ns3::NetDevice > \\(ns3::ObjectPtrContainerValue\\), which a command line cannot give\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-refused photonic-rails-sim
  "--ns3::Application::StartTime=100us"
  "photonic-rails-sim: error: --ns3::Application::StartTime is not taken from the command line: every rank starts at 0, the job's time origin \\(with --jobs, at its job's start\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-radix photonic-rails-sim
  "--ns3::OpticalCircuitSwitch::Radix=1"
  "photonic-rails-sim: error: --ns3::OpticalCircuitSwitch::Radix: this program sets it from --ocs \\(the technology's radix\\) \\(give that instead\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-child-type photonic-rails-sim
  "--ns3::EpsNetDevice::InterframeGap=1ns"
  "photonic-rails-sim: error: --ns3::EpsNetDevice::InterframeGap: the attribute is ns3::RailNetDevice's \\(give --ns3::RailNetDevice::InterframeGap\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-ecn photonic-rails-sim
  "--ns3::EpsSwitch::EcnKmin=500000|--ns3::EpsSwitch::EcnKmax=400000"
  "photonic-rails-sim: error: ns3::EpsSwitch: EcnKmin \\(500000 B\\) exceeds EcnKmax \\(400000 B\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-xoff-overflow photonic-rails-sim
  "--ns3::EpsSwitch::PfcXoff=18446744073709551615"
  "photonic-rails-sim: error: ns3::EpsSwitch: PfcXoff \\(18446744073709551615 B\\) exceeds BufferSize \\(33554432 B\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-xon photonic-rails-sim
  "${pr_tiny}|--fabric=eps|--ns3::EpsSwitch::PfcXon=100000000"
  "photonic-rails-sim: error: a rail switch of 3 ports: PfcXon \\(100000000 B\\) must be below PfcXoff \\(11164218 B, BufferSize / 3 ports - 20592 B of headroom\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-timeout photonic-rails-sim
  "${pr_tiny}|--fabric=eps|--ns3::EpsSwitch::ProcessingDelay=1ms"
  "photonic-rails-sim: error: ns3::RailTransport::RetransmitTimeout \\(1000000 ns\\) is not above the round trip of the longest path without its frames, 2 x \\(2 links x 50 ns \\+ 1 switch x 1000000 ns\\) = 2000200 ns: every frame would time out before its acknowledgement\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-not-applicable photonic-rails-sim
  "${pr_tiny}|--fabric=ocs|--ns3::EpsSwitch::BufferSize=1000000"
  "photonic-rails-sim: error: --ns3::EpsSwitch::BufferSize does not apply to ocs \\(packet\\): it has no electrical link or switch \\(optical rails, one GPU per server\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-attribute-environment photonic-rails-sim
  ""
  "photonic-rails-sim: error: NS_ATTRIBUTE_DEFAULT: bad value for --ns3::EpsSwitch::BufferSize: 'abc' \\(expected an integer in \\[1, 18446744073709551615\\]\\)\n$")
set_property(TEST example.photonic-rails-sim-attribute-environment APPEND PROPERTY
  ENVIRONMENT "NS_ATTRIBUTE_DEFAULT=ns3::EpsSwitch::BufferSize=abc")
photonic_rails_expect_error(example.photonic-rails-cost-attribute photonic-rails-cost
  "--ns3::RailTransport::Window=8"
  "photonic-rails-cost: error: --ns3::RailTransport::Window would change nothing: this program runs no simulation\n$")
# Hostile pass: what the example's one ring AllGather would ignore is refused.
photonic_rails_expect_error(example.first-collective-default-algorithm first-collective
  "--ns3::CollectiveCommunicator::DefaultAlgorithm=tree"
  "first-collective: error: --ns3::CollectiveCommunicator::DefaultAlgorithm is not taken from the command line: this example runs one ring AllGather, which names its algorithm\n$")
photonic_rails_expect_error(example.first-collective-reduction-bandwidth first-collective
  "--ns3::CollectiveCommunicator::ReductionBandwidth=1"
  "first-collective: error: --ns3::CollectiveCommunicator::ReductionBandwidth is not taken from the command line: this example runs one ring AllGather, which reduces nothing\n$")
photonic_rails_expect_error(example.first-collective-detour first-collective
  "--ns3::RailTransport::Detour=false"
  "first-collective: error: --ns3::RailTransport::Detour is not taken from the command line: it acts on failed ports and relayed pairs, and this example has none\n$")
photonic_rails_expect_error(example.first-collective-scheduler first-collective
  "--SchedulerType=ns3::Node"
  "first-collective: error: bad value for --SchedulerType: 'ns3::Node' \\(expected a scheduler, e.g. ns3::MapScheduler\\)\n$")
photonic_rails_expect_error(example.first-collective-buffer first-collective
  "--ns3::EpsSwitch::BufferSize=1"
  "first-collective: error: a rail switch of 4 ports cannot be lossless: PFC needs 28356 B per port \\(headroom at 100 Gb/s over 50-ns cables, 4096-B frames\\) and its 1-B buffer holds 0; [^\n]*\n$")
photonic_rails_expect_error(example.first-collective-chunk first-collective
  "--ns3::CollectiveCommunicator::ChunkBytes=1"
  "first-collective: error: rank 0, allgather: collective plan: one rank's plan needs more than 1048576 sends, receives and reductions: [^\n]*\n$")
photonic_rails_expect_error(example.first-collective-rng-seed first-collective
  "--RngSeed=0"
  "first-collective: error: bad value for --RngSeed: '0' \\(expected an integer in \\[1, 4294944442\\]\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-fault-no-gpu photonic-rails-sim
  "--fault=nic:gpu99.port0@1s|--fabric=eps"
  "error: fault \"nic:gpu99.port0@1s\": no GPU 99 \\(there are 16\\) on fabric eps")
photonic_rails_expect_error(example.photonic-rails-sim-fault-ocs-on-eps photonic-rails-sim
  "--fault=ocs-port:rail0.port1@1s|--fabric=eps,ocs"
  "error: fault \"ocs-port:rail0.port1@1s\": an OCS fault on electrical rails on fabric eps")
photonic_rails_expect_error(example.photonic-rails-sim-fault-time photonic-rails-sim
  "--fault=nic:gpu1.port0@1.2x"
  "error: fault \"nic:gpu1.port0@1.2x\": '1.2x' is not a duration")
# Issue 30: the same schedule as example.photonic-rails-sim-faults on the flow model.
add_test(NAME example.photonic-rails-sim-fault-flow
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DARGS=--model=llama3-8b|--layers=1|--tp=4|--fsdp=2|--preset=perlmutter|--frameBytes=61440|--fabric=eps,eps-clos,ocs|--radix=4|--network=flow|--faults=${PROJECT_SOURCE_DIR}/test/data/faults.json|--fault=nic:gpu6.port0@30ms-31ms|--progress=0"
                 "-DFABRICS=eps|eps-clos|ocs" -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-fault-flow
                 -DEVENTS=6 -P ${PROJECT_SOURCE_DIR}/test/fault-runs-agree.cmake)
photonic_rails_expect_error(example.photonic-rails-sim-fault-static photonic-rails-sim
  "--fault=ocs-reconfig:rail0@1s|--fabric=ocs-static"
  "error: fault \"ocs-reconfig:rail0@1s\": fabric ocs-static never reconfigures")
photonic_rails_expect_error(example.photonic-rails-sim-fault-file photonic-rails-sim
  "--faults=${PROJECT_SOURCE_DIR}/test/data/deadlock.json"
  "error: [^\n]*deadlock.json: must hold a JSON array of faults")

# Issue 16, review: the fault sweep's GPU flag is --failGpu (--gpu, the generator's GPU model,
# shadowed it: neither could be used).
photonic_rails_expect_error(example.photonic-rails-fault-sweep-fail-gpu photonic-rails-fault-sweep
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--failGpu=99|--out=${CMAKE_BINARY_DIR}/fault-sweep-fail-gpu"
  "photonic-rails-fault-sweep: error: --failGpu 99: the job has [0-9]+ GPUs\n$")
photonic_rails_expect_error(example.photonic-rails-fault-sweep-model-gpu photonic-rails-fault-sweep
  "--gpu=h200|--out=${CMAKE_BINARY_DIR}/fault-sweep-model-gpu|--at=0s|--fabrics=xyz"
  "photonic-rails-fault-sweep: error: unknown --fabrics 'xyz'")
# Issue 16, review: an output folder that cannot be made stops the program before any run.
photonic_rails_expect_error(example.photonic-rails-sim-out-unwritable photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--fabric=eps,ocs|--out=/proc/photonic-rails"
  "workload: [^\n]*\nphotonic-rails-sim: error: /proc/photonic-rails: cannot create the output folder: [A-Z][^\n]*\n$")
# A bad communicator attribute is a one-line error, not an abort (first-collective refuses
# the attribute itself: its ring names its algorithm).
photonic_rails_expect_error(example.first-collective-bad-algorithm first-collective
  "--ns3::CollectiveCommunicator::DefaultAlgorithm=foo"
  "first-collective: error: --ns3::CollectiveCommunicator::DefaultAlgorithm is not taken from the command line: this example runs one ring AllGather, which names its algorithm\n$")
photonic_rails_expect_error(example.photonic-rails-sim-reserved-channels photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--ns3::CollectiveCommunicator::Channels=4"
  "error: --ns3::CollectiveCommunicator::Channels: this program sets it from --channels \\(give that instead\\)")

# Issue 33, item 3: every JSON input refuses a key given twice (a --faults entry with two
# "at" ran with the later one, 150us). Issue 34, item 2: --faults refuses a named pipe as
# every input file does (it waited for a writer forever: bounded here).
photonic_rails_expect_error(example.photonic-rails-sim-faults-duplicate-key photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--faults=${PROJECT_SOURCE_DIR}/test/data/faults-duplicate-key.json"
  "^photonic-rails-sim: error: [^\n]*faults-duplicate-key\\.json: field '\\[0\\]\\.at': duplicate key 'at': a key may appear once per object \\(the earlier value would be silently dropped\\)\n$")
add_test(NAME example.photonic-rails-sim-faults-pipe
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 -DFIFO=${CMAKE_BINARY_DIR}/sim-smoke-faults-fifo
                 "-DARGS=--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--faults=${CMAKE_BINARY_DIR}/sim-smoke-faults-fifo"
                 "-DEXPECT=^photonic-rails-sim: error: [^\n]*/sim-smoke-faults-fifo: is not a regular file \\(a named pipe\\)\n$"
                 -P ${PROJECT_SOURCE_DIR}/test/expect-error.cmake)
set_tests_properties(example.photonic-rails-sim-faults-pipe PROPERTIES TIMEOUT 60)
# Issue 33, item 4: the fault sweep named --gpu for --failGpu, and at the default radix 64 a
# --dag's eps-clos rails (6 ports here) fit on one leaf: no spine or cable, and the sweep
# stopped on "no spine 0". Its switch row fails the leaf and the link row is skipped.
photonic_rails_expect_error(example.photonic-rails-fault-sweep-fault-flag photonic-rails-fault-sweep
  "--fault=nic:gpu0.port0@1s|--out=${CMAKE_BINARY_DIR}/fault-sweep-fault-flag"
  "^photonic-rails-fault-sweep: error: --fault is what the sweep sets: use --at, --duration and --failGpu\n$")
add_test(NAME example.photonic-rails-fault-sweep-one-leaf
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-fault-sweep>
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/fault-sweep-one-leaf
                 "-DARGS=--dag=${PROJECT_SOURCE_DIR}/test/data/allreduce-three.json|--gpusPerServer=1|--nicPorts=2|--failGpu=1|--fabrics=eps-clos|--at=10us|--duration=50us|--plot=0|--out=${CMAKE_BINARY_DIR}/fault-sweep-one-leaf"
                 "-DEXPECT_STDERR=\\[fault-sweep\\] eps-clos: no link row: at --radix=64 a rail's 6 ports fit on one leaf, which has no spine to cable to \\(a smaller --radix makes spines\\); its switch row fails that leaf\n"
                 "-DEXPECT_STDOUT=\neps-clos +switch +switch:rail0\\.leaf0@10us-60us +[0-9]"
                 -DEXISTS=fault-sweep.csv -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
# Issue 30: the fault sweep on the flow model (every fabric, every kind of part).
add_test(NAME example.photonic-rails-fault-sweep-flow
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-fault-sweep>
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/fault-sweep-flow
                 "-DARGS=--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--gpusPerServer=1|--nicPorts=2|--failGpu=1|--at=10us|--duration=50us|--network=flow|--plot=0|--out=${CMAKE_BINARY_DIR}/fault-sweep-flow"
                 "-DEXPECT_STDOUT=\nocs +ocs +ocs:rail0@10us-60us +[0-9]"
                 -DEXISTS=fault-sweep.csv -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
# Issue 34, item 7: the output folder's error gives the system's reason; the generator's ep
# error says which condition fails and what to change.
photonic_rails_expect_error(example.photonic-rails-sim-out-not-a-directory photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--out=${PROJECT_SOURCE_DIR}/README.md/out"
  "photonic-rails-sim: error: [^\n]*/README\\.md/out: cannot create the output folder: Not a directory\n$")
photonic_rails_expect_error(example.photonic-rails-workload-ep-dense photonic-rails-workload
  "--model=llama3-8b|--ep=2|--out=${CMAKE_BINARY_DIR}/workload-smoke-ep.json"
  "^photonic-rails-workload: error: ep \\(2\\) needs a mixture-of-experts model, and llama3-8b is not one \\(experts = 1\\): set ep to 1, or choose an MoE model \\(mixtral-8x7b, or experts > 1\\)\n$")

# Issue 29: several jobs on one fabric (--jobs). One job through a jobs file is that job's own
# run, byte for byte (every output file of every fabric, in both network models).
set(pr_jobs_data ${PROJECT_SOURCE_DIR}/test/data/jobs)
foreach(network packet flow)
  add_test(NAME example.photonic-rails-sim-jobs-one-job-${network}
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                   "-DJOBS_ARGS=--jobs=${pr_jobs_data}/one-ring.json|--gpusPerServer=1|--nicPorts=2|--fabric=eps,eps-clos,ocs,ocs-provisioning,ocs-static|--radix=4|--reconfigDelay=10us|--network=${network}|--progress=0"
                   "-DJOB_ARGS=--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--iterations=2|--gpusPerServer=1|--nicPorts=2|--fabric=eps,eps-clos,ocs,ocs-provisioning,ocs-static|--radix=4|--reconfigDelay=10us|--network=${network}|--progress=0"
                   -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-jobs-one-job-${network}
                   "-DFABRICS=eps|eps-clos|ocs|ocs-provisioning|ocs-static"
                   -P ${PROJECT_SOURCE_DIR}/test/jobs-one-job-identical.cmake)
endforeach()
# And with idle servers (--servers=6 for a 4-GPU job): the job keeps its own rank count.
add_test(NAME example.photonic-rails-sim-jobs-one-job-idle
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-sim>
                 "-DJOBS_ARGS=--jobs=${pr_jobs_data}/one-ring.json|--gpusPerServer=1|--nicPorts=2|--servers=6|--fabric=eps,ocs|--reconfigDelay=10us|--network=flow|--progress=0"
                 "-DJOB_ARGS=--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--iterations=2|--gpusPerServer=1|--nicPorts=2|--servers=6|--fabric=eps,ocs|--reconfigDelay=10us|--network=flow|--progress=0"
                 -DOUT_DIR=${CMAKE_BINARY_DIR}/sim-smoke-jobs-one-job-idle
                 "-DFABRICS=eps|ocs"
                 -P ${PROJECT_SOURCE_DIR}/test/jobs-one-job-identical.cmake)
# Two jobs: a table row per job and fabric, with the job's time alone beside it (disjoint
# jobs on a per-port OCS: slowdown 1, which the job-mix suite asserts to the ns).
add_test(NAME example.photonic-rails-sim-jobs-two
         COMMAND photonic-rails-sim --jobs=${pr_jobs_data}/two-rings.json --gpusPerServer=1
                 --nicPorts=2 --fabric=eps,ocs --reconfigDelay=10us --progress=0
                 --out=${CMAKE_BINARY_DIR}/sim-smoke-jobs-two)
set_tests_properties(example.photonic-rails-sim-jobs-two PROPERTIES PASS_REGULAR_EXPRESSION
  "\nocs +b +[0-9.]+ +[0-9.]+ +1\\.000 ")
# The experiment program on a small mix: a slowdown per job and variant, the CSV and the
# CDF's script.
add_test(NAME example.photonic-rails-jobs
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-jobs>
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/jobs-smoke
                 "-DARGS=--jobs=${pr_jobs_data}/two-rings.json|--gpusPerServer=1|--variants=eps,eps-clos-2:1,ocs-partial,ocs-whole,ocs-static|--reconfigDelay=10us|--network=packet|--progress=0|--plot=0|--out=${CMAKE_BINARY_DIR}/jobs-smoke"
                 "-DEXPECT_STDOUT=\nb +1\\.000 +[0-9.]+ +1\\.000 +[0-9.]+ +1\\.000\n"
                 "-DEXISTS=slowdowns.csv|slowdown-cdf.plt|ocs-whole/summary.json|ocs-whole/alone/a/summary.json"
                 -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
# Flags that would do nothing: a delay or a switching mode on a split that never switches, an
# arbitration of a per-port OCS.
photonic_rails_expect_error(example.photonic-rails-sim-static-delay photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--nicPorts=2|--fabric=ocs-static|--reconfigDelay=1ms"
  "\nphotonic-rails-sim: error: --reconfigDelay applies to rails that Opus or its emulation reconfigures, and ocs-static never does \\(but for --onServerFailure=swap\\): add ocs, ocs-provisioning, ocs-oracle, emulated or emulated-provisioning to --fabric\n$")
photonic_rails_expect_error(example.photonic-rails-sim-static-switching photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--nicPorts=2|--fabric=ocs-static|--ocsSwitching=whole-switch"
  "\nphotonic-rails-sim: error: --ocsSwitching applies to optical rails that Opus reconfigures \\(what their OCS darkens to do it\\): add ocs, ocs-provisioning or ocs-oracle to --fabric\n$")
photonic_rails_expect_error(example.photonic-rails-sim-arbitration-per-port photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1|--fabric=ocs|--ns3::OpusController::Arbitration=Batch"
  "\nphotonic-rails-sim: error: --ns3::OpusController::Arbitration[^\n]*per port[^\n]*\n$")
photonic_rails_expect_error(example.photonic-rails-sim-jobs-and-dag photonic-rails-sim
  "--jobs=${pr_jobs_data}/two-rings.json|--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json"
  "^photonic-rails-sim: error: --dag is a workload flag: with --jobs each job names its workload in the jobs file \\(\"workload\"\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sim-jobs-iterations photonic-rails-sim
  "--jobs=${pr_jobs_data}/two-rings.json|--iterations=3"
  "^photonic-rails-sim: error: --iterations: with --jobs each job's replays are its \"iterations\" in the jobs file\n$")
photonic_rails_expect_error(example.photonic-rails-sim-jobs-gpus photonic-rails-sim
  "--jobs=${pr_jobs_data}/two-rings.json"
  "^photonic-rails-sim: error: [^\n]*/two-rings\\.json: job \"a\": its workload has 4 ranks and its 4 servers hold 16 GPUs \\(4 per server\\)\n$")

# The scratch program every scratch/ experiment starts from: all 2 x 3 GPUs finish their
# AllReduce, and a bad flag is one line, not an abort.
add_test(NAME example.scratch-allreduce COMMAND scratch-allreduce --servers=2 --gpusPerServer=3)
set_tests_properties(example.scratch-allreduce PROPERTIES PASS_REGULAR_EXPRESSION
  "ring AllReduce of 1 MiB on 6 GPUs: 6 finished, the last at ")
photonic_rails_expect_error(example.scratch-allreduce-no-servers scratch-allreduce
  "--servers=0" "scratch-allreduce: error: --servers=0 is out of range: servers in \\[1, 64\\]\n$")

# photonic-rails-goodput: the default study (b16 simulated once per fabric on the flow model),
# few campaigns; then a given iteration time, one policy, and one-line errors for bad flags.
add_test(NAME example.photonic-rails-goodput
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-goodput>
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/goodput-smoke
                 "-DARGS=--seeds=3|--weeks=1|--progress=0|--out=${CMAKE_BINARY_DIR}/goodput-smoke"
                 "-DEXPECT_STDOUT=Goodput over 1 weeks, 3 campaigns each\n.*ocs +swap +10\\.923715 .*Interruptions by cause"
                 "-DEXISTS=goodput.csv|interruptions.csv|goodput.plt|runs/eps/summary.json|runs/ocs/summary.json"
                 -DIF_GNUPLOT=goodput.png -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
add_test(NAME example.photonic-rails-goodput-given
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:photonic-rails-goodput>
                 -DWORKDIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}/goodput-smoke-given
                 "-DARGS=--iterationTime=20s|--gpus=1024|--onServerFailure=swap|--fabrics=eps,ocs|--seeds=2|--plot=0|--out=${CMAKE_BINARY_DIR}/goodput-smoke-given"
                 "-DEXPECT_STDOUT=eps +swap +20\\.000000 .*ocs +swap +20\\.000000 "
                 "-DEXISTS=goodput.csv|interruptions.csv" -P ${PROJECT_SOURCE_DIR}/test/expect-files.cmake)
photonic_rails_expect_error(example.photonic-rails-goodput-too-many-failures photonic-rails-goodput
  "--iterationTime=10s|--weeks=520|--gpuFailures=1000|--plot=false"
  "photonic-rails-goodput: error: the failure rates and --weeks draw about [0-9.e+]+ failures per campaign on eps \\(at most 2e\\+07\\): lower the rates, --weeks or --gpus\n$")
photonic_rails_expect_error(example.photonic-rails-goodput-detection-delay photonic-rails-goodput
  "--iterationTime=10s|--detectionDelay=1ms"
  "photonic-rails-goodput: error: --detectionDelay acts on simulated faults, and the goodput study simulates none\n$")
photonic_rails_expect_error(example.photonic-rails-goodput-weeks photonic-rails-goodput
  "--weeks=0|--iterationTime=1s|--out=${CMAKE_BINARY_DIR}/goodput-smoke-bad"
  "^photonic-rails-goodput: error: --weeks=0 is out of range: weeks in \\[0.001, 520\\]\n$")
photonic_rails_expect_error(example.photonic-rails-goodput-fault photonic-rails-goodput
  "--fault=gpu:gpu1@1s|--out=${CMAKE_BINARY_DIR}/goodput-smoke-bad"
  "^photonic-rails-goodput: error: --fault is not for the goodput study: it draws its failures from the per-part rates\n$")
photonic_rails_expect_error(example.photonic-rails-goodput-fabric photonic-rails-goodput
  "--fabrics=eps,emulated|--iterationTime=1s|--out=${CMAKE_BINARY_DIR}/goodput-smoke-bad"
  "^photonic-rails-goodput: error: --fabrics: emulated is not compared")
photonic_rails_expect_error(example.photonic-rails-goodput-rate photonic-rails-goodput
  "--gpuFailures=-1|--iterationTime=1s|--out=${CMAKE_BINARY_DIR}/goodput-smoke-bad"
  "^photonic-rails-goodput: error: --gpuFailures=-1 is out of range")
photonic_rails_expect_error(example.photonic-rails-goodput-gpus photonic-rails-goodput
  "--gpus=1001|--iterationTime=1s|--out=${CMAKE_BINARY_DIR}/goodput-smoke-bad"
  "^photonic-rails-goodput: error: --gpus: ")
photonic_rails_expect_error(example.photonic-rails-goodput-attribute photonic-rails-goodput
  "--ns3::RailTransport::Window=4|--iterationTime=1s|--out=${CMAKE_BINARY_DIR}/goodput-smoke-bad"
  "^photonic-rails-goodput: error: --ns3::RailTransport::Window would change nothing: --iterationTime skips the simulation\n$")

# Issue 31: photonic-rails-sweep. ------------------------------------------------------------
# A cartesian sweep of photonic-rails-sim on test/data/two-phases.json (see
# example.photonic-rails-delay-sweep): at a delay d of 10 and 25 ms, Opus on demand takes
# 20.011 ms + 2 d per iteration (40.011, 70.011 ms) and exposes 3 d over both iterations;
# with provisioning 20.011 ms + d + max(0, d - 10 ms) (30.011, 60.011 ms), exposing 2 d +
# max(0, d - 10 ms) (20, 65 ms; the simulator's 65.000001 is 1 ns of rounding). Rows in point order, the first --vary slowest; --only
# keeps 3 of the 4.
add_test(NAME example.photonic-rails-sweep-closed-form
         COMMAND photonic-rails-sweep --vary=reconfigDelay=10ms,25ms
                 --vary=fabric=ocs,ocs-provisioning
                 --only=reconfigDelay=25ms --only=fabric=ocs --plot=0
                 --out=${CMAKE_BINARY_DIR}/sweep-closed-form --
                 --dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json --gpusPerServer=1
                 --nicPorts=1 --nicRate=100 --iterations=2)
add_test(NAME example.photonic-rails-sweep-closed-form-csv
         COMMAND ${CMAKE_COMMAND} -DFILE=${CMAKE_BINARY_DIR}/sweep-closed-form/sweep.csv
                 "-DPATTERN=^point,state,reconfigDelay,fabric,[^\n]*\n0000,finished,10ms,ocs,[^\n]*,0\.03,[^\n]*,0\.040011[0-9]*,[^\n]*\n0001,finished,25ms,ocs,[^\n]*,0\.075,[^\n]*,0\.070011[0-9]*,[^\n]*\n0002,finished,25ms,ocs-provisioning,[^\n]*,0\.06500000[01],[^\n]*,0\.060011[0-9]*,[^\n]*\n$"
                 -P ${PROJECT_SOURCE_DIR}/test/file-matches.cmake)
set_tests_properties(example.photonic-rails-sweep-closed-form-csv PROPERTIES
                     DEPENDS example.photonic-rails-sweep-closed-form)
# Ctrl-C stops the running point and writes nothing half-way; the same command resumes.
add_test(NAME example.photonic-rails-sweep-resume
         COMMAND sh ${PROJECT_SOURCE_DIR}/test/sweep-resume-test.sh
                 $<TARGET_FILE:photonic-rails-sweep>
                 ${PROJECT_SOURCE_DIR}/test/data/two-phases.json ${CMAKE_BINARY_DIR}/sweep-resume)
# On a real Slurm (a one-node cluster the test starts and stops; skipped where it cannot
# start): the merged CSV equals --workers=1's but for wall times.
add_test(NAME example.photonic-rails-sweep-slurm
         COMMAND bash ${PROJECT_SOURCE_DIR}/test/slurm/sweep-on-slurm.sh
                 $<TARGET_FILE:photonic-rails-sweep> ${PROJECT_SOURCE_DIR}/test/data)
set_tests_properties(example.photonic-rails-sweep-slurm PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 300)
# The presets print the programs' tables (see example.photonic-rails-delay-sweep).
add_test(NAME example.photonic-rails-sweep-preset-delay
         COMMAND photonic-rails-sweep --preset=delay
                 --dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json --gpusPerServer=1
                 --nicPorts=1 --nicRate=100 --iterations=2 --delays=0,10,25 --plot=0
                 --out=${CMAKE_BINARY_DIR}/sweep-preset-delay)
set_tests_properties(example.photonic-rails-sweep-preset-delay PROPERTIES PASS_REGULAR_EXPRESSION
  "25\\.000 +ocs +70\\.011 +[^ ]+ +3 +75\\.000 [^\n]*\n +25\\.000 +ocs-provisioning +60\\.011 +[^ ]+ +3 +65\\.000 .*\nocs +2\\.000 [^\n]*\nocs-provisioning +1\\.632 ")
# --merge on a preset's folder (its sweep.json): the baseline has no delay, an empty cell.
add_test(NAME example.photonic-rails-sweep-preset-merge
         COMMAND photonic-rails-sweep --merge --plot=0
                 --out=${CMAKE_BINARY_DIR}/sweep-preset-delay)
set_tests_properties(example.photonic-rails-sweep-preset-merge PROPERTIES
                     DEPENDS example.photonic-rails-sweep-preset-delay
                     PASS_REGULAR_EXPRESSION "sweep [^\n]*: 7 of 7 points finished, 0 failed, 0 not run\n")
add_test(NAME example.photonic-rails-sweep-preset-merge-csv
         COMMAND ${CMAKE_COMMAND} -DFILE=${CMAKE_BINARY_DIR}/sweep-preset-delay/sweep.csv
                 "-DPATTERN=^point,state,fabric,delay_ms,[^\n]*\neps,finished,eps,,[^\n]*\nocs-0ms,finished,ocs,0,[^\n]*\n[^\n]*\n[^\n]*\n[^\n]*\nocs-25ms,finished,ocs,25,"
                 -P ${PROJECT_SOURCE_DIR}/test/file-matches.cmake)
set_tests_properties(example.photonic-rails-sweep-preset-merge-csv PROPERTIES
                     DEPENDS example.photonic-rails-sweep-preset-merge)
add_test(NAME example.photonic-rails-sweep-preset-fault
         COMMAND photonic-rails-sweep --preset=fault
                 --dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json --gpusPerServer=1
                 --failGpu=0 --fabrics=eps --plot=0 --out=${CMAKE_BINARY_DIR}/sweep-preset-fault)
set_tests_properties(example.photonic-rails-sweep-preset-fault PROPERTIES PASS_REGULAR_EXPRESSION
  "eps +none +- +0\\.020010 +- +-\neps +nic +nic:gpu0\\.port0@1s-1100ms +0\\.020010 +0\\.000 +0\\.000\neps +switch +switch:rail0@1s-1100ms +0\\.020010 +0\\.000 +0\\.000\n")
# One-line errors for what the sweep cannot run.
set(pr_sweep_job "--|--dag=${PROJECT_SOURCE_DIR}/test/data/two-phases.json|--gpusPerServer=1")
photonic_rails_expect_error(example.photonic-rails-sweep-nothing-varies photonic-rails-sweep
  "--out=${CMAKE_BINARY_DIR}/sweep-errors|${pr_sweep_job}"
  "^photonic-rails-sweep: error: nothing varies: give --vary=flag=value1,value2 \\(or a sweep file's \"vary\"\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-vary-out photonic-rails-sweep
  "--vary=out=a,b"
  "^photonic-rails-sweep: error: --out is the sweep's: each point writes in its own run folder\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-vary-twice photonic-rails-sweep
  "--vary=fabric=eps,ocs|--vary=fabric=eps-clos"
  "^photonic-rails-sweep: error: --fabric is varied twice \\(give one --vary per flag\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-same-value photonic-rails-sweep
  "--vary=fabric=eps,eps"
  "^photonic-rails-sweep: error: --vary fabric: 'eps' is given twice\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-skip-typo photonic-rails-sweep
  "--vary=fabric=eps,ocs|--skip=fabric=epz"
  "^photonic-rails-sweep: error: --skip 'fabric=epz': --fabric takes no value 'epz' here\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-skip-all photonic-rails-sweep
  "--vary=fabric=eps,ocs|--only=fabric!=eps,fabric!=ocs"
  "^photonic-rails-sweep: error: the filters leave no point to run\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-varied-and-fixed photonic-rails-sweep
  "--vary=fabric=eps,ocs|--|--fabric=eps"
  "^photonic-rails-sweep: error: --fabric is both varied and set for every point\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-slurm-workers photonic-rails-sweep
  "--vary=fabric=eps,ocs|--slurm|--workers=2"
  "^photonic-rails-sweep: error: --workers is for points run here: Slurm places the tasks\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-mem-semicolon photonic-rails-sweep
  "--vary=fabric=eps,ocs|--slurm|--mem=4G#x"
  "^photonic-rails-sweep: error: --mem '4G#x': one sbatch value, without blanks or quotes\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-partition-alone photonic-rails-sweep
  "--vary=fabric=eps,ocs|--partition=gpu"
  "^photonic-rails-sweep: error: --partition is for --slurm\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-merge-nothing photonic-rails-sweep
  "--merge|--out=${CMAKE_BINARY_DIR}/sweep-no-such-folder"
  "^photonic-rails-sweep: error: [^\n]*sweep-no-such-folder: no sweep here \\(no sweep\\.json\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-bad-preset photonic-rails-sweep
  "--preset=delays"
  "^photonic-rails-sweep: error: --preset takes delay or fault\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-bad-point photonic-rails-sweep
  "--vary=fabric=eps,ocs|--points=2|--out=${CMAKE_BINARY_DIR}/sweep-bad-point|${pr_sweep_job}"
  "^photonic-rails-sweep: error: --points '2': the sweep's points are 0 to 1 \\(or their folders' names\\)\n$")
photonic_rails_expect_error(example.photonic-rails-sweep-delay-jobs photonic-rails-delay-sweep
  "--jobs=2"
  "^photonic-rails-delay-sweep: error: --jobs is gone: use --workers \\(runs at once\\)\n$")
# A run that cannot finish writes what it finished: test/data/ring-allreduce-four.json on
# one-GPU servers (one rail, one switch) whose switch dies for good at 10 us. Each rank's
# only op is the all-reduce, which needs every rank's data: no op ends (ops_finished 0), and
# of the 16 MiB sent only what crossed the switch in its 10 us arrived.
photonic_rails_expect_error(example.photonic-rails-sim-stuck-summary photonic-rails-sim
  "--dag=${PROJECT_SOURCE_DIR}/test/data/ring-allreduce-four.json|--gpusPerServer=1|--fabric=eps|--fault=switch:rail0@10us|--out=${CMAKE_BINARY_DIR}/sim-stuck-summary"
  "\\[sim\\] eps: what the run finished is in [^\n]*sim-stuck-summary/ \\(summary\\.json: \"finished\": false\\)\nphotonic-rails-sim: error: the simulation is stuck after [^\n]*\n$")
add_test(NAME example.photonic-rails-sim-stuck-summary-json
         COMMAND ${CMAKE_COMMAND} -DFILE=${CMAKE_BINARY_DIR}/sim-stuck-summary/summary.json
                 "-DPATTERN=^{\n  \"finished\": false,\n  \"stuck\": \"the simulation is stuck after [^\n]*\",\n  \"ops_finished\": 0,\n[^$]*\"bytes_sent\": 16777216,\n  \"bytes_delivered\": [0-9]+,"
                 -P ${PROJECT_SOURCE_DIR}/test/file-matches.cmake)
set_tests_properties(example.photonic-rails-sim-stuck-summary-json PROPERTIES
                     DEPENDS example.photonic-rails-sim-stuck-summary)

# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# SPDX-License-Identifier: GPL-2.0-only
# Legacy waf build for ns-3 <= 3.35 trees. ns-3.36+ read CMakeLists.txt instead.
# These lists must equal CMakeLists.txt's: test/check-wscript-lists.cmake checks it.


def configure(conf):
    # Chakra traces are optional: without protobuf the rest builds and a program asked for
    # Chakra says what to install (CMakeLists.txt does the same).
    conf.env['PR_HAVE_CHAKRA'] = bool(
        conf.check_cfg(package='protobuf', uselib_store='PROTOBUF', args=['--cflags', '--libs'],
                       mandatory=False) and conf.find_program('protoc', mandatory=False))
    if not conf.env['PR_HAVE_CHAKRA']:
        conf.msg('photonic-rails: Chakra traces', 'left out, built without protobuf: apt-get '
                 'install libprotobuf-dev protobuf-compiler', color='YELLOW')
    conf.check_cfg(package='zlib', uselib_store='ZLIB', args=['--cflags', '--libs'],
                   mandatory=True)
    conf.check_cfg(package='nlohmann_json', uselib_store='NLOHMANN_JSON', args=['--cflags'],
                   mandatory=True, msg='nlohmann-json (apt-get install nlohmann-json3-dev)')
    conf.check_cfg(package='gtest', uselib_store='GTEST', args=['--cflags', '--libs'],
                   mandatory=True, msg='GoogleTest (apt-get install libgtest-dev)')


def build(bld):
    module = bld.create_ns3_module('photonic-rails', ['core', 'network'])
    module.source = [
        # model/common
        'model/common/csv-field.cc',
        'model/common/input-text.cc',
        'model/common/json-input.cc',
        'model/common/line-rate.cc',
        'model/common/simulation-horizon.cc',
        # model/dag
        'model/dag/workload-dag.cc',
        'model/dag/workload-error.cc',
        # model/devices
        'model/devices/ecn-mark-tag.cc',
        'model/devices/eps-channel.cc',
        'model/devices/eps-net-device.cc',
        'model/devices/ocs-circuit-table.cc',
        'model/devices/ocs-net-device.cc',
        'model/devices/ocs-technology.cc',
        'model/devices/optical-circuit-switch.cc',
        'model/devices/rail-net-device.cc',
        # model/switches
        'model/switches/eps-routing.cc',
        'model/switches/eps-switch.cc',
        # model/network
        'model/network/message-transport.cc',
        'model/network/rail-fabric-spec.cc',
        'model/network/rail-network.cc',
        'model/network/rail-topology.cc',
        'model/network/rail-transport-header.cc',
        # model/packet
        'model/packet/dcqcn-rate-controller.cc',
        'model/packet/rail-detour.cc',
        'model/packet/rail-endpoints.cc',
        'model/packet/rail-fabric.cc',
        'model/packet/rail-transport.cc',
        'model/packet/rail-sender.cc',
        'model/packet/rail-failover.cc',
        'model/packet/rail-receiver.cc',
        'model/packet/rail-relay.cc',
        # model/flow
        'model/flow/flow-fabric.cc',
        'model/flow/flow-fault-state.cc',
        'model/flow/flow-network.cc',
        'model/flow/flow-rate-solver.cc',
        'model/flow/flow-transport.cc',
        # model/collective
        'model/collective/collective-algorithm-registry.cc',
        'model/collective/collective-communicator.cc',
        'model/collective/collective-plan.cc',
        'model/collective/collective-plan-alltoall.cc',
        'model/collective/collective-plan-builder.cc',
        'model/collective/collective-plan-chain.cc',
        'model/collective/collective-plan-dissemination.cc',
        'model/collective/collective-plan-halving-doubling.cc',
        'model/collective/collective-plan-ring.cc',
        'model/collective/collective-plan-tree.cc',
        'model/collective/collective-starter.cc',
        'model/collective/rank-runtime.cc',
        # model/workload
        'model/workload/workload-estimator.cc',
        'model/workload/workload-generator.cc',
        'model/workload/workload-json.cc',
        'model/workload/workload-model-spec.cc',
        'model/workload/workload-phase-log.cc',
        'model/workload/workload-pipeline-schedule.cc',
        'model/workload/workload-rank-program.cc',
        'model/workload/workload-summary.cc',
        'model/workload/workload-timeline.cc',
        'model/workload/workload-validator.cc',
        'model/workload/workload-window-cdf.cc',
        'model/workload/workload-windows.cc',
        # model/chakra
        'model/chakra/chakra-comm-groups.cc',
        'model/chakra/chakra-node.cc',
        'model/chakra/chakra-pairing.cc',
        'model/chakra/chakra-reader.cc',
        'model/chakra/chakra-trace-file.cc',
        'model/chakra/chakra-writer.cc',
        # model/opus
        'model/opus/opus-control-plane.cc',
        'model/opus/opus-controller.cc',
        'model/opus/opus-demand.cc',
        'model/opus/opus-port-assigner.cc',
        'model/opus/opus-reconfiguration-batcher.cc',
        'model/opus/opus-shim.cc',
        'model/opus/opus-testbed-emulator.cc',
        # model/analysis
        'model/analysis/goodput-model.cc',
        'model/analysis/opus-cost-model.cc',
        'model/analysis/opus-phase-replay.cc',
        'model/analysis/testbed-measurements.cc',
        # helper
        'helper/circuit-recorder.cc',
        'helper/collective-helper.cc',
        'helper/eps-helper.cc',
        'helper/flow-fabric-helper.cc',
        'helper/ocs-helper.cc',
        'helper/opus-helper.cc',
        'helper/rail-fabric-helper.cc',
        'helper/rank-runtime-helper.cc',
        # harness
        'harness/attribute-audit.cc',
        'harness/attribute-value-text.cc',
        'harness/child-processes.cc',
        'harness/controller-failover.cc',
        'harness/delay-ms-list.cc',
        'harness/delay-sweep-preset.cc',
        'harness/experiment-output.cc',
        'harness/fault-injector.cc',
        'harness/fault-schedule.cc',
        'harness/fault-sweep-preset.cc',
        'harness/folder-lock.cc',
        'harness/job-attribution.cc',
        'harness/job-builder.cc',
        'harness/job-mix.cc',
        'harness/job-placement.cc',
        'harness/job-recorder.cc',
        'harness/job-report.cc',
        'harness/job-restarts.cc',
        'harness/job-runner.cc',
        'harness/restart-planner.cc',
        'harness/restart-policy.cc',
        'harness/job-workload.cc',
        'harness/jobs-file.cc',
        'harness/network-model-registry.cc',
        'harness/slurm-array.cc',
        'harness/strict-command-line.cc',
        'harness/sweep-driver.cc',
        'harness/sweep-plan.cc',
        'harness/sweep-progress.cc',
        'harness/sweep-runner.cc',
        'harness/sweep-table.cc',
        'harness/text-table.cc',
        'harness/workload-format-registry.cc',
        'harness/workload-generator-flags.cc',
    ]

    module.use.extend(['ZLIB', 'NLOHMANN_JSON'])
    if bld.env['PR_HAVE_CHAKRA']:
        # Chakra's messages: protoc writes chakra-et.pb.{h,cc} beside the other build outputs.
        bld(rule='protoc --cpp_out=${TGT[0].parent.abspath()} -I${SRC[0].parent.abspath()} '
                 '${SRC[0].abspath()}',
            source='model/chakra/chakra-et.proto',
            target=['model/chakra-et.pb.cc', 'model/chakra-et.pb.h'])
        module.source.append('model/chakra-et.pb.cc')
        module.includes = ['model']
        module.use.append('PROTOBUF')
        module.defines = ['PR_HAVE_CHAKRA']
    else:
        for source in ['model/chakra/chakra-node.cc', 'model/chakra/chakra-trace-file.cc']:
            module.source.remove(source)

    module_test = bld.create_ns3_module_test_library('photonic-rails')
    module_test.source = [
        'test/ocs-circuit-test-suite.cc',
        'test/ocs-circuit-table-test-suite.cc',
        'test/ocs-reconfiguration-test-suite.cc',
        'test/eps-link-test-suite.cc',
        'test/eps-switch-test-suite.cc',
        'test/rail-transport-optical-test-suite.cc',
        'test/rail-fabric-test-suite.cc',
        'test/collective-test-suite.cc',
        'test/chakra-test-suite.cc',
        'test/faults-test-suite.cc',
        'test/flow-faults-test-suite.cc',
        'test/job-mix-test-suite.cc',
        'test/restarts-test-suite.cc',
        'test/flow-model-test-suite.cc',
        'test/message-transport-test-suite.cc',
        'test/opus-emulation-test-suite.cc',
        'test/opus-test-suite.cc',
        'test/googletest-test-suite.cc',
    ]
    # The GoogleTests, which the suite photonic-rails-googletest runs.
    gtest_sources = [
        'test/gtest/attribute-audit-test.cc',
        'test/gtest/attribute-value-text-test.cc',
        'test/gtest/chakra-test.cc',
        'test/gtest/collective-plan-test.cc',
        'test/gtest/controller-failover-test.cc',
        'test/gtest/dcqcn-rate-controller-test.cc',
        'test/gtest/eps-switch-buffer-test.cc',
        'test/gtest/delay-ms-list-test.cc',
        'test/gtest/fault-schedule-test.cc',
        'test/gtest/flow-rate-solver-test.cc',
        'test/gtest/goodput-model-test.cc',
        'test/gtest/input-text-test.cc',
        'test/gtest/job-mix-test.cc',
        'test/gtest/json-input-test.cc',
        'test/gtest/line-rate-test.cc',
        'test/gtest/network-model-registry-test.cc',
        'test/gtest/ocs-technology-test.cc',
        'test/gtest/opus-cost-model-test.cc',
        'test/gtest/opus-demand-test.cc',
        'test/gtest/opus-phase-replay-test.cc',
        'test/gtest/opus-port-assigner-test.cc',
        'test/gtest/phase-log-bounds-test.cc',
        'test/gtest/rail-fabric-spec-test.cc',
        'test/gtest/rail-topology-test.cc',
        'test/gtest/restart-planner-test.cc',
        'test/gtest/simulation-horizon-test.cc',
        'test/gtest/strict-command-line-test.cc',
        'test/gtest/sweep-plan-test.cc',
        'test/gtest/testbed-measurements-test.cc',
        'test/gtest/text-table-test.cc',
        'test/gtest/workload-format-registry-test.cc',
        'test/gtest/workload-format-test.cc',
        'test/gtest/workload-generator-test.cc',
        'test/gtest/workload-model-spec-test.cc',
        'test/gtest/workload-window-cdf-test.cc',
        'test/gtest/workload-windows-test.cc',
    ]
    if not bld.env['PR_HAVE_CHAKRA']:
        module_test.source.remove('test/chakra-test-suite.cc')
        gtest_sources.remove('test/gtest/chakra-test.cc')
    module_test.source.extend(gtest_sources)
    module_test.use.append('GTEST')
    module_test.defines = ['PR_SOURCE_DIR="%s"' % bld.path.abspath()]

    headers = bld(features='ns3header')
    headers.module = 'photonic-rails'
    headers.source = [
        # model/common
        'model/common/attribute-default.h',
        'model/common/csv-field.h',
        'model/common/input-text.h',
        'model/common/json-input.h',
        'model/common/line-rate.h',
        'model/common/simulation-horizon.h',
        'model/common/splitmix-hash.h',
        # model/dag
        'model/dag/workload-dag.h',
        'model/dag/workload-error.h',
        # model/devices
        'model/devices/ecn-mark-tag.h',
        'model/devices/eps-channel.h',
        'model/devices/eps-net-device.h',
        'model/devices/ocs-circuit-table.h',
        'model/devices/ocs-net-device.h',
        'model/devices/ocs-technology.h',
        'model/devices/optical-circuit-switch.h',
        'model/devices/rail-net-device.h',
        # model/switches
        'model/switches/eps-routing.h',
        'model/switches/eps-switch.h',
        # model/network
        'model/network/message-transport.h',
        'model/network/rail-fabric-spec.h',
        'model/network/rail-network.h',
        'model/network/rail-topology.h',
        'model/network/rail-transport-header.h',
        # model/packet
        'model/packet/dcqcn-rate-controller.h',
        'model/packet/rail-detour.h',
        'model/packet/rail-endpoints.h',
        'model/packet/rail-fabric.h',
        'model/packet/rail-transport.h',
        'model/packet/rail-sender.h',
        'model/packet/rail-failover.h',
        'model/packet/rail-receiver.h',
        'model/packet/rail-relay.h',
        # model/flow
        'model/flow/flow-fabric.h',
        'model/flow/flow-fault-state.h',
        'model/flow/flow-network.h',
        'model/flow/flow-rate-solver.h',
        'model/flow/flow-transport.h',
        # model/collective
        'model/collective/collective-algorithm-registry.h',
        'model/collective/collective-communicator.h',
        'model/collective/collective-plan.h',
        'model/collective/collective-plan-alltoall.h',
        'model/collective/collective-plan-builder.h',
        'model/collective/collective-plan-chain.h',
        'model/collective/collective-plan-dissemination.h',
        'model/collective/collective-plan-halving-doubling.h',
        'model/collective/collective-plan-ring.h',
        'model/collective/collective-plan-tree.h',
        'model/collective/collective-starter.h',
        'model/collective/rank-runtime.h',
        # model/workload
        'model/workload/workload-estimator.h',
        'model/workload/workload-generator.h',
        'model/workload/workload-json.h',
        'model/workload/workload-model-spec.h',
        'model/workload/workload-phase-log.h',
        'model/workload/workload-pipeline-schedule.h',
        'model/workload/workload-rank-program.h',
        'model/workload/workload-summary.h',
        'model/workload/workload-timeline.h',
        'model/workload/workload-validator.h',
        'model/workload/workload-window-cdf.h',
        'model/workload/workload-windows.h',
        # model/chakra
        'model/chakra/chakra-comm-groups.h',
        'model/chakra/chakra-node.h',
        'model/chakra/chakra-pairing.h',
        'model/chakra/chakra-reader.h',
        'model/chakra/chakra-trace-file.h',
        'model/chakra/chakra-writer.h',
        # model/opus
        'model/opus/opus-control-plane.h',
        'model/opus/opus-controller.h',
        'model/opus/opus-demand.h',
        'model/opus/opus-port-assigner.h',
        'model/opus/opus-reconfiguration-batcher.h',
        'model/opus/opus-shim.h',
        'model/opus/opus-testbed-emulator.h',
        # model/analysis
        'model/analysis/goodput-model.h',
        'model/analysis/opus-cost-model.h',
        'model/analysis/opus-phase-replay.h',
        'model/analysis/testbed-measurements.h',
        # helper
        'helper/circuit-recorder.h',
        'helper/collective-helper.h',
        'helper/eps-helper.h',
        'helper/flow-fabric-helper.h',
        'helper/ocs-helper.h',
        'helper/opus-helper.h',
        'helper/rail-fabric-helper.h',
        'helper/rail-trace-helper.h',
        'helper/rank-runtime-helper.h',
        # harness
        'harness/attribute-audit.h',
        'harness/attribute-value-text.h',
        'harness/child-processes.h',
        'harness/controller-failover.h',
        'harness/delay-ms-list.h',
        'harness/delay-sweep-preset.h',
        'harness/experiment-output.h',
        'harness/fault-injector.h',
        'harness/fault-schedule.h',
        'harness/fault-sweep-preset.h',
        'harness/folder-lock.h',
        'harness/job-attribution.h',
        'harness/job-builder.h',
        'harness/job-mix.h',
        'harness/job-placement.h',
        'harness/job-recorder.h',
        'harness/job-report.h',
        'harness/job-restarts.h',
        'harness/job-runner.h',
        'harness/restart-planner.h',
        'harness/restart-policy.h',
        'harness/job-workload.h',
        'harness/jobs-file.h',
        'harness/network-model-registry.h',
        'harness/slurm-array.h',
        'harness/strict-command-line.h',
        'harness/sweep-driver.h',
        'harness/sweep-plan.h',
        'harness/sweep-progress.h',
        'harness/sweep-runner.h',
        'harness/sweep-table.h',
        'harness/text-table.h',
        'harness/workload-format-registry.h',
        'harness/workload-generator-flags.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')

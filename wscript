# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# Legacy waf build for ns-3 <= 3.35 trees. ns-3.36+ read CMakeLists.txt instead.
# These lists must equal CMakeLists.txt's: test/check-wscript-lists.cmake checks it.


def configure(conf):
    conf.check_cfg(package='protobuf', uselib_store='PROTOBUF', args=['--cflags', '--libs'],
                   mandatory=True)


def build(bld):
    module = bld.create_ns3_module('photonic-rails', ['core', 'network'])
    module.source = [
        'model/line-rate.cc',
        'model/rail-net-device.cc',
        'model/ocs-technology.cc',
        'model/optical-circuit-switch.cc',
        'model/ocs-net-device.cc',
        'helper/ocs-helper.cc',
        'model/ecn-mark-tag.cc',
        'model/eps-channel.cc',
        'model/eps-net-device.cc',
        'model/eps-switch.cc',
        'helper/eps-helper.cc',
        'helper/rail-fabric-helper.cc',
        'model/dcqcn-rate-controller.cc',
        'model/rail-endpoints.cc',
        'model/rail-transport-header.cc',
        'model/rail-transport.cc',
        'model/rail-fabric-spec.cc',
        'model/workload-dag.cc',
        'model/chakra-trace-file.cc',
        'model/chakra-comm-groups.cc',
        'model/chakra-reader.cc',
        'model/chakra-writer.cc',
        'model/workload-json.cc',
        'model/workload-validator.cc',
        'model/workload-model-spec.cc',
        'model/workload-generator.cc',
        'model/workload-windows.cc',
        'model/testbed-measurements.cc',
        'model/workload-window-cdf.cc',
        'model/workload-phase-log.cc',
        'model/workload-error.cc',
        'model/input-text.cc',
        'model/workload-pipeline-schedule.cc',
        'model/workload-timeline.cc',
        'model/workload-estimator.cc',
        'model/workload-summary.cc',
        'model/collective-plan.cc',
        'model/collective-communicator.cc',
        'model/rank-runtime.cc',
        'model/simulation-horizon.cc',
        'helper/circuit-recorder.cc',
        'helper/collective-helper.cc',
        'helper/rank-runtime-helper.cc',
        'helper/experiment-output.cc',
        'helper/text-table.cc',
        'helper/job-recorder.cc',
        'helper/job-runner.cc',
        'helper/job-workload.cc',
        'helper/opus-helper.cc',
        'helper/strict-command-line.cc',
        'helper/delay-ms-list.cc',
        'helper/workload-generator-flags.cc',
        'model/opus-cost-model.cc',
        'model/opus-control-plane.cc',
        'model/opus-controller.cc',
        'model/opus-demand.cc',
        'model/opus-shim.cc',
        'model/opus-testbed-emulator.cc',
        'model/opus-phase-replay.cc',
    ]

    # Chakra's messages: protoc writes chakra-et.pb.{h,cc} beside the other build outputs.
    bld(rule='protoc --cpp_out=${TGT[0].parent.abspath()} -I${SRC[0].parent.abspath()} '
             '${SRC[0].abspath()}',
        source='model/chakra-et.proto',
        target=['model/chakra-et.pb.cc', 'model/chakra-et.pb.h'])
    module.source.append('model/chakra-et.pb.cc')
    module.includes = ['model']
    module.use.append('PROTOBUF')

    module_test = bld.create_ns3_module_test_library('photonic-rails')
    module_test.source = [
        'test/ocs-circuit-test-suite.cc',
        'test/ocs-reconfiguration-test-suite.cc',
        'test/eps-link-test-suite.cc',
        'test/eps-switch-test-suite.cc',
        'test/rail-transport-optical-test-suite.cc',
        'test/rail-fabric-test-suite.cc',
        'test/collective-test-suite.cc',
        'test/chakra-test-suite.cc',
        'test/opus-emulation-test-suite.cc',
        'test/opus-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'photonic-rails'
    headers.source = [
        'model/line-rate.h',
        'model/rail-net-device.h',
        'model/ocs-technology.h',
        'model/optical-circuit-switch.h',
        'model/ocs-net-device.h',
        'helper/ocs-helper.h',
        'helper/rail-trace-helper.h',
        'model/ecn-mark-tag.h',
        'model/eps-channel.h',
        'model/eps-net-device.h',
        'model/eps-switch.h',
        'helper/eps-helper.h',
        'helper/rail-fabric-helper.h',
        'model/dcqcn-rate-controller.h',
        'model/rail-endpoints.h',
        'model/rail-transport-header.h',
        'model/rail-transport.h',
        'model/rail-fabric-spec.h',
        'model/workload-dag.h',
        'model/chakra-trace-file.h',
        'model/chakra-comm-groups.h',
        'model/chakra-reader.h',
        'model/chakra-writer.h',
        'model/workload-json.h',
        'model/workload-validator.h',
        'model/workload-model-spec.h',
        'model/workload-generator.h',
        'model/workload-windows.h',
        'model/testbed-measurements.h',
        'model/workload-window-cdf.h',
        'model/workload-phase-log.h',
        'model/workload-error.h',
        'model/input-text.h',
        'model/workload-pipeline-schedule.h',
        'model/workload-timeline.h',
        'model/workload-estimator.h',
        'model/workload-summary.h',
        'model/collective-plan.h',
        'model/collective-communicator.h',
        'model/rank-runtime.h',
        'model/simulation-horizon.h',
        'helper/circuit-recorder.h',
        'helper/collective-helper.h',
        'helper/rank-runtime-helper.h',
        'helper/experiment-output.h',
        'helper/text-table.h',
        'helper/job-recorder.h',
        'helper/job-runner.h',
        'helper/job-workload.h',
        'helper/opus-helper.h',
        'helper/strict-command-line.h',
        'helper/delay-ms-list.h',
        'helper/workload-generator-flags.h',
        'model/opus-cost-model.h',
        'model/opus-control-plane.h',
        'model/opus-controller.h',
        'model/opus-demand.h',
        'model/opus-shim.h',
        'model/opus-testbed-emulator.h',
        'model/opus-phase-replay.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')

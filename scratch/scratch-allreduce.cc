/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A starting point for an experiment: every scratch/<name>.cc is built as the program
// build/bin/<name> ('./rails run scratch-allreduce'). This one runs a ring AllReduce of
// 1 MiB among the GPUs of a rail-optimized fabric (two 4-GPU servers by default, one
// 400 G NIC port per GPU: RailFabricSpec's defaults) and prints when the last GPU finished.
// RunProgram gives it strict flags, --help, and one-line errors instead of aborts.

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"

#include <iostream>
#include <numeric>

using namespace ns3;

namespace
{

int
Run(RailFabricSpec spec)
{
    RailFabricHelper helper;
    helper.SetSpec(spec);
    Ptr<RailFabric> fabric = helper.Build();
    auto communicators = CollectiveHelper().Install(fabric);

    CollectiveCall allreduce;
    allreduce.type = WorkloadOpType::ALLREDUCE;
    allreduce.instance = "scratch-allreduce";
    allreduce.bytes = 1 << 20;
    allreduce.algorithm = WorkloadAlgorithm::RING;
    allreduce.members.resize(communicators.size());
    std::iota(allreduce.members.begin(), allreduce.members.end(), 0);
    uint32_t done = 0;
    Time last;
    for (auto& communicator : communicators)
    {
        communicator->Start(allreduce, Callback<void>([&done, &last]() {
                                ++done;
                                last = Simulator::Now();
                            }));
    }
    Simulator::Run();
    std::cout << "ring AllReduce of 1 MiB on " << communicators.size() << " GPUs: " << done
              << " finished, the last at " << last.As(Time::US) << "\n";
    Simulator::Destroy();
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    RailFabricSpec spec;
    spec.servers = 2;
    spec.gpusPerServer = 4;
    auto flags = [&spec](StrictCommandLine& cmd) {
        cmd.Add("servers", "servers", spec.servers, FlagRange(1, 64, "servers"));
        cmd.Add("gpusPerServer",
                "GPUs (and rails) per server",
                spec.gpusPerServer,
                FlagRange(1, 8, "GPUs per server"));
    };
    auto run = [&spec](const StrictCommandLine&) { return Run(spec); };
    return RunProgram(argc, argv, "scratch-allreduce", __FILE__, "A ring AllReduce", flags, run);
}

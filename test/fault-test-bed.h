/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Jobs under faults, for the fault suites of both network models: small DAGs, and a run of a
 * job under an inline fault schedule, assembled as the programs assemble it.
 */

#ifndef FAULT_TEST_BED_H
#define FAULT_TEST_BED_H

#include "job-test-bed.h"

#include "ns3/fault-injector.h"
#include "ns3/rail-transport.h"

#include <sstream>
#include <string>

namespace ns3
{
namespace tests
{

/// An op of \p rank: a collective on \p group, or a send or receive with \p peer.
inline WorkloadOp
JobOp(uint32_t rank,
      uint32_t id,
      WorkloadOpType type,
      uint64_t bytes,
      const std::string& group,
      int64_t peer = -1,
      int64_t tag = 0)
{
    WorkloadOp op;
    op.rank = rank;
    op.id = id;
    op.type = type;
    op.bytes = bytes;
    op.group = group;
    op.peer = peer;
    op.tag = tag;
    op.deps = id == 0 ? std::vector<uint32_t>{} : std::vector<uint32_t>{id - 1};
    op.algorithm = WorkloadAlgorithm::RING;
    return op;
}

/// A ring all-reduce of \p bytes on \p ranks ranks.
inline WorkloadDag
RingAllReduce(uint32_t ranks, uint64_t bytes)
{
    std::vector<WorkloadOp> ops;
    std::vector<uint32_t> all;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        ops.push_back(JobOp(r, 0, WorkloadOpType::ALLREDUCE, bytes, "all"));
        all.push_back(r);
    }
    return WorkloadDag(ranks, {{"all", all}}, ops);
}

/// An exchange (all-to-all, the default algorithm) of \p bytes by \p rank on \p group.
inline WorkloadOp
Exchange(uint32_t rank, uint32_t id, uint64_t bytes, const std::string& group)
{
    WorkloadOp op = JobOp(rank, id, WorkloadOpType::ALLTOALL, bytes, group);
    op.algorithm = WorkloadAlgorithm::UNSPECIFIED;
    return op;
}

/**
 * Three servers of two GPUs (one NIC port each on optical rails): GPUs 0 and 2 exchange
 * 32 MiB, then GPUs 2 and 4 128 KiB; GPUs 1 and 3 exchange 64 MiB meanwhile. A failure of
 * GPU 1's port makes the pair (1, 3) detour over rail 0, where (0, 2) and (2, 4) need GPU
 * 2's only port too.
 */
inline WorkloadDag
DetourCircuitJob()
{
    return WorkloadDag(6,
                       {{"dp0", {0, 2}}, {"dp1", {1, 3}}, {"pp", {2, 4}}},
                       {Exchange(0, 0, 32 << 20, "dp0"),
                        Exchange(2, 0, 32 << 20, "dp0"),
                        Exchange(2, 1, 128 << 10, "pp"),
                        Exchange(4, 0, 128 << 10, "pp"),
                        Exchange(1, 0, 64 << 20, "dp1"),
                        Exchange(3, 0, 64 << 20, "dp1")});
}

/// What a job under faults did.
struct FaultRun
{
    bool finished{false};       //!< Every rank ran every op
    double makespanNs{0};       //!< The job's end
    uint64_t bytesSent{0};      //!< By the communicators
    uint64_t bytesDelivered{0}; //!< Payload delivered at final GPUs, frame by frame
    Time recovery;              //!< FaultInjector::GetRecovery (zero without faults)
    uint64_t pendingLines{0};   //!< Opus's lines about waiting requests and relayed pairs
    double lastActivityNs{0};   //!< The transports' last frame or timeout
};

/// Where RunUnderFaults stops a simulation that would never stop by itself (a livelock).
inline const Time HORIZON = Seconds(10);

/// \return what \p run left undone: "" if every rank finished, every byte sent was delivered
/// once and Opus has nothing waiting or relaying
inline std::string
Undone(const FaultRun& run)
{
    std::ostringstream what;
    if (!run.finished)
    {
        what << "ranks did not finish; ";
    }
    if (run.bytesDelivered != run.bytesSent)
    {
        what << run.bytesDelivered << " of " << run.bytesSent << " bytes delivered; ";
    }
    if (run.pendingLines > 0)
    {
        what << run.pendingLines << " Opus lines pending";
    }
    return what.str();
}

/**
 * Runs \p dag on fabric \p fabric (a --fabric name) of \p spec, assembled as the programs
 * assemble it (Opus reconfigures in \p delay), under the inline \p faults ("": none), on the
 * network model \p network.
 */
inline FaultRun
RunUnderFaults(const RailFabricSpec& spec,
               const std::string& fabric,
               const WorkloadDag& dag,
               const std::string& faults,
               Time delay = MicroSeconds(1),
               const std::string& network = "packet")
{
    JobBuilder builder = JobBed::Builder(spec, fabric);
    builder.SetNetworkModel(network);
    builder.SetReconfigurationDelay(delay);
    Job job = builder.Build(std::make_shared<const WorkloadDag>(dag));
    JobRecorder recorder;
    recorder.Attach(job.runtimes, dag.GetIterationCount(), 1);
    std::unique_ptr<FaultInjector> injector;
    if (!faults.empty())
    {
        injector = std::make_unique<FaultInjector>(job.network, FaultSchedule::Read("", faults));
        injector->Schedule();
    }
    Simulator::Stop(HORIZON);
    Simulator::Run();
    FaultRun run;
    run.finished = AllRanksFinished(job.runtimes);
    run.makespanNs = recorder.GetMakespan() * 1e9;
    for (uint32_t gpu = 0; gpu < job.network->GetGpus().GetN(); ++gpu)
    {
        run.bytesSent += job.communicators[gpu]->GetCounters().bytesSent;
        run.bytesDelivered +=
            job.network->GetMessageTransport(gpu)->GetMessageCounters().payloadBytesDelivered;
        if (auto transport = DynamicCast<RailTransport>(job.network->GetMessageTransport(gpu)))
        {
            run.lastActivityNs =
                std::max(run.lastActivityNs, transport->GetLastActivity().GetNanoSeconds() * 1.0);
        }
    }
    if (injector)
    {
        auto records = job.controlPlane ? job.controlPlane->GetReconfigurations()
                                        : std::vector<OpusReconfigurationRecord>();
        run.recovery = injector->GetRecovery(Seconds(recorder.GetMakespan()), records);
    }
    run.pendingLines = job.controlPlane ? job.controlPlane->DescribePending().size() : 0;
    Simulator::Destroy();
    return run;
}

} // namespace tests
} // namespace ns3

#endif /* FAULT_TEST_BED_H */

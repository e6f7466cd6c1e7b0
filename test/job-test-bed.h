/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The job-level suites' beds (collective, opus): jobs assembled by JobBuilder, as the
 * programs' are, and what they observe of rank runtimes (when every op ended, whether every
 * rank finished).
 */

#ifndef JOB_TEST_BED_H
#define JOB_TEST_BED_H

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace ns3
{
namespace tests
{

/// The end time of every op of every rank (of the last replay that ran it).
class OpEndLog
{
  public:
    /// \param runtimes the rank runtimes to follow (their OpEnd trace)
    void Attach(const ApplicationContainer& runtimes)
    {
        for (uint32_t i = 0; i < runtimes.GetN(); ++i)
        {
            runtimes.Get(i)->TraceConnectWithoutContext(
                "OpEnd",
                Callback<void, const WorkloadOp&, uint32_t>([this](const WorkloadOp& op, uint32_t) {
                    m_endNs[{op.rank, op.id}] = Simulator::Now().GetNanoSeconds();
                }));
        }
    }

    /// \return when op \p id of \p rank ended (last replay), ns; -1 if it did not
    double EndNs(uint32_t rank, uint32_t id) const
    {
        auto it = m_endNs.find({rank, id});
        return it == m_endNs.end() ? -1 : it->second;
    }

    /// \return the latest end of op \p id over all ranks, ns; -1 if none ended
    double LastEndNs(uint32_t id) const
    {
        double last = -1;
        for (const auto& [key, ns] : m_endNs)
        {
            if (key.second == id)
            {
                last = std::max(last, ns);
            }
        }
        return last;
    }

  private:
    std::map<std::pair<uint32_t, uint32_t>, double> m_endNs; //!< (rank, id) -> end
};

/// \param runtimes rank runtimes \return true if every one ran all its ops
inline bool
AllRanksFinished(const ApplicationContainer& runtimes)
{
    for (uint32_t i = 0; i < runtimes.GetN(); ++i)
    {
        if (!DynamicCast<RankRuntime>(runtimes.Get(i))->IsFinished())
        {
            return false;
        }
    }
    return true;
}

inline constexpr double FRAME_OVERHEAD = 62; // Ethernet 14 + RoCEv2-sized transport header 48
inline constexpr double MTU = 4096;
inline constexpr double LINK_NS = 100;   // one-way delay of every link
inline constexpr double SWITCH_NS = 300; // EpsSwitch processing delay

/// Wire time in ns of one full frame at \p bps.
inline double
FrameNs(double bps)
{
    return (MTU + FRAME_OVERHEAD) * 8 / bps * 1e9;
}

/// One rail of \p servers one-GPU servers at 100 G, eps (one switch) or ocs.
inline RailFabricSpec
Spec(uint32_t servers, RailKind kind, uint32_t gpusPerServer = 1, uint32_t nicPorts = 1)
{
    RailFabricSpec spec;
    spec.servers = servers;
    spec.gpusPerServer = gpusPerServer;
    spec.nicPorts = nicPorts;
    spec.kind = kind;
    spec.nicPortBps = 100000000000;
    spec.scaleUpBps = 800000000000;
    return spec;
}

/// A fabric, its communicators and runtimes replaying a DAG, and what they did.
struct JobBed
{
    Ptr<RailNetwork> fabric;
    std::vector<Ptr<CollectiveCommunicator>> communicators;
    ApplicationContainer runtimes;
    JobRecorder recorder;
    tests::OpEndLog ends; //!< Op end times, last replay

    /// \param network "packet" or "flow"
    /// \param mergedRings the communicators' AggregateRings (flat rings' steps merged)
    JobBed(RailFabricSpec spec,
           const WorkloadDag& dag,
           uint32_t iterations = 1,
           const std::string& network = "packet",
           bool mergedRings = false)
    {
        JobBuilder builder = Builder(spec);
        builder.SetNetworkModel(network);
        builder.SetCommunicatorAttribute("AggregateRings", BooleanValue(mergedRings));
        builder.SetIterations(iterations);
        builder.SetPresetRings(); // nothing reconfigures optical rails: they hold rings
        auto shared = std::make_shared<const WorkloadDag>(dag);
        Job job = builder.Build(shared);
        fabric = job.network;
        communicators = job.communicators;
        runtimes = job.runtimes;
        recorder.Attach(runtimes, dag.GetIterationCount(), iterations);
        recorder.AttachPlans(shared, communicators);
        ends.Attach(runtimes);
    }

    ~JobBed()
    {
        Simulator::Destroy();
    }

    /// \param spec the hardware
    /// \param fabric a --fabric name of \p spec's kind ("": its plain kind, ocs if optical)
    /// \return a builder of the fabric with the test beds' delays
    static JobBuilder Builder(const RailFabricSpec& spec, const std::string& fabric = "")
    {
        JobBuilder builder(
            spec,
            JobFabric::Parse(fabric.empty() ? RailFabricSpec::KindName(spec.kind) : fabric));
        FlowHopDelays delays;
        delays.link = delays.fiber = NanoSeconds(LINK_NS);
        delays.switching = NanoSeconds(SWITCH_NS);
        builder.SetHopDelays(delays);
        return builder;
    }

    /// The packet model with the test beds' delays.
    static Ptr<RailNetwork> BuildPacket(const RailFabricSpec& spec)
    {
        return Builder(spec).BuildNetwork();
    }

    /// The flow model with the same delays.
    static Ptr<RailNetwork> BuildFlow(const RailFabricSpec& spec)
    {
        JobBuilder builder = Builder(spec);
        builder.SetNetworkModel("flow");
        return builder.BuildNetwork();
    }

    /// Runs the job; an event that cannot go on (HorizonGuard::StopRun) ends it and its
    /// reason is thrown here, as JobRunner does.
    void Run()
    {
        HorizonGuard guard;
        guard.Arm();
        Simulator::Run();
        if (!guard.GetFailure().empty())
        {
            throw std::runtime_error(guard.GetFailure());
        }
    }

    bool AllFinished() const
    {
        return tests::AllRanksFinished(runtimes);
    }

    /// \return when op \p id of \p rank ended (last replay), ns; -1 if it did not
    double EndNs(uint32_t rank, uint32_t id) const
    {
        return ends.EndNs(rank, id);
    }

    /// \return the latest end of op \p id over all ranks, ns
    double LastEndNs(uint32_t id) const
    {
        return ends.LastEndNs(id);
    }

    uint64_t BytesSent() const
    {
        uint64_t sum = 0;
        for (const auto& c : communicators)
        {
            sum += c->GetCounters().bytesSent;
        }
        return sum;
    }

    /// \return payload bytes the transports delivered at final GPUs, frame by frame
    uint64_t BytesReceived() const
    {
        uint64_t sum = 0;
        for (uint32_t gpu = 0; gpu < fabric->GetGpus().GetN(); ++gpu)
        {
            sum += fabric->GetMessageTransport(gpu)->GetMessageCounters().payloadBytesDelivered;
        }
        return sum;
    }
};

} // namespace tests
} // namespace ns3

#endif /* JOB_TEST_BED_H */

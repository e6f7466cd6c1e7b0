/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The paper's testbed emulation (OpusTestbedEmulator on electrical rails), against hand-
 * computed costs: every run is compared with the same job on the same electrical rails
 * without Opus, so the difference is the delays and round trips the emulation adds. To 10 us:
 * on electrical rails a member that joins a 64 KiB allgather early sends its part eagerly,
 * before the others join; under the emulation's rendezvous it cannot, which moves a
 * transfer by a few microseconds (a 64 KiB gather takes about 5.5 us at 100 G).
 */

#include "job-test-bed.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

constexpr double TOL_NS = 10000; //!< See the file comment

WorkloadOp
Op(uint32_t rank, uint32_t id, WorkloadOpType type, std::vector<uint32_t> deps, std::string label)
{
    WorkloadOp op;
    op.rank = rank;
    op.id = id;
    op.type = type;
    op.deps = std::move(deps);
    op.label = std::move(label);
    return op;
}

WorkloadOp
Gather(uint32_t rank,
       uint32_t id,
       const std::string& group,
       std::vector<uint32_t> deps = {},
       const std::string& label = "")
{
    WorkloadOp op = Op(rank, id, WorkloadOpType::ALLGATHER, std::move(deps), label);
    op.group = group;
    op.bytes = 65536;
    return op;
}

WorkloadOp
Compute(uint32_t rank, uint32_t id, double us, std::vector<uint32_t> deps)
{
    WorkloadOp op = Op(rank, id, WorkloadOpType::COMPUTE, std::move(deps), "");
    op.durationUs = us;
    return op;
}

WorkloadOp
Transfer(uint32_t rank, uint32_t id, WorkloadOpType type, uint32_t peer, std::vector<uint32_t> deps)
{
    WorkloadOp op = Op(rank, id, type, std::move(deps), "");
    op.peer = peer;
    op.tag = 1;
    op.bytes = 65536;
    return op;
}

/// How Opus is emulated in a run (or not at all: the electrical baseline).
struct Emulation
{
    bool on{false};                  //!< Emulated (else plain electrical rails)
    Time delay{MilliSeconds(25)};    //!< ReconfigurationDelay
    Time controlLatency{Seconds(0)}; //!< ControlLatency
    bool provisioning{false};        //!< Profiled provisioning
    std::string ignore{"^fsdp\\.allgather\\.[^ ]*\\.bwd"}; //!< The shims' Ignore
};

/// One-GPU servers on one electrical rail (100 G, one NIC port), a DAG replayed.
struct EmulationBed
{
    Ptr<RailFabric> fabric;
    Ptr<OpusTestbedEmulator> emulator;
    ApplicationContainer runtimes;
    tests::OpEndLog ends;

    EmulationBed(uint32_t servers, const WorkloadDag& dag, const Emulation& e, uint32_t iterations)
    {
        RailFabricSpec spec;
        spec.servers = servers;
        spec.gpusPerServer = 1;
        spec.nicPorts = 1;
        spec.kind = RailKind::EPS;
        spec.nicPortBps = 100000000000;
        spec.scaleUpBps = 800000000000;
        const char* name = !e.on ? "eps" : e.provisioning ? "emulated-provisioning" : "emulated";
        JobBuilder builder(spec, JobFabric::Parse(name));
        builder.SetIterations(iterations);
        builder.SetReconfigurationDelay(e.delay);
        builder.SetControlLatency(e.controlLatency);
        builder.SetShimAttribute("Ignore", StringValue(e.ignore));
        Job job = builder.Build(std::make_shared<const WorkloadDag>(dag));
        fabric = DynamicCast<RailFabric>(job.network);
        runtimes = job.runtimes;
        emulator = DynamicCast<OpusTestbedEmulator>(job.controlPlane);
        ends.Attach(runtimes);
        Simulator::Run();
    }

    ~EmulationBed()
    {
        Simulator::Destroy();
    }

    bool AllFinished() const
    {
        return tests::AllRanksFinished(runtimes);
    }
};

/// What the emulation adds to op (rank, id)'s end, in ns, over plain electrical rails.
double
AddedNs(uint32_t servers,
        const WorkloadDag& dag,
        const Emulation& e,
        uint32_t rank,
        uint32_t id,
        uint32_t iterations = 1,
        uint64_t* records = nullptr)
{
    Emulation off = e;
    off.on = false;
    double base = EmulationBed(servers, dag, off, iterations).ends.EndNs(rank, id);
    EmulationBed bed(servers, dag, e, iterations);
    if (!bed.AllFinished())
    {
        return -1e18;
    }
    if (records)
    {
        *records = bed.emulator->GetReconfigurations().size();
    }
    return bed.ends.EndNs(rank, id) - base;
}

/// Rank 0 alternates A = {0, 1} and B = {0, 2} with 10 ms of compute after each; B's
/// ops are labelled \p bLabel.
WorkloadDag
TwoPhases(const std::string& bLabel)
{
    std::vector<WorkloadOp> ops = {
        Gather(0, 0, "A"),
        Compute(0, 1, 10000, {0}),
        Gather(0, 2, "B", {1}, bLabel),
        Compute(0, 3, 10000, {2}),
        Gather(1, 0, "A"),
        Gather(2, 0, "B", {}, bLabel),
    };
    return WorkloadDag(3, {{"A", {0, 1}}, {"B", {0, 2}}}, ops);
}

} // namespace

/// On demand, every shift sleeps d and every phase start pays a round trip 2c; with
/// provisioning a shift costs max(0, 2c + d - W) (as on optical rails, issue 12).
class EmulationShiftTestCase : public TestCase
{
  public:
    EmulationShiftTestCase()
        : TestCase("a shift costs 2c + d on demand, max(0, 2c + d - W) with provisioning")
    {
    }

  private:
    void DoRun() override
    {
        // Three iterations of A, W, B, W (W = 10 ms); A is the placed topology. On demand:
        // A#0 is a phase start (no previous communication) in place: 2c; then B, A, B, A, B
        // shift: 5 (2c + d). Rank 0's last op ends 6 x 2c + 5d later than without Opus.
        // Provisioning: iteration 0 is profiled (2c, then B#0: 2c + d); the shift into
        // iteration 1 (A#1) is still on demand (2c + d); B#1, A#2 and B#2 are announced as
        // A#1, B#1 and A#2 end: max(0, 2c + d - W) each.
        const double c = 1e6;
        const double d = 25e6;
        const double w = 10e6;
        Emulation e{true, NanoSeconds(d), NanoSeconds(c), false};
        WorkloadDag dag = TwoPhases("");
        NS_TEST_ASSERT_MSG_EQ_TOL(AddedNs(3, dag, e, 0, 3, 3),
                                  6 * 2 * c + 5 * d,
                                  TOL_NS,
                                  "on demand");
        e.provisioning = true;
        double provisioned = 2 * c + 2 * (2 * c + d) + 3 * std::max(0.0, 2 * c + d - w);
        NS_TEST_ASSERT_MSG_EQ_TOL(AddedNs(3, dag, e, 0, 3, 3), provisioned, TOL_NS, "provisioned");
    }
};

/// Communications the testbed's shim did not intercept (FSDP gathers of backward passes)
/// run at once, and do not end a phase: A, B (ignored), A is one phase.
class EmulationIgnoreTestCase : public TestCase
{
  public:
    EmulationIgnoreTestCase()
        : TestCase("ignored communications cost nothing and leave the topology alone")
    {
    }

  private:
    void DoRun() override
    {
        // B is labelled as a backward FSDP gather: only A asks. A#0 in place at 2c, then
        // A#1, A#2 are mid-phase: the whole job costs 2c, and no delay is slept.
        const double c = 1e6;
        Emulation e{true, MilliSeconds(25), NanoSeconds(c), false};
        uint64_t records = 99;
        WorkloadDag dag = TwoPhases("fsdp.allgather.block3.bwd.mb0");
        NS_TEST_ASSERT_MSG_EQ_TOL(AddedNs(3, dag, e, 0, 3, 3, &records), 2 * c, TOL_NS, "2c");
        NS_TEST_ASSERT_MSG_EQ(records, 0, "no delay slept");
    }
};

/// Two requests on the same GPUs at different instants each sleep d from their own
/// request: the testbed's controller slept per request, concurrently (an OCS would serve
/// the second after the first).
class EmulationConcurrentDelaysTestCase : public TestCase
{
  public:
    EmulationConcurrentDelaysTestCase()
        : TestCase("requests sleep concurrently, even on the same GPUs")
    {
    }

  private:
    void DoRun() override
    {
        // X1 = {0, 2}, X2 = {1, 3} placed; then Y1 = {0, 1} at once and Y2 = {2, 3} after
        // 5 ms of compute on ranks 2 and 3. Y1 and Y2 each add d (Y2's request comes 5 ms
        // after Y1 broke its circuits; it still ends d after its request, not after Y1's
        // sleep). Each Y also pays 2c: with c = 0, both end d later than without Opus.
        const double d = 25e6;
        std::vector<WorkloadOp> ops;
        for (uint32_t rank = 0; rank < 4; ++rank)
        {
            ops.push_back(Gather(rank, 0, rank % 2 == 0 ? "X1" : "X2"));
            if (rank < 2)
            {
                ops.push_back(Gather(rank, 1, "Y1", {0}));
            }
            else
            {
                ops.push_back(Compute(rank, 1, 5000, {0}));
                ops.push_back(Gather(rank, 2, "Y2", {1}));
            }
        }
        WorkloadDag dag(4, {{"X1", {0, 2}}, {"X2", {1, 3}}, {"Y1", {0, 1}}, {"Y2", {2, 3}}}, ops);
        Emulation e{true, NanoSeconds(d), Seconds(0), false};
        NS_TEST_ASSERT_MSG_EQ_TOL(AddedNs(4, dag, e, 0, 1), d, TOL_NS, "Y1 + d");
        NS_TEST_ASSERT_MSG_EQ_TOL(AddedNs(4, dag, e, 2, 2), d, TOL_NS, "Y2 + d, not 2d");
    }
};

/// On demand the testbed's shim asked before every send and receive: a repeated pair pays
/// 2c each time (nothing changes: no delay); with provisioning only the first does.
class EmulationPointToPointTestCase : public TestCase
{
  public:
    EmulationPointToPointTestCase()
        : TestCase(
              "every send and receive pays a round trip on demand, only a phase start otherwise")
    {
    }

  private:
    void DoRun() override
    {
        // Three send/recv pairs from rank 0 to rank 1, one after another: on demand each
        // pays 2c: 6c; with AskEveryPointToPoint off (provisioning) only the first: 2c.
        const double c = 1e6;
        std::vector<WorkloadOp> ops = {
            Transfer(0, 0, WorkloadOpType::SEND, 1, {}),
            Transfer(0, 1, WorkloadOpType::SEND, 1, {0}),
            Transfer(0, 2, WorkloadOpType::SEND, 1, {1}),
            Transfer(1, 0, WorkloadOpType::RECV, 0, {}),
            Transfer(1, 1, WorkloadOpType::RECV, 0, {0}),
            Transfer(1, 2, WorkloadOpType::RECV, 0, {1}),
        };
        WorkloadDag dag(2, {}, ops);
        Emulation e{true, MilliSeconds(25), NanoSeconds(c), false};
        NS_TEST_ASSERT_MSG_EQ_TOL(AddedNs(2, dag, e, 1, 2), 6 * c, TOL_NS, "on demand: 6c");
        e.provisioning = true;
        NS_TEST_ASSERT_MSG_EQ_TOL(AddedNs(2, dag, e, 1, 2), 2 * c, TOL_NS, "provisioning: 2c");
    }
};

/// The testbed emulation test suite.
class OpusEmulationTestSuite : public TestSuite
{
  public:
    OpusEmulationTestSuite()
        : TestSuite("photonic-rails-opus-emulation", SYSTEM)
    {
        AddTestCase(new EmulationShiftTestCase, TestCase::QUICK);
        AddTestCase(new EmulationIgnoreTestCase, TestCase::QUICK);
        AddTestCase(new EmulationConcurrentDelaysTestCase, TestCase::QUICK);
        AddTestCase(new EmulationPointToPointTestCase, TestCase::QUICK);
    }
};

/// Static instance.
static OpusEmulationTestSuite g_opusEmulationTestSuite;

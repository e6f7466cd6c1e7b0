/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GPU and server failures (issue 30): the job restarts from its last checkpoint. A failure
 * in the middle of iteration 3 of a 4-GPU ring allreduce (4 iterations, a checkpoint every
 * 2) costs, on top of the run without failures: the detection, one OCS reconfiguration on
 * optical rails when a spare takes over (none on electrical rails), the restore, and the
 * work since the checkpoint, which is the failure time less the end of iteration 2 of the
 * run without failures. The restarted iterations on the spare last what the run's did,
 * which the comparison checks to within 1% (the first one of a fresh start warms up again).
 */

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <numeric>

using namespace ns3;

namespace
{

/// A file of the module's test/data.
std::string
TestData(const std::string& name)
{
    return std::string(PR_SOURCE_DIR) + "/test/data/" + name;
}

/// One GPU per server, two NIC ports, 4 iterations, detection 1 ms, restore 2 ms,
/// reconfiguration 100 us, with \p fault (none: "").
JobOptions
Options(const std::string& network, const std::string& fault, const std::string& action)
{
    JobOptions o;
    o.gpusPerServer = 1;
    o.nicPorts = 2;
    o.network = network;
    o.iterations = 4;
    o.reconfigDelay = "100us";
    o.progress = 0;
    o.fault = fault;
    o.restart.onServerFailure = action;
    o.restart.spareServers = action == "swap" ? 1 : 0;
    o.restart.checkpointInterval = 2;
    o.restart.failureDetection = "1ms";
    o.restart.restoreTime = "2ms";
    o.Check();
    return o;
}

/// \return the end of each iteration of \p r, seconds from its start
std::vector<double>
Ends(const JobResult& r)
{
    std::vector<double> ends(r.iterationTimes.size());
    std::partial_sum(r.iterationTimes.begin(), r.iterationTimes.end(), ends.begin());
    return ends;
}

/**
 * Server 2 fails halfway through iteration 3; a spare (server 4) takes its ranks. End =
 * no-failure end + 1 ms + (100 us on ocs) + 2 ms + (failure - end of iteration 2).
 */
class SwapTestCase : public TestCase
{
  public:
    SwapTestCase()
        : TestCase("a server failure with a spare: no-failure time + detection + one "
                   "reconfiguration (optical rails) + restore + lost work, within 1%")
    {
    }

  private:
    void DoRun() override
    {
        auto dag = std::make_shared<const WorkloadDag>(
            WorkloadJson::Load(TestData("ring-allreduce-four.json")));
        for (const char* network : {"packet", "flow"})
        {
            for (const char* fabric : {"ocs", "eps"})
            {
                std::string where = std::string(network) + " " + fabric;
                JobFabric f = JobFabric::Parse(fabric);
                // The run without failures, on the same fabric (spare attached).
                JobResult plain = JobRunner::Run(Options(network, "", "swap"),
                                                 dag,
                                                 f,
                                                 CreateTempDirFilename(where + "-plain"));
                std::vector<double> ends = Ends(plain);
                NS_TEST_ASSERT_MSG_EQ(ends.size(), 4, where);
                double failS = (ends[1] + ends[2]) / 2;
                std::string fault = "server:2@" + std::to_string(std::llround(failS * 1e9)) + "ns";
                JobResult r = JobRestarts::Run(Options(network, fault, "swap"),
                                               dag,
                                               f,
                                               CreateTempDirFilename(where));
                const RestartOutcome& out = r.restarts;
                NS_TEST_ASSERT_MSG_EQ(out.restarts.size(), 1, where);
                const RestartRecord& restart = out.restarts[0];
                NS_TEST_EXPECT_MSG_EQ(restart.replacement, 4, where);
                NS_TEST_EXPECT_MSG_EQ(restart.checkpoint, 2, where);
                NS_TEST_EXPECT_MSG_EQ(restart.lostIterations, 0, where);
                bool optical = std::string(fabric) == "ocs";
                NS_TEST_EXPECT_MSG_EQ(restart.reconfigurations, optical ? 1 : 0, where);
                double lostS = std::llround(failS * 1e9) * 1e-9 - ends[1];
                NS_TEST_EXPECT_MSG_EQ_TOL(restart.lostWorkS, lostS, 1e-9, where);
                double expected = ends[3] + 1e-3 + (optical ? 100e-6 : 0) + 2e-3 + lostS;
                NS_TEST_EXPECT_MSG_EQ_TOL(out.endS, expected, 0.01 * expected, where);
                NS_TEST_EXPECT_MSG_EQ_TOL(out.noFailureS, ends[3], 1e-12, where);
            }
        }
    }
};

/**
 * Without a spare the job waits for the repair: server 1 fails at 0.1 ms (in iteration 1:
 * nothing is kept) and is back at 10 ms, after its detection at 1.1 ms: training again at
 * 12 ms, the whole run again on the same servers: the end is 12 ms + the no-failure run,
 * to the ns (the same run, shifted).
 */
class WaitTestCase : public TestCase
{
  public:
    WaitTestCase()
        : TestCase("a server failure without a spare: the job restarts on it once repaired")
    {
    }

  private:
    void DoRun() override
    {
        auto dag = std::make_shared<const WorkloadDag>(
            WorkloadJson::Load(TestData("ring-allreduce-four.json")));
        JobFabric f = JobFabric::Parse("ocs");
        JobResult plain =
            JobRunner::Run(Options("packet", "", "wait"), dag, f, CreateTempDirFilename("plain"));
        JobResult r = JobRestarts::Run(Options("packet", "gpu:gpu1@100us-10ms", "wait"),
                                       dag,
                                       f,
                                       CreateTempDirFilename("wait"));
        NS_TEST_ASSERT_MSG_EQ(r.restarts.restarts.size(), 1, "one restart");
        NS_TEST_EXPECT_MSG_EQ(r.restarts.restarts[0].replacement, 1, "the same server");
        NS_TEST_EXPECT_MSG_EQ(r.restarts.restarts[0].reconfigurations, 0, "no swap");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.restarts.endS, 12e-3 + plain.makespan, 1e-12, "shifted");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.restarts.lostWorkS, 100e-6, 1e-12, "since the start");
    }
};

class RestartsTestSuite : public TestSuite
{
  public:
    RestartsTestSuite()
        : TestSuite("photonic-rails-restarts", UNIT)
    {
        AddTestCase(new SwapTestCase, TestCase::QUICK);
        AddTestCase(new WaitTestCase, TestCase::QUICK);
    }
};

RestartsTestSuite g_restartsTestSuite;

} // namespace

// RestartPlanner: GPU and server failures restart the job from its last checkpoint (issue 30).
// Each attempt here takes exactly 1 s per iteration, so every expected time is a sum done by
// hand: failure + detection (+ OCS reconfiguration for a swap on optical rails) + restore,
// then the iterations left since the checkpoint.
#include "ns3/restart-planner.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A policy with detection 2 s and restore 5 s.
RestartPolicy
Policy(const std::string& action, uint32_t spares, uint32_t checkpointInterval)
{
    RestartPolicy policy;
    policy.onServerFailure = action;
    policy.spareServers = spares;
    policy.checkpointInterval = checkpointInterval;
    policy.failureDetection = "2s";
    policy.restoreTime = "5s";
    policy.Check();
    return policy;
}

/// Server failures, from inline faults.
std::vector<Fault>
Failures(const std::string& text)
{
    return FaultSchedule::Read("", text).GetFaults();
}

/// One iteration per second; records the placement and iterations of every attempt.
struct SteadyJob
{
    std::vector<std::vector<uint32_t>> placements;
    std::vector<uint64_t> iterations;

    RestartPlanner::Attempt Attempt()
    {
        return [this](const std::vector<uint32_t>& placement, uint64_t n) {
            placements.push_back(placement);
            iterations.push_back(n);
            std::vector<double> ends;
            for (uint64_t i = 1; i <= n; ++i)
            {
                ends.push_back(static_cast<double>(i));
            }
            return ends;
        };
    }
};

} // namespace

TEST(RestartPlanner, WithoutFailuresTheJobRunsOnce)
{
    SteadyJob job;
    RestartPlanner planner(Policy("wait", 0, 3), 4, 4, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run({}, job.Attempt());
    EXPECT_EQ(out.attempts, 1u);
    EXPECT_DOUBLE_EQ(out.endS, 10.0);
    EXPECT_DOUBLE_EQ(out.noFailureS, 10.0);
    EXPECT_TRUE(out.restarts.empty());
}

TEST(RestartPlanner, SwapOnOpticalRailsCostsOneReconfiguration)
{
    // 10 iterations, checkpoints every 3: the failure at 4.5 s keeps 3 iterations and loses
    // 1.5 s. Training again at 4.5 + 2 + 0.025 + 5 = 11.525 s on spare server 4, then 7
    // iterations: 18.525 s = 10 + 2 + 0.025 + 5 + 1.5.
    SteadyJob job;
    RestartPlanner planner(Policy("swap", 1, 3), 4, 5, 10, MilliSeconds(25), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:2@4.5s"), job.Attempt());
    ASSERT_EQ(out.restarts.size(), 1u);
    const RestartRecord& r = out.restarts[0];
    EXPECT_EQ(r.replacement, 4u);
    EXPECT_EQ(r.checkpoint, 3u);
    EXPECT_EQ(r.lostIterations, 1u);
    EXPECT_DOUBLE_EQ(r.lostWorkS, 1.5);
    EXPECT_DOUBLE_EQ(r.detectedS, 6.5);
    EXPECT_DOUBLE_EQ(r.orderedS, 6.525);
    EXPECT_DOUBLE_EQ(r.resumedS, 11.525);
    EXPECT_EQ(r.reconfigurations, 8u);
    EXPECT_DOUBLE_EQ(out.endS, 18.525);
    EXPECT_DOUBLE_EQ(out.lostWorkS, 1.5);
    EXPECT_DOUBLE_EQ(out.downS, 7.025);
    EXPECT_EQ(job.iterations, (std::vector<uint64_t>{10, 7}));
    EXPECT_EQ(job.placements[1], (std::vector<uint32_t>{0, 1, 4, 3}));
}

TEST(RestartPlanner, SwapOnElectricalRailsChangesNoCircuit)
{
    SteadyJob job;
    RestartPlanner planner(Policy("swap", 1, 3), 4, 5, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("gpu:gpu9@4.5s"), job.Attempt());
    ASSERT_EQ(out.restarts.size(), 1u);
    EXPECT_EQ(out.restarts[0].reconfigurations, 0u);
    EXPECT_DOUBLE_EQ(out.endS, 18.5); // 10 + 2 + 5 + 1.5
}

TEST(RestartPlanner, WaitRestartsOnTheRepairedServer)
{
    // Repaired at 20 s, after the detection at 6.5 s: training again at 25 s, from iteration
    // 3, and 7 iterations: 32 s.
    SteadyJob job;
    RestartPlanner planner(Policy("wait", 0, 3), 4, 4, 10, MilliSeconds(25), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:1@4.5s-20s"), job.Attempt());
    ASSERT_EQ(out.restarts.size(), 1u);
    EXPECT_EQ(out.restarts[0].replacement, 1u);
    EXPECT_EQ(out.restarts[0].reconfigurations, 0u);
    EXPECT_DOUBLE_EQ(out.restarts[0].orderedS, 20.0);
    EXPECT_DOUBLE_EQ(out.endS, 32.0);
    EXPECT_EQ(job.placements[1], (std::vector<uint32_t>{0, 1, 2, 3}));
}

TEST(RestartPlanner, WithoutCheckpointsEverythingIsLost)
{
    SteadyJob job;
    RestartPlanner planner(Policy("swap", 1, 0), 4, 5, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:0@4.5s"), job.Attempt());
    EXPECT_EQ(out.restarts[0].checkpoint, 0u);
    EXPECT_EQ(out.restarts[0].lostIterations, 4u);
    EXPECT_DOUBLE_EQ(out.endS, 4.5 + 2 + 5 + 10);
}

TEST(RestartPlanner, AFailureAtACheckpointLosesNothing)
{
    SteadyJob job;
    RestartPlanner planner(Policy("swap", 1, 3), 4, 5, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:0@6s"), job.Attempt());
    EXPECT_EQ(out.restarts[0].checkpoint, 6u);
    EXPECT_DOUBLE_EQ(out.restarts[0].lostWorkS, 0.0);
    EXPECT_DOUBLE_EQ(out.endS, 6 + 2 + 5 + 4);
}

TEST(RestartPlanner, ASecondFailureWhileDownDelaysTheRestart)
{
    // Server 2 fails at 4.5 s, server 3 at 8 s (during the restore): detected at 10 s, it
    // takes the second spare; training again at 15 s from iteration 3: 22 s.
    SteadyJob job;
    RestartPlanner planner(Policy("swap", 2, 3), 4, 6, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:2@4.5s,server:3@8s"), job.Attempt());
    ASSERT_EQ(out.restarts.size(), 2u);
    EXPECT_EQ(out.restarts[1].replacement, 5u);
    EXPECT_DOUBLE_EQ(out.restarts[0].resumedS, 15.0);
    EXPECT_DOUBLE_EQ(out.restarts[1].lostWorkS, 0.0);
    EXPECT_EQ(out.attempts, 2u);
    EXPECT_DOUBLE_EQ(out.endS, 22.0);
    EXPECT_EQ(job.placements[1], (std::vector<uint32_t>{0, 1, 4, 5}));
}

TEST(RestartPlanner, AFailedSpareIsSkippedAndARepairedServerIsASpare)
{
    // Spare 4 is down from 1 s to 30 s: the failure of server 0 at 4.5 s takes spare 5.
    // Server 0, repaired at 12 s, is the spare for server 1's failure at 20 s.
    SteadyJob job;
    RestartPlanner planner(Policy("swap", 2, 0), 4, 6, 10, Seconds(0), 8, 32);
    RestartOutcome out =
        planner.Run(Failures("server:4@1s-30s,server:0@4.5s-12s,server:1@20s"), job.Attempt());
    ASSERT_EQ(out.restarts.size(), 2u);
    EXPECT_EQ(out.idle, (std::vector<std::string>{"server:4"}));
    EXPECT_EQ(out.restarts[0].replacement, 5u);
    EXPECT_EQ(out.restarts[1].replacement, 0u);
    EXPECT_DOUBLE_EQ(out.endS, 20 + 2 + 5 + 10); // no checkpoint: all 10 again
}

TEST(RestartPlanner, RefusesAServerThatNeverComesBack)
{
    SteadyJob job;
    RestartPlanner planner(Policy("wait", 0, 3), 4, 4, 10, Seconds(0), 8, 32);
    try
    {
        planner.Run(Failures("server:1@4.5s"), job.Attempt());
        FAIL() << "accepted";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_STREQ(e.what(),
                     "server 1 (server:1) fails at 4.5 s and is never repaired: give it a repair "
                     "time (server:1@DOWN-UP) or spares (--onServerFailure=swap "
                     "--spareServers=N)");
    }
}

TEST(RestartPlanner, AFailureAfterTheEndChangesNothing)
{
    SteadyJob job;
    RestartPlanner planner(Policy("wait", 0, 3), 4, 4, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:1@10s"), job.Attempt());
    EXPECT_TRUE(out.restarts.empty());
    EXPECT_DOUBLE_EQ(out.endS, 10.0);
}

TEST(RestartPlanner, ASpareFailedAndRepairedBeforeItIsTakenIsNotTheJobs)
{
    // Spare 4 is down from 20 s to 21 s, before server 1's failure at 1 ms is detected (at
    // 30.001 s): it is up again when taken, and its failure was not the job's.
    RestartPolicy policy = Policy("swap", 2, 0);
    policy.failureDetection = "30s";
    policy.Check();
    SteadyJob job;
    RestartPlanner planner(policy, 4, 6, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:1@1ms,server:4@20s-21s"), job.Attempt());
    ASSERT_EQ(out.restarts.size(), 1u);
    EXPECT_EQ(out.restarts[0].replacement, 4u);
    EXPECT_EQ(out.idle, (std::vector<std::string>{"server:4"}));
    EXPECT_DOUBLE_EQ(out.endS, 0.001 + 30 + 5 + 10);
    EXPECT_EQ(out.Restarts(), 1u);
}

TEST(RestartPlanner, ServersAndGpusThatRunNoRankAreIdle)
{
    // The job: 3 ranks on 2 servers of 2 GPUs (rank 3's GPU, gpu3, runs nothing), on a
    // fabric of 3 servers (server 2 runs nothing).
    SteadyJob job;
    RestartPlanner planner(Policy("wait", 0, 0), 2, 3, 10, Seconds(0), 2, 3);
    RestartOutcome out = planner.Run(Failures("gpu:gpu3@1s,server:2@2s"), job.Attempt());
    EXPECT_TRUE(out.restarts.empty());
    EXPECT_EQ(out.idle, (std::vector<std::string>{"gpu:gpu3", "server:2"}));
    EXPECT_DOUBLE_EQ(out.endS, 10.0);
}

TEST(RestartPlanner, WaitIsForTheLastOfOverlappingFailures)
{
    // Server 1 down from 4.5 s to 40 s and from 5 s to 50 s: the restart is ordered at 50 s.
    SteadyJob job;
    RestartPlanner planner(Policy("wait", 0, 0), 4, 4, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:1@4.5s-40s,server:1@5s-50s"), job.Attempt());
    ASSERT_FALSE(out.restarts.empty());
    EXPECT_DOUBLE_EQ(out.restarts[0].orderedS, 50.0);
    EXPECT_DOUBLE_EQ(out.endS, 50 + 5 + 10);
    EXPECT_EQ(out.Restarts(), 1u);
}

TEST(RestartPlanner, AFailureAtTheEndIsListedAfterIt)
{
    SteadyJob job;
    RestartPlanner planner(Policy("wait", 0, 0), 4, 4, 10, Seconds(0), 8, 32);
    RestartOutcome out = planner.Run(Failures("server:1@10s-11s"), job.Attempt());
    EXPECT_EQ(out.afterEnd, (std::vector<std::string>{"server:1"}));
}

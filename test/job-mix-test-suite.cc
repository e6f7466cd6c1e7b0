/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Several jobs on one fabric (photonic-rails-sim --jobs): jobs on disjoint servers do not
 * see each other where nothing is shared (optical rails that switch per port, one
 * non-blocking packet switch per rail), two transfers forced through one uplink of a 2:1
 * Clos share it at half rate each (closed form), and on an OCS that darkens the whole switch
 * one job's shift stalls another's transfer for exactly the blackout.
 */

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <cmath>
#include <map>

using namespace ns3;

namespace
{

/// A file of the module's test/data/jobs.
std::string
JobsData(const std::string& name)
{
    return std::string(PR_SOURCE_DIR) + "/test/data/jobs/" + name;
}

/// The options of the runs: one GPU per server, no progress lines.
JobOptions
Options(uint32_t nicPorts, const std::string& network = "packet")
{
    JobOptions o;
    o.gpusPerServer = 1;
    o.nicPorts = nicPorts;
    o.network = network;
    o.reconfigDelay = "10us";
    o.progress = 0;
    o.Check();
    return o;
}

/// Runs every job of \p file alone, then all of them, on \p fabric: the mix's shares,
/// with each job's time alone.
std::vector<JobShare>
RunMix(const std::string& file, JobOptions o, const std::string& fabric, const std::string& dir)
{
    JobMix mix(JobsData(file), JobsFile::Read(JobsData(file)), o);
    return mix.Run(o, JobFabric::Parse(fabric), dir).jobs;
}

/**
 * Two copies of a 4-GPU ring allreduce (16 MiB, 2 iterations) on servers 0-3 and 4-7: on
 * optical rails whose OCS switches only the ports it changes, and on one non-blocking packet
 * switch per rail, each job shares no port or queue with the other, so its iterations and
 * its whole run last what they last alone, to the nanosecond (slowdown 1).
 */
class IsolationTestCase : public TestCase
{
  public:
    IsolationTestCase()
        : TestCase("two jobs on disjoint servers of per-port optical rails and of one packet "
                   "switch per rail: each iteration as long as alone")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* fabric : {"ocs", "eps"})
        {
            std::vector<JobShare> shares =
                RunMix("two-rings.json", Options(2), fabric, CreateTempDirFilename(fabric));
            NS_TEST_ASSERT_MSG_EQ(shares.size(), 2, fabric);
            for (const JobShare& share : shares)
            {
                NS_TEST_ASSERT_MSG_EQ(share.iterationTimes.size(), 2, fabric);
                NS_TEST_ASSERT_MSG_GT(share.aloneIterationTime, 0, fabric);
                NS_TEST_EXPECT_MSG_EQ_TOL(share.steadyIterationTime,
                                          share.aloneIterationTime,
                                          1e-9,
                                          fabric << ": job " << share.name);
                NS_TEST_EXPECT_MSG_EQ_TOL(share.end - share.start,
                                          share.aloneDuration,
                                          1e-9,
                                          fabric << ": job " << share.name);
                NS_TEST_EXPECT_MSG_EQ_TOL(share.Slowdown(), 1.0, 1e-9, fabric);
                // Each of the 4 ranks sends 2 (n - 1) / n = 3/2 of the 16 MiB buffer per
                // iteration, in each of the 2 iterations.
                NS_TEST_EXPECT_MSG_EQ(share.bytesSent, 2ULL * 4 * 3 * (16 << 20) / 2, fabric);
            }
        }
    }
};

/**
 * Two 64 MiB transfers, server 0 to 2 (job a) and 1 to 3 (job b), on a 2:1 Clos rail of
 * radix 3 (two servers per leaf, one uplink): both cross the one uplink of leaf 0. Alone a
 * transfer takes T1 = W / B + L (W: the message's 16,384 frames of 4,096 B, each with 62 B
 * of headers; B: 200 Gb/s; L: the latencies); together the uplink carries 2 W, so each
 * takes T2 = 2 W / B + L = 2 T1 - L. The flow model shares max-min: T2 to within 20 ns
 * (its rate steps); packets with PFC alone (no DCQCN: its first cuts and slow climb are
 * the congestion control's, documented separately) within 10%.
 */
class HalfRateTestCase : public TestCase
{
  public:
    HalfRateTestCase()
        : TestCase("two jobs' transfers through one uplink of a 2:1 Clos rail: half rate each")
    {
    }

  private:
    void DoRun() override
    {
        const double wireS = 16384.0 * (4096 + 62) * 8 / 200e9;
        for (const char* network : {"flow", "packet"})
        {
            JobOptions o = Options(1, network);
            o.radix = 3;
            o.oversubscription = 2;
            if (std::string(network) == "packet")
            {
                Config::SetDefault("ns3::RailTransport::DcqcnProfile", StringValue("pfc-only"));
            }
            std::vector<JobShare> shares =
                RunMix("clos-pairs.json", o, "eps-clos", CreateTempDirFilename(network));
            Config::Reset();
            for (const JobShare& share : shares)
            {
                // One iteration: the job's time is its iteration.
                double latency = share.aloneDuration - wireS;
                NS_TEST_ASSERT_MSG_GT(latency, 0, network);
                double expected = 2 * wireS + latency;
                double tolerance = std::string(network) == "flow" ? 20e-9 : 0.1 * expected;
                NS_TEST_EXPECT_MSG_EQ_TOL(share.end - share.start,
                                          expected,
                                          tolerance,
                                          network << ": job " << share.name);
            }
        }
    }
};

/**
 * Job a (test/data/two-phases.json on servers 0-2: an allgather of GPUs 0 and 1, 10 ms of
 * compute, an allgather of GPUs 0 and 2) shifts GPU 0's circuit at about 10 ms; job b (a
 * 64 MiB send, servers 3 and 4) arrives at 9 ms, while a computes, sets up its circuit (a
 * reconfiguration of its own: a job that starts later gets no circuit before the run) and is
 * sending when a shifts. Reconfiguration delay d = 100 us, one NIC port per GPU, one rail.
 * On an OCS that switches per port, b waits d for its own circuit (exposed d) and lasts what
 * it lasts alone; on one that darkens the whole switch, a's shift also stalls b's transfer
 * for exactly d: b's exposed time is 2 d (Opus records the blackout against every granted
 * communication on the rail), its run alone + d (the flow model to the ns; packets also
 * resend what the cut lost in flight, within 10 us). b's setup darkens a's circuits while
 * a computes, so a's run and its own wait (d) are the same on both.
 */
class WholeSwitchTestCase : public TestCase
{
  public:
    WholeSwitchTestCase()
        : TestCase("one job's shift on a whole-switch OCS stalls another job's transfer for "
                   "exactly the blackout")
    {
    }

  private:
    void DoRun() override
    {
        const double d = 100e-6;
        for (const char* network : {"flow", "packet"})
        {
            std::map<std::string, std::vector<JobShare>> runs;
            for (const char* switching : {"per-port", "whole-switch"})
            {
                JobOptions o = Options(1, network);
                o.reconfigDelay = "100us";
                o.ocsSwitching = switching;
                o.Check();
                runs[switching] = RunMix("shift-during-transfer.json",
                                         o,
                                         "ocs",
                                         CreateTempDirFilename(std::string(network) + switching));
            }
            for (const char* switching : {"per-port", "whole-switch"})
            {
                const JobShare& a = runs[switching].at(0);
                NS_TEST_EXPECT_MSG_EQ(a.reconfigurations, 1, switching);
                NS_TEST_EXPECT_MSG_EQ_TOL(a.exposedReconfiguration, d, 1e-9, switching);
                NS_TEST_EXPECT_MSG_EQ_TOL(a.end - a.start, a.aloneDuration, 1e-9, switching);
                NS_TEST_EXPECT_MSG_EQ(runs[switching].at(1).reconfigurations, 1, switching);
            }
            const JobShare& partial = runs["per-port"].at(1);
            const JobShare& whole = runs["whole-switch"].at(1);
            NS_TEST_EXPECT_MSG_EQ_TOL(partial.exposedReconfiguration, d, 1e-9, network);
            NS_TEST_EXPECT_MSG_EQ_TOL(partial.end - partial.start,
                                      partial.aloneDuration,
                                      1e-9,
                                      network);
            NS_TEST_EXPECT_MSG_EQ_TOL(whole.exposedReconfiguration, 2 * d, 1e-9, network);
            double stall = (whole.end - whole.start) - whole.aloneDuration;
            if (std::string(network) == "flow")
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(stall, d, 1e-9, network);
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(stall, d - 1e-9, network);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(stall, d + 10e-6, network);
            }
        }
    }
};

/// The suite.
class JobMixTestSuite : public TestSuite
{
  public:
    JobMixTestSuite()
        : TestSuite("photonic-rails-job-mix", SYSTEM)
    {
        AddTestCase(new IsolationTestCase, TestCase::QUICK);
        AddTestCase(new HalfRateTestCase, TestCase::QUICK);
        AddTestCase(new WholeSwitchTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
JobMixTestSuite g_jobMixTestSuite;

} // namespace

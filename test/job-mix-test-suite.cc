/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Several jobs on one fabric (photonic-rails-sim --jobs): jobs on disjoint servers do not
 * see each other where nothing is shared (optical rails that switch per port, one
 * non-blocking packet switch per rail), and two transfers forced through one uplink of a
 * 2:1 Clos share it at half rate each (closed form).
 */

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <cmath>

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
 * switch per rail, each job shares no port or queue with the other, so its iterations last
 * what they last alone, to the nanosecond.
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
                double latency = share.aloneIterationTime - wireS;
                NS_TEST_ASSERT_MSG_GT(latency, 0, network);
                double expected = 2 * wireS + latency;
                double tolerance = std::string(network) == "flow" ? 20e-9 : 0.1 * expected;
                NS_TEST_EXPECT_MSG_EQ_TOL(share.steadyIterationTime,
                                          expected,
                                          tolerance,
                                          network << ": job " << share.name);
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
    }
};

/// Registers the suite.
JobMixTestSuite g_jobMixTestSuite;

} // namespace

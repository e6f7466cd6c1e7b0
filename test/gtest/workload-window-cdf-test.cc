/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The data of the paper's Fig. 4 (WorkloadWindowCdf): CDF points, classes, CSV tables and
 * the log-x step plot, against values worked out by hand, and the hand-made timeline of the
 * windows smoke test (test/data/windows-timeline.csv).
 */

#include "ns3/workload-timeline.h"
#include "ns3/workload-window-cdf.h"
#include "ns3/workload-windows.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

namespace
{

WorkloadWindow
Window(double startMs, double endMs, const std::string& next)
{
    WorkloadWindow w;
    w.startS = startMs * 1e-3;
    w.endS = endMs * 1e-3;
    w.next.label = next;
    return w;
}

/// Windows of 5, 2, 0.5 and 0 ms (those of test/data/windows-timeline.csv), in that order.
std::vector<WorkloadWindow>
FourWindows()
{
    return {Window(10, 15, "pp"),
            Window(10, 12, "pp"),
            Window(13, 13.5, "dp"),
            Window(16, 16, "dp")};
}

} // namespace

TEST(WorkloadWindowCdf, CurveHasTheHandComputedPointsAndClasses)
{
    WorkloadWindowCdf cdf;
    cdf.Add("in.csv", "all rails", FourWindows(), 1e-3);
    ASSERT_EQ(cdf.GetCurves().size(), 1u);
    const WorkloadWindowCurve& c = cdf.GetCurves()[0];
    EXPECT_EQ(c.stats.count, 4u);
    EXPECT_EQ(c.zeros, 1u);
    EXPECT_NEAR(c.stats.medianS, 1.25e-3, 1e-12); // (0.5 + 2) / 2 ms
    EXPECT_DOUBLE_EQ(c.stats.shareAbove, 0.5);    // 2 and 5 ms
    const std::vector<std::pair<double, double>> expected = {{0, 0.25},
                                                             {0.5, 0.5},
                                                             {2, 0.75},
                                                             {5, 1}};
    ASSERT_EQ(c.points.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_NEAR(c.points[i].first, expected[i].first, 1e-9) << i;
        EXPECT_DOUBLE_EQ(c.points[i].second, expected[i].second) << i;
    }
    ASSERT_EQ(c.classes.size(), 2u);
    EXPECT_EQ(c.classes[0].label, "pp"); // mean 3.5 ms before mean 0.25 ms
    EXPECT_NEAR(c.classes[0].meanS, 3.5e-3, 1e-12);
    EXPECT_EQ(c.classes[1].label, "dp");
    EXPECT_NEAR(c.classes[1].meanS, 0.25e-3, 1e-12);
}

TEST(WorkloadWindowCdf, EqualWindowsAreOneStep)
{
    WorkloadWindowCdf cdf;
    cdf.Add("x", "rail 0", {Window(0, 3, "a"), Window(5, 8, "a"), Window(9, 10, "a")}, 1e-3);
    const auto& points = cdf.GetCurves()[0].points;
    ASSERT_EQ(points.size(), 2u);
    EXPECT_NEAR(points[0].first, 1, 1e-9);
    EXPECT_NEAR(points[0].second, 1.0 / 3, 1e-12);
    EXPECT_NEAR(points[1].first, 3, 1e-9);
    EXPECT_DOUBLE_EQ(points[1].second, 1);
}

TEST(WorkloadWindowCdf, CsvTablesHaveOneRowPerPointAndPerClass)
{
    WorkloadWindowCdf cdf;
    cdf.Add("a.csv", "all rails", FourWindows(), 1e-3);
    cdf.Add("b,\"c\".txt", "phase log", {Window(0, 20, "DP x17")}, 1e-3);
    std::ostringstream points;
    cdf.WriteCsv(points);
    EXPECT_EQ(points.str(),
              "input,view,window_ms,fraction\n"
              "a.csv,all rails,0,0.25\n"
              "a.csv,all rails,0.5,0.5\n"
              "a.csv,all rails,2,0.75\n"
              "a.csv,all rails,5,1\n"
              "\"b,\"\"c\"\".txt\",phase log,20,1\n");
    std::ostringstream classes;
    cdf.WriteClassesCsv(classes);
    EXPECT_EQ(classes.str(),
              "input,view,next_phase,windows,mean_ms,min_ms,max_ms\n"
              "a.csv,all rails,pp,2,3.5,2,5\n"
              "a.csv,all rails,dp,2,0.25,0,0.5\n"
              "\"b,\"\"c\"\".txt\",phase log,DP x17,1,20,20,20\n");
}

TEST(WorkloadWindowCdf, LogRangeCoversThePositiveWindowsInDecades)
{
    WorkloadWindowCdf cdf;
    cdf.Add("a", "all rails", FourWindows(), 1e-3);
    std::pair<double, double> range;
    ASSERT_TRUE(cdf.LogRangeMs(1, range)); // 0.5 .. 5 ms, and 1 ms
    EXPECT_DOUBLE_EQ(range.first, 0.1);
    EXPECT_DOUBLE_EQ(range.second, 10);
    ASSERT_TRUE(cdf.LogRangeMs(1000, range)); // the threshold widens it
    EXPECT_DOUBLE_EQ(range.first, 0.1);
    EXPECT_DOUBLE_EQ(range.second, 1000);
    ASSERT_TRUE(cdf.LogRangeMs(0, range)); // no threshold
    EXPECT_DOUBLE_EQ(range.second, 10);

    WorkloadWindowCdf one;
    one.Add("a", "rail 0", {Window(0, 1, "a")}, 1e-3);
    ASSERT_TRUE(one.LogRangeMs(1, range)); // a single decade at least
    EXPECT_DOUBLE_EQ(range.first, 1);
    EXPECT_DOUBLE_EQ(range.second, 10);

    WorkloadWindowCdf zeros;
    zeros.Add("a", "rail 0", {Window(3, 3, "a")}, 1e-3);
    zeros.Add("b", "rail 0", {}, 1e-3);
    EXPECT_FALSE(zeros.LogRangeMs(1, range)); // nothing to draw on a log axis
}

TEST(WorkloadWindowCdf, LogStepPointsStartAtTheZeroShareAndEndAtOne)
{
    WorkloadWindowCdf cdf;
    cdf.Add("a", "all rails", FourWindows(), 1e-3);
    auto points = WorkloadWindowCdf::LogStepPoints(cdf.GetCurves()[0], {0.1, 10});
    const std::vector<std::pair<double, double>> expected = {{0.1, 0.25},
                                                             {0.5, 0.5},
                                                             {2, 0.75},
                                                             {5, 1},
                                                             {10, 1}};
    ASSERT_EQ(points.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_NEAR(points[i].first, expected[i].first, 1e-9) << i;
        EXPECT_DOUBLE_EQ(points[i].second, expected[i].second) << i;
    }
}

TEST(WorkloadWindowCdf, SmokeTestTimelineHasTheHandComputedWindows)
{
    // Rail 0 (ranks 0, 2): dp0 AllGather [1, 10] ms, send 0 -> 2 [12, 13] ms (the recv was
    // posted at 11 ms), dp0 ReduceScatter [13.5, 20] ms: windows 2 and 0.5 ms.
    // Rail 1 (ranks 1, 3): dp1 AllGather [0, 10] ms, send 1 -> 3 [15, 16] ms, dp1
    // ReduceScatter [16, 20] ms: windows 5 and 0 ms.
    WorkloadTimeline timeline =
        WorkloadTimeline::ReadCsv(PR_SOURCE_DIR "/test/data/windows-timeline.csv");
    std::vector<WorkloadWindow> windows = WorkloadWindows(2).RailWindows(timeline, -1);
    ASSERT_EQ(windows.size(), 4u);
    const double expectedMs[] = {2, 0.5, 5, 0};
    const char* const expectedNext[] = {"pp sendrecv 4.0 MiB",
                                        "dp reducescatter 32.0 MiB",
                                        "pp sendrecv 4.0 MiB",
                                        "dp reducescatter 32.0 MiB"};
    for (std::size_t i = 0; i < windows.size(); ++i)
    {
        EXPECT_NEAR(windows[i].DurationS() * 1e3, expectedMs[i], 1e-9) << i;
        EXPECT_EQ(windows[i].next.label, expectedNext[i]) << i;
        EXPECT_EQ(windows[i].view, i < 2 ? 0 : 1) << i;
    }
}

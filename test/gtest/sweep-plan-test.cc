// The sweep's pure logic (issue 31): the cartesian product and its filters, sweep files, the
// CSV's scalars, Slurm's --array lists, the progress line's time left, and repeated flags.
#include "ns3/slurm-array.h"
#include "ns3/strict-command-line.h"
#include "ns3/sweep-plan.h"
#include "ns3/sweep-progress.h"
#include "ns3/sweep-table.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return each point's labels as "flag=value flag=value"
std::vector<std::string>
Labels(const std::vector<SweepPoint>& points)
{
    std::vector<std::string> all;
    for (const SweepPoint& p : points)
    {
        std::string text;
        for (const auto& [flag, value] : p.labels)
        {
            text += (text.empty() ? "" : " ") + flag + "=" + value;
        }
        all.push_back(text);
    }
    return all;
}

/// \return the message \p plan's Points() throws, or "" if it throws none
std::string
PointsError(const SweepPlan& plan)
{
    try
    {
        plan.Points("/runs");
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// \return the message \p add throws, or ""
template <typename F>
std::string
Error(F add)
{
    try
    {
        add();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// Writes \p text to a temporary file. \return its path
std::string
WriteFile(const std::string& name, const std::string& text)
{
    std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(SweepPlan, TheProductRunsTheFirstAxisSlowest)
{
    SweepPlan plan;
    plan.AddAxis("fabric=eps,ocs");
    plan.AddAxis("nicRate=100,200,400");
    plan.AddFixed("--dag=job.json");
    std::vector<SweepPoint> points = plan.Points("/s/runs");
    // 2 x 3 points, numbered in order.
    ASSERT_EQ(points.size(), 6u);
    EXPECT_EQ(Labels(points),
              (std::vector<std::string>{"fabric=eps nicRate=100",
                                        "fabric=eps nicRate=200",
                                        "fabric=eps nicRate=400",
                                        "fabric=ocs nicRate=100",
                                        "fabric=ocs nicRate=200",
                                        "fabric=ocs nicRate=400"}));
    EXPECT_EQ(points[4].folder, "0004");
    // Every point's flags, then its varied ones, then its run folder.
    EXPECT_EQ(points[4].arguments,
              (std::vector<std::string>{"--dag=job.json",
                                        "--fabric=ocs",
                                        "--nicRate=200",
                                        "--out=/s/runs/0004"}));
}

TEST(SweepPlan, FiltersLeaveOutOrKeepPoints)
{
    SweepPlan plan;
    plan.AddAxis("fabric=eps,ocs,ocs-provisioning");
    plan.AddAxis("reconfigDelay=1ms,10ms");
    // Electrical rails do not reconfigure: one delay is enough for them.
    plan.AddSkip("fabric=eps,reconfigDelay!=1ms");
    EXPECT_EQ(Labels(plan.Points("/r")),
              (std::vector<std::string>{"fabric=eps reconfigDelay=1ms",
                                        "fabric=ocs reconfigDelay=1ms",
                                        "fabric=ocs reconfigDelay=10ms",
                                        "fabric=ocs-provisioning reconfigDelay=1ms",
                                        "fabric=ocs-provisioning reconfigDelay=10ms"}));
    // --only: a point matching any one is kept (then numbered from 0).
    plan.AddOnly("fabric=ocs");
    plan.AddOnly("reconfigDelay=10ms,fabric=ocs-provisioning");
    std::vector<SweepPoint> points = plan.Points("/r");
    EXPECT_EQ(Labels(points),
              (std::vector<std::string>{"fabric=ocs reconfigDelay=1ms",
                                        "fabric=ocs reconfigDelay=10ms",
                                        "fabric=ocs-provisioning reconfigDelay=10ms"}));
    EXPECT_EQ(points[2].folder, "0002");
}

TEST(SweepPlan, BadAxesAndFiltersAreRefusedInOneLine)
{
    SweepPlan plan;
    EXPECT_EQ(PointsError(plan),
              "nothing varies: give --vary=flag=value1,value2 (or a sweep file's \"vary\")");
    EXPECT_EQ(Error([&] { plan.AddAxis("fabric"); }),
              "--vary 'fabric': expected flag=value1,value2,...");
    EXPECT_EQ(Error([&] { plan.AddAxis("fabric=eps,,ocs"); }), "--vary fabric: value 2 is empty");
    EXPECT_EQ(Error([&] { plan.AddAxis("out=a,b"); }),
              "--out is the sweep's: each point writes in its own run folder");
    plan.AddAxis("--fabric=eps,ocs"); // the dashes a user may write are dropped
    EXPECT_EQ(Error([&] { plan.AddAxis("fabric=eps-clos"); }),
              "--fabric is varied twice (give one --vary per flag)");
    EXPECT_EQ(Error([&] { plan.AddFixed("--fabric=eps"); }),
              "--fabric is both varied and set for every point");
    EXPECT_EQ(Error([&] { plan.AddFixed("job.json"); }),
              "photonic-rails-sim's flags go after '--' as --name=value; 'job.json' is not a flag");
    SweepPlan filtered = plan;
    filtered.AddSkip("nicRate=100");
    EXPECT_EQ(PointsError(filtered), "--skip 'nicRate=100': --nicRate is not varied");
    filtered = plan;
    filtered.AddOnly("fabric=EPS");
    EXPECT_EQ(PointsError(filtered), "--only 'fabric=EPS': --fabric takes no value 'EPS' here");
    filtered = plan;
    filtered.AddSkip("fabric");
    EXPECT_EQ(PointsError(filtered),
              "--skip 'fabric': expected flag=value or flag!=value, comma-separated");
    filtered = plan;
    filtered.AddSkip("fabric=eps");
    filtered.AddSkip("fabric=ocs");
    EXPECT_EQ(PointsError(filtered), "the filters leave no point to run");
}

TEST(SweepPlan, ASweepFileHoldsAxesFlagsAndFilters)
{
    std::string path = WriteFile("sweep-plan-test.json", R"({
        "flags": {"dag": "job.json", "iterations": 2},
        "vary": [{"flag": "reconfigDelay", "values": ["1ms", "10ms"]},
                 {"flag": "fabric", "values": ["eps", "ocs"]}],
        "skip": ["fabric=eps,reconfigDelay=10ms"]
    })");
    SweepPlan plan;
    plan.ReadFile(path);
    plan.AddAxis("nicRate=100"); // the command line adds to the file's
    std::vector<SweepPoint> points = plan.Points("/r");
    EXPECT_EQ(Labels(points),
              (std::vector<std::string>{"reconfigDelay=1ms fabric=eps nicRate=100",
                                        "reconfigDelay=1ms fabric=ocs nicRate=100",
                                        "reconfigDelay=10ms fabric=ocs nicRate=100"}));
    // Flags in the file's key order (a JSON object's), numbers as written.
    EXPECT_EQ(points[0].arguments[0], "--dag=job.json");
    EXPECT_EQ(points[0].arguments[1], "--iterations=2");
    std::remove(path.c_str());
}

TEST(SweepPlan, FileNumbersAreTheTextFlagsTake)
{
    // Whole numbers as integers (integer flags refuse 10.0), others as the shortest text
    // reading back the same double; booleans as true and false.
    std::string path = WriteFile("sweep-plan-numbers.json",
                                 R"({"vary": [{"flag": "iterations", "values": [1e1, 2.0, 3]},
                                              {"flag": "ratio", "values": [0.1, 1e-7]},
                                              {"flag": "recompute", "values": [true, false]}]})");
    SweepPlan plan;
    plan.ReadFile(path);
    std::vector<SweepPoint> points = plan.Points("/r");
    ASSERT_EQ(points.size(), 12u);
    EXPECT_EQ(Labels({points[0], points[3], points[4], points[11]}),
              (std::vector<std::string>{"iterations=10 ratio=0.1 recompute=true",
                                        "iterations=10 ratio=1e-07 recompute=false",
                                        "iterations=2 ratio=0.1 recompute=true",
                                        "iterations=3 ratio=1e-07 recompute=false"}));
    std::remove(path.c_str());
}

TEST(SweepPlan, TooManyPointsAreRefusedBeforeAnyIsMade)
{
    // 100^4 = 10^8 combinations: refused before they are enumerated (that took 2.7 GB).
    SweepPlan plan;
    std::string hundred;
    for (int v = 0; v < 100; ++v)
    {
        hundred += (v == 0 ? "" : ",") + std::to_string(v);
    }
    for (const char* flag : {"a", "b", "c", "d"})
    {
        plan.AddAxis(std::string(flag) + "=" + hundred);
    }
    plan.AddOnly("a=1,b=1,c=1,d=1");
    EXPECT_EQ(PointsError(plan),
              "the axes make 100000000 combinations (at most 1000000): split the sweep");
}

TEST(SweepPlan, ABadSweepFileIsRefusedWithItsName)
{
    std::string path = WriteFile("sweep-plan-bad.json", R"({"vary": {"fabric": ["eps"]}})");
    SweepPlan plan;
    EXPECT_EQ(Error([&] { plan.ReadFile(path); }),
              path + ": \"vary\" must be a list of {\"flag\": ..., \"values\": [...]} (the first "
                     "varies slowest)");
    std::ofstream(path) << R"({"vary": [], "repeat": 2})";
    EXPECT_EQ(Error([&] { plan.ReadFile(path); }),
              path + ": unknown key \"repeat\" (expected vary, flags, skip, only)");
    std::ofstream(path) << R"({"vary": [{"flag": "seed", "values": [1, null]}]})";
    EXPECT_EQ(Error([&] { plan.ReadFile(path); }),
              path + ": vary[0].values: expected a string, a number or a boolean, got null");
    // A line break would end the run's command line (the rest ran as a command of its own).
    std::ofstream(path) << R"({"vary": [{"flag": "seed", "values": ["1\ntouch x", "2"]}]})";
    EXPECT_EQ(Error([&] { plan.ReadFile(path); }),
              path + ": --vary seed: '1\\x0atouch x': a control character (a line break, a tab, a "
                     "NUL) cannot be passed to a run");
    std::remove(path.c_str());
}

TEST(SweepTable, ScalarsAreNamedByTheirPathAndListsLeftOut)
{
    nlohmann::json summary = nlohmann::json::parse(R"({
        "iteration_time_s": 0.070005732,
        "iteration_times_s": [0.07, 0.08],
        "reconfigurations": 3,
        "exposed_reconfiguration_s": 0.0,
        "config": {"fabric": "ocs", "opus": {"provisioning": true}}
    })");
    std::vector<std::pair<std::string, std::string>> scalars = SweepTable::Scalars(summary);
    // nlohmann::json keeps keys sorted; a double reads back from its shortest text.
    EXPECT_EQ(
        scalars,
        (std::vector<std::pair<std::string, std::string>>{{"config.fabric", "ocs"},
                                                          {"config.opus.provisioning", "true"},
                                                          {"exposed_reconfiguration_s", "0"},
                                                          {"iteration_time_s", "0.070005732"},
                                                          {"reconfigurations", "3"}}));
}

TEST(SlurmArray, ArrayListsJoinRuns)
{
    EXPECT_EQ(SlurmArray::ArrayList({0, 1, 2, 3}), "0-3");
    EXPECT_EQ(SlurmArray::ArrayList({1}), "1");
    EXPECT_EQ(SlurmArray::ArrayList({0, 2, 3, 5, 7, 8, 9}), "0,2-3,5,7-9");
}

TEST(SweepProgress, TimeLeftFollowsThePaceSoFar)
{
    // 10 points, 2 finished before: 8 run now. After 3 of them in 30 s, 5 are left at 10 s
    // each: 50 s.
    SweepProgress progress(10, 2);
    EXPECT_EQ(progress.Ended(false, 12), "3/10; about 1 min 24 s left"); // 7 x 12 s
    EXPECT_EQ(progress.Ended(true, 20), "4/10 (1 failed); about 1 min 0 s left");
    EXPECT_EQ(progress.Ended(false, 30), "5/10 (1 failed); about 50 s left");
    EXPECT_EQ(SweepProgress::Duration(7380), "2 h 3 min");
}

TEST(StrictCommandLine, RepeatedFlagsKeepEveryValueInOrder)
{
    std::vector<std::string> vary;
    std::string out = "o";
    StrictCommandLine cmd(__FILE__, "test");
    cmd.AddRepeated("vary", "an axis", vary);
    cmd.Add("out", "folder", out);
    std::vector<std::string> args = {"p", "--vary=a=1,2", "--out=x", "--vary=b=3"};
    std::vector<char*> argv;
    for (std::string& arg : args)
    {
        argv.push_back(arg.data());
    }
    cmd.Parse(int(argv.size()), argv.data());
    EXPECT_EQ(vary, (std::vector<std::string>{"a=1,2", "b=3"}));
    EXPECT_TRUE(cmd.IsGiven("vary"));
    EXPECT_EQ(out, "x");
    std::vector<std::string> empty;
    StrictCommandLine other(__FILE__, "test");
    other.AddRepeated("vary", "an axis", empty);
    std::string bare = "--vary=";
    std::vector<char*> bad = {args[0].data(), bare.data()};
    EXPECT_EQ(Error([&] { other.Parse(2, bad.data()); }), "bad value for --vary: it is empty");
}

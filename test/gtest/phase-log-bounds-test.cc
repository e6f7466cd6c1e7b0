// The bounds on the times of a phase log (WorkloadPhaseLog) and on the pair of logs that
// OpusPhaseReplay replays: what used to be replayed into 0.000 s steps or "-nan" is refused
// with a one-line "FILE:LINE: reason"; a leading UTF-8 byte order mark is skipped.
#include "ns3/opus-phase-replay.h"
#include "ns3/workload-phase-log.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// A log line with the times as typed.
std::string
Line(const std::string& kind,
     uint32_t backend,
     uint32_t idx,
     uint32_t len,
     const std::string& start,
     const std::string& end)
{
    return kind + " start_backend: " + std::to_string(backend) +
           " start_idx: " + std::to_string(idx) + " end_backend: " + std::to_string(backend) +
           " end_idx: " + std::to_string(idx + len - 1) + " len: " + std::to_string(len) +
           ", start_time: " + start + ", end_time: " + end + "\n";
}

/// The one-line message parsing fails with, or "accepted".
std::string
ParseFailure(const std::string& text)
{
    try
    {
        WorkloadPhaseLog::Parse(text, "p.txt");
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "accepted";
}

/**
 * One stage of a 3-step pipeline (T = 1000 k ms + offset): its send/recv #k [T, T+10], then
 * the optimizer [T+30, T+60], which ends the step.
 */
std::string
Stage(double offsetMs)
{
    std::string log;
    for (uint32_t k = 0; k < 3; ++k)
    {
        double t = 1000.0 * k + offsetMs;
        log += Line("PP", 1, k, 1, std::to_string(t), std::to_string(t + 10));
        log += Line("DP", 6, 3 * k, 3, std::to_string(t + 30), std::to_string(t + 60));
    }
    return log;
}

/// Writes \p text to a file in GoogleTest's temporary folder. \return its path
std::string
WriteFile(const std::string& name, const std::string& text)
{
    std::string path = testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/// The one-line message OpusPhaseReplay::ReadFiles fails with, or "accepted".
std::string
ReadFailure(const std::string& path0, const std::string& path1)
{
    try
    {
        OpusPhaseReplay::ReadFiles(path0, path1);
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST(PhaseLogBounds, TimesOutsideZeroTo1e13MsAreRefusedNamingFileAndLine)
{
    const std::string first = Line("PP", 1, 0, 1, "0", "10");
    EXPECT_EQ(ParseFailure(first + Line("DP", 5, 0, 17, "20", "1e300")),
              "p.txt:2: 'end_time:' needs a time in [0, 1e13] ms, found '1e300'");
    EXPECT_EQ(ParseFailure(Line("PP", 1, 0, 1, "-10.0", "-5.0")),
              "p.txt:1: 'start_time:' needs a time in [0, 1e13] ms, found '-10.0'");
    EXPECT_EQ(ParseFailure(Line("PP", 1, 0, 1, "2e13", "2e13")),
              "p.txt:1: 'start_time:' needs a time in [0, 1e13] ms, found '2e13'");
    // The bound itself is a time (Unix time in ms is 1.7e12).
    EXPECT_EQ(ParseFailure(Line("PP", 1, 0, 1, "1e13", "1e13")), "accepted");
    EXPECT_EQ(ParseFailure(Line("PP", 1, 0, 1, "1700000000000.125", "1700000000010.5")),
              "accepted");
}

TEST(PhaseLogBounds, PhasesAreInTimeOrder)
{
    EXPECT_EQ(ParseFailure(Line("PP", 1, 0, 1, "10", "12") + Line("DP", 5, 0, 17, "5.5", "20")),
              "p.txt:2: start_time 5.5 is before the previous phase's start_time 10 (phases "
              "must be in time order)");
    // Equal starts are in order.
    EXPECT_EQ(ParseFailure(Line("PP", 1, 0, 1, "10", "10") + Line("DP", 5, 0, 17, "10", "20")),
              "accepted");
}

TEST(PhaseLogBounds, OnlyAOneCollectivePhaseMayEndBeforeItStarts)
{
    // README: the shim logged the previous phase's end on a one-collective PP phase; its
    // measured duration is 0.
    const std::string dp = Line("DP", 5, 0, 17, "100", "150");
    WorkloadPhaseLog log = WorkloadPhaseLog::Parse(dp + Line("PP", 1, 0, 1, "160", "150"), "p");
    ASSERT_EQ(log.ToPhases().size(), 2u);
    EXPECT_DOUBLE_EQ(log.ToPhases()[1].endS, log.ToPhases()[1].startS);
    EXPECT_EQ(ParseFailure(dp + Line("PP", 1, 0, 2, "160", "150")),
              "p.txt:2: end_time 150 is before start_time 160 on a phase of 2 collectives (only "
              "a one-collective phase may log an earlier end)");
    EXPECT_EQ(ParseFailure(Line("PP", 1, 0, 1, "10", "4")),
              "p.txt:1: end_time 4 is before the log's first start_time 10");
}

TEST(PhaseLogBounds, ALogSpansAtMost1e9Ms)
{
    const std::string first = Line("PP", 1, 0, 1, "500", "510");
    // 1e9 ms after the first start is the last time allowed.
    EXPECT_EQ(ParseFailure(first + Line("DP", 5, 0, 17, "1000000500", "1000000500")), "accepted");
    EXPECT_EQ(ParseFailure(first + Line("DP", 5, 0, 17, "600", "1000000501")),
              "p.txt:2: end_time 1000000501 is more than 1e9 ms (about 11.6 days) after the "
              "log's first start_time 500");
    EXPECT_EQ(ParseFailure(first + Line("PP", 1, 1, 1, "1000000501", "600")),
              "p.txt:2: start_time 1000000501 is more than 1e9 ms (about 11.6 days) after the "
              "log's first start_time 500");
}

TEST(PhaseLogBounds, ALeadingByteOrderMarkIsSkipped)
{
    const std::string log = Stage(0);
    const std::string bom = "\xEF\xBB\xBF";
    ASSERT_TRUE(WorkloadPhaseLog::LooksLikePhaseLog(bom + log));
    WorkloadPhaseLog plain = WorkloadPhaseLog::Parse(log, "plain.txt");
    WorkloadPhaseLog marked = WorkloadPhaseLog::Parse(bom + log, "bom.txt");
    ASSERT_EQ(marked.GetEntries().size(), plain.GetEntries().size());
    EXPECT_EQ(marked.GetEntries()[0].parallelism, "PP");
    EXPECT_EQ(marked.GetEntries()[0].line, 1u);
    EXPECT_EQ(marked.GetIterationCount(), 3u);
    // And the replay reads it: stage 1 runs 3 ms behind stage 0, so each step lasts 1000 ms.
    OpusPhaseReplay replay(WorkloadPhaseLog::Parse(bom + log, "s0.txt"),
                           "s0.txt",
                           WorkloadPhaseLog::Parse(bom + Stage(3), "s1.txt"),
                           "s1.txt");
    EXPECT_DOUBLE_EQ(replay.Run(0, OpusReconfigurationPolicy::ON_DEMAND).MeanStepMs(), 1000.0);
}

TEST(PhaseLogBounds, ReplayRefusesOneStageTwice)
{
    const std::string stage0 = WriteFile("bounds-stage0.txt", Stage(0));
    const std::string stage1 = WriteFile("bounds-stage1.txt", Stage(3));
    const std::string copy = WriteFile("bounds-stage0-copy.txt", Stage(0));
    EXPECT_EQ(ReadFailure(stage0, stage1), "accepted");
    EXPECT_EQ(ReadFailure(stage0, stage0),
              stage0 + " and " + stage0 +
                  " are the same file: the replay needs the logs of two pipeline stages");
    EXPECT_EQ(ReadFailure(stage0, copy),
              copy + " holds the same phases as " + stage0 +
                  ": the replay needs the logs of two pipeline stages");
    for (const std::string& path : {stage0, stage1, copy})
    {
        std::remove(path.c_str());
    }
}

TEST(PhaseLogBounds, ReplayRefusesStepsOfZeroLength)
{
    // Every phase at t = 0: steps 2 and 3 last 0 ms, and a slowdown relative to them would be
    // 0/0 (the "-nan" of the CSV).
    std::string log;
    for (uint32_t k = 0; k < 3; ++k)
    {
        log += Line("PP", 1, k, 1, "0", "0") + Line("DP", 6, 3 * k, 3, "0", "0");
    }
    try
    {
        OpusPhaseReplay(WorkloadPhaseLog::Parse(log, "s0.txt"),
                        "s0.txt",
                        WorkloadPhaseLog::Parse(log, "s1.txt"),
                        "s1.txt");
        FAIL() << "accepted";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_STREQ(e.what(),
                     "s0.txt and s1.txt: steps 2-3 last 0 ms at delay 0: no step time to "
                     "compare with");
    }
}

// Window analysis (paper §3.1) on hand-made timelines and phase logs, the authors' measured
// logs, the timeline CSV, and the estimator that produces timelines from DAGs.
#include "ns3/workload-dag.h"
#include "ns3/workload-estimator.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-json.h"
#include "ns3/workload-phase-log.h"
#include "ns3/workload-summary.h"
#include "ns3/workload-timeline.h"
#include "ns3/workload-windows.h"

#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

WorkloadCommRecord
Rec(uint32_t rank,
    WorkloadOpType type,
    const std::string& group,
    int64_t peer,
    uint64_t bytes,
    double start,
    double end,
    uint32_t iteration = 0)
{
    WorkloadCommRecord r;
    r.rank = rank;
    r.type = type;
    r.group = group;
    r.peer = peer;
    r.bytes = bytes;
    r.startS = start;
    r.endS = end;
    r.iteration = iteration;
    return r;
}

/**
 * Two servers of two GPUs: rail 0 = ranks 0 and 2, rail 1 = ranks 1 and 3.
 *   dp0 = {0, 2}: AllGather #0 joined at 2 ms (rank 0 at 0 ms), ends 10 ms;
 *                 AllGather #1 joined at 11 ms, ends 20 ms               -> DP phase [2, 20] ms
 *   send 0 -> 2 (recv posted at 29 ms, send at 30 ms), ends 31 ms        -> PP phase [30, 31] ms
 *   tp0 = {0, 1} AllReduce 40-50 ms: inside server 0, never on a rail    -> ignored
 *   dp0 ReduceScatter joined at 65 ms (rank 2), ends 70 ms, iteration 1  -> DP phase [65, 70] ms
 * Windows on rail 0: 30 - 20 = 10 ms before the PP phase, 65 - 31 = 34 ms before the DP one.
 */
WorkloadTimeline
HandTimeline()
{
    const uint64_t MiB = 1 << 20;
    WorkloadTimeline t;
    t.Add(Rec(0, WorkloadOpType::ALLGATHER, "dp0", -1, 8 * MiB, 0.000, 0.010));
    t.Add(Rec(2, WorkloadOpType::ALLGATHER, "dp0", -1, 8 * MiB, 0.002, 0.010));
    t.Add(Rec(0, WorkloadOpType::ALLGATHER, "dp0", -1, 8 * MiB, 0.010, 0.020));
    t.Add(Rec(2, WorkloadOpType::ALLGATHER, "dp0", -1, 8 * MiB, 0.011, 0.020));
    t.Add(Rec(0, WorkloadOpType::SEND, "", 2, 4 * MiB, 0.030, 0.031));
    t.Add(Rec(2, WorkloadOpType::RECV, "", 0, 4 * MiB, 0.029, 0.031));
    t.Add(Rec(0, WorkloadOpType::ALLREDUCE, "tp0", -1, 64 * MiB, 0.040, 0.050));
    t.Add(Rec(1, WorkloadOpType::ALLREDUCE, "tp0", -1, 64 * MiB, 0.040, 0.050));
    t.Add(Rec(0, WorkloadOpType::REDUCESCATTER, "dp0", -1, 32 * MiB, 0.060, 0.070, 1));
    t.Add(Rec(2, WorkloadOpType::REDUCESCATTER, "dp0", -1, 32 * MiB, 0.065, 0.070, 1));
    return t;
}

} // namespace

TEST(WorkloadWindows, HandMadeTimelineHasTheKnownWindows)
{
    WorkloadWindows analysis(2);
    std::vector<WorkloadPhase> phases = analysis.RailPhases(HandTimeline(), 0);
    ASSERT_EQ(phases.size(), 3u);
    EXPECT_EQ(phases[0].parallelism, "dp");
    EXPECT_DOUBLE_EQ(phases[0].startS, 0.002); // the slowest member joined at 2 ms
    EXPECT_DOUBLE_EQ(phases[0].endS, 0.020);
    EXPECT_EQ(phases[0].comms, 2u);
    EXPECT_EQ(phases[0].bytes, 16u << 20); // two 8 MiB AllGathers seen by one rank
    EXPECT_EQ(phases[1].parallelism, "pp");
    EXPECT_DOUBLE_EQ(phases[1].startS, 0.030);
    EXPECT_EQ(phases[1].label, "pp sendrecv 4.0 MiB");
    EXPECT_EQ(phases[2].label, "dp reducescatter 32.0 MiB");

    std::vector<WorkloadWindow> windows = analysis.RailWindows(HandTimeline(), -1);
    ASSERT_EQ(windows.size(), 2u); // rail 1 carries nothing: tp0 stays inside server 0
    EXPECT_NEAR(windows[0].DurationS(), 0.010, 1e-12);
    EXPECT_EQ(windows[0].before, "dp");
    EXPECT_EQ(windows[0].iteration, 0u);
    EXPECT_NEAR(windows[1].DurationS(), 0.034, 1e-12);
    EXPECT_EQ(windows[1].iteration, 1u); // the iteration of the phase after the window
    EXPECT_EQ(windows[1].view, 0);

    WorkloadWindowStats stats = WorkloadWindows::Summarize(windows, 0.020);
    EXPECT_EQ(stats.count, 2u);
    EXPECT_NEAR(stats.minS, 0.010, 1e-12);
    EXPECT_NEAR(stats.medianS, 0.022, 1e-12); // (10 + 34) / 2
    EXPECT_NEAR(stats.shareAbove, 0.5, 1e-12);
    EXPECT_EQ(stats.perIteration.at(0), 1u);
    EXPECT_EQ(stats.perIteration.at(1), 1u);

    std::vector<std::pair<double, double>> cdf = WorkloadWindows::Cdf(windows);
    ASSERT_EQ(cdf.size(), 2u);
    EXPECT_NEAR(cdf[0].first, 0.010, 1e-12);
    EXPECT_DOUBLE_EQ(cdf[0].second, 0.5);
    EXPECT_DOUBLE_EQ(cdf[1].second, 1.0);

    std::vector<WorkloadWindowClass> classes = WorkloadWindows::Classify(windows);
    ASSERT_EQ(classes.size(), 2u);
    EXPECT_EQ(classes[0].label, "dp reducescatter 32.0 MiB"); // largest window first
    EXPECT_NEAR(classes[0].meanS, 0.034, 1e-12);

    // Rank 0's own view sees the same phases; rank 1 sees no scale-out communication.
    EXPECT_EQ(analysis.RankWindows(HandTimeline(), 0).size(), 2u);
    EXPECT_TRUE(analysis.RankWindows(HandTimeline(), 1).empty());
}

/*
 * Overlaps, zero gaps and back-to-back collectives, on rail 0 of two 2-GPU servers (ranks 0
 * and 2; every record has both members starting together):
 *   dp0 AllGather        [ 0, 10] ms                       -> DP phase [0, 10]
 *   send 0 -> 2          [ 4,  6] ms  starts inside it     -> PP phase, concurrent: no window
 *   dp0 AllGather        [12, 20] ms                       -> DP phase; window [10, 12] = 2 ms
 *                                      (from the DP end at 10 ms, not the PP end at 6 ms)
 *   send 0 -> 2          [20, 21] ms  starts as DP ends    -> PP phase; window of 0 ms
 *   dp0 AllGather x3     [21, 22], [22, 23], [25, 26] ms   -> one DP phase of 3 (no window
 *                                      between them, 0 or 2 ms apart); window of 0 ms before
 */
TEST(WorkloadWindows, OverlappingPhasesAreConcurrentAndOneParallelismIsOnePhase)
{
    const uint64_t MiB = 1 << 20;
    WorkloadTimeline t;
    auto gather = [&t, MiB](double start, double end) {
        t.Add(Rec(0, WorkloadOpType::ALLGATHER, "dp0", -1, MiB, start, end));
        t.Add(Rec(2, WorkloadOpType::ALLGATHER, "dp0", -1, MiB, start, end));
    };
    auto send = [&t, MiB](double start, double end) {
        t.Add(Rec(0, WorkloadOpType::SEND, "", 2, 2 * MiB, start, end));
        t.Add(Rec(2, WorkloadOpType::RECV, "", 0, 2 * MiB, start, end));
    };
    gather(0.000, 0.010);
    send(0.004, 0.006);
    gather(0.012, 0.020);
    send(0.020, 0.021);
    gather(0.021, 0.022);
    gather(0.022, 0.023);
    gather(0.025, 0.026);

    WorkloadWindows analysis(2);
    std::vector<WorkloadPhase> phases = analysis.RailPhases(t, 0);
    ASSERT_EQ(phases.size(), 5u);
    EXPECT_EQ(phases[4].parallelism, "dp");
    EXPECT_EQ(phases[4].comms, 3u);
    EXPECT_DOUBLE_EQ(phases[4].endS, 0.026);

    std::vector<WorkloadPhase> concurrent;
    std::vector<WorkloadWindow> windows = WorkloadWindows::Between(phases, 0, &concurrent);
    ASSERT_EQ(concurrent.size(), 1u);
    EXPECT_EQ(concurrent[0].parallelism, "pp");
    EXPECT_DOUBLE_EQ(concurrent[0].startS, 0.004);
    ASSERT_EQ(windows.size(), 3u);
    EXPECT_NEAR(windows[0].startS, 0.010, 1e-12);
    EXPECT_NEAR(windows[0].DurationS(), 0.002, 1e-12);
    EXPECT_EQ(windows[0].before, "pp");
    EXPECT_EQ(windows[0].next.parallelism, "dp");
    EXPECT_EQ(windows[1].DurationS(), 0.0);
    EXPECT_EQ(windows[1].next.parallelism, "pp");
    EXPECT_EQ(windows[2].DurationS(), 0.0);
    EXPECT_EQ(windows[2].next.comms, 3u);
    for (const auto& w : windows)
    {
        EXPECT_GE(w.DurationS(), 0.0);
    }
    EXPECT_EQ(analysis.RailWindows(t, 0).size(), 3u);
    EXPECT_EQ(analysis.RankWindows(t, 2).size(), 3u);

    // Only one parallelism, however far apart: one phase, no window at all.
    WorkloadTimeline dpOnly;
    for (int i = 0; i < 17; ++i)
    {
        double start = i < 16 ? 0.001 * i : 0.5; // 16 back to back, then 484 ms later
        for (uint32_t rank : {0u, 2u})
        {
            dpOnly.Add(Rec(rank, WorkloadOpType::ALLGATHER, "dp0", -1, MiB, start, start + 0.001));
        }
    }
    ASSERT_EQ(analysis.RailPhases(dpOnly, 0).size(), 1u);
    EXPECT_EQ(analysis.RailPhases(dpOnly, 0)[0].comms, 17u);
    EXPECT_TRUE(analysis.RailWindows(dpOnly, -1).empty());
    EXPECT_TRUE(analysis.RankWindows(dpOnly, 0).empty());
}

TEST(WorkloadWindows, ParallelismFromGroupNames)
{
    EXPECT_EQ(WorkloadWindows::Parallelism("dp3"), "dp");
    EXPECT_EQ(WorkloadWindows::Parallelism("edp12"), "edp");
    EXPECT_EQ(WorkloadWindows::Parallelism(""), "pp");
    EXPECT_EQ(WorkloadWindows::Parallelism("world"), "world");
}

TEST(WorkloadTimeline, CsvRoundTripAndErrors)
{
    std::ostringstream csv;
    HandTimeline().WriteCsv(csv);
    WorkloadTimeline parsed = WorkloadTimeline::ParseCsv(csv.str(), "t.csv");
    ASSERT_EQ(parsed.GetRecords().size(), HandTimeline().GetRecords().size());
    WorkloadWindows analysis(2);
    std::vector<WorkloadWindow> windows = analysis.RailWindows(parsed, 0);
    ASSERT_EQ(windows.size(), 2u);
    EXPECT_NEAR(windows[1].DurationS(), 0.034, 1e-9);
    // The CONTRACT's columns without iteration or peer, in another order, are accepted.
    WorkloadTimeline minimal = WorkloadTimeline::ParseCsv(
        "label,rank,id,type,group,bytes,start_s,end_s\nx,0,3,allgather,dp0,16,0.5,0.75\n",
        "m.csv");
    ASSERT_EQ(minimal.GetRecords().size(), 1u);
    EXPECT_EQ(minimal.GetRecords()[0].id, 3);
    EXPECT_DOUBLE_EQ(minimal.GetRecords()[0].endS, 0.75);
    auto message = [](const std::string& text) {
        try
        {
            WorkloadTimeline::ParseCsv(text, "bad.csv");
        }
        catch (const std::runtime_error& e)
        {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message("rank,type,start_s\n"), "bad.csv:1: missing required column 'end_s'");
    EXPECT_EQ(message("rank,type,start_s,end_s\n0,compute,0,1\n"),
              "bad.csv:2: column 'type': not a collective or send/recv: 'compute'");
    EXPECT_EQ(message("rank,type,start_s,end_s\n0,send,2,1\n"),
              "bad.csv:2: column 'end_s': ends before it starts");
    EXPECT_EQ(message("rank,type,start_s,end_s\n-1,send,0,1\n"),
              "bad.csv:2: column 'rank': not an integer in range: '-1'");
    EXPECT_EQ(message("rank,type,start_s,end_s\n0,send,0\n"),
              "bad.csv:2: column 'end_s': missing value (too few fields)");
}

TEST(WorkloadTimeline, CsvReadsBackAnyLabelAndThePlan)
{
    // Labels with a line break, a comma, quotes and a carriage return, and the plan columns
    // the simulator fills, read back field for field (issue 11, item 15).
    WorkloadTimeline written;
    WorkloadCommRecord record = Rec(3, WorkloadOpType::ALLREDUCE, "dp0", -1, 4096, 0.25, 0.5);
    record.label = "fsdp,\"unit 3\"\nbackward\r\nend";
    record.algorithm = "hierarchical-ring";
    record.channels = 2;
    record.chunkBytes = 524288;
    written.Add(record);
    record.label = "";
    record.algorithm = "";
    written.Add(record);
    std::ostringstream csv;
    written.WriteCsv(csv);
    WorkloadTimeline parsed = WorkloadTimeline::ParseCsv(csv.str(), "t.csv");
    ASSERT_EQ(parsed.GetRecords().size(), 2u);
    const WorkloadCommRecord& first = parsed.GetRecords()[0];
    EXPECT_EQ(first.label, "fsdp,\"unit 3\"\nbackward\r\nend");
    EXPECT_EQ(first.algorithm, "hierarchical-ring");
    EXPECT_EQ(first.channels, 2u);
    EXPECT_EQ(first.chunkBytes, 524288u);
    EXPECT_EQ(first.rank, 3u);
    EXPECT_DOUBLE_EQ(first.endS, 0.5);
    EXPECT_EQ(parsed.GetRecords()[1].label, "");
    // An error after a record spanning three lines names the line the bad record starts on.
    std::string text = csv.str() + "3,4,bogus,dp0,1,0,1,,0,-1,,0,0\n";
    try
    {
        WorkloadTimeline::ParseCsv(text, "t.csv");
        FAIL() << "accepted a bad type";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "t.csv:6: column 'type': not a collective or send/recv: 'bogus'");
    }
}

TEST(WorkloadPhaseLog, HandMadeLogGivesItsWindowsAndIterations)
{
    // Times in ms. The second PP phase ends "before" it starts: zero duration (README).
    const std::string log =
        "PP start_backend: 1 start_idx: 0 end_backend: 1 end_idx: 1 len: 2, start_time: 100.0, "
        "end_time: 101.0\n"
        "DP start_backend: 5 start_idx: 0 end_backend: 5 end_idx: 16 len: 17, start_time: 103.5, "
        "end_time: 150.0\n"
        "DP start_backend: 6 start_idx: 0 end_backend: 6 end_idx: 2 len: 3, start_time: 1150.0, "
        "end_time: 1151.0\n"
        "\n"
        "PP start_backend: 1 start_idx: 2 end_backend: 5 end_idx: 2 len: 1, start_time: 1160.0, "
        "end_time: 1100.0\n"
        "DP start_backend: 5 start_idx: 17 end_backend: 5 end_idx: 33 len: 17, start_time: "
        "1160.25, end_time: 1200.0\n";
    ASSERT_TRUE(WorkloadPhaseLog::LooksLikePhaseLog(log));
    WorkloadPhaseLog parsed = WorkloadPhaseLog::Parse(log, "log.txt");
    ASSERT_EQ(parsed.GetEntries().size(), 5u);
    EXPECT_EQ(parsed.GetEntries()[3].line, 5u);
    // The step ends after the phase starting on backend 6: phases 0-2 are step 0, 3-4 step 1.
    EXPECT_EQ(parsed.GetIterationCount(), 2u);
    std::vector<WorkloadWindow> w = WorkloadWindows::Between(parsed.ToPhases(), -1);
    ASSERT_EQ(w.size(), 4u);
    EXPECT_NEAR(w[0].DurationS() * 1e3, 2.5, 1e-9);    // 103.5 - 101
    EXPECT_NEAR(w[1].DurationS() * 1e3, 1000.0, 1e-9); // 1150 - 150, before the optimizer
    EXPECT_EQ(w[1].next.label, "DP x3 opt");
    EXPECT_NEAR(w[2].DurationS() * 1e3, 9.0, 1e-9);  // 1160 - 1151
    EXPECT_NEAR(w[3].DurationS() * 1e3, 0.25, 1e-9); // 1160.25 - 1160 (end clamped to start)
    EXPECT_EQ(w[3].iteration, 1u);
    WorkloadWindowStats s = WorkloadWindows::Summarize(w, 1e-3);
    EXPECT_NEAR(s.medianS * 1e3, (2.5 + 9.0) / 2, 1e-9);
    EXPECT_NEAR(s.shareAbove, 0.75, 1e-12);
}

TEST(WorkloadPhaseLog, MalformedLinesAreOneLineErrors)
{
    auto message = [](const std::string& text) {
        try
        {
            WorkloadPhaseLog::Parse(text, "p.txt");
        }
        catch (const std::runtime_error& e)
        {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message(""), "p.txt: no phase in the file");
    EXPECT_EQ(message("PP start_backend: 1 start_idx: 0\n"),
              "p.txt:1: line ends early (expected 'end_backend:')");
    EXPECT_EQ(message("PP start_backend: -1 start_idx: 0 end_backend: 1 end_idx: 1 len: 2, "
                      "start_time: 1, end_time: 2\n"),
              "p.txt:1: 'start_backend:' needs a non-negative integer, found '-1'");
    EXPECT_EQ(message("PP start_backend: 1 start_idx: 0 end_backend: 1 end_idx: 1 len: 2, "
                      "start_time: x, end_time: 2\n"),
              "p.txt:1: 'start_time:' needs a number, found 'x'");
    // Fuzz: every prefix of a valid line either parses or is a clean error.
    const std::string line = "DP start_backend: 5 start_idx: 0 end_backend: 5 end_idx: 16 "
                             "len: 17, start_time: 103.5, end_time: 150.0\n";
    for (std::size_t n = 0; n < line.size(); ++n)
    {
        EXPECT_NO_FATAL_FAILURE(message(line.substr(0, n)));
    }
}

/// Path of one of the authors' logs, kept in ../shared/data beside the repository (CI has
/// it there; a clone without it skips these two tests, saying so).
#define AUTHORS_LOG(name) PR_SOURCE_DIR "/../shared/data/opus-llama3-8b-perlmutter/" name
#define SKIP_WITHOUT(path)                                                                         \
    if (!std::ifstream(path))                                                                      \
    {                                                                                              \
        GTEST_SKIP() << path << " not found (the shared/ folder beside the repository)";           \
    }

TEST(WorkloadPhaseLog, AuthorsStage0Log)
{
    SKIP_WITHOUT(AUTHORS_LOG("stage0-phases.txt"));
    WorkloadPhaseLog log = WorkloadPhaseLog::ReadFile(AUTHORS_LOG("stage0-phases.txt"));
    // 144 lines; the 10 phases that start on backend 6 (lines 18, 32, ..., 144) close the
    // 10 training steps: 18 phases in step 0, then 14 per step.
    ASSERT_EQ(log.GetEntries().size(), 144u);
    EXPECT_EQ(log.GetIterationCount(), 10u);
    std::vector<WorkloadWindow> windows = WorkloadWindows::Between(log.ToPhases(), -1);
    WorkloadWindowStats s = WorkloadWindows::Summarize(windows, 1e-3);
    EXPECT_EQ(s.count, 143u);
    EXPECT_EQ(s.perIteration.at(0), 17u); // the first phase has no window before it
    for (uint32_t it = 1; it < 10; ++it)
    {
        EXPECT_EQ(s.perIteration.at(it), 14u) << it;
    }
    // Shortest window, by hand from lines 21-22: the PP phase logged start 61027867.470 and
    // end 61027762.427 (earlier: zero duration), the DP phase starts at 61027867.903.
    EXPECT_NEAR(s.minS * 1e3, 61027867.903 - 61027867.470, 1e-6);
    // The paper: "more than 75% of the windows are over 1 ms".
    EXPECT_GT(s.shareAbove, 0.75);
}

TEST(WorkloadPhaseLog, AuthorsStage1Log)
{
    SKIP_WITHOUT(AUTHORS_LOG("stage1-phases.txt"));
    WorkloadPhaseLog log = WorkloadPhaseLog::ReadFile(AUTHORS_LOG("stage1-phases.txt"));
    ASSERT_EQ(log.GetEntries().size(), 102u);
    EXPECT_EQ(log.GetIterationCount(), 10u);
    std::vector<WorkloadWindow> windows = WorkloadWindows::Between(log.ToPhases(), -1);
    WorkloadWindowStats s = WorkloadWindows::Summarize(windows, 1e-3);
    EXPECT_EQ(s.perIteration.at(0), 11u); // 12 phases in step 0
    EXPECT_EQ(s.perIteration.at(5), 10u);
    EXPECT_GT(s.shareAbove, 0.75);
    // Lines 10-11: DP ends 61024641.981, the next PP starts 61024648.036 -> 6.055 ms.
    EXPECT_NEAR(s.minS * 1e3, 61024648.036 - 61024641.981, 1e-6);
}

// ---- the estimator -----------------------------------------------------------------------

namespace
{

WorkloadDag
TwoRankDag(const std::string& extraOps = "")
{
    std::string text = R"({"format": "photonic-rails-dag", "version": 1, "ranks": 2,
      "groups": {"g": [0, 1]},
      "ops": [
        {"rank": 0, "id": 0, "type": "compute", "duration_us": 1000},
        {"rank": 0, "id": 1, "type": "allreduce", "group": "g", "bytes": 1000000, "deps": [0]},
        {"rank": 0, "id": 2, "type": "send", "peer": 1, "bytes": 500000, "tag": 1, "deps": [1]},
        {"rank": 1, "id": 0, "type": "compute", "duration_us": 500},
        {"rank": 1, "id": 1, "type": "allreduce", "group": "g", "bytes": 1000000, "deps": [0]},
        {"rank": 1, "id": 2, "type": "recv", "peer": 0, "bytes": 500000, "tag": 1})" +
                       extraOps + "]}";
    return WorkloadJson::Parse(text, "two.json");
}

} // namespace

TEST(WorkloadEstimator, HandComputedTimeline)
{
    // One GPU per server (everything is scale-out), 8 Gb/s = 1e9 B/s, no latency.
    WorkloadEstimatorConfig c;
    c.gpusPerServer = 1;
    c.scaleOutGbps = 8;
    c.latencyUs = 0;
    WorkloadEstimate e = WorkloadEstimator(c).Run(TwoRankDag());
    // AllReduce: rank 1 joins at 0.5 ms, rank 0 at 1 ms; ring 2 (n-1)/n x 1e6 B / 1e9 B/s
    // = 1 ms -> [1, 2] ms. Send/recv: the recv is posted at once (no deps, but its stream
    // holds the AllReduce first), so both start at 2 ms; 5e5 B / 1e9 B/s = 0.5 ms.
    const auto& r = e.timeline.GetRecords();
    ASSERT_EQ(r.size(), 4u);
    auto find = [&r](uint32_t rank, int64_t id) {
        for (const auto& x : r)
        {
            if (x.rank == rank && x.id == id)
            {
                return x;
            }
        }
        throw std::runtime_error("missing record");
    };
    EXPECT_NEAR(find(0, 1).startS, 1e-3, 1e-12);
    EXPECT_NEAR(find(1, 1).startS, 0.5e-3, 1e-12); // its own join time
    EXPECT_NEAR(find(1, 1).endS, 2e-3, 1e-12);
    EXPECT_NEAR(find(0, 2).startS, 2e-3, 1e-12);
    EXPECT_NEAR(find(1, 2).endS, 2.5e-3, 1e-12);
    EXPECT_NEAR(e.makespanS, 2.5e-3, 1e-12);
    ASSERT_EQ(e.iterationTimesS.size(), 1u);
    // Two back-to-back replays: the second starts on each rank when it finished the first.
    c.repetitions = 2;
    WorkloadEstimate twice = WorkloadEstimator(c).Run(TwoRankDag());
    EXPECT_EQ(twice.timeline.GetRecords().size(), 8u);
    EXPECT_NEAR(twice.makespanS, 5e-3, 1e-12);
    ASSERT_EQ(twice.iterationTimesS.size(), 2u);
    EXPECT_NEAR(twice.iterationTimesS[1], 2.5e-3, 1e-12);
}

TEST(WorkloadEstimator, CostModel)
{
    WorkloadEstimatorConfig c;
    c.scaleUpGBps = 100;
    c.scaleOutGbps = 100; // 12.5 GB/s
    c.latencyUs = 1;
    WorkloadEstimator e(c);
    // AllGather of 1 MB shards on 4 ranks, scale-out: 3 x 1e6 / 12.5e9 + 3 us = 243 us.
    EXPECT_NEAR(e.CommSeconds(WorkloadOpType::ALLGATHER, 4, 1000000, false), 243e-6, 1e-12);
    // ReduceScatter of 4 MB on 4 ranks, scale-up: 0.75 x 4e6 / 100e9 + 3 us = 33 us.
    EXPECT_NEAR(e.CommSeconds(WorkloadOpType::REDUCESCATTER, 4, 4000000, true), 33e-6, 1e-12);
    EXPECT_DOUBLE_EQ(e.CommSeconds(WorkloadOpType::ALLREDUCE, 1, 1000, false), 0.0);
}

TEST(WorkloadEstimator, DeadlockIsReportedNotHung)
{
    // Rank 0 waits to receive from 1 before sending; rank 1 does the same: a classic cycle.
    std::string text = R"({"format": "photonic-rails-dag", "version": 1, "ranks": 2,
      "ops": [
        {"rank": 0, "id": 0, "type": "recv", "peer": 1, "bytes": 8},
        {"rank": 0, "id": 1, "type": "send", "peer": 1, "bytes": 8},
        {"rank": 1, "id": 0, "type": "recv", "peer": 0, "bytes": 8},
        {"rank": 1, "id": 1, "type": "send", "peer": 0, "bytes": 8}]})";
    WorkloadDag dag = WorkloadJson::Parse(text, "dead.json");
    try
    {
        WorkloadEstimator(WorkloadEstimatorConfig()).Run(dag);
        FAIL() << "no deadlock reported";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("deadlock: 4 of 4 ops never complete"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("rank 0 op 0 (recv) waits for its peer"),
                  std::string::npos)
            << e.what();
    }
}

// ---- the --validate summary -------------------------------------------------------------

namespace
{

/// 4 layers (2 per stage), PP 2 (1F1B), FSDP 2, TP 1, 2 micro-batches: ranks r = pp + 2 dp.
WorkloadDag
TinyFsdpPipeline(uint32_t gpusPerServer)
{
    WorkloadGeneratorConfig c;
    c.model.name = "tiny";
    c.model.layers = 4;
    c.model.hidden = 64;
    c.model.heads = 4;
    c.model.kvHeads = 4;
    c.model.ffn = 128;
    c.model.vocab = 100;
    c.seqLen = 16;
    c.microBatches = 2;
    c.pp = 2;
    c.dp = 2;
    c.dpMode = WorkloadGeneratorConfig::FSDP;
    c.schedule = WorkloadPipelineSchedule::ONE_F_ONE_B;
    c.gpusPerServer = gpusPerServer;
    return WorkloadGenerator(c).Generate();
}

WorkloadSummary
Summarize(const WorkloadDag& dag, uint32_t gpusPerServer)
{
    WorkloadEstimatorConfig c;
    c.gpusPerServer = gpusPerServer;
    return WorkloadSummary::Build(dag, c, true);
}

} // namespace

TEST(WorkloadSummary, ARailWithOneParallelismHasOnePhaseAndNoWindow)
{
    // 2 GPUs per server: servers {0, 1} and {2, 3}, so PP (0 <-> 1) stays inside a server
    // and rail 0 (ranks 0 and 2) carries only stage 0's FSDP group dp0 = {0, 2}. Its
    // collectives are one DP phase over both replays (the optimizer AllReduces run into the
    // next iteration's AllGathers): 1 phase in the steady iteration, 0 windows. Rank 0's
    // view is the same. (It used to report 0 phases: the phase began in iteration 0.)
    WorkloadSummary s = Summarize(TinyFsdpPipeline(2), 2);
    ASSERT_TRUE(s.estimated);
    EXPECT_EQ(s.steadyIteration, 1u);
    EXPECT_EQ(s.rail0Ranks, (std::vector<uint32_t>{0, 2}));
    for (const WorkloadSummary::View& v : {s.rail0, s.rank0})
    {
        EXPECT_EQ(v.phases, 1u);
        EXPECT_EQ(v.newPhases, 0u);
        EXPECT_EQ(v.windows, 0u);
        EXPECT_EQ(v.concurrent, 0u);
        EXPECT_EQ(v.parallelisms, std::vector<std::string>{"dp"});
    }
    EXPECT_EQ(s.windowStats.count, 0u);
    EXPECT_GT(s.iterationTimeS, 0.0);

    // The server size is not in the DAG: the printed summary says what it assumed.
    s.gpusPerServerAssumed = true;
    std::ostringstream text;
    s.Print(text);
    EXPECT_NE(text.str().find("assuming 2 GPUs per server (--gpusPerServer)"), std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("rail 0 (ranks 0, 2): phases per iteration: 1 (dp)"),
              std::string::npos)
        << text.str();
}

TEST(WorkloadSummary, OneFOneBStage0PhasesAndWindowsCountedByHand)
{
    // One GPU per server: every PP and FSDP communication of rank 0 (stage 0) is scale-out.
    // 1F1B with 2 stages and 2 micro-batches runs F0 F1 B0 B1 on stage 0 (reshard "always",
    // gathers prefetched one unit ahead); its communications:
    //   F0: AllGather root, block0, block1 (dp)         -> send fwd mb0 (pp)
    //   F1: AllGather root, block0, block1 (dp), prefetched as soon as F0's last compute
    //       ends, i.e. together with send fwd mb0       -> send fwd mb1 (pp)
    //   B0: AllGather root (dp), issued with recv bwd mb0 when F1's compute ends, long
    //       before stage 1 sends that gradient: it joins F1's phase. The recv and send fwd
    //       mb1 both wait for stage 1 to end its B0 (pp) -> AllGather block1, block0 (dp),
    //       which wait for the recv: they start exactly when it ends
    //   B1: recv bwd mb1 (pp), no gather (B0, not the last backward, kept the units) ->
    //       ReduceScatter x3 and the grad norm on dp0 (dp) -> the grad norm on pp0 (pp),
    //       which waits for the dp one -> 3 optimizer AllReduces (dp), which wait for it,
    //       then the next iteration's F0 AllGathers (dp): one phase across the boundary.
    // Phases of iteration 1: dp (from iteration 0), pp(send0), dp(F1 + B0 root),
    // pp(send1 + recv0), dp(B0 blocks), pp(recv1), dp(ReduceScatters + grad norm),
    // pp(grad norm), dp(optimizer ...): 9, of which 8 start in it.
    // Windows: one before each of the 8, except dp(F1), which starts while send0 runs
    // (concurrent, not consecutive: it used to give a negative window): 7, three of them 0 ms
    // (before the backward AllGathers, gated by the recv, and before both phases gated by
    // a grad norm).
    WorkloadSummary s = Summarize(TinyFsdpPipeline(1), 1);
    ASSERT_TRUE(s.estimated);
    EXPECT_EQ(s.rank0.phases, 9u);
    EXPECT_EQ(s.rank0.newPhases, 8u);
    EXPECT_EQ(s.rank0.windows, 7u);
    EXPECT_EQ(s.rank0.concurrent, 1u);
    EXPECT_EQ(s.rank0.parallelisms, (std::vector<std::string>{"dp", "pp"}));
    ASSERT_EQ(s.windowStats.count, 7u);
    EXPECT_EQ(s.windowStats.minS, 0.0);
    std::size_t zero = 0;
    for (const auto& c : s.windowClasses)
    {
        EXPECT_GE(c.minS, 0.0) << c.label;
        zero += c.maxS == 0.0 ? c.count : 0;
    }
    EXPECT_EQ(zero, 3u);
    // Rail 0 holds all 4 ranks (both stages interleave on it); in the periodic steady state
    // every phase that starts in the iteration has a window before it or is concurrent.
    EXPECT_EQ(s.rail0Ranks, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(s.rail0.newPhases, s.rail0.windows + s.rail0.concurrent);
    EXPECT_EQ(s.rail0.parallelisms, (std::vector<std::string>{"dp", "pp"}));
}

TEST(WorkloadSummary, SteadyIterationFollowsTheEstimatorsNumbering)
{
    // Two ranks on two servers, one iteration numbered 3 (a DAG need not start at 0):
    // AllReduce (dp), send/recv (pp), AllReduce (dp). The estimator numbers the replays'
    // iterations 3 and 4 + 3 = 7 (replay r, iteration i -> r x 4 + i): the steady one is 7.
    // Rank 0's phases: dp | pp | dp + dp (both replays) | pp | dp. In iteration 7: the dp
    // phase from iteration 3, pp, dp = 3 phases, 2 of them new, 2 windows.
    std::string text = R"({"format": "photonic-rails-dag", "version": 1, "ranks": 2,
      "groups": {"dp0": [0, 1]},
      "ops": [
        {"rank": 0, "id": 0, "type": "allreduce", "group": "dp0", "bytes": 1000, "iteration": 3},
        {"rank": 0, "id": 1, "type": "compute", "duration_us": 100, "deps": [0], "iteration": 3},
        {"rank": 0, "id": 2, "type": "send", "peer": 1, "bytes": 1000, "tag": 0, "deps": [1],
         "iteration": 3},
        {"rank": 0, "id": 3, "type": "compute", "duration_us": 100, "deps": [2], "iteration": 3},
        {"rank": 0, "id": 4, "type": "allreduce", "group": "dp0", "bytes": 1000, "deps": [3],
         "iteration": 3},
        {"rank": 1, "id": 0, "type": "allreduce", "group": "dp0", "bytes": 1000, "iteration": 3},
        {"rank": 1, "id": 1, "type": "recv", "peer": 0, "bytes": 1000, "tag": 0, "deps": [0],
         "iteration": 3},
        {"rank": 1, "id": 2, "type": "compute", "duration_us": 100, "deps": [1], "iteration": 3},
        {"rank": 1, "id": 3, "type": "allreduce", "group": "dp0", "bytes": 1000, "deps": [2],
         "iteration": 3}]})";
    WorkloadDag dag = WorkloadJson::Parse(text, "offset.json");
    ASSERT_EQ(dag.GetIterationCount(), 4u);
    WorkloadSummary s = Summarize(dag, 1);
    EXPECT_EQ(s.steadyIteration, 7u);
    EXPECT_EQ(s.rank0.phases, 3u);
    EXPECT_EQ(s.rank0.newPhases, 2u);
    EXPECT_EQ(s.rank0.windows, 2u);
    EXPECT_EQ(s.rank0.concurrent, 0u);
    EXPECT_EQ(s.rail0.windows, 2u);
    EXPECT_GT(s.iterationTimeS, 0.0);
    EXPECT_LT(s.iterationTimeS, 1e-3); // one replay, not the whole run from time 0
}

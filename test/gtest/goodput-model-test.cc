/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoodputModel (photonic-rails-goodput's Monte-Carlo) against hand-derived values: exact
 * cases with given failures, the closed form for one failure class, and the part counts of
 * the cost model.
 */

#include "ns3/goodput-model.h"
#include "ns3/opus-cost-model.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
const double HOUR = 3600;
const double WEEK = 7 * 86400;

/// A job of 10 s iterations, a checkpoint every 360 (1 h of training), 10 min to detect a
/// failure and 10 min to restore, 2 h to repair a server, no spares.
GoodputJob
Job()
{
    GoodputJob job;
    job.iterationS = 10;
    job.checkpointEvery = 360;
    job.detectionS = 600;
    job.restoreS = 600;
    job.repairS = 2 * HOUR;
    return job;
}

/// One class of \p parts parts failing \p perPartYear times a year each.
std::vector<FailureClass>
OneClass(FailureClass::Recovery recovery, double perPartYear = 1, uint64_t parts = 1)
{
    return {{"only", perPartYear, parts, recovery}};
}

/// Checks that the run's time adds up: useful + lost work + down = wall.
void
ExpectSplit(const GoodputRun& r)
{
    double sum = r.usefulS;
    for (size_t c = 0; c < r.count.size(); ++c)
    {
        sum += r.lostWorkS[c] + r.downS[c];
    }
    EXPECT_NEAR(sum, r.wallS, 1e-6 * r.wallS);
}
} // namespace

TEST(GoodputModel, ZeroRateIsGoodputOne)
{
    GoodputModel model(OneClass(FailureClass::SERVER, 0, 1000), Job());
    EXPECT_TRUE(model.Draw(52 * WEEK, 1).empty());
    GoodputRun r = model.Run(52 * WEEK, 1);
    EXPECT_EQ(r.Goodput(), 1.0);
    EXPECT_EQ(r.count[0], 0u);
}

// One failure at 10.5 h of a campaign that started training at 0: the checkpoint at 10 h
// (3,600 iterations) is the last, so 0.5 h of training is lost; the job is down for
// detection + restore = 1,200 s (nothing to replace). Goodput = (W - 1,800 - 1,200) / W.
TEST(GoodputModel, OneFailureInPlaceExact)
{
    GoodputModel model(OneClass(FailureClass::IN_PLACE), Job());
    GoodputRun r = model.Play({{10.5 * HOUR, 0}}, WEEK);
    EXPECT_EQ(r.count[0], 1u);
    EXPECT_DOUBLE_EQ(r.lostWorkS[0], 1800);
    EXPECT_DOUBLE_EQ(r.downS[0], 1200);
    EXPECT_DOUBLE_EQ(r.usefulS, WEEK - 3000);
    ExpectSplit(r);
}

// A server failure at 5,000 s with only the start as a checkpoint: all 5,000 s are lost.
// wait: restart order at the repair (7,200 s after the failure, later than detection), down
// 7,200 + 600 restore. swap with a spare and a 25 ms OCS reconfiguration: order at
// detection + 25 ms, down 600 + 0.025 + 600.
TEST(GoodputModel, ServerFailureWaitAndSwapExact)
{
    GoodputJob job = Job();
    job.checkpointEvery = 0;
    GoodputRun wait = GoodputModel(OneClass(FailureClass::SERVER), job).Play({{5000, 0}}, WEEK);
    EXPECT_DOUBLE_EQ(wait.lostWorkS[0], 5000);
    EXPECT_DOUBLE_EQ(wait.downS[0], 7800);
    ExpectSplit(wait);
    job.swap = true;
    job.spares = 1;
    job.swapS = 0.025;
    GoodputRun swap = GoodputModel(OneClass(FailureClass::SERVER), job).Play({{5000, 0}}, WEEK);
    EXPECT_DOUBLE_EQ(swap.lostWorkS[0], 5000);
    EXPECT_DOUBLE_EQ(swap.downS[0], 1200.025);
    ExpectSplit(swap);
}

// Two server failures, one spare, only the start as a checkpoint. The first (1,000 s)
// loses 1,000 s and takes the spare: order at detection + 1 s reconfiguration (1,601 s),
// training again at 2,201 s; the failed server is a spare once repaired (8,200 s). The
// second (3,000 s) loses the 799 s trained since the restart (its point was the start's
// checkpoint) and finds no spare up: the first server is back (8,200 s) before its own
// repair (10,200 s), so it takes that one and reconfigures: order 8,201 s, training again
// at 8,801 s, down 5,801 s.
TEST(GoodputModel, SwapWaitsForASpareBack)
{
    GoodputJob job = Job();
    job.checkpointEvery = 0;
    job.swap = true;
    job.spares = 1;
    job.swapS = 1;
    GoodputModel model(OneClass(FailureClass::SERVER), job);
    GoodputRun r = model.Play({{1000, 0}, {3000, 0}}, WEEK);
    EXPECT_EQ(r.count[0], 2u);
    EXPECT_DOUBLE_EQ(r.lostWorkS[0], 1000 + 799);
    EXPECT_DOUBLE_EQ(r.downS[0], 1201 + 5801);
    EXPECT_DOUBLE_EQ(r.usefulS, WEEK - 1799 - 7002);
    ExpectSplit(r);
}

// A failure while the job is down: failures at 1,000 s and 1,300 s (the first not yet
// detected). The restart waits for the second: order at 1,300 + 600, training again at
// 2,500 s. The first is down 1,000 -> 2,200 (1,200 s), the second adds 300 s, loses nothing.
TEST(GoodputModel, FailureWhileDownDelaysTheRestart)
{
    GoodputModel model(OneClass(FailureClass::IN_PLACE), Job());
    GoodputRun r = model.Play({{1000, 0}, {1300, 0}}, WEEK);
    EXPECT_EQ(r.count[0], 2u);
    EXPECT_DOUBLE_EQ(r.lostWorkS[0], 1000);
    EXPECT_DOUBLE_EQ(r.downS[0], 1500);
    EXPECT_DOUBLE_EQ(r.usefulS, WEEK - 2500);
    ExpectSplit(r);
}

// The campaign ends while the job is down: the down time is counted up to the end only.
TEST(GoodputModel, DownAtTheEndIsClipped)
{
    GoodputModel model(OneClass(FailureClass::IN_PLACE), Job());
    GoodputRun r = model.Play({{WEEK - 100, 0}}, WEEK);
    EXPECT_DOUBLE_EQ(r.downS[0], 100);
    ExpectSplit(r);
}

/*
 * The closed form for one class alone. Failures arrive at rate λ; each that strikes while
 * the job trains loses the training since the last checkpoint, ℓ on average, and keeps the
 * job down for R (the recovery: detection, the repair or the swap, the restore). With
 * checkpoints every τ of training and failures far apart (λτ << 1), the failure falls
 * uniformly between two checkpoints: ℓ = τ/2 (exactly 1/λ - τ e^{-λτ}/(1 - e^{-λτ}) =
 * τ/2 - λτ²/12 + ...). Per unit of useful training the job has trained 1 + λℓ and failed
 * λ times (to first order), each failure costing R + ℓ of wall time:
 *   wall / useful = 1 + λ (R + τ/2),   goodput = 1 / (1 + λ (R + τ/2)).
 * The neglected terms are of order (λR)², λ²ℓ(R+ℓ) and λτ²: failures during a recovery
 * (which lengthen it by λR²/2 on average) and the second order of the lost work. With
 * λ = 1/day, R = 30 min and τ = 1 h they are below 0.2%; over 20 one-year campaigns
 * (about 365 failures each) the mean's standard error is about 0.05%: 2% is far.
 */
TEST(GoodputModel, OneClassMatchesTheClosedForm)
{
    const double year = 52 * WEEK;
    const double rate = 1.0 / 86400; // one failure a day: 365.25 per part-year, one part

    struct Case
    {
        FailureClass::Recovery recovery;
        bool swap;
        double recoveryS; // R, by hand
    };

    GoodputJob job = Job();
    job.detectionS = 900;
    job.restoreS = 900;
    job.repairS = 1200;
    job.spares = 1000; // enough that a spare is always up
    job.swapS = 0.025;
    for (const Case& c : {Case{FailureClass::IN_PLACE, false, 900 + 900},
                          Case{FailureClass::SERVER, false, 1200 + 900},
                          Case{FailureClass::SERVER, true, 900 + 0.025 + 900}})
    {
        job.swap = c.swap;
        GoodputModel model(OneClass(c.recovery, 365.25), job);
        EXPECT_NEAR(model.GetClasses()[0].RatePerSecond(), rate, 1e-15);
        double sum = 0;
        const int seeds = 20;
        for (int s = 0; s < seeds; ++s)
        {
            GoodputRun r = model.Run(year, s);
            ExpectSplit(r);
            sum += r.Goodput();
        }
        double expected = GoodputModel::ClosedForm(rate, c.recoveryS, job.CheckpointS());
        EXPECT_NEAR(sum / seeds, expected, 0.02 * expected)
            << "recovery " << c.recoveryS << " s: closed form " << expected;
        EXPECT_NEAR(sum / seeds, expected, 0.005 * expected); // and much closer in fact
    }
}

TEST(GoodputModel, SeedsAreReproducibleAndDistinct)
{
    GoodputModel model(OneClass(FailureClass::SERVER, 10, 100), Job());
    auto a = model.Draw(WEEK, 7);
    auto b = model.Draw(WEEK, 7);
    auto c = model.Draw(WEEK, 8);
    ASSERT_FALSE(a.empty());
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
    {
        EXPECT_EQ(a[i].atS, b[i].atS);
    }
    EXPECT_TRUE(c.empty() || c.front().atS != a.front().atS);
}

// Common random numbers: a class at the same index and rate fails at the same times in
// two models whatever the other classes (the GPUs of two fabrics with different networks).
TEST(GoodputModel, SameClassSameFailures)
{
    std::vector<FailureClass> eps{{"gpu", 0.11, 16384, FailureClass::SERVER},
                                  {"switch", 0.13, 640, FailureClass::IN_PLACE}};
    std::vector<FailureClass> ocs{{"gpu", 0.11, 16384, FailureClass::SERVER},
                                  {"switch", 0.13, 4, FailureClass::IN_PLACE}};
    auto gpuFailures = [](const std::vector<GoodputFailure>& all) {
        std::vector<double> at;
        for (const GoodputFailure& f : all)
        {
            if (f.cause == 0)
            {
                at.push_back(f.atS);
            }
        }
        return at;
    };
    auto a = GoodputModel(eps, Job()).Draw(4 * WEEK, 5);
    auto b = GoodputModel(ocs, Job()).Draw(4 * WEEK, 5);
    EXPECT_EQ(gpuFailures(a), gpuFailures(b));
    EXPECT_GT(a.size(), b.size());
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end(), [](const auto& x, const auto& y) {
        return x.atS < y.atS;
    }));
}

// Several classes, spares and failures while down: the time still adds up exactly.
TEST(GoodputModel, ManyClassesSplitTheTime)
{
    GoodputJob job = Job();
    job.swap = true;
    job.spares = 2;
    job.swapS = 0.025;
    std::vector<FailureClass> classes{{"gpu", 0.11, 16384, FailureClass::SERVER},
                                      {"software", 0.03, 16384, FailureClass::IN_PLACE},
                                      {"none", 0, 100, FailureClass::IN_PLACE},
                                      {"host", 0.15, 2048, FailureClass::SERVER}};
    GoodputModel model(classes, job);
    GoodputRun r = model.Run(8 * WEEK, 3);
    EXPECT_EQ(r.count[2], 0u);
    EXPECT_GT(r.count[0], r.count[3]);
    EXPECT_GT(r.Goodput(), 0);
    EXPECT_LT(r.Goodput(), 1);
    ExpectSplit(r);
}

// The part counts are the cost model's. By hand for 16,384 GPUs of 8 per server (the
// Llama 3 cluster): rail-optimized k = round(sqrt(4 x 2,048)) = 91, per rail
// 2 x floor(2,048 / 45) = 90 switches, core floor(16,384 / 91) = 180: 900 switches of 91
// ports (81,900), transceivers 16,384 + 81,900 = 98,284. Opus: 8 OCSes, 16,384 transceivers.
TEST(GoodputModel, PartCountsAreTheCostModels)
{
    OpusCostModel cost{OpusCostModel::Config()};
    CostBill rail = cost.Bill(CostNetwork::RAIL_OPTIMIZED, 16384);
    ClusterParts p = ClusterParts::FromBill(rail, 8);
    EXPECT_EQ(p.gpus, 16384u);
    EXPECT_EQ(p.hosts, 2048u);
    EXPECT_EQ(p.nics, 16384u);
    EXPECT_EQ(p.switches, rail.switches);
    EXPECT_EQ(p.transceivers, rail.transceivers);
    EXPECT_EQ(p.ocses, 0u);
    EXPECT_EQ(p.switches, 900u);
    EXPECT_EQ(p.transceivers, 98284u);
    CostBill opus = cost.Bill(CostNetwork::OPUS, 16384);
    ClusterParts q = ClusterParts::FromBill(opus, 8);
    EXPECT_EQ(q.ocses, opus.switches);
    EXPECT_EQ(q.ocses, 8u);
    EXPECT_EQ(q.switches, 0u);
    EXPECT_EQ(q.transceivers, opus.transceivers);
    EXPECT_EQ(q.transceivers, 16384u);
    ClusterParts llama = Llama3Rates::Parts();
    EXPECT_EQ(llama.switches, 900u);
    EXPECT_EQ(llama.transceivers, 98284u);
}

// The default rates: Table 5's counts over the parts and the 54 days.
TEST(GoodputModel, Llama3Rates)
{
    double years = 54 / 365.25;
    auto rates = Llama3Rates::PerPartYear(0.5);
    ASSERT_EQ(rates.size(), 6u);
    EXPECT_EQ(rates[0].first, "gpu");
    EXPECT_DOUBLE_EQ(rates[0].second, 268 / 16384.0 / years);
    EXPECT_DOUBLE_EQ(rates[1].second, 46 / 2048.0 / years);
    EXPECT_DOUBLE_EQ(rates[2].second, 7 / 16384.0 / years);
    EXPECT_DOUBLE_EQ(rates[3].second, 63 / 16384.0 / years);
    EXPECT_DOUBLE_EQ(rates[4].second, 17.5 / 900 / years);
    EXPECT_DOUBLE_EQ(rates[5].second, 17.5 / 98284 / years);
    // The whole record: 268 + 46 + 7 + 63 + 35 = 419 interruptions.
    EXPECT_DOUBLE_EQ(Llama3Rates::GPU + Llama3Rates::HOST + Llama3Rates::NIC +
                         Llama3Rates::SOFTWARE + Llama3Rates::NETWORK,
                     419);
}

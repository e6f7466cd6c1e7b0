/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN reaction point, one stage at a time, against steps computed by hand from the
 * algorithm's definition (DcqcnRateController's description). Round numbers make the steps
 * easy to follow: line rate L = 100 Gb/s, g = 1/16, alpha every 1 us, at most one cut per
 * 4 us, R_AI 1 Gb/s, R_HAI 3 Gb/s, F = 1; the timer and the byte counter are off (huge)
 * unless a test turns one on.
 */

#include "ns3/dcqcn-rate-controller.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr double L = 100e9;
constexpr double G = 1.0 / 16;
constexpr double AI = 1e9;
constexpr double HAI = 3e9;

DcqcnParameters
Round()
{
    DcqcnParameters p;
    p.lineRateBps = L;
    p.minRateBps = 1e6;
    p.initialAlpha = 1.0;
    p.g = G;
    p.alphaPeriod = MicroSeconds(1);
    p.decreasePeriod = MicroSeconds(4);
    p.increaseTimer = Seconds(1000);
    p.byteCounter = 0;
    p.fastRecoveryStages = 1;
    p.additiveIncreaseBps = AI;
    p.hyperIncreaseBps = HAI;
    p.clampAlways = false;
    return p;
}

Time
Us(double us)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(us * 1000)));
}

} // namespace

TEST(DcqcnRateController, RunsAtLineRateUntilTheFirstCnp)
{
    DcqcnRateController rp(Round());
    EXPECT_DOUBLE_EQ(rp.GetRate(Seconds(1)), L);
    rp.OnSent(1 << 30, Seconds(1));
    EXPECT_DOUBLE_EQ(rp.GetRate(Seconds(2)), L);
    EXPECT_FALSE(rp.IsThrottled());
}

TEST(DcqcnRateController, TheFirstCnpCutsAtTheEndOfItsDecreasePeriod)
{
    DcqcnRateController rp(Round());
    rp.OnCnp(Us(10)); // t0: the periods run from here
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(13.999)), L) << "no cut before the period ends";
    // At 14 us the alpha periods [10,11) (with the CNP) and [11,14) (without) have ended:
    // alpha = (1 - g) 1 + g = 1, then (1 - g)^3.
    double alpha = std::pow(1 - G, 3);
    EXPECT_DOUBLE_EQ(rp.GetAlpha(Us(14)), alpha);
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(14)), L * (1 - alpha / 2));
    // No timer increase came before the cut: R_T stays at the line rate.
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(Us(14)), L);
    EXPECT_TRUE(rp.IsThrottled());
}

TEST(DcqcnRateController, CutsAtMostOncePerDecreasePeriod)
{
    DcqcnRateController rp(Round());
    rp.OnCnp(Us(10));
    rp.OnCnp(Us(11.5));
    rp.OnCnp(Us(13.9));
    // Alpha: [10,11) CNP -> 1; [11,12) CNP -> 1; [12,13) none -> 15/16; [13,14) CNP ->
    // (15/16)^2 + 1/16.
    double alpha = (1 - G) * (1 - G) + G;
    double first = L * (1 - alpha / 2);
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(17.9)), first) << "three CNPs, one cut";
    // No CNP in [14, 18): no cut at 18 us. A CNP at 18 us belongs to [18, 22).
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(18)), first);
    rp.OnCnp(Us(18));
    // At 22 us: [14,18) decays 4 times, [18,19) had the CNP, [19,22) decay 3 times.
    double alpha2 = ((1 - G) * std::pow(1 - G, 4) * alpha + G) * std::pow(1 - G, 3);
    EXPECT_DOUBLE_EQ(rp.GetAlpha(Us(22)), alpha2);
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(22)), first * (1 - alpha2 / 2));
}

TEST(DcqcnRateController, AlphaDecaysEveryPeriodWithoutCnp)
{
    DcqcnRateController rp(Round());
    rp.OnCnp(Time(0));
    // [0,1) had the CNP (alpha stays 1), then 999 periods without: (1 - g)^999.
    EXPECT_NEAR(rp.GetAlpha(MicroSeconds(1000)), std::pow(1 - G, 999), 1e-15);
    // Asking more often changes nothing: the periods are the same.
    DcqcnRateController step(Round());
    step.OnCnp(Time(0));
    for (int us = 1; us <= 1000; ++us)
    {
        step.GetAlpha(MicroSeconds(us));
    }
    EXPECT_NEAR(step.GetAlpha(MicroSeconds(1000)), std::pow(1 - G, 999), 1e-15);
}

TEST(DcqcnRateController, TimerDrivesFastRecoveryThenAdditiveThenHyperIncrease)
{
    DcqcnParameters p = Round();
    p.increaseTimer = MicroSeconds(50);
    DcqcnRateController rp(p);
    rp.OnCnp(Us(10));
    double alpha = std::pow(1 - G, 3);
    double rc = L * (1 - alpha / 2); // cut at 14 us; the timer restarts there
    double rt = L;
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(63.999)), rc);
    // 64 us, no expiry before it (T = 0 < F): fast recovery, R_T unchanged.
    rc = (rc + rt) / 2;
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(64)), rc);
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(Us(64)), rt);
    // 114 us, T = 1 = F: additive increase, R_T capped at the line rate.
    rt = std::min(L, rt + AI);
    rc = (rc + rt) / 2;
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(114)), rc);
    // A second CNP: the timer has increased since the cut, so R_T <- R_C (clamp).
    rp.OnCnp(Us(115));
    // Alpha at 118 us: from 14 us, [14,115) 101 decays, [115,116) the CNP, [116,118) 2.
    double alpha2 = ((1 - G) * std::pow(1 - G, 101) * alpha + G) * std::pow(1 - G, 2);
    rt = rc;
    rc = rc * (1 - alpha2 / 2);
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(118)), rc);
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(Us(118)), rt);
    // 168 us fast recovery; 218 us additive; 268 us and 318 us hyper (T = 2, 3 > F).
    rc = (rc + rt) / 2;
    rt += AI;
    rc = (rc + rt) / 2;
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(218)), rc);
    rt += HAI;
    rc = (rc + rt) / 2;
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(268)), rc);
    rt += HAI;
    rc = (rc + rt) / 2;
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(318)), rc);
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(Us(318)), rt);
}

TEST(DcqcnRateController, ByteCounterAloneNeverReachesHyperIncrease)
{
    DcqcnParameters p = Round();
    p.byteCounter = 1000000;
    DcqcnRateController rp(p);
    rp.OnCnp(Us(10));
    double rc = L * (1 - std::pow(1 - G, 3) / 2);
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(14)), rc);
    rp.OnSent(999999, Us(15));
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(15)), rc) << "one byte short of the counter";
    rp.OnSent(1, Us(15));
    rc = (rc + L) / 2; // BC = 0 < F: fast recovery towards R_T = L
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(15)), rc);
    // BC = 1 = F: additive; BC = 2 > F but T = 0: min(T, BC) = 0, still additive. R_T is
    // the line rate, so each step is the average with L (R_T capped).
    rp.OnSent(2000000, Us(16));
    rc = (rc + L) / 2;
    rc = (rc + L) / 2;
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(16)), rc);
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(Us(16)), L);
}

TEST(DcqcnRateController, ByteIncreasesDoNotClampTheTarget)
{
    // ConnectX's clamp_tgt_rate_after_time_inc: a cut resets R_T only after a timer increase.
    DcqcnParameters p = Round();
    p.byteCounter = 1000;
    DcqcnRateController rp(p);
    rp.OnCnp(Us(10));
    rp.OnSent(1000, Us(15)); // fast recovery by bytes: R_C below L, R_T = L
    rp.OnCnp(Us(16));
    EXPECT_LT(rp.GetRate(Us(18)), L);
    EXPECT_DOUBLE_EQ(rp.GetTargetRate(Us(18)), L);
    // clampAlways (the DCQCN paper's rule): every cut sets R_T to the rate before it.
    p.clampAlways = true;
    DcqcnRateController paper(p);
    paper.OnCnp(Us(10));
    paper.OnSent(1000, Us(15));
    double before = paper.GetRate(Us(16));
    paper.OnCnp(Us(16));
    EXPECT_DOUBLE_EQ(paper.GetTargetRate(Us(18)), before);
}

TEST(DcqcnRateController, ZeroDecreasePeriodCutsOnEveryCnp)
{
    DcqcnParameters p = Round();
    p.decreasePeriod = Time(0);
    DcqcnRateController rp(p);
    rp.OnCnp(Us(10)); // alpha 1 (no period has ended): halves at once
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(10)), L / 2);
    rp.OnCnp(Us(10.5)); // still in the first alpha period: alpha 1, halves again
    EXPECT_DOUBLE_EQ(rp.GetRate(Us(10.5)), L / 4);
}

TEST(DcqcnRateController, NeverBelowTheFloorAndBackToLineRateWhenIdle)
{
    DcqcnParameters p = Round();
    p.minRateBps = 20e9;
    p.increaseTimer = MicroSeconds(50);
    DcqcnRateController rp(p);
    for (int i = 0; i < 10; ++i)
    {
        rp.OnCnp(MicroSeconds(10 + 4 * i));
    }
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(50)), 20e9);
    // Idle for a second: every timer expiry applies, in order, and the line is reached
    // (within R_AI of it the rate snaps to it); an unthrottled sender has no timer.
    EXPECT_DOUBLE_EQ(rp.GetRate(Seconds(1)), L);
    EXPECT_FALSE(rp.IsThrottled());
}

TEST(DcqcnProfile, ConnectXFirmwareDefaults)
{
    // Values from NVIDIA's DCQCN parameter documentation and mlxconfig dumps (design doc).
    DcqcnProfile cx7 = DcqcnProfile::Get("cx7", 200e9);
    const DcqcnParameters& rp = cx7.reactionPoint;
    EXPECT_DOUBLE_EQ(rp.lineRateBps, 200e9);
    EXPECT_DOUBLE_EQ(rp.g, (1024 - 1019) / 1024.0);   // dce_tcp_g 1019
    EXPECT_EQ(rp.alphaPeriod, MicroSeconds(1));       // dce_tcp_rtt
    EXPECT_EQ(rp.decreasePeriod, MicroSeconds(4));    // rate_reduce_monitor_period
    EXPECT_EQ(rp.increaseTimer, MicroSeconds(300));   // rpg_time_reset
    EXPECT_EQ(rp.byteCounter, 32767U * 64);           // rpg_byte_reset (64-B units)
    EXPECT_EQ(rp.fastRecoveryStages, 1U);             // rpg_threshold
    EXPECT_DOUBLE_EQ(rp.additiveIncreaseBps, 5e6);    // rpg_ai_rate
    EXPECT_DOUBLE_EQ(rp.hyperIncreaseBps, 50e6);      // rpg_hai_rate
    EXPECT_DOUBLE_EQ(rp.minRateBps, 1e6);             // rpg_min_rate
    EXPECT_DOUBLE_EQ(rp.initialAlpha, 1023 / 1024.0); // initial_alpha_value 1023
    EXPECT_FALSE(rp.clampAlways);                     // clamp_tgt_rate 0
    EXPECT_EQ(cx7.cnpInterval, MicroSeconds(4));      // min_time_between_cnps
    EXPECT_TRUE(cx7.cnpIntervalPerPort);
    DcqcnProfile paper = DcqcnProfile::Get("paper-40g", 40e9);
    EXPECT_EQ(paper.reactionPoint.alphaPeriod, MicroSeconds(55));
    EXPECT_EQ(paper.reactionPoint.increaseTimer, MicroSeconds(55));
    EXPECT_EQ(paper.reactionPoint.byteCounter, 10000000U);
    EXPECT_EQ(paper.reactionPoint.fastRecoveryStages, 5U);
    EXPECT_EQ(paper.cnpInterval, MicroSeconds(50));
    EXPECT_FALSE(paper.cnpIntervalPerPort);
}

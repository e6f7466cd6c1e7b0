/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN reaction point, against hand-computed steps of the algorithm (line rate L = 400G,
 * g = 1/256, K = T = 55 us, B = 10 MB, F = 5, R_AI = 40 Mb/s).
 */

#include "ns3/dcqcn-rate-controller.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
constexpr double L = 400e9;
} // namespace

TEST(DcqcnRateController, StartsAtLineRateUnthrottled)
{
    DcqcnRateController rp;
    EXPECT_DOUBLE_EQ(rp.GetRate(Seconds(1)), L);
    EXPECT_FALSE(rp.IsThrottled());
}

TEST(DcqcnRateController, FirstCnpHalvesTheRateAndKeepsAlphaAtOne)
{
    DcqcnRateController rp;
    rp.OnCnp(Time(0));
    // R_C = L (1 - alpha / 2) with alpha = 1; alpha = (1 - g) 1 + g = 1.
    EXPECT_DOUBLE_EQ(rp.GetRate(Time(0)), L / 2);
    EXPECT_DOUBLE_EQ(rp.GetAlpha(), 1.0);
    rp.OnCnp(Time(0));
    EXPECT_DOUBLE_EQ(rp.GetRate(Time(0)), L / 4);
}

TEST(DcqcnRateController, TimerDrivesFastRecoveryThenAdditiveIncrease)
{
    DcqcnRateController rp;
    rp.OnCnp(Time(0)); // R_C = L/2, R_T = L
    // Each 55 us stage halves the gap to R_T = L: 3/4, 7/8, ... ; after 5: 63/64 L.
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(55)), 0.75 * L);
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(110)), 0.875 * L);
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(275)), L * 63 / 64);
    // Stage 6 is additive: R_T = min(L + R_AI, L) = L, R_C halves the gap again.
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(330)), L * 127 / 128);
    // The gap L / 2^k falls below R_AI = 40 Mb/s at k = 14 (24.4 Mb/s): stage 13 -> line.
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(55 * 12)), L * (1 - std::pow(0.5, 13)));
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(55 * 13)), L);
    EXPECT_FALSE(rp.IsThrottled());
}

TEST(DcqcnRateController, AlphaDecaysOncePerPeriodWithoutCnp)
{
    DcqcnRateController rp;
    rp.OnCnp(Time(0));
    rp.GetRate(MicroSeconds(550));
    EXPECT_NEAR(rp.GetAlpha(), std::pow(1 - 1.0 / 256, 10), 1e-12);
    // The next cut uses the decayed alpha.
    double before = rp.GetRate(MicroSeconds(550));
    rp.OnCnp(MicroSeconds(550));
    double alpha = std::pow(1 - 1.0 / 256, 10);
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(550)), before * (1 - alpha / 2));
}

TEST(DcqcnRateController, ByteCounterDrivesIncreasesToo)
{
    DcqcnRateController rp;
    rp.OnCnp(Time(0));
    rp.OnSent(10 * 1000 * 1000, MicroSeconds(1)); // one byte-counter stage: 3/4 L
    EXPECT_DOUBLE_EQ(rp.GetRate(MicroSeconds(1)), 0.75 * L);
}

TEST(DcqcnRateController, RateNeverFallsBelowTheFloor)
{
    DcqcnRateController rp;
    for (int k = 0; k < 100; ++k)
    {
        rp.OnCnp(Time(0));
    }
    EXPECT_DOUBLE_EQ(rp.GetRate(Time(0)), 100e6);
}

TEST(DcqcnRateController, ALateFirstCnpStillHalvesTheRate)
{
    // The timers start with the first CNP: 100 ms of uncongested sending leave alpha at 1.
    DcqcnRateController rp;
    rp.OnSent(1000 * 1000 * 1000, MilliSeconds(50));
    rp.OnCnp(MilliSeconds(100));
    EXPECT_DOUBLE_EQ(rp.GetRate(MilliSeconds(100)), L / 2);
    EXPECT_DOUBLE_EQ(rp.GetAlpha(), 1.0);
    EXPECT_DOUBLE_EQ(rp.GetRate(MilliSeconds(100) + MicroSeconds(55)), 0.75 * L);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The serialization clock: exact on average, never more than one time step off per frame.
 */

#include "ns3/line-rate.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(LineRate, WholeNanosecondFramesAreExact)
{
    LineRate clock(DataRate("100Gbps"));
    for (int k = 0; k < 10; ++k)
    {
        EXPECT_EQ(clock.Next(1250), NanoSeconds(100)); // 10000 bits / 100 Gb/s
    }
}

TEST(LineRate, FractionalFramesCarryTheRemainder)
{
    // 4110 bytes at 400 Gb/s = 82.2 ns: four frames of 82 ns, then one of 83 ns.
    LineRate clock(DataRate("400Gbps"));
    Time total(0);
    for (int k = 0; k < 5; ++k)
    {
        Time t = clock.Next(4110);
        EXPECT_TRUE(t == NanoSeconds(82) || t == NanoSeconds(83)) << t;
        total += t;
    }
    EXPECT_EQ(total, NanoSeconds(411));
    for (int k = 5; k < 1000; ++k)
    {
        total += clock.Next(4110);
    }
    EXPECT_EQ(total, NanoSeconds(82200)); // 1000 x 82.2 ns, no drift
}

TEST(LineRate, SetRateRestartsTheCarry)
{
    LineRate clock(DataRate("400Gbps"));
    clock.Next(4110);
    clock.SetRate(DataRate("10Gbps"));
    EXPECT_EQ(clock.GetRate(), DataRate("10Gbps"));
    EXPECT_EQ(clock.Next(1000), NanoSeconds(800));
}

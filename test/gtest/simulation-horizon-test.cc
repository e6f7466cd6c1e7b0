/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Durations scheduled from data stay inside the simulator's clock (int64 nanoseconds):
 * past 2^63 - 1 ns an event would wrap to a negative time (issue 11, item 5).
 */

#include "ns3/simulation-horizon.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// \return the message DelayWithinHorizon refuses \p ns with, or "" if it accepts it
std::string
HorizonError(double ns)
{
    try
    {
        DelayWithinHorizon(ns, []() { return std::string("rank 3 op 7 (compute)"); });
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(SimulationHorizon, DurationsRoundToTheNanosecond)
{
    auto none = []() { return std::string(); };
    EXPECT_EQ(DelayWithinHorizon(1.5e9, none), MilliSeconds(1500));
    EXPECT_EQ(DelayWithinHorizon(2.4, none), NanoSeconds(2));
    EXPECT_EQ(DelayWithinHorizon(2.5, none), NanoSeconds(3));
    EXPECT_EQ(DelayWithinHorizon(0, none), Seconds(0));
    // 9.2e18 ns fits below the horizon, 2^63 - 1 - 2^53 = 9.214365e18 ns.
    EXPECT_EQ(DelayWithinHorizon(9.2e18, none), NanoSeconds(9200000000000000000));
}

TEST(SimulationHorizon, BeyondTheClockIsAOneLineError)
{
    EXPECT_EQ(HorizonError(1e19),
              "rank 3 op 7 (compute): a duration of 1e+10 s at 0 s ends past the simulator's "
              "time range (2^63 ns, about 292 years)");
    EXPECT_EQ(HorizonError(-1), "rank 3 op 7 (compute): -1e-09 s is not a duration");
}

TEST(SimulationHorizon, TheRangeLeftShrinksWithTheClock)
{
    // At 9e18 ns, 2.1e17 ns more fit (9.21e18) and 2.2e17 do not (9.22e18 > 9.214365e18,
    // the horizon: 2^63 - 1 less 2^53 ns).
    std::string fits;
    std::string wraps;
    Simulator::Schedule(NanoSeconds(9000000000000000000), [&]() {
        fits = HorizonError(2.1e17);
        wraps = HorizonError(2.2e17);
    });
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(fits, "");
    EXPECT_EQ(wraps,
              "rank 3 op 7 (compute): a duration of 2.2e+08 s at 9e+09 s ends past the "
              "simulator's time range (2^63 ns, about 292 years)");
}

TEST(SimulationHorizon, AnEventThatCannotGoOnEndsTheRunWithItsReason)
{
    // Issue 31: the reason is kept and the run ends after that event (at 2 us, the event at
    // 3 us never runs); throwing out of the event instead left ns-3's running event leaked.
    std::vector<int> ran;
    HorizonGuard guard;
    guard.Arm();
    Time delay;
    Simulator::Schedule(MicroSeconds(1), [&]() { ran.push_back(1); });
    Simulator::Schedule(MicroSeconds(2), [&]() {
        ran.push_back(2);
        bool goesOn = EventDelayWithinHorizon(
            -5,
            []() { return std::string("op 4"); },
            delay);
        EXPECT_FALSE(goesOn);
        HorizonGuard::StopRun("a second reason"); // the first one stays
    });
    Simulator::Schedule(MicroSeconds(3), [&]() { ran.push_back(3); });
    Simulator::Run();
    EXPECT_EQ(Simulator::Now(), MicroSeconds(2));
    Simulator::Destroy();
    EXPECT_EQ(ran, (std::vector<int>{1, 2}));
    EXPECT_EQ(guard.GetFailure(), "op 4: -5e-09 s is not a duration");
}

TEST(SimulationHorizon, WithoutAGuardStopRunThrows)
{
    EXPECT_THROW(HorizonGuard::StopRun("no run"), std::runtime_error);
}

// ControllerFailover: when a controller takes over after each fault, and the outages of
// several faults merged (issue 30).
#include "ns3/controller-failover.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// The controller faults of the inline \p text.
std::vector<Fault>
Faults(const std::string& text)
{
    return FaultSchedule::Read("", text).GetFaults();
}

/// The outages of \p text's faults, in ms, with a failover of \p failoverMs.
std::vector<std::pair<double, double>>
OutagesMs(const std::string& text, double failoverMs)
{
    std::vector<std::pair<double, double>> ms;
    for (const auto& [down, up] :
         ControllerFailover::Outages(Faults(text), MilliSeconds(failoverMs)))
    {
        ms.emplace_back(down.GetMilliSeconds(), up.GetMilliSeconds());
    }
    return ms;
}

using Spans = std::vector<std::pair<double, double>>;

TEST(ControllerFailover, TakeoverIsTheStandbyOrTheRepairWhicheverComesFirst)
{
    Fault repaired = Faults("controller@1s-1.2s").front();
    EXPECT_EQ(ControllerFailover::TakeoverOf(repaired, MilliSeconds(500)), Seconds(1.2));
    EXPECT_EQ(ControllerFailover::TakeoverOf(repaired, MilliSeconds(100)), Seconds(1.1));
    Fault forGood = Faults("controller@1s").front();
    EXPECT_EQ(ControllerFailover::TakeoverOf(forGood, MilliSeconds(500)), Seconds(1.5));
    // A failover beyond the clock: only a repair ends the outage.
    EXPECT_EQ(ControllerFailover::TakeoverOf(forGood, Time::Max()), Time::Max());
    EXPECT_EQ(ControllerFailover::TakeoverOf(repaired, Time::Max()), Seconds(1.2));
}

TEST(ControllerFailover, OverlappingOrTouchingOutagesMerge)
{
    EXPECT_EQ(OutagesMs("controller@5ms-30ms,controller@20ms-55ms", 500), (Spans{{5, 55}}));
    EXPECT_EQ(OutagesMs("controller@5ms-20ms,controller@20ms-55ms", 500), (Spans{{5, 55}}));
    EXPECT_EQ(OutagesMs("controller@5ms-10ms,controller@20ms-55ms", 500),
              (Spans{{5, 10}, {20, 55}}));
    // The standby's takeover bounds each: 5 + 10 ms, then 20 + 10 ms.
    EXPECT_EQ(OutagesMs("controller@5ms,controller@20ms", 10), (Spans{{5, 15}, {20, 30}}));
    // One inside another.
    EXPECT_EQ(OutagesMs("controller@5ms-100ms,controller@20ms-30ms", 500), (Spans{{5, 100}}));
}

TEST(ControllerFailover, AZeroFailoverIsNoOutage)
{
    EXPECT_TRUE(OutagesMs("controller@5ms", 0).empty());
}

TEST(ControllerFailover, OtherFaultsGoToTheInjector)
{
    FaultSchedule schedule = FaultSchedule::Read("", "controller@1ms-2ms,nic:gpu0.port0@3ms");
    ControllerFailover failover(schedule, MilliSeconds(500));
    EXPECT_FALSE(failover.IsEmpty());
    ASSERT_EQ(failover.GetOtherFaults().GetFaults().size(), 1U);
    EXPECT_EQ(failover.GetOtherFaults().GetFaults().front().part, "nic:gpu0.port0");
    // Per fault: down, and the repair before the standby's takeover.
    ASSERT_EQ(failover.GetEvents().size(), 2U);
    EXPECT_EQ(failover.GetEvents()[0].event, "down");
    EXPECT_EQ(failover.GetEvents()[1].event, "up");
    EXPECT_EQ(failover.GetStall(), Time(0));

    ControllerFailover slow(FaultSchedule::Read("", "controller@1ms-2s"), MilliSeconds(500));
    ASSERT_EQ(slow.GetEvents().size(), 3U);
    EXPECT_EQ(slow.GetEvents()[1].event, "standby takes over");
    EXPECT_EQ(slow.GetEvents()[1].at, MilliSeconds(501));
    EXPECT_TRUE(
        ControllerFailover(FaultSchedule::Read("", "nic:gpu0.port0@3ms"), Seconds(1)).IsEmpty());
}

} // namespace

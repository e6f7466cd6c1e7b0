// DelayMsList: the --delays rules shared by the programs that sweep reconfiguration delays
// (issue 11, review fix11, D).
#include "ns3/delay-ms-list.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The message Parse() refuses \p text with, or "accepted".
std::string
Refusal(const std::string& text)
{
    try
    {
        DelayMsList::Parse(text);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST(DelayMsList, PlainMillisecondsInTheOrderGiven)
{
    EXPECT_EQ(DelayMsList::Parse("25,0,2.5,1e3"), (std::vector<double>{25, 0, 2.5, 1000}));
    // Whole ns: 1.5e-6 ms is 1.5 ns, rounded to 2 ns; 1e9 ms is the longest delay.
    EXPECT_EQ(DelayMsList::Parse("1e-6,1.5e-6,1e9"), (std::vector<double>{1e-6, 2e-6, 1e9}));
    EXPECT_EQ(DelayMsList::ParseItem("0e-400"), 0.0); // no non-zero digit: 0
}

TEST(DelayMsList, RefusesWhatTheSweepRefuses)
{
    EXPECT_EQ(Refusal("1e-400"),
              "--delays: '1e-400' ms is below the simulator's resolution of 1 ns (1e-6 ms; use "
              "0 for none)");
    EXPECT_EQ(Refusal("0,5e-7"),
              "--delays: '5e-7' ms is below the simulator's resolution of 1 ns (1e-6 ms; use 0 "
              "for none)");
    EXPECT_EQ(Refusal("0,0"), "--delays names 0 ms twice");
    EXPECT_EQ(Refusal("1,1.0"), "--delays names 1.0 ms twice");
    EXPECT_EQ(Refusal("1e9,1000000001"), "--delays: '1000000001' ms is longer than 10^6 s");
    EXPECT_EQ(Refusal("1e400"), "--delays: '1e400' ms is longer than 10^6 s");
    EXPECT_EQ(Refusal("25ms"),
              "--delays: '25ms' is not a delay in ms (a number >= 0 without a unit, e.g. 25)");
    EXPECT_EQ(Refusal("-1"),
              "--delays: '-1' is not a delay in ms (a number >= 0 without a unit, e.g. 25)");
    EXPECT_EQ(Refusal("0,,1"), "--delays has an empty item in '0,,1'");
}

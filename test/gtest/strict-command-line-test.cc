/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The programs' strict flag parsing: lists, durations and repeated flags are refused with
 * a one-line reason that quotes what was typed (issue 11, items 11 and 15).
 */

#include "ns3/strict-command-line.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// \return the message SplitList refuses \p text with, or "" if it accepts it
std::string
SplitError(const std::string& text)
{
    try
    {
        StrictCommandLine::SplitList("fabric", text);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// \return the message ParseTime refuses \p text with, or "" if it accepts it
std::string
TimeError(const std::string& text)
{
    try
    {
        StrictCommandLine::ParseTime("reconfigDelay", text);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// \return the message Parse refuses \p args with, or "" if it accepts them
std::string
ParseError(std::vector<std::string> args)
{
    std::string fabric{"eps"};
    uint32_t servers{0};
    StrictCommandLine cmd(__FILE__, "test");
    cmd.Add("fabric", "rails", fabric);
    cmd.Add("servers", "servers", servers);
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& arg : args)
    {
        argv.push_back(arg.data());
    }
    try
    {
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(StrictCommandLine, ListsSplitOnEveryComma)
{
    EXPECT_EQ(StrictCommandLine::SplitList("fabric", "eps"), std::vector<std::string>{"eps"});
    EXPECT_EQ(StrictCommandLine::SplitList("fabric", "eps,ocs"),
              (std::vector<std::string>{"eps", "ocs"}));
}

TEST(StrictCommandLine, AnEmptyItemAnywhereIsRefused)
{
    // A trailing comma used to be dropped silently while a leading one was refused.
    EXPECT_EQ(SplitError("eps,"), "--fabric has an empty item in 'eps,'");
    EXPECT_EQ(SplitError(",eps"), "--fabric has an empty item in ',eps'");
    EXPECT_EQ(SplitError("eps,,ocs"), "--fabric has an empty item in 'eps,,ocs'");
    EXPECT_EQ(SplitError(","), "--fabric has an empty item in ','");
    EXPECT_EQ(SplitError(""), "--fabric needs at least one item");
}

TEST(StrictCommandLine, DurationsInEveryUnit)
{
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "25ms"), MilliSeconds(25));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1.5s"), MilliSeconds(1500));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "100us"), MicroSeconds(100));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "7ns"), NanoSeconds(7));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "2"), Seconds(2));
    // The largest accepted: 10^6 s = 10^15 ns.
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1e6s"), NanoSeconds(1000000000000000));
    // Below a double's range it is 0, as any duration under half a nanosecond.
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1e-400s"), Seconds(0));
}

TEST(StrictCommandLine, DurationsOutOfRangeSaySo)
{
    // 1e400 is beyond a double: std::stod threw std::out_of_range("stod").
    EXPECT_EQ(TimeError("1e400s"), "--reconfigDelay: '1e400s' is out of range (at most 10^6 s)");
    EXPECT_EQ(TimeError("1000001s"),
              "--reconfigDelay: '1000001s' is out of range (at most 10^6 s)");
    EXPECT_EQ(TimeError("1e12ms"), "--reconfigDelay: '1e12ms' is out of range (at most 10^6 s)");
    EXPECT_EQ(TimeError("-1s"),
              "--reconfigDelay: '-1s' is not a duration (e.g. 25ms, 1.5s, 100us)");
}

TEST(StrictCommandLine, AFlagGivenTwiceIsRefused)
{
    EXPECT_EQ(ParseError({"--fabric=eps", "--servers=2"}), "");
    // ns-3's CommandLine keeps the last value silently.
    EXPECT_EQ(ParseError({"--fabric=eps", "--fabric=ocs"}),
              "--fabric is given twice (give each flag once)");
    EXPECT_EQ(ParseError({"--servers=2", "--fabric=eps", "--servers=2"}),
              "--servers is given twice (give each flag once)");
}

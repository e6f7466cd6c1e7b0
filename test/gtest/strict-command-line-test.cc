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

/// \return the message Parse refuses `--n=\p text` with for a flag of type T, or "" and the
///         value read
template <typename T>
std::pair<std::string, T>
ParseInteger(const std::string& text)
{
    T value{0};
    StrictCommandLine cmd(__FILE__, "test");
    cmd.Add("n", "a number", value);
    std::string program = "program";
    std::string arg = "--n=" + text;
    std::vector<char*> argv = {program.data(), arg.data()};
    try
    {
        cmd.Parse(2, argv.data());
    }
    catch (const std::invalid_argument& e)
    {
        return {e.what(), T{0}};
    }
    return {"", value};
}
} // namespace

TEST(StrictCommandLine, IntegersWithinTheirVariablesRange)
{
    // A 64-bit flag takes 64-bit values (they were capped at 2^32 - 1).
    EXPECT_EQ(ParseInteger<uint64_t>("1099511627776").second, uint64_t(1) << 40);
    EXPECT_EQ(ParseInteger<uint64_t>("18446744073709551615").second, UINT64_MAX);
    EXPECT_EQ(ParseInteger<uint64_t>("18446744073709551616").first,
              "bad value for --n: '18446744073709551616' (expected an integer in [0, "
              "18446744073709551615])");
    EXPECT_EQ(ParseInteger<uint32_t>("4294967295").second, UINT32_MAX);
    EXPECT_EQ(ParseInteger<uint32_t>("4294967296").first,
              "bad value for --n: '4294967296' (expected an integer in [0, 4294967295])");
    EXPECT_EQ(ParseInteger<uint32_t>("-1").first,
              "bad value for --n: '-1' (expected an integer in [0, 4294967295])");
    EXPECT_EQ(ParseInteger<int32_t>("-5").second, -5);
    EXPECT_EQ(ParseInteger<int32_t>("2147483648").first,
              "bad value for --n: '2147483648' (expected an integer in [-2147483648, "
              "2147483647])");
    // Not decimal digits: CommandLine would read 1e3 as 1 and 0x10 as 0.
    for (const char* text : {"1e3", "0x10", "", "-", "+5", "1.0", " 7"})
    {
        EXPECT_EQ(ParseInteger<uint32_t>(text).first,
                  std::string("bad value for --n: '") + text +
                      "' (expected a non-negative integer)")
            << text;
    }
}

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
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0"), Seconds(0));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0.6ns"), NanoSeconds(1));
}

TEST(StrictCommandLine, DurationsBelowOneNanosecondAreRefused)
{
    // They rounded silently to 0 (no delay at all).
    EXPECT_EQ(TimeError("0.4ns"),
              "--reconfigDelay: '0.4ns' is below the simulator's resolution of 1 ns (use 0 for "
              "none)");
    EXPECT_EQ(TimeError("1e-400s"),
              "--reconfigDelay: '1e-400s' is below the simulator's resolution of 1 ns (use 0 for "
              "none)");
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

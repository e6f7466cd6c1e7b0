/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The programs' strict flag parsing: lists, durations and repeated flags are refused with
 * a one-line reason that quotes what was typed (issue 11, items 11 and 15, and the review's
 * flag defects: durations without a unit, numbers that underflow to 0, messages).
 */

#include "ns3/strict-command-line.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <sstream>
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
    for (const char* text : {"1e3", "0x10", "-", "+5", "1.0", " 7"})
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
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "2s"), Seconds(2));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "10min"), Seconds(600));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1.5h"), Seconds(5400));
    // The largest accepted: 10^6 s = 10^15 ns.
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1e6s"), NanoSeconds(1000000000000000));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0"), Seconds(0));
    // The smallest positive, in every unit.
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1ns"), NanoSeconds(1));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0.001us"), NanoSeconds(1));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1e-6ms"), NanoSeconds(1));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1e-9s"), NanoSeconds(1));
    // Decimal fractions of larger units that are whole nanoseconds, a leading or trailing
    // point.
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "1.1us"), NanoSeconds(1100));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0.123456789s"), NanoSeconds(123456789));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", ".5us"), NanoSeconds(500));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "5.us"), MicroSeconds(5));
}

TEST(StrictCommandLine, DurationsBetweenTwoNanosecondsAreRefused)
{
    // 1.4ns was taken as 1 ns and 1.6ns as 2 ns, so 1.5ns-2.4ns was an empty outage.
    EXPECT_EQ(TimeError("1.4ns"),
              "--reconfigDelay: '1.4ns' is not a whole number of nanoseconds (the simulator's "
              "resolution)");
    EXPECT_EQ(TimeError("100.0000001us"),
              "--reconfigDelay: '100.0000001us' is not a whole number of nanoseconds (the "
              "simulator's resolution)");
    // A millionth of a nanosecond off is off (the tolerance was 1e-6 ns).
    EXPECT_EQ(TimeError("1.000001ns"),
              "--reconfigDelay: '1.000001ns' is not a whole number of nanoseconds (the "
              "simulator's resolution)");
    EXPECT_EQ(TimeError("1.000000001ns"),
              "--reconfigDelay: '1.000000001ns' is not a whole number of nanoseconds (the "
              "simulator's resolution)");
    // Decimals of a larger unit that a double cannot hold exactly are still whole: every
    // whole number of ns below 10 ms written in ms, us and s.
    for (int64_t n = 1; n < 10000000; n += 997)
    {
        char text[64];
        std::snprintf(text, sizeof(text), "%.6fms", n / 1e6);
        EXPECT_EQ(StrictCommandLine::ParseTime("t", text), NanoSeconds(n)) << text;
        std::snprintf(text, sizeof(text), "%.3fus", n / 1e3);
        EXPECT_EQ(StrictCommandLine::ParseTime("t", text), NanoSeconds(n)) << text;
        std::snprintf(text, sizeof(text), "%.9fs", n / 1e9);
        EXPECT_EQ(StrictCommandLine::ParseTime("t", text), NanoSeconds(n)) << text;
    }
    EXPECT_EQ(StrictCommandLine::ParseTime("t", "0.1us"), NanoSeconds(100));
    EXPECT_EQ(StrictCommandLine::ParseTime("t", "1.1ms"), NanoSeconds(1100000));
    EXPECT_EQ(StrictCommandLine::ParseTime("t", "123456.789012345s"), NanoSeconds(123456789012345));
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
    // 0.6ns used to round up to 1 ns while 0.4ns was refused: below 1 ns is refused.
    EXPECT_EQ(TimeError("0.6ns"),
              "--reconfigDelay: '0.6ns' is below the simulator's resolution of 1 ns (use 0 for "
              "none)");
    EXPECT_EQ(TimeError("9e-10s"),
              "--reconfigDelay: '9e-10s' is below the simulator's resolution of 1 ns (use 0 for "
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

// ---- Issue 11, review: flags ----------------------------------------------------------------

namespace
{
/// \return the message Parse refuses `--n=\p text` with for a double flag, or "" and the
///         value read
std::pair<std::string, double>
ParseDouble(const std::string& text)
{
    double value{-1};
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
        return {e.what(), -1};
    }
    return {"", value};
}

/// \return the message CheckRange refuses \p value with for flag --n (Gb/s in [0.001,
///         10000], 0 for the preset's), or ""
std::string
RangeError(double value)
{
    try
    {
        StrictCommandLine::CheckRange("n", value, 0.001, 10000, "Gb/s", "the preset's");
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(StrictCommandLine, DurationsNeedAUnitUnlessZero)
{
    // A bare number was seconds: --reconfigDelay=25 ran a 25-s delay where 25 ms was meant.
    EXPECT_EQ(TimeError("25"), "--reconfigDelay: '25' has no unit (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(TimeError("1.5"), "--reconfigDelay: '1.5' has no unit (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(TimeError("1e3"), "--reconfigDelay: '1e3' has no unit (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(TimeError("1e-400"),
              "--reconfigDelay: '1e-400' has no unit (e.g. 25ms, 1.5s, 100us)");
    // 0 is 0 in every unit.
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0"), Seconds(0));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0.0"), Seconds(0));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0e5"), Seconds(0));
    EXPECT_EQ(StrictCommandLine::ParseTime("d", "0ms"), Seconds(0));
}

TEST(StrictCommandLine, NumbersThatUnderflowToZeroAreRefused)
{
    // 1e-400 read as 0, which means "the preset's" (--nicRate) or "free" (--reduceGBps).
    EXPECT_EQ(ParseDouble("1e-400").first,
              "bad value for --n: '1e-400' is too small (underflows to 0)");
    EXPECT_EQ(ParseDouble("-1e-400").first,
              "bad value for --n: '-1e-400' is too small (underflows to 0)");
    EXPECT_EQ(ParseDouble("0.0001e-400").first,
              "bad value for --n: '0.0001e-400' is too small (underflows to 0)");
    // Zero as typed is zero; a subnormal is not 0 (its range check refuses it).
    EXPECT_EQ(ParseDouble("0").second, 0.0);
    EXPECT_EQ(ParseDouble("0.000e-400").second, 0.0);
    EXPECT_EQ(ParseDouble("1e-310").second, 1e-310);
    EXPECT_EQ(ParseDouble("2.5").second, 2.5);
}

TEST(StrictCommandLine, NumbersBeyondADoubleAreOutOfRange)
{
    // They said "expected a number".
    EXPECT_EQ(ParseDouble("1e400").first,
              "bad value for --n: '1e400' is out of range (beyond the largest number, about "
              "1.8e308)");
    EXPECT_EQ(ParseDouble("-1e400").first,
              "bad value for --n: '-1e400' is out of range (beyond the largest number, about "
              "1.8e308)");
    EXPECT_EQ(ParseDouble("abc").first, "bad value for --n: 'abc' (expected a number)");
    EXPECT_EQ(ParseDouble("0x10").first, "bad value for --n: '0x10' (expected a number)");
}

TEST(StrictCommandLine, RangeErrorsQuoteTheValueAsTyped)
{
    // --nicRate=1e18 was echoed as 1e+18.
    EXPECT_EQ(ParseDouble("1e18").second, 1e18);
    EXPECT_EQ(RangeError(1e18),
              "--n=1e18 is out of range: Gb/s in [0.001, 10000], or 0 for the preset's");
    EXPECT_EQ(ParseDouble("1000000000000000000").second, 1e18);
    EXPECT_EQ(RangeError(1e18),
              "--n=1000000000000000000 is out of range: Gb/s in [0.001, 10000], or 0 for the "
              "preset's");
    // A value the command line did not give (a program's own) is formatted.
    EXPECT_EQ(RangeError(2e18),
              "--n=2e+18 is out of range: Gb/s in [0.001, 10000], or 0 for the preset's");
    EXPECT_EQ(RangeError(5), "");
    EXPECT_EQ(RangeError(0), "");
}

TEST(StrictCommandLine, AnEmptyValueSaysItIsEmpty)
{
    // It said "expected a value without blanks".
    EXPECT_EQ(ParseError({"--fabric="}),
              "bad value for --fabric: it is empty (expected a value without blanks)");
    EXPECT_EQ(ParseError({"--fabric"}),
              "bad value for --fabric: it is empty (expected a value without blanks)");
    EXPECT_EQ(ParseError({"--servers="}),
              "bad value for --servers: it is empty (expected a non-negative integer)");
    EXPECT_EQ(ParseDouble("").first, "bad value for --n: it is empty (expected a number)");
    EXPECT_EQ(ParseError({"--fabric=a b"}),
              "bad value for --fabric: 'a b' (expected a value without blanks)");
}

TEST(StrictCommandLine, ControlCharactersAreShownEscaped)
{
    // A terminal showed '\x01' as ''.
    EXPECT_EQ(ParseInteger<uint32_t>("\x01").first,
              "bad value for --n: '\\x01' (expected a non-negative integer)");
    EXPECT_EQ(ParseError({"--fabric=eps\tocs"}),
              "bad value for --fabric: 'eps\\x09ocs' (expected a value without blanks)");
    EXPECT_EQ(ParseError({"--fab\x1bric=eps"}), "unknown flag --fab\\x1bric (see --help)");
    EXPECT_EQ(TimeError("1\x7fs"),
              "--reconfigDelay: '1\\x7fs' is not a duration (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(SplitError("\x01,"), "--fabric has an empty item in '\\x01,'");
    EXPECT_EQ(StrictCommandLine::Quote("a\x1f\x7f\xc3\xa9"), "'a\\x1f\\x7f\xc3\xa9'");
}

// ---- Issue 11, review fix11, C: a flag's range is registered with it ------------------------

namespace
{

/// The flags of RangedParse: ranges as photonic-rails-sim, the generator and
/// ocs-circuit-example register them.
struct RangedFlags
{
    uint32_t iterations{1};
    uint32_t nicPorts{0};
    double mfu{0.5};
    uint32_t mtu{9000};
    uint64_t bytes{1000};
};

/// Registers RangedFlags on \p cmd: --bytes is in [1, 500000 x --mtu].
void
AddRangedFlags(StrictCommandLine& cmd, RangedFlags& f)
{
    cmd.Add("iterations",
            "replays",
            f.iterations,
            FlagRange{1, 1000000, "replays of the workload"});
    cmd.Add("nicPorts", "ports", f.nicPorts, FlagRange{1, 64, "NIC ports per GPU", "the preset's"});
    cmd.Add("mfu",
            "model FLOPs utilization",
            f.mfu,
            FlagRange{0.001, 1, "model FLOPs utilization"});
    cmd.Add("mtu", "frame payload", f.mtu, FlagRange{1, 65000, "frame payload bytes"});
    cmd.Add("bytes", "bytes per flow, at most 500000 frames of --mtu", f.bytes, [&f]() {
        return FlagRange{1, 500000.0 * f.mtu, "bytes per flow (at most 500000 frames of --mtu)"};
    });
}

/// \return the message Parse refuses \p args with, or "" (and the values in \p flags)
std::string
RangedParse(std::vector<std::string> args, RangedFlags* flags = nullptr)
{
    RangedFlags f;
    StrictCommandLine cmd(__FILE__, "test");
    AddRangedFlags(cmd, f);
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
    if (flags != nullptr)
    {
        *flags = f;
    }
    return "";
}

} // namespace

TEST(StrictCommandLine, ValuesBeyondTheTypeNameTheFlagsRange)
{
    // They named the variable's type: "integer in [0, 4294967295]".
    const std::string iterations = " is out of range: replays of the workload in [1, 1000000]";
    EXPECT_EQ(RangedParse({"--iterations=-1"}), "--iterations=-1" + iterations);
    EXPECT_EQ(RangedParse({"--iterations=4294967296"}), "--iterations=4294967296" + iterations);
    EXPECT_EQ(RangedParse({"--iterations=0"}), "--iterations=0" + iterations);
    EXPECT_EQ(RangedParse({"--iterations=1000001"}), "--iterations=1000001" + iterations);
    EXPECT_EQ(RangedParse({"--nicPorts=-1"}),
              "--nicPorts=-1 is out of range: NIC ports per GPU in [1, 64], or 0 for the preset's");
    EXPECT_EQ(RangedParse({"--mfu=1e400"}),
              "--mfu=1e400 is out of range: model FLOPs utilization in [0.001, 1]");
    EXPECT_EQ(RangedParse({"--mfu=0"}),
              "--mfu=0 is out of range: model FLOPs utilization in [0.001, 1]");
    // Not a number at all is still that (no range can make it one).
    EXPECT_EQ(RangedParse({"--iterations=x"}),
              "bad value for --iterations: 'x' (expected a non-negative integer)");
    RangedFlags f;
    EXPECT_EQ(RangedParse({"--iterations=1000000", "--nicPorts=0", "--mfu=0.001"}, &f), "");
    EXPECT_EQ(f.iterations, 1000000u);
    EXPECT_EQ(f.nicPorts, 0u);
    EXPECT_EQ(f.mfu, 0.001);
}

TEST(StrictCommandLine, ARangeThatDependsOnAnotherFlagUsesItsValue)
{
    // 500000 frames of the default 9000 bytes: 4500000000; of --mtu=1, 500000, wherever
    // --mtu stands.
    const std::string what =
        " is out of range: bytes per flow (at most 500000 frames of --mtu) in ";
    EXPECT_EQ(RangedParse({"--bytes=-1"}), "--bytes=-1" + what + "[1, 4500000000]");
    EXPECT_EQ(RangedParse({"--bytes=18446744073709551616", "--mtu=1"}),
              "--bytes=18446744073709551616" + what + "[1, 500000]");
    EXPECT_EQ(RangedParse({"--mtu=1", "--bytes=500001"}), "--bytes=500001" + what + "[1, 500000]");
    EXPECT_EQ(RangedParse({"--bytes=500000", "--mtu=1"}), "");
}

TEST(StrictCommandLine, TheHelpStatesTheRange)
{
    RangedFlags f;
    StrictCommandLine cmd(__FILE__, "test");
    AddRangedFlags(cmd, f);
    std::ostringstream help;
    cmd.PrintHelp(help);
    EXPECT_NE(help.str().find("--mfu:         model FLOPs utilization (in [0.001, 1]) [0.5]"),
              std::string::npos)
        << help.str();
    EXPECT_NE(help.str().find("(in [1, 64], or 0 for the preset's) [0]"), std::string::npos)
        << help.str();
}

// A flag registered twice (the fault sweep's --gpu and the generator's) worked for neither:
// registering it again is refused.
TEST(StrictCommandLine, AFlagRegisteredTwiceIsRefused)
{
    StrictCommandLine cmd("strict-command-line-test.cc", "test");
    std::string model{"a100"};
    uint32_t gpu{5};
    cmd.Add("gpu", "GPU model", model);
    EXPECT_THROW(cmd.Add("gpu", "the GPU that fails", gpu), std::logic_error);
}

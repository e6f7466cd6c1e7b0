/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Attribute values as typed on a command line (issue 34, items 3 and 4): what ns-3 would
 * abort on, wrap, or read as another value is refused in one line, for every kind of value.
 * The checkers are ns-3's own, with the ranges the models use.
 */

#include "ns3/attribute-value-text.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// \return the message AttributeValueText refuses \p text with, or "" if it takes it
std::string
Error(const std::string& text, Ptr<const AttributeChecker> checker)
{
    try
    {
        AttributeValueText::Check("ns3::T::A", text, checker);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// \return the one-line message for \p text, expecting \p what
std::string
Bad(const std::string& text, const std::string& what)
{
    return "bad value for --ns3::T::A: '" + text + "' (expected " + what + ")";
}

} // namespace

TEST(AttributeValueText, UnsignedIntegersAreDecimalDigitsWithinTheRange)
{
    auto window = MakeUintegerChecker<uint32_t>(1); // RailTransport::Window
    EXPECT_EQ(Error("4096", window), "");
    EXPECT_EQ(Error("4294967295", window), "");
    const std::string range = "an integer in [1, 4294967295]";
    // ns-3 aborts on these ("not properly formatted"): a word, an exponent, a fraction.
    for (const char* text : {"abc", "1e3", "1.5", "0x10", "", " 8", "8 "})
    {
        EXPECT_EQ(Error(text, window), Bad(text, range)) << text;
    }
    // Wrapped by ns-3: -1 is 2^64 - 1 to a stream, which a 64-bit range takes.
    auto buffer = MakeUintegerChecker<uint64_t>(1); // EpsSwitch::BufferSize
    EXPECT_EQ(Error("-1", buffer), Bad("-1", "an integer in [1, 18446744073709551615]"));
    EXPECT_EQ(Error("18446744073709551615", buffer), "");
    EXPECT_EQ(Error("18446744073709551616", buffer),
              Bad("18446744073709551616", "an integer in [1, 18446744073709551615]"));
    // Beyond the checker's range, within the type.
    EXPECT_EQ(Error("0", window), Bad("0", range));
    EXPECT_EQ(Error("4294967296", window), Bad("4294967296", range));
}

TEST(AttributeValueText, SignedIntegersMayHaveASign)
{
    auto stream = MakeIntegerChecker<int64_t>(); // RandomVariableStream::Stream
    const std::string range = "an integer in [-9223372036854775808, 9223372036854775807]";
    EXPECT_EQ(Error("-1", stream), "");
    EXPECT_EQ(Error("+7", stream), "");
    EXPECT_EQ(Error("-9223372036854775808", stream), "");
    EXPECT_EQ(Error("9223372036854775808", stream), Bad("9223372036854775808", range));
    EXPECT_EQ(Error("1e3", stream), Bad("1e3", range));
    EXPECT_EQ(Error("-", stream), Bad("-", range));
}

TEST(AttributeValueText, NumbersAreFiniteAndDoNotUnderflow)
{
    auto pmax = MakeDoubleChecker<double>(0.0, 1.0); // EpsSwitch::EcnPmax
    const std::string range = "a number in [0, 1]";
    EXPECT_EQ(Error("0.2", pmax), "");
    EXPECT_EQ(Error("1e-3", pmax), "");
    EXPECT_EQ(Error(".5", pmax), "");
    // nan and inf abort ns-3's reading; 1e400 is beyond a double; 1e-400 is not 0.
    for (const char* text : {"nan", "inf", "-inf", "1e400", "1e-400", "0.2x", "", "abc"})
    {
        EXPECT_EQ(Error(text, pmax), Bad(text, range)) << text;
    }
    EXPECT_EQ(Error("1.5", pmax), Bad("1.5", range));
    EXPECT_EQ(Error("-0.1", pmax), Bad("-0.1", range));
}

TEST(AttributeValueText, DurationsFollowTheFlagsRules)
{
    auto delay = MakeTimeChecker(); // EpsChannel::Delay: the whole signed clock
    EXPECT_EQ(Error("50ns", delay), "");
    EXPECT_EQ(Error("+50ns", delay), ""); // as --PrintAttributes shows it
    EXPECT_EQ(Error("0", delay), "");
    EXPECT_EQ(Error("1e6s", delay), "");
    // ns-3 reads 1e400s as 0 and 1e19 ns past its clock (it wraps): at most 10^6 s.
    EXPECT_EQ(Error("1e400s", delay), "--ns3::T::A: '1e400s' is out of range (at most 10^6 s)");
    EXPECT_EQ(Error("1e19ns", delay), "--ns3::T::A: '1e19ns' is out of range (at most 10^6 s)");
    EXPECT_EQ(Error("-5ns", delay),
              "--ns3::T::A: '-5ns' is not a duration (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(Error("0.4ns", delay),
              "--ns3::T::A: '0.4ns' is below the simulator's resolution of 1 ns (use 0 for none)");
    EXPECT_EQ(Error("5", delay), "--ns3::T::A: '5' has no unit (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(Error("5min", delay), "");
    EXPECT_EQ(Error("5days", delay),
              "--ns3::T::A: '5days' is not a duration (e.g. 25ms, 1.5s, 100us)");
    // RailTransport::RetransmitTimeout: at least 1 ns.
    EXPECT_EQ(Error("0", MakeTimeChecker(NanoSeconds(1))), Bad("0", "a duration of at least 1ns"));
}

TEST(AttributeValueText, DataRatesHaveAUnitAndFitInSixtyFourBits)
{
    auto rate = MakeDataRateChecker(); // RailTransport::DcqcnMinRate
    const std::string what = "a data rate such as 100Mbps or 25Gb/s, at most 10^15 bit/s";
    for (const char* text : {"100Mbps", "25Gb/s", "0bps", "1bps", "1.5GBps", "1000000Gbps"})
    {
        EXPECT_EQ(Error(text, rate), "") << text;
    }
    // ns-3 reads 1e3Gbps as a bad unit "e3Gbps", 0.5bps as 0 and 1e20 bit/s past 64 bits.
    for (const char* text :
         {"1e3Gbps", "0.5bps", "20000000000Gbps", "1000001Gbps", "100", "100 Mbps", "1.2.3Gbps"})
    {
        EXPECT_EQ(Error(text, rate), Bad(text, what)) << text;
    }
}

TEST(AttributeValueText, EnumsByTheirNames)
{
    enum Policy
    {
        HOLD,
        DROP
    };

    auto policy = MakeEnumChecker(HOLD, "Hold", DROP, "Drop"); // OcsNetDevice::NoCircuitPolicy
    EXPECT_EQ(Error("Drop", policy), "");
    // ns-3 asserts on an unknown name: undefined behaviour in a release build.
    EXPECT_EQ(Error("Foo", policy), Bad("Foo", "one of Hold, Drop"));
    EXPECT_EQ(Error("hold", policy), Bad("hold", "one of Hold, Drop"));
}

TEST(AttributeValueText, BooleansStringsAndTypeIdsAsNs3ReadsThem)
{
    EXPECT_EQ(Error("true", MakeBooleanChecker()), "");
    EXPECT_EQ(Error("0", MakeBooleanChecker()), "");
    EXPECT_EQ(Error("yes", MakeBooleanChecker()), Bad("yes", "bool"));
    EXPECT_EQ(Error("", MakeStringChecker()), "");
    EXPECT_EQ(Error("^A", MakeStringChecker()), "");
    EXPECT_EQ(Error("ns3::MapScheduler", MakeTypeIdChecker()), "");
    // ns-3 aborts on a name that is no TypeId.
    EXPECT_EQ(Error("ns3::Nothing", MakeTypeIdChecker()),
              Bad("ns3::Nothing", "a TypeId, see --PrintTypeIds"));
}

TEST(AttributeValueText, ObjectsCannotBeGiven)
{
    // RailNetDevice::TxQueue: ns-3 makes an object from the text, and aborts on "x".
    EXPECT_EQ(Error("x", MakePointerChecker<Queue<Packet>>()),
              "--ns3::T::A takes ns3::Ptr< ns3::Queue<Packet> > (ns3::PointerValue), which a "
              "command line cannot give");
    EXPECT_EQ(Error("ns3::DropTailQueue<Packet>", MakeObjectFactoryChecker()),
              "--ns3::T::A takes ObjectFactory (ObjectFactoryValue), which a command line "
              "cannot give");
}

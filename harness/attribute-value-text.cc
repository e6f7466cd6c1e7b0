/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-value-text.h"

#include "strict-command-line.h"

#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <cerrno>
#include <cstdlib>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// A decimal number as typed: sign, digits, point, exponent (no "nan", "inf" or "0x10").
const std::regex DECIMAL("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

/// Refuses \p text for flag \p name: "bad value for --NAME: 'TEXT' (expected WHAT)".
[[noreturn]] void
Refuse(const std::string& name, const std::string& text, const std::string& expected)
{
    throw std::invalid_argument("bad value for --" + name + ": " + StrictCommandLine::Quote(text) +
                                " (expected " + expected + ")");
}

/// \return bound \p i (0: least, 1: greatest) of a numeric checker, as its description
///         ("uint32_t 1:4294967295", "Time +1ns:+9.22337e+18ns") gives it
std::string
Bound(Ptr<const AttributeChecker> checker, int i)
{
    std::string info = checker->GetUnderlyingTypeInformation();
    std::size_t space = info.find(' ');
    std::size_t colon = info.find(':', space);
    return i == 0 ? info.substr(space + 1, colon - space - 1) : info.substr(colon + 1);
}

/// \return "[least, greatest]" of a numeric checker
std::string
Range(Ptr<const AttributeChecker> checker)
{
    return "[" + Bound(checker, 0) + ", " + Bound(checker, 1) + "]";
}

void
CheckUnsigned(const std::string& name, const std::string& text, Ptr<const AttributeChecker> checker)
{
    // strtoull alone reads "-1" as 2^64 - 1 and "1e3" as 1.
    static const std::regex digits("[0-9]+");
    errno = 0;
    bool ok = std::regex_match(text, digits);
    unsigned long long value = ok ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (!ok || errno == ERANGE || !checker->Check(UintegerValue(value)))
    {
        Refuse(name, text, "an integer in " + Range(checker));
    }
}

void
CheckSigned(const std::string& name, const std::string& text, Ptr<const AttributeChecker> checker)
{
    static const std::regex digits("[+-]?[0-9]+");
    errno = 0;
    bool ok = std::regex_match(text, digits);
    long long value = ok ? std::strtoll(text.c_str(), nullptr, 10) : 0;
    if (!ok || errno == ERANGE || !checker->Check(IntegerValue(value)))
    {
        Refuse(name, text, "an integer in " + Range(checker));
    }
}

void
CheckDouble(const std::string& name, const std::string& text, Ptr<const AttributeChecker> checker)
{
    // ERANGE: beyond a double (1e400), or so small that it underflows (1e-400 is not 0).
    errno = 0;
    bool ok = std::regex_match(text, DECIMAL);
    double value = ok ? std::strtod(text.c_str(), nullptr) : 0;
    if (!ok || errno == ERANGE || !checker->Check(DoubleValue(value)))
    {
        Refuse(name, text, "a number in " + Range(checker));
    }
}

void
CheckTime(const std::string& name, const std::string& text, Ptr<const AttributeChecker> checker)
{
    Time value = StrictCommandLine::ParseTime(name, text);
    if (!checker->Check(TimeValue(value)))
    {
        // ParseTime keeps to [0, 10^6 s] and no model's greatest duration is below 10^6 s:
        // the value is below the checker's least one.
        std::string least = Bound(checker, 0);
        Refuse(name, text, "a duration of at least " + least.substr(least[0] == '+' ? 1 : 0));
    }
}

void
CheckDataRate(const std::string& name, const std::string& text, Ptr<const AttributeChecker> checker)
{
    // ns-3's units (DataRate::DoParse), in bit/s. ns-3 casts the product to 64 bits: beyond
    // them it is undefined; below 1 bit/s it is silently 0.
    static const std::map<std::string, double> units = {
        {"bps", 1},           {"b/s", 1},
        {"Bps", 8},           {"B/s", 8},
        {"kbps", 1e3},        {"kb/s", 1e3},
        {"Kbps", 1e3},        {"Kb/s", 1e3},
        {"kBps", 8e3},        {"kB/s", 8e3},
        {"KBps", 8e3},        {"KB/s", 8e3},
        {"Kib/s", 1024.0},    {"KiB/s", 8192.0},
        {"Mbps", 1e6},        {"Mb/s", 1e6},
        {"MBps", 8e6},        {"MB/s", 8e6},
        {"Mib/s", 1048576.0}, {"MiB/s", 8388608.0},
        {"Gbps", 1e9},        {"Gb/s", 1e9},
        {"GBps", 8e9},        {"GB/s", 8e9},
        {"Gib/s", 1 << 30},   {"GiB/s", 8.0 * (1 << 30)}};
    static const std::regex format("([0-9]+\\.?[0-9]*|\\.[0-9]+)([A-Za-z/]+)");
    std::smatch match;
    auto unit = std::regex_match(text, match, format) ? units.find(match[2].str()) : units.end();
    double bps =
        unit != units.end() ? std::strtod(match[1].str().c_str(), nullptr) * unit->second : -1;
    if (bps < 0 || bps > AttributeValueText::MAX_BPS || (bps > 0 && bps < 1) ||
        !checker->CreateValidValue(StringValue(text)))
    {
        Refuse(name, text, "a data rate such as 100Mbps or 25Gb/s, at most 10^15 bit/s");
    }
}

void
CheckEnum(const std::string& name, const std::string& text, Ptr<const AttributeChecker> checker)
{
    // ns-3 asserts on a name it does not know (in a release build: undefined behaviour).
    std::string names = checker->GetUnderlyingTypeInformation(); // "Hold|Drop"
    std::istringstream in(names);
    for (std::string one; std::getline(in, one, '|');)
    {
        if (one == text)
        {
            return;
        }
    }
    std::regex bar("\\|");
    Refuse(name, text, "one of " + std::regex_replace(names, bar, ", "));
}

void
CheckTypeId(const std::string& name, const std::string& text, Ptr<const AttributeChecker>)
{
    // ns-3 aborts on a name that is no TypeId.
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(text, &tid))
    {
        Refuse(name, text, "a TypeId, see --PrintTypeIds");
    }
}

void
CheckAsNs3Does(const std::string& name,
               const std::string& text,
               Ptr<const AttributeChecker> checker)
{
    // Booleans (true, false, 1, 0, t, f) and strings: ns-3 reads them without aborting.
    if (!checker->CreateValidValue(StringValue(text)))
    {
        Refuse(name, text, checker->GetUnderlyingTypeInformation());
    }
}

} // namespace

void
AttributeValueText::Check(const std::string& name,
                          const std::string& text,
                          Ptr<const AttributeChecker> checker)
{
    using Reader =
        std::function<void(const std::string&, const std::string&, Ptr<const AttributeChecker>)>;
    static const std::map<std::string, Reader> readers = {{"ns3::UintegerValue", CheckUnsigned},
                                                          {"ns3::IntegerValue", CheckSigned},
                                                          {"ns3::DoubleValue", CheckDouble},
                                                          {"ns3::TimeValue", CheckTime},
                                                          {"DataRateValue", CheckDataRate},
                                                          {"ns3::EnumValue", CheckEnum},
                                                          {"TypeIdValue", CheckTypeId},
                                                          {"BooleanValue", CheckAsNs3Does},
                                                          {"StringValue", CheckAsNs3Does}};
    auto reader = readers.find(checker->GetValueTypeName());
    if (reader == readers.end())
    {
        throw std::invalid_argument(
            "--" + name + " takes " + checker->GetUnderlyingTypeInformation() + " (" +
            checker->GetValueTypeName() + "), which a command line cannot give");
    }
    reader->second(name, text, checker);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "strict-command-line.h"

#include "ns3/type-id.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// \return \p value (an integer) in decimal digits
std::string
FormatInteger(long double value)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(0) << value;
    return os.str();
}

} // namespace

StrictCommandLine::StrictCommandLine(const std::string& file, const std::string& usage)
    : m_cmd(file)
{
    m_cmd.Usage(usage);
}

void
StrictCommandLine::Parse(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        Check(argv[i]);
    }
    m_cmd.Parse(argc, argv);
}

bool
StrictCommandLine::IsGiven(const std::string& name) const
{
    return m_given.count(name) > 0;
}

void
StrictCommandLine::Check(const std::string& arg)
{
    static const std::set<std::string> general = {"PrintHelp",
                                                  "help",
                                                  "PrintVersion",
                                                  "PrintGlobals",
                                                  "PrintGroups",
                                                  "PrintTypeIds",
                                                  "PrintGroup",
                                                  "PrintAttributes"};
    std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
    if (dashes == 0)
    {
        throw std::invalid_argument("unexpected argument '" + arg + "' (flags are --name=value)");
    }
    std::size_t equal = arg.find('=');
    std::string name =
        arg.substr(dashes, equal == std::string::npos ? std::string::npos : equal - dashes);
    std::string value = equal == std::string::npos ? "" : arg.substr(equal + 1);
    // ns-3 would silently keep the last of two values: which one the user meant is unknown.
    if (!m_given.insert(name).second && general.count(name) == 0)
    {
        throw std::invalid_argument("--" + name + " is given twice (give each flag once)");
    }
    auto it = m_kinds.find(name);
    if (it == m_kinds.end())
    {
        TypeId tid;
        if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
        {
            throw std::invalid_argument("--PrintAttributes: no TypeId '" + value +
                                        "' (e.g. ns3::RailTransport)");
        }
        if (general.count(name) > 0)
        {
            return;
        }
        throw std::invalid_argument("unknown flag --" + name + " (see --help)");
    }
    char* end = nullptr;
    bool ok = true;
    switch (it->second)
    {
    case 'u':
    case 'i': {
        // Decimal digits only (CommandLine reads "0x10" as 0 and "1e3" as 1), within the
        // variable's range (long double holds every 64-bit integer exactly).
        bool digits =
            !value.empty() &&
            value.find_first_not_of("0123456789", value[0] == '-' ? 1 : 0) == std::string::npos &&
            value != "-";
        long double number = digits ? std::strtold(value.c_str(), &end) : 0;
        auto [min, max] = m_ranges.at(name);
        ok = digits && number >= min && number <= max;
        if (digits && !ok)
        {
            throw std::invalid_argument("bad value for --" + name + ": '" + value +
                                        "' (expected an integer in [" + FormatInteger(min) + ", " +
                                        FormatInteger(max) + "])");
        }
        break;
    }
    case 'd': {
        // Read as CommandLine reads it (a stream: "0x10" would silently become 0), whole;
        // it cannot read "nan" or "inf", nor can a program use them.
        std::istringstream in(value);
        double number = 0;
        in >> number;
        ok = !value.empty() && !in.fail() && in.eof() && std::isfinite(number);
        break;
    }
    case 'b':
        ok = value.empty() || value == "0" || value == "1" || value == "true" || value == "false";
        break;
    default:
        // CommandLine takes no empty value and reads a string up to its first blank:
        // refuse what it would silently cut.
        ok = equal != std::string::npos && !value.empty() &&
             value.find_first_of(" \t\n") == std::string::npos;
    }
    if (!ok)
    {
        static const std::map<char, std::string> expected = {{'u', "a non-negative integer"},
                                                             {'i', "an integer"},
                                                             {'d', "a number"},
                                                             {'b', "0, 1, true or false"},
                                                             {'s', "a value without blanks"}};
        throw std::invalid_argument("bad value for --" + name + ": '" + value + "' (expected " +
                                    expected.at(it->second) + ")");
    }
}

Time
StrictCommandLine::ParseTime(const std::string& name, const std::string& text)
{
    static const std::regex format("([0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?)(s|ms|us|ns)?");
    std::smatch match;
    if (!std::regex_match(text, match, format))
    {
        throw std::invalid_argument("--" + name + ": '" + text +
                                    "' is not a duration (e.g. 25ms, 1.5s, 100us)");
    }
    // strtod, not stod: a number beyond a double ("1e400") must get this message, not
    // std::out_of_range's "stod". Underflow ("1e-400") is 0, as any sub-ns duration rounds.
    double value = std::strtod(match[1].str().c_str(), nullptr);
    std::string unit = match[4].str();
    double scale = unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : unit == "ns" ? 1e-9 : 1.0;
    if (!(value * scale <= 1e6))
    {
        throw std::invalid_argument("--" + name + ": '" + text +
                                    "' is out of range (at most 10^6 s)");
    }
    int64_t ns = std::llround(value * scale * 1e9);
    std::string mantissa = match[1].str().substr(0, match[1].str().find_first_of("eE"));
    bool positive = mantissa.find_first_of("123456789") != std::string::npos; // 1e-400 too
    if (ns == 0 && positive)
    {
        throw std::invalid_argument(
            "--" + name + ": '" + text +
            "' is below the simulator's resolution of 1 ns (use 0 for none)");
    }
    return NanoSeconds(ns);
}

std::vector<std::string>
StrictCommandLine::SplitList(const std::string& name, const std::string& text)
{
    if (text.empty())
    {
        throw std::invalid_argument("--" + name + " needs at least one item");
    }
    // Every comma separates two items: a leading, doubled or trailing one leaves an empty
    // item (getline alone would drop a trailing one silently).
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true)
    {
        std::size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
        if (item.empty())
        {
            throw std::invalid_argument("--" + name + " has an empty item in '" + text + "'");
        }
        items.push_back(item);
        if (comma == std::string::npos)
        {
            return items;
        }
        start = comma + 1;
    }
}

void
StrictCommandLine::CheckRange(const std::string& name,
                              double value,
                              double least,
                              double most,
                              const std::string& what,
                              const std::string& zero)
{
    if ((value == 0 && !zero.empty()) || (value >= least && value <= most))
    {
        return;
    }
    // Up to 15 significant digits: the value as typed, short of its spelling (1e18 is 1e+18).
    auto text = [](double number) {
        std::ostringstream out;
        out << std::setprecision(15) << number;
        return out.str();
    };
    throw std::invalid_argument("--" + name + "=" + text(value) + " is out of range: " + what +
                                " in [" + text(least) + ", " + text(most) + "]" +
                                (zero.empty() ? "" : ", or 0 for " + zero));
}

} // namespace ns3

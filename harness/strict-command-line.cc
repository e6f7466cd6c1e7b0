/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "strict-command-line.h"

#include "attribute-audit.h"
#include "attribute-value-text.h"

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/input-text.h"
#include "ns3/log.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StrictCommandLine");

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

/// \return \p text with control characters and odd bytes escaped as \xNN
std::string
Escape(const std::string& text)
{
    return InputText::Escape(text);
}

/// \return true if \p text is a decimal number whose digits before any exponent are not all
///         zero: a value that must not read as 0 (1e-400 underflows to it)
bool
HasNonZeroDigits(const std::string& text)
{
    return text.substr(0, text.find_first_of("eE")).find_first_of("123456789") != std::string::npos;
}

/// \return the value of each flag as typed on the last command line parsed, so that
///         CheckRange, which sees only a number, can quote what the user typed
std::map<std::string, std::string>&
TypedValues()
{
    static std::map<std::string, std::string> typed;
    return typed;
}

/// \return \p number in up to 15 significant digits (1e+18 for 10^18, 1000000 for 10^6)
std::string
FormatNumber(double number)
{
    std::ostringstream out;
    out << std::setprecision(15) << number;
    return out.str();
}

/// \return the type among \p tid and its parents that has \p attribute (which one of them
///         has) as its own: ns-3 sets a default through that type's name only
TypeId
OwnerOf(TypeId tid, const std::string& attribute)
{
    for (;; tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            if (tid.GetAttribute(i).name == attribute)
            {
                return tid;
            }
        }
    }
}

/// Largest RngSeed: MRG32k3a's seeds are below its moduli (ns-3's RngStream aborts on others).
constexpr uint64_t RNG_SEED_MAX = 4294944442;

/// \return the one message for a flag's value outside its range, \p shown as typed
std::string
OutOfRange(const std::string& name, const std::string& shown, const FlagRange& range)
{
    return "--" + name + "=" + shown + " is out of range: " + range.what + " " + range.Text();
}

} // namespace

std::string
FlagRange::Text() const
{
    return "in [" + FormatNumber(least) + ", " + FormatNumber(most) + "]" +
           (zero.empty() ? "" : ", or 0 for " + zero);
}

StrictCommandLine::StrictCommandLine(const std::string& file, const std::string& usage)
    : m_cmd(file)
{
    m_cmd.Usage(usage);
}

void
StrictCommandLine::Parse(int argc, char* argv[])
{
    TypedValues().clear();
    m_attributes.clear();
    std::vector<char*> kept = {argv[0]};
    std::vector<std::string> beyondType;
    for (int i = 1; i < argc; ++i)
    {
        if (TakeRepeated(argv[i]))
        {
            continue;
        }
        if (Check(argv[i]))
        {
            kept.push_back(argv[i]);
        }
        else
        {
            beyondType.push_back(argv[i]);
        }
    }
    CheckEnvironment();
    // The others first: a range may depend on them (--bytes on --mtu).
    m_cmd.Parse(static_cast<int>(kept.size()), kept.data());
    CheckRanges(beyondType);
    if (!m_attributes.empty())
    {
        AttributeAudit::CheckDefaults(); // the rules between attributes, as now set
    }
}

void
StrictCommandLine::CheckEnvironment()
{
    // ns-3's reading (ObjectBase::ConstructSelf): entries separated by ';', each
    // ns3::Type::Attribute=value. It skips what it cannot use; nothing is skipped here.
    const char* env = std::getenv("NS_ATTRIBUTE_DEFAULT");
    std::istringstream entries(env != nullptr ? env : "");
    for (std::string entry; std::getline(entries, entry, ';');)
    {
        if (entry.empty())
        {
            continue; // "a=1;": nothing given
        }
        std::size_t equal = entry.find('=');
        std::string name = entry.substr(0, equal);
        if (equal == std::string::npos || name.find("::") == std::string::npos)
        {
            throw std::invalid_argument("NS_ATTRIBUTE_DEFAULT: " + Quote(entry) +
                                        " is not ns3::Type::Attribute=value");
        }
        if (std::count(m_attributes.begin(), m_attributes.end(), name) > 0)
        {
            throw std::invalid_argument("--" + Escape(name) +
                                        " is given twice (give each flag once)");
        }
        try
        {
            CheckAttribute(name, entry.substr(equal + 1));
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(std::string("NS_ATTRIBUTE_DEFAULT: ") + e.what());
        }
        Config::SetDefault(name, StringValue(entry.substr(equal + 1)));
    }
}

void
StrictCommandLine::CheckRanges(const std::vector<std::string>& beyondType) const
{
    for (const std::string& arg : beyondType)
    {
        std::size_t equal = arg.find('=');
        std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : 1;
        std::string name = arg.substr(dashes, equal - dashes);
        throw std::invalid_argument(
            OutOfRange(name, Escape(arg.substr(equal + 1)), m_ranged.at(name).range()));
    }
    // In the program's order, as its own checks would go.
    for (const std::string& name : m_rangedOrder)
    {
        const Ranged& ranged = m_ranged.at(name);
        if (IsGiven(name))
        {
            CheckRange(name, ranged.value(), ranged.range());
        }
    }
}

void
StrictCommandLine::CheckAttribute(const std::string& name, const std::string& value)
{
    std::size_t cut = name.rfind("::");
    std::string type = name.substr(0, cut);
    std::string attribute = name.substr(cut + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        throw std::invalid_argument("unknown flag --" + Escape(name) + ": no TypeId " +
                                    Quote(type) + " (see --PrintTypeIds)");
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        throw std::invalid_argument("unknown flag --" + Escape(name) + ": " + type +
                                    " has no attribute " + Quote(attribute) +
                                    " (see --PrintAttributes=" + type + ")");
    }
    CheckNotReserved(name, tid, attribute);
    TypeId owner = OwnerOf(tid, attribute);
    if (owner != tid)
    {
        // ns-3 would print its whole help: it sets a default through the owner only.
        throw std::invalid_argument("--" + name + ": the attribute is " + owner.GetName() +
                                    "'s (give --" + owner.GetName() + "::" + attribute + ")");
    }
    if (!(info.flags & TypeId::ATTR_CONSTRUCT) || info.supportLevel == TypeId::OBSOLETE)
    {
        throw std::invalid_argument("--" + name +
                                    ": not an attribute a default can be given for (it is set "
                                    "after construction, or obsolete)");
    }
    CheckTaken(name, owner);
    AttributeValueText::Check(name, value, info.checker);
    m_attributes.push_back(name);
}

void
StrictCommandLine::CheckTakenAtAll(const std::string& name, const std::string& refusal) const
{
    if (!refusal.empty())
    {
        throw std::invalid_argument("--" + name +
                                    " is not taken from the command line: " + refusal);
    }
    if (!m_created)
    {
        throw std::invalid_argument("--" + name +
                                    " would change nothing: this program runs no simulation");
    }
}

void
StrictCommandLine::CheckTaken(const std::string& name, TypeId owner) const
{
    auto refused = m_refused.find(name);
    CheckTakenAtAll(name,
                    refused != m_refused.end() ? refused->second : AttributeAudit::Refusal(name));
    bool made = std::any_of(m_created->begin(), m_created->end(), [owner](TypeId created) {
        return created == owner || created.IsChildOf(owner);
    });
    if (!made)
    {
        throw std::invalid_argument("--" + name + " would change nothing: this program makes no " +
                                    owner.GetName());
    }
}

void
StrictCommandLine::Refuse(const std::string& attribute, const std::string& reason)
{
    m_refused[attribute] = reason;
}

void
StrictCommandLine::Creates(const std::vector<std::string>& types)
{
    m_created.emplace();
    for (const std::string& type : types)
    {
        m_created->push_back(TypeId::LookupByName(type));
    }
}

const std::vector<std::string>&
StrictCommandLine::GetAttributes() const
{
    return m_attributes;
}

void
StrictCommandLine::Reserve(const std::string& attribute, const std::string& flags)
{
    (attribute.find("::") == std::string::npos ? m_reservedGlobals : m_reserved)[attribute] = flags;
}

void
StrictCommandLine::Retire(const std::string& name, const std::string& instead)
{
    m_retired[name] = instead;
}

void
StrictCommandLine::CheckNotReserved(const std::string& name,
                                    TypeId tid,
                                    const std::string& attribute) const
{
    for (const auto& [reserved, flags] : m_reserved)
    {
        std::size_t cut = reserved.rfind("::");
        TypeId owner = TypeId::LookupByName(reserved.substr(0, cut));
        // A default given through a parent type reaches the reserved type's objects too.
        bool related = owner == tid || owner.IsChildOf(tid) || tid.IsChildOf(owner);
        if (related && reserved.substr(cut + 2) == attribute)
        {
            throw std::invalid_argument("--" + name + ": this program sets it from " + flags +
                                        " (give that instead)");
        }
    }
}

void
StrictCommandLine::CheckGlobal(const GlobalValue& global, const std::string& value) const
{
    std::string name = global.GetName();
    if ((name == "RngRun" || name == "RngSeed") && m_kinds.count("seed") > 0)
    {
        throw std::invalid_argument("--" + name +
                                    ": this program sets the random run from --seed (give "
                                    "--seed=N)");
    }
    auto reserved = m_reservedGlobals.find(name);
    if (reserved != m_reservedGlobals.end())
    {
        throw std::invalid_argument("--" + name + ": this program sets it from " +
                                    reserved->second + " (give that instead)");
    }
    CheckTakenAtAll(name, AttributeAudit::Refusal(name));
    AttributeValueText::Check(name, value, global.GetChecker());
    // What ns-3 itself would abort on, or crash with, once the simulator starts.
    TypeId scheduler;
    if (name == "SchedulerType" &&
        (!TypeId::LookupByNameFailSafe(value, &scheduler) ||
         !scheduler.IsChildOf(Scheduler::GetTypeId()) || !scheduler.HasConstructor()))
    {
        throw std::invalid_argument("bad value for --SchedulerType: " + Quote(value) +
                                    " (expected a scheduler, e.g. ns3::MapScheduler)");
    }
    if (name == "RngSeed" && (std::stoull(value) == 0 || std::stoull(value) > RNG_SEED_MAX))
    {
        throw std::invalid_argument("bad value for --RngSeed: " + Quote(value) +
                                    " (expected an integer in [1, " + std::to_string(RNG_SEED_MAX) +
                                    "])");
    }
}

void
StrictCommandLine::AddRepeated(const std::string& name,
                               const std::string& help,
                               std::vector<std::string>& values)
{
    if (m_kinds.count(name) > 0 || m_repeated.count(name) > 0)
    {
        throw std::logic_error("flag --" + name + " is registered twice");
    }
    m_repeated[name] = &values;
    // Shown in --help only: Parse() never hands these flags to CommandLine, which would
    // keep the last value.
    m_cmd.AddValue(name, help + " (may be given several times)", m_repeatedShown[name]);
}

bool
StrictCommandLine::TakeRepeated(const std::string& arg)
{
    if (arg.rfind("--", 0) != 0)
    {
        return false;
    }
    std::size_t equal = arg.find('=');
    auto found = m_repeated.find(arg.substr(2, equal == std::string::npos ? equal : equal - 2));
    if (found == m_repeated.end())
    {
        return false;
    }
    if (equal == std::string::npos || equal + 1 == arg.size())
    {
        throw std::invalid_argument("bad value for --" + found->first + ": it is empty");
    }
    m_given.insert(found->first);
    found->second->push_back(arg.substr(equal + 1));
    return true;
}

void
StrictCommandLine::PrintHelp(std::ostream& os) const
{
    m_cmd.PrintHelp(os);
}

bool
StrictCommandLine::IsGiven(const std::string& name) const
{
    return m_given.count(name) > 0;
}

void
StrictCommandLine::RefuseGiven(std::initializer_list<const char*> flags,
                               const std::string& reason) const
{
    for (const char* flag : flags)
    {
        if (IsGiven(flag))
        {
            throw std::invalid_argument(std::string("--") + flag + " " + reason);
        }
    }
}

bool
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
        throw std::invalid_argument("unexpected argument " + Quote(arg) +
                                    " (flags are --name=value)");
    }
    std::size_t equal = arg.find('=');
    std::string name =
        arg.substr(dashes, equal == std::string::npos ? std::string::npos : equal - dashes);
    std::string value = equal == std::string::npos ? "" : arg.substr(equal + 1);
    // ns-3 would silently keep the last of two values: which one the user meant is unknown.
    if (!m_given.insert(name).second && general.count(name) == 0)
    {
        throw std::invalid_argument("--" + Escape(name) + " is given twice (give each flag once)");
    }
    auto it = m_kinds.find(name);
    if (it == m_kinds.end())
    {
        TypeId tid;
        if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
        {
            throw std::invalid_argument("--PrintAttributes: no TypeId " + Quote(value) +
                                        " (e.g. ns3::RailTransport)");
        }
        if (general.count(name) > 0)
        {
            return true;
        }
        if (name.find("::") != std::string::npos)
        {
            CheckAttribute(name, value);
            return true;
        }
        GlobalValue::Iterator global =
            std::find_if(GlobalValue::Begin(), GlobalValue::End(), [&name](GlobalValue* g) {
                return g->GetName() == name;
            });
        if (global != GlobalValue::End())
        {
            CheckGlobal(**global, value);
            return true;
        }
        auto retired = m_retired.find(name);
        if (retired != m_retired.end())
        {
            throw std::invalid_argument("--" + name + " is gone: " + retired->second);
        }
        throw std::invalid_argument("unknown flag --" + Escape(name) + " (see --help)");
    }
    TypedValues()[name] = value;
    static const std::map<char, std::string> expected = {{'u', "a non-negative integer"},
                                                         {'i', "an integer"},
                                                         {'d', "a number"},
                                                         {'b', "0, 1, true or false"},
                                                         {'s', "a value without blanks"}};
    // "--fabric=" or "--fabric" alone: "expected a value without blanks" would not say why.
    if (value.empty() && it->second != 'b')
    {
        throw std::invalid_argument("bad value for --" + name + ": it is empty (expected " +
                                    expected.at(it->second) + ")");
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
        if (digits && !ok && m_ranged.count(name) > 0)
        {
            return false; // beyond the type: the flag's own range says why
        }
        if (digits && !ok)
        {
            throw std::invalid_argument("bad value for --" + name + ": " + Quote(value) +
                                        " (expected an integer in [" + FormatInteger(min) + ", " +
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
        static const std::regex decimal("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
        if (!ok && std::regex_match(value, decimal) && m_ranged.count(name) > 0)
        {
            return false; // beyond a double: the flag's own range says why
        }
        if (!ok && std::regex_match(value, decimal))
        {
            // A number, but beyond a double: the stream fails as on "abc".
            throw std::invalid_argument("bad value for --" + name + ": " + Quote(value) +
                                        " is out of range (beyond the largest number, about "
                                        "1.8e308)");
        }
        if (ok && number == 0 && HasNonZeroDigits(value))
        {
            // The stream reads 1e-400 as 0, and 0 often means "the default" or "none".
            throw std::invalid_argument("bad value for --" + name + ": " + Quote(value) +
                                        " is too small (underflows to 0)");
        }
        break;
    }
    case 'b':
        ok = value.empty() || value == "0" || value == "1" || value == "true" || value == "false";
        break;
    default:
        // CommandLine reads a string up to its first blank: refuse what it would silently
        // cut (an empty value was refused above).
        ok = value.find_first_of(" \t\n") == std::string::npos;
    }
    if (!ok)
    {
        throw std::invalid_argument("bad value for --" + name + ": " + Quote(value) +
                                    " (expected " + expected.at(it->second) + ")");
    }
    return true;
}

Time
StrictCommandLine::ParseTime(const std::string& name, const std::string& text)
{
    // A leading + as ns-3 prints times (--PrintAttributes shows "+50ns").
    static const std::regex format(
        "\\+?(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?)(s|ms|us|ns|min|h)?");
    std::smatch match;
    if (!std::regex_match(text, match, format))
    {
        throw std::invalid_argument("--" + name + ": " + Quote(text) +
                                    " is not a duration (e.g. 25ms, 1.5s, 100us)");
    }
    std::string unit = match[5].str();
    // 1e-400 has digits that are not zero: it is not 0, whatever it reads as.
    bool positive = HasNonZeroDigits(match[1].str());
    // Only 0 is the same in every unit: a bare 25 used to be 25 s where ms were meant (the
    // sweep's --delays are plain ms).
    if (unit.empty() && positive)
    {
        throw std::invalid_argument("--" + name + ": " + Quote(text) +
                                    " has no unit (e.g. 25ms, 1.5s, 100us)");
    }
    // strtod, not stod: a number beyond a double ("1e400") must get this message, not
    // std::out_of_range's "stod".
    double value = std::strtod(match[1].str().c_str(), nullptr);
    // In ns, the clock's unit: 1ns is exactly 1 (1e-9 s x 1e9 need not be).
    double perUnit = unit == "ms"    ? 1e6
                     : unit == "us"  ? 1e3
                     : unit == "ns"  ? 1.0
                     : unit == "min" ? 60e9
                     : unit == "h"   ? 3600e9
                                     : 1e9;
    double ns = value * perUnit;
    if (!(ns <= 1e15))
    {
        throw std::invalid_argument("--" + name + ": " + Quote(text) +
                                    " is out of range (at most 10^6 s)");
    }
    // Below 1 ns the clock has no tick: 0.4ns and 1e-400s became no delay at all, and 0.6ns
    // rounded up to 1 ns; refuse them all rather than pick a neighbour.
    if (positive && !(ns >= 1))
    {
        throw std::invalid_argument(
            "--" + name + ": " + Quote(text) +
            " is below the simulator's resolution of 1 ns (use 0 for none)");
    }
    // 1.4ns was taken as 1 ns and 1.6ns as 2: a time between two ticks is refused too. The
    // tolerance is what reading the decimal and scaling it can err by (a few units in the
    // last place of a double: 0.1us is 100.00000000000001), so 1.000000001ns is refused.
    // (Beyond 2^53 ns, 104 days, a double cannot tell the fraction anyway.)
    double whole = std::round(ns);
    if (std::abs(ns - whole) > 1e-12 + 4e-16 * ns)
    {
        throw std::invalid_argument("--" + name + ": " + Quote(text) +
                                    " is not a whole number of nanoseconds (the simulator's "
                                    "resolution)");
    }
    return NanoSeconds(static_cast<int64_t>(whole));
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
            throw std::invalid_argument("--" + name + " has an empty item in " + Quote(text));
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
    // As typed if the command line gave it (1e18, not 1e+18); else up to 15 significant
    // digits.
    std::string shown;
    auto typed = TypedValues().find(name);
    if (typed != TypedValues().end())
    {
        std::istringstream in(typed->second);
        double number = 0;
        in >> number;
        shown = !in.fail() && number == value ? Escape(typed->second) : "";
    }
    throw std::invalid_argument(OutOfRange(name,
                                           shown.empty() ? FormatNumber(value) : shown,
                                           FlagRange{least, most, what, zero}));
}

void
StrictCommandLine::CheckRange(const std::string& name, double value, const FlagRange& range)
{
    CheckRange(name, value, range.least, range.most, range.what, range.zero);
}

std::string
StrictCommandLine::Quote(const std::string& text)
{
    return InputText::Quote(text);
}

int
RunProgram(int argc,
           char* argv[],
           const std::string& program,
           const std::string& file,
           const std::string& usage,
           const std::function<void(StrictCommandLine&)>& addFlags,
           const std::function<int(const StrictCommandLine&)>& body)
{
    try
    {
        StrictCommandLine cmd(file, usage);
        addFlags(cmd);
        cmd.Parse(argc, argv);
        return body(cmd);
    }
    catch (const std::exception& e)
    {
        std::cerr << program << ": error: " << e.what() << "\n";
        // What the body built before it threw (nodes, devices, their events) goes with the
        // simulator, as after a run: nothing is left to leak.
        Simulator::Destroy();
        return 1;
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sweep-plan.h"

#include "ns3/json-input.h"
#include "ns3/strict-command-line.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace ns3
{

namespace
{

/// \return \p text without the leading "--" a user may write out of habit
std::string
FlagName(const std::string& text)
{
    return text.rfind("--", 0) == 0 ? text.substr(2) : text;
}

/**
 * \return a JSON string, number or boolean as the text a flag takes: a whole number as an
 *         integer (1e1 and 10.0 as 10, which integer flags take), another as the shortest
 *         text that reads back the same double
 */
std::string
ValueText(const nlohmann::json& value, const std::string& where)
{
    if (value.is_string())
    {
        return value.get<std::string>();
    }
    if (value.is_number_float())
    {
        double number = value.get<double>();
        if (std::abs(number) < 0x1p53 && number == std::trunc(number))
        {
            return std::to_string(int64_t(number));
        }
        char text[32];
        return std::string(text, std::to_chars(text, text + sizeof(text), number).ptr);
    }
    if (value.is_number() || value.is_boolean())
    {
        return value.dump();
    }
    throw std::invalid_argument(where + ": expected a string, a number or a boolean, got " +
                                value.dump());
}

/// Refuses a flag or value with a control character (a line break, a NUL): the shell that
/// runs a point would split or cut it.
void
CheckPrintable(const std::string& what, const std::string& text)
{
    for (char c : text)
    {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        {
            throw std::invalid_argument(what + " " + StrictCommandLine::Quote(text) +
                                        ": a control character (a line break, a tab, a NUL) "
                                        "cannot be passed to a run");
        }
    }
}

} // namespace

void
SweepPlan::CheckNewFlag(const std::string& flag, bool varied) const
{
    if (flag.empty())
    {
        throw std::invalid_argument("a flag name is empty");
    }
    if (flag == "out")
    {
        throw std::invalid_argument(
            "--out is the sweep's: each point writes in its own run folder");
    }
    auto named = [&flag](const auto& entry) { return entry.first == flag; };
    bool inAxes = std::any_of(m_axes.begin(), m_axes.end(), named);
    bool inFixed = std::any_of(m_fixed.begin(), m_fixed.end(), named);
    if (inAxes && varied)
    {
        throw std::invalid_argument("--" + flag + " is varied twice (give one --vary per flag)");
    }
    if (inFixed && !varied)
    {
        throw std::invalid_argument("--" + flag + " is given twice for every point");
    }
    if (inAxes || inFixed)
    {
        throw std::invalid_argument("--" + flag + " is both varied and set for every point");
    }
}

void
SweepPlan::AddAxis(const std::string& text)
{
    std::size_t equal = text.find('=');
    if (equal == std::string::npos)
    {
        throw std::invalid_argument("--vary " + StrictCommandLine::Quote(text) +
                                    ": expected flag=value1,value2,...");
    }
    std::string flag = FlagName(text.substr(0, equal));
    std::vector<std::string> values;
    std::string list = text.substr(equal + 1);
    for (std::size_t start = 0;;)
    {
        std::size_t comma = list.find(',', start);
        values.push_back(list.substr(start, comma == std::string::npos ? comma : comma - start));
        if (comma == std::string::npos)
        {
            break;
        }
        start = comma + 1;
    }
    AddAxis(flag, values);
}

void
SweepPlan::AddAxis(const std::string& flag, const std::vector<std::string>& values)
{
    CheckNewFlag(flag, true);
    CheckPrintable("--vary", flag);
    if (values.empty())
    {
        throw std::invalid_argument("--vary " + flag + ": no value");
    }
    if (values.size() > MAX_POINTS)
    {
        throw std::invalid_argument("--vary " + flag + ": " + std::to_string(values.size()) +
                                    " values (at most " + std::to_string(MAX_POINTS) + ")");
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        CheckPrintable("--vary " + flag + ":", values[i]);
        if (values[i].empty())
        {
            throw std::invalid_argument("--vary " + flag + ": value " + std::to_string(i + 1) +
                                        " is empty");
        }
        if (!seen.insert(values[i]).second)
        {
            // Two points would be one run twice.
            throw std::invalid_argument("--vary " + flag + ": " +
                                        StrictCommandLine::Quote(values[i]) + " is given twice");
        }
    }
    m_axes.emplace_back(flag, values);
}

void
SweepPlan::AddFixed(const std::string& argument)
{
    if (argument.rfind("--", 0) != 0 || argument.size() == 2)
    {
        throw std::invalid_argument("photonic-rails-sim's flags go after '--' as --name=value; " +
                                    StrictCommandLine::Quote(argument) + " is not a flag");
    }
    std::size_t equal = argument.find('=');
    std::string flag = argument.substr(2, equal == std::string::npos ? equal : equal - 2);
    CheckNewFlag(flag, false);
    CheckPrintable("flag", argument);
    m_fixed.emplace_back(flag, argument);
}

SweepPlan::Filter
SweepPlan::ParseFilter(const std::string& what, const std::string& text) const
{
    Filter filter;
    std::size_t start = 0;
    do
    {
        std::size_t comma = text.find(',', start);
        std::string term = text.substr(start, comma == std::string::npos ? comma : comma - start);
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        std::size_t equal = term.find('=');
        if (equal == std::string::npos || equal == 0)
        {
            throw std::invalid_argument(what + " " + StrictCommandLine::Quote(text) +
                                        ": expected flag=value or flag!=value, comma-separated");
        }
        Condition condition;
        condition.equal = term[equal - 1] != '!';
        condition.flag = FlagName(term.substr(0, condition.equal ? equal : equal - 1));
        condition.value = term.substr(equal + 1);
        auto axis = std::find_if(m_axes.begin(), m_axes.end(), [&condition](const auto& a) {
            return a.first == condition.flag;
        });
        if (axis == m_axes.end())
        {
            throw std::invalid_argument(what + " " + StrictCommandLine::Quote(text) + ": --" +
                                        condition.flag + " is not varied");
        }
        const std::vector<std::string>& values = axis->second;
        if (std::find(values.begin(), values.end(), condition.value) == values.end())
        {
            // A typo would filter nothing, silently.
            throw std::invalid_argument(what + " " + StrictCommandLine::Quote(text) + ": --" +
                                        condition.flag + " takes no value " +
                                        StrictCommandLine::Quote(condition.value) + " here");
        }
        filter.push_back(condition);
    } while (start <= text.size());
    return filter;
}

void
SweepPlan::AddSkip(const std::string& text)
{
    m_skip.push_back(text);
}

void
SweepPlan::AddOnly(const std::string& text)
{
    m_only.push_back(text);
}

void
SweepPlan::ReadFile(const std::string& path)
{
    nlohmann::json root = JsonInput::ReadFile(path, "sweep file");
    try
    {
        if (!root.is_object())
        {
            throw std::invalid_argument("expected a JSON object with \"vary\"");
        }
        for (const auto& [key, value] : root.items())
        {
            if (key != "vary" && key != "flags" && key != "skip" && key != "only")
            {
                throw std::invalid_argument("unknown key \"" + key +
                                            "\" (expected vary, flags, skip, only)");
            }
        }
        if (root.contains("flags"))
        {
            if (!root["flags"].is_object())
            {
                throw std::invalid_argument("\"flags\" must be an object of flag -> value");
            }
            for (const auto& [flag, value] : root["flags"].items())
            {
                AddFixed("--" + FlagName(flag) + "=" + ValueText(value, "flags." + flag));
            }
        }
        if (!root.contains("vary") || !root["vary"].is_array())
        {
            throw std::invalid_argument("\"vary\" must be a list of {\"flag\": ..., "
                                        "\"values\": [...]} (the first varies slowest)");
        }
        for (std::size_t i = 0; i < root["vary"].size(); ++i)
        {
            const nlohmann::json& axis = root["vary"][i];
            std::string where = "vary[" + std::to_string(i) + "]";
            if (!axis.is_object() || axis.size() != 2 || !axis.contains("flag") ||
                !axis["flag"].is_string() || !axis.contains("values") || !axis["values"].is_array())
            {
                throw std::invalid_argument(where + ": expected {\"flag\": NAME, \"values\": "
                                                    "[...]}");
            }
            std::vector<std::string> values;
            for (const nlohmann::json& value : axis["values"])
            {
                values.push_back(ValueText(value, where + ".values"));
            }
            AddAxis(FlagName(axis["flag"].get<std::string>()), values);
        }
        for (const char* kind : {"skip", "only"})
        {
            if (!root.contains(kind))
            {
                continue;
            }
            if (!root[kind].is_array())
            {
                throw std::invalid_argument(std::string("\"") + kind +
                                            "\" must be a list of \"flag=value,...\" filters");
            }
            for (const nlohmann::json& filter : root[kind])
            {
                std::string text = ValueText(filter, kind);
                std::string(kind) == "skip" ? AddSkip(text) : AddOnly(text);
            }
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

bool
SweepPlan::Matches(const Filter& filter,
                   const std::vector<std::pair<std::string, std::string>>& labels)
{
    return std::all_of(filter.begin(), filter.end(), [&labels](const Condition& condition) {
        for (const auto& [flag, value] : labels)
        {
            if (flag == condition.flag)
            {
                return (value == condition.value) == condition.equal;
            }
        }
        return false;
    });
}

std::vector<SweepPoint>
SweepPlan::Points(const std::string& runs) const
{
    if (m_axes.empty())
    {
        throw std::invalid_argument("nothing varies: give --vary=flag=value1,value2 (or a "
                                    "sweep file's \"vary\")");
    }
    // Parsed once every axis is known: a file's filter may name a flag varied on the
    // command line.
    std::vector<Filter> skip;
    std::vector<Filter> only;
    for (const std::string& text : m_skip)
    {
        skip.push_back(ParseFilter("--skip", text));
    }
    for (const std::string& text : m_only)
    {
        only.push_back(ParseFilter("--only", text));
    }
    double product = 1;
    for (const auto& [flag, values] : m_axes)
    {
        product *= double(values.size());
    }
    if (product > MAX_PRODUCT)
    {
        throw std::invalid_argument("the axes make " + std::to_string(uint64_t(product)) +
                                    " combinations (at most " + std::to_string(MAX_PRODUCT) +
                                    "): split the sweep");
    }
    std::vector<SweepPoint> points;
    std::vector<std::size_t> at(m_axes.size(), 0); // the product's odometer, last axis fastest
    while (true)
    {
        SweepPoint point;
        for (std::size_t a = 0; a < m_axes.size(); ++a)
        {
            point.labels.emplace_back(m_axes[a].first, m_axes[a].second[at[a]]);
        }
        auto matches = [&point](const Filter& f) { return Matches(f, point.labels); };
        bool kept = std::none_of(skip.begin(), skip.end(), matches) &&
                    (only.empty() || std::any_of(only.begin(), only.end(), matches));
        if (kept)
        {
            for (const auto& [flag, argument] : m_fixed)
            {
                point.arguments.push_back(argument);
            }
            for (const auto& [flag, value] : point.labels)
            {
                point.arguments.push_back("--" + flag + "=" + value);
            }
            char folder[16];
            std::snprintf(folder, sizeof(folder), "%04zu", points.size());
            point.folder = folder;
            point.arguments.push_back("--out=" + runs + "/" + point.folder);
            points.push_back(std::move(point));
            if (points.size() > MAX_POINTS)
            {
                throw std::invalid_argument("the sweep has more than " +
                                            std::to_string(MAX_POINTS) +
                                            " points: filter it or split it");
            }
        }
        std::size_t a = m_axes.size();
        while (a > 0 && ++at[a - 1] == m_axes[a - 1].second.size())
        {
            at[--a] = 0;
        }
        if (a == 0)
        {
            break;
        }
    }
    if (points.empty())
    {
        throw std::invalid_argument("the filters leave no point to run");
    }
    return points;
}

std::vector<std::string>
SweepPlan::VariedFlags() const
{
    std::vector<std::string> flags;
    for (const auto& [flag, values] : m_axes)
    {
        flags.push_back(flag);
    }
    return flags;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-comm-groups.h"

#include "ns3/input-text.h"
#include "ns3/json-input.h"
#include "ns3/log.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraCommGroups");

namespace
{

using Json = nlohmann::json;

/// What a comm-group file is, for messages ("PATH: is a directory, not a JSON comm-group file").
const std::string KIND = "comm-group file";

/// JSON text of a value; bytes that are not UTF-8 become U+FFFD instead of an exception.
std::string
Dump(const Json& value)
{
    return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// The ranks of one group: a JSON array of integers in [0, 2^32).
std::vector<uint32_t>
RanksOf(const Json& value, const std::string& where, const std::string& name)
{
    if (!value.is_array())
    {
        throw std::runtime_error(where + ": group " + InputText::Quote(name) +
                                 ": expected a list of ranks");
    }
    std::vector<uint32_t> ranks;
    for (const auto& rank : value)
    {
        bool integer =
            rank.is_number_unsigned() || (rank.is_number_integer() && rank.get<int64_t>() >= 0);
        if (!integer || rank.get<uint64_t>() > UINT32_MAX)
        {
            throw std::runtime_error(where + ": group " + InputText::Quote(name) +
                                     ": ranks are integers in [0, 2^32), got " + Dump(rank));
        }
        if (std::find(ranks.begin(), ranks.end(), rank.get<uint32_t>()) != ranks.end())
        {
            throw std::runtime_error(where + ": group " + InputText::Quote(name) + " names rank " +
                                     Dump(rank) + " twice");
        }
        ranks.push_back(rank.get<uint32_t>());
    }
    return ranks;
}

/// A pg_name as a string: PyTorch writes strings, some tools numbers.
std::string
NameOf(const Json& value, const std::string& where)
{
    if (value.is_string())
    {
        return value.get<std::string>();
    }
    if (value.is_number_integer())
    {
        return Dump(value);
    }
    throw std::runtime_error(where + ": pg_name must be a string or an integer, got " +
                             Dump(value));
}

/// Collects every object with a "pg_name" in a (nested) JSON value; iterative, since a
/// recursion as deep as the input's nesting overflowed the stack (50,000 nested lists).
void
CollectMetadataGroups(const Json& root, const std::string& where, ChakraCommGroups::Map& groups)
{
    std::vector<const Json*> stack{&root};
    while (!stack.empty())
    {
        const Json& value = *stack.back();
        stack.pop_back();
        if (value.is_array())
        {
            for (auto it = value.rbegin(); it != value.rend(); ++it)
            {
                stack.push_back(&*it); // reversed: visited in the order given
            }
            continue;
        }
        if (!value.is_object() || !value.contains("pg_name"))
        {
            continue;
        }
        std::string name = NameOf(value["pg_name"], where);
        std::vector<uint32_t> ranks = value.contains("ranks") ? RanksOf(value["ranks"], where, name)
                                                              : std::vector<uint32_t>();
        auto [it, added] = groups.emplace(name, ranks);
        if (!added && it->second != ranks)
        {
            throw std::runtime_error(where + ": process group " + InputText::Quote(name) +
                                     " is declared twice with other ranks");
        }
    }
}

/// The groups of ASTRA-sim's comm-group object {"<pg_name>": [ranks], ...}.
ChakraCommGroups::Map
GroupsOf(const Json& json, const std::string& where)
{
    if (!json.is_object())
    {
        throw std::runtime_error(where + ": expected ASTRA-sim's comm-group object "
                                         "{\"<pg_name>\": [ranks], ...}");
    }
    ChakraCommGroups::Map groups;
    for (const auto& [name, ranks] : json.items())
    {
        groups[name] = RanksOf(ranks, where, name);
    }
    return groups;
}

} // namespace

ChakraCommGroups::Map
ChakraCommGroups::ReadFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    return GroupsOf(JsonInput::ReadFile(path, KIND), path);
}

ChakraCommGroups::Map
ChakraCommGroups::Parse(const std::string& text, const std::string& where)
{
    NS_LOG_FUNCTION(text.size() << where);
    return GroupsOf(JsonInput::Parse(text, where, KIND), where);
}

ChakraCommGroups::Map
ChakraCommGroups::ParseMetadata(const std::string& text, const std::string& where)
{
    NS_LOG_FUNCTION(text.size() << where);
    Map groups;
    // Metadata need not be JSON (then it declares no group); JSON is read by the one rule.
    if (Json::accept(text))
    {
        CollectMetadataGroups(JsonInput::Parse(text, where, "metadata"), where, groups);
    }
    return groups;
}

std::string
ChakraCommGroups::ToJson(const Map& groups)
{
    NS_LOG_FUNCTION_NOARGS();
    std::ostringstream text;
    text << "{";
    bool first = true;
    for (const auto& [name, ranks] : groups)
    {
        text << (first ? "\n" : ",\n") << "  " << Dump(Json(name)) << ": " << Dump(Json(ranks));
        first = false;
    }
    text << (first ? "}\n" : "\n}\n");
    return text.str();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-schedule.h"

#include "strict-command-line.h"

#include "ns3/input-text.h"
#include "ns3/json-input.h"
#include "ns3/log.h"

#include <algorithm>
#include <regex>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultSchedule");

namespace
{
using Json = nlohmann::json;

/// \return \p text's number (digits only: the regexes checked), or throws naming \p entry.
uint32_t
Index(const std::string& text, const std::string& entry)
{
    std::size_t first = std::min(text.find_first_not_of('0'), text.size() - 1);
    std::string digits = text.substr(first); // leading zeros say nothing
    if (digits.size() > 10 || std::stoull(digits) > 0xffffffffULL)
    {
        throw std::invalid_argument("fault \"" + entry + "\": " + text + " is too large");
    }
    return static_cast<uint32_t>(std::stoull(digits));
}

/// \return where DOWN-UP splits: the first '-' that is neither a leading sign nor an
/// exponent's (1e-3s), or npos
std::size_t
TimeSplit(const std::string& times)
{
    for (std::size_t i = 1; i < times.size(); ++i)
    {
        if (times[i] == '-' && times[i - 1] != 'e' && times[i - 1] != 'E')
        {
            return i;
        }
    }
    return std::string::npos;
}

/// Reads a fault time; the message names the entry.
Time
ReadTime(const std::string& text, const std::string& entry)
{
    try
    {
        return StrictCommandLine::ParseTime("fault", text);
    }
    catch (const std::invalid_argument& e)
    {
        std::string why = e.what();
        why = why.substr(why.find(": ") + 2); // drop the "--fault: " prefix
        throw std::invalid_argument("fault \"" + entry + "\": " + why);
    }
}

/// Reads PART for \p kind into \p fault; false if it does not have that kind's form.
bool
ReadPart(Fault& fault, const std::string& part)
{
    std::smatch m;
    const std::string& e = fault.entry;
    switch (fault.kind)
    {
    case Fault::NIC:
        if (!std::regex_match(part, m, std::regex("gpu([0-9]+)\\.port([0-9]+)")))
        {
            return false;
        }
        fault.gpu = Index(m[1], e);
        fault.port = Index(m[2], e);
        return true;
    case Fault::LINK:
        if (!std::regex_match(
                part,
                m,
                std::regex("rail([0-9]+)\\.leaf([0-9]+)-spine([0-9]+)(\\.([0-9]+))?")))
        {
            return false;
        }
        fault.rail = Index(m[1], e);
        fault.leaf = Index(m[2], e);
        fault.spine = Index(m[3], e);
        fault.cable = m[5].matched ? Index(m[5], e) : 0;
        return true;
    case Fault::SWITCH:
        if (!std::regex_match(part, m, std::regex("rail([0-9]+)(\\.(leaf|spine)([0-9]+))?")))
        {
            return false;
        }
        fault.rail = Index(m[1], e);
        fault.isRail = !m[2].matched;
        fault.isSpine = m[3] == "spine";
        (fault.isSpine ? fault.spine : fault.leaf) = m[2].matched ? Index(m[4], e) : 0;
        return true;
    case Fault::OCS_PORT:
        if (!std::regex_match(part, m, std::regex("rail([0-9]+)\\.port([0-9]+)")))
        {
            return false;
        }
        fault.rail = Index(m[1], e);
        fault.port = Index(m[2], e);
        return true;
    case Fault::OCS:
    case Fault::OCS_RECONFIG:
        if (!std::regex_match(part, m, std::regex("rail([0-9]+)")))
        {
            return false;
        }
        fault.rail = Index(m[1], e);
        return true;
    case Fault::GPU:
        if (!std::regex_match(part, m, std::regex("gpu([0-9]+)")))
        {
            return false;
        }
        fault.gpu = Index(m[1], e);
        return true;
    case Fault::SERVER:
        if (!std::regex_match(part, m, std::regex("[0-9]+")))
        {
            return false;
        }
        fault.server = Index(m[0], e);
        return true;
    case Fault::CONTROLLER:
        return part.empty();
    }
    return false;
}

/// The part forms, for the message about an unknown one.
std::string
PartForm(Fault::Kind kind)
{
    switch (kind)
    {
    case Fault::NIC:
        return "gpuG.portK";
    case Fault::LINK:
        return "railR.leafL-spineS or railR.leafL-spineS.K";
    case Fault::SWITCH:
        return "railR, railR.leafL or railR.spineS";
    case Fault::OCS_PORT:
        return "railR.portP";
    case Fault::OCS:
    case Fault::OCS_RECONFIG:
        return "railR";
    case Fault::GPU:
        return "gpuG";
    case Fault::SERVER:
        return "a server number";
    case Fault::CONTROLLER:
        return "empty (write controller@TIME)";
    }
    return "";
}

const std::vector<std::pair<std::string, Fault::Kind>> KINDS = {
    {"nic", Fault::NIC},
    {"link", Fault::LINK},
    {"switch", Fault::SWITCH},
    {"ocs-port", Fault::OCS_PORT},
    {"ocs", Fault::OCS},
    {"ocs-reconfig", Fault::OCS_RECONFIG},
    {"gpu", Fault::GPU},
    {"server", Fault::SERVER},
    {"controller", Fault::CONTROLLER},
};

/// Turns one element of a --faults file into the inline form.
std::string
InlineOf(const Json& item, std::size_t index, const std::string& file)
{
    std::string where = file + ": fault " + std::to_string(index + 1);
    if (item.is_string())
    {
        return item.get<std::string>();
    }
    if (!item.is_object() || !item.contains("part") || !item.contains("at") ||
        !item["part"].is_string() || !item["at"].is_string())
    {
        throw std::invalid_argument(where +
                                    ": expected a string or {\"part\": \"...\", \"at\": \"...\"}");
    }
    for (const auto& [key, value] : item.items())
    {
        if (key != "part" && key != "at" && key != "until")
        {
            throw std::invalid_argument(where + ": unknown key \"" + key + "\" (part, at, until)");
        }
    }
    if (item["part"].get<std::string>().find('@') != std::string::npos)
    {
        throw std::invalid_argument(where + ": \"part\" names the part only (e.g. "
                                            "nic:gpu5.port1); the time goes in \"at\"");
    }
    std::string text = item["part"].get<std::string>() + "@" + item["at"].get<std::string>();
    if (item.contains("until"))
    {
        if (!item["until"].is_string())
        {
            throw std::invalid_argument(where + ": \"until\" must be a duration string");
        }
        text += "-" + item["until"].get<std::string>();
    }
    return text;
}

/**
 * \param file a --faults file
 * \return its faults in the inline form, in file order
 * \throws InputFileError "FILE: reason" for a file that is not a JSON fault list
 */
std::vector<std::string>
ReadFaultFile(const std::string& file)
{
    Json json = JsonInput::ReadFile(file, "fault list");
    if (json.is_object() && json.contains("faults"))
    {
        if (json.size() > 1)
        {
            throw InputFileError(file, "the object holds \"faults\" only");
        }
        Json faults = std::move(json["faults"]);
        json = std::move(faults);
    }
    if (!json.is_array())
    {
        throw InputFileError(file, "must hold a JSON array of faults (or {\"faults\": [...]})");
    }
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < json.size(); ++i)
    {
        texts.push_back(InlineOf(json[i], i, file));
    }
    return texts;
}

} // namespace

bool
Fault::IsRepaired() const
{
    return up != Time::Max();
}

bool
Fault::StopsJob() const
{
    return kind == GPU || kind == SERVER;
}

std::string
Fault::KindName(Kind kind)
{
    for (const auto& [name, k] : KINDS)
    {
        if (k == kind)
        {
            return name;
        }
    }
    return "?";
}

Fault
Fault::Parse(const std::string& text)
{
    Fault fault;
    fault.entry = text;
    std::smatch m;
    if (!std::regex_match(text, m, std::regex("([a-z-]+)(:([^@]*))?@(.+)")))
    {
        throw std::invalid_argument("fault \"" + text +
                                    "\": expected KIND:PART@TIME or KIND:PART@DOWN-UP "
                                    "(e.g. nic:gpu5.port1@1.2s, or controller@1s)");
    }
    auto kind = std::find_if(KINDS.begin(), KINDS.end(), [&m](const auto& k) {
        return k.first == m[1].str();
    });
    if (kind == KINDS.end())
    {
        throw std::invalid_argument("fault \"" + text + "\": unknown kind \"" + m[1].str() +
                                    "\" (nic, link, switch, ocs-port, ocs, ocs-reconfig, gpu, "
                                    "server, controller)");
    }
    fault.kind = kind->second;
    bool partless = fault.kind == CONTROLLER;
    if (m[2].matched == partless || !ReadPart(fault, m[3]))
    {
        throw std::invalid_argument("fault \"" + text + "\": " + kind->first + " part \"" +
                                    m[3].str() + "\" is not " + PartForm(fault.kind));
    }
    fault.part = partless ? kind->first : kind->first + ":" + m[3].str();
    std::string times = m[4].str();
    std::size_t split = TimeSplit(times);
    fault.down = ReadTime(times.substr(0, split), text);
    if (split != std::string::npos)
    {
        if (fault.kind == OCS_RECONFIG)
        {
            throw std::invalid_argument("fault \"" + text +
                                        "\": a failed reconfiguration has no repair time");
        }
        fault.up = ReadTime(times.substr(split + 1), text);
        if (fault.up <= fault.down)
        {
            throw std::invalid_argument("fault \"" + text +
                                        "\": the repair time must be after the failure");
        }
    }
    return fault;
}

std::string
Fault::CheckAgainst(const RailFabricSpec& spec) const
{
    std::string head = "fault \"" + entry + "\": ";
    auto range = [&head](const std::string& what, uint32_t value, uint32_t count) {
        return value < count ? std::string()
                             : head + "no " + what + " " + std::to_string(value) + " (there " +
                                   (count == 1 ? "is 1" : "are " + std::to_string(count)) + ")";
    };
    bool optical = spec.kind == RailKind::OCS;
    uint32_t rails = spec.gpusPerServer;
    if (kind == NIC)
    {
        std::string error = range("GPU", gpu, spec.Gpus());
        return error.empty() ? range("NIC port", port, spec.nicPorts) : error;
    }
    if (kind == GPU || kind == SERVER)
    {
        return kind == GPU ? range("GPU", gpu, spec.Gpus()) : range("server", server, spec.servers);
    }
    if (kind == CONTROLLER)
    {
        return optical ? "" : head + "electrical rails have no Opus controller";
    }
    std::string error = range("rail", rail, rails);
    if (!error.empty())
    {
        return error;
    }
    if (kind == OCS_PORT || kind == OCS || kind == OCS_RECONFIG)
    {
        if (!optical)
        {
            return head + "an OCS fault on electrical rails";
        }
        return kind == OCS_PORT ? range("OCS port", port, spec.PortsPerRail()) : "";
    }
    if (optical)
    {
        return head + "a packet-switch fault on optical rails";
    }
    bool clos = spec.EffectiveKind() == RailKind::EPS_CLOS; // eps beyond a radix too
    if (kind == SWITCH && isRail)
    {
        return clos ? head + "a Clos rail has leaves and spines: name railR.leafL or railR.spineS"
                    : "";
    }
    if (!clos)
    {
        return head + "a single-switch rail has no " +
               (kind == LINK ? "leaf-spine cable" : "leaf or spine") +
               " (fail switch:railR, or a nic)";
    }
    ClosPlan plan;
    std::string planError =
        ClosPlan::Make(spec.PortsPerRail(), spec.switchRadix, spec.oversubscription, plan);
    if (!planError.empty())
    {
        return head + planError;
    }
    if (kind == SWITCH)
    {
        return isSpine ? range("spine", spine, plan.spines) : range("leaf", leaf, plan.leaves);
    }
    error = range("leaf", leaf, plan.leaves);
    error = error.empty() ? range("spine", spine, plan.spines) : error;
    return error.empty() ? range("parallel cable", cable, plan.linksPerPair) : error;
}

FaultSchedule
FaultSchedule::Read(const std::string& file, const std::string& inline_)
{
    FaultSchedule schedule;
    if (!file.empty())
    {
        for (const std::string& text : ReadFaultFile(file))
        {
            schedule.Add(Fault::Parse(text));
        }
    }
    if (!inline_.empty())
    {
        for (const std::string& text : StrictCommandLine::SplitList("fault", inline_))
        {
            schedule.Add(Fault::Parse(text));
        }
    }
    return schedule;
}

const std::vector<Fault>&
FaultSchedule::GetFaults() const
{
    return m_faults;
}

bool
FaultSchedule::IsEmpty() const
{
    return m_faults.empty();
}

void
FaultSchedule::Add(const Fault& fault)
{
    auto after = std::upper_bound(m_faults.begin(),
                                  m_faults.end(),
                                  fault,
                                  [](const Fault& a, const Fault& b) { return a.down < b.down; });
    m_faults.insert(after, fault);
}

void
FaultSchedule::CheckAgainst(const RailFabricSpec& spec, const std::string& fabricName) const
{
    for (const Fault& fault : m_faults)
    {
        std::string error = fault.CheckAgainst(spec);
        if (!error.empty())
        {
            throw std::invalid_argument(error + " on fabric " + fabricName);
        }
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "jobs-file.h"

#include "ns3/input-text.h"
#include "ns3/json-input.h"
#include "ns3/log.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/strict-command-line.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobsFile");

namespace
{

using Json = nlohmann::json;

const std::vector<std::pair<std::string, JobPlacementPolicy>> POLICIES = {
    {"packed", JobPlacementPolicy::PACKED},
    {"spread", JobPlacementPolicy::SPREAD},
    {"random", JobPlacementPolicy::RANDOM},
};

/// Reads one job; throws std::invalid_argument "FIELD: reason" (the caller says which job).
class EntryReader
{
  public:
    EntryReader(const Json& json, JobPlacementPolicy placement)
        : m_json(json)
    {
        m_entry.placement = placement;
    }

    JobEntry Read()
    {
        if (!m_json.is_object())
        {
            throw std::invalid_argument("must be an object with \"name\", \"workload\" and "
                                        "\"servers\"");
        }
        static const std::set<std::string> known =
            {"name", "workload", "servers", "placement", "start", "iterations"};
        for (const auto& [key, value] : m_json.items())
        {
            if (known.count(key) == 0)
            {
                throw std::invalid_argument(
                    "unknown field \"" + InputText::Escape(key) +
                    "\" (name, workload, servers, placement, start, iterations)");
            }
        }
        ReadName();
        ReadWorkload();
        ReadServers();
        ReadOptional();
        return m_entry;
    }

  private:
    const Json& Required(const char* field) const
    {
        if (!m_json.contains(field))
        {
            throw std::invalid_argument(std::string("\"") + field + "\" is missing");
        }
        return m_json.at(field);
    }

    void ReadName()
    {
        const Json& name = Required("name");
        // The name prefixes the job's groups ("a/tp0") and names its output rows.
        // A letter or digit first: "." and ".." would name folders that are not the job's.
        static const std::regex form("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
        if (!name.is_string() || !std::regex_match(name.get<std::string>(), form))
        {
            throw std::invalid_argument("\"name\" must be 1 to 64 letters, digits, '_', '.' "
                                        "or '-', the first a letter or digit");
        }
        m_entry.name = name.get<std::string>();
    }

    void ReadWorkload()
    {
        const Json& workload = Required("workload");
        if (workload.is_string())
        {
            std::istringstream words(workload.get<std::string>());
            for (std::string word; words >> word;)
            {
                m_entry.workload.push_back(word);
            }
        }
        else if (workload.is_array())
        {
            for (const Json& flag : workload)
            {
                if (!flag.is_string())
                {
                    throw std::invalid_argument("\"workload\" must be a string of flags or an "
                                                "array of flag strings");
                }
                m_entry.workload.push_back(flag.get<std::string>());
            }
        }
        else
        {
            throw std::invalid_argument("\"workload\" must be a string of flags (e.g. "
                                        "\"--job=b16\") or an array of flag strings");
        }
        if (m_entry.workload.empty())
        {
            throw std::invalid_argument("\"workload\" is empty (e.g. \"--job=b16\", "
                                        "\"--dag=job.json\")");
        }
    }

    /// Counts and indices are bounded by a fabric's GPUs (every server holds one at least).
    void ReadServers()
    {
        const Json& servers = Required("servers");
        if (servers.is_number_unsigned() && servers.get<uint64_t>() >= 1 &&
            servers.get<uint64_t>() <= RailFabricSpec::MAX_GPUS)
        {
            m_entry.serverCount = servers.get<uint32_t>();
            return;
        }
        if (!servers.is_array() || servers.empty())
        {
            throw std::invalid_argument("\"servers\" must be a count (1 to " +
                                        std::to_string(RailFabricSpec::MAX_GPUS) +
                                        ") or a non-empty list of server indices");
        }
        std::set<uint32_t> seen;
        for (const Json& server : servers)
        {
            if (!server.is_number_unsigned() || server.get<uint64_t>() >= RailFabricSpec::MAX_GPUS)
            {
                throw std::invalid_argument("\"servers\" lists " + server.dump() +
                                            ": a server index is an integer from 0 to " +
                                            std::to_string(RailFabricSpec::MAX_GPUS - 1));
            }
            uint32_t index = server.get<uint32_t>();
            if (!seen.insert(index).second)
            {
                throw std::invalid_argument("\"servers\" lists server " + std::to_string(index) +
                                            " twice");
            }
            m_entry.servers.push_back(index);
        }
        m_entry.serverCount = m_entry.servers.size();
    }

    void ReadOptional()
    {
        if (m_json.contains("placement"))
        {
            if (!m_entry.servers.empty())
            {
                throw std::invalid_argument("\"placement\" places a count of servers: this job "
                                            "lists its servers");
            }
            const Json& placement = m_json.at("placement");
            m_entry.placement = JobsFile::ParsePlacement(
                placement.is_string() ? placement.get<std::string>() : placement.dump());
        }
        if (m_json.contains("start"))
        {
            const Json& start = m_json.at("start");
            if (!start.is_string())
            {
                throw std::invalid_argument("\"start\" must be a duration string (e.g. "
                                            "\"5ms\", \"0\")");
            }
            try
            {
                m_entry.start = StrictCommandLine::ParseTime("start", start.get<std::string>());
            }
            catch (const std::invalid_argument& e)
            {
                // "--start: ..." as a flag's: here it is a field
                throw std::invalid_argument("\"start\"" + std::string(e.what()).substr(7));
            }
        }
        if (m_json.contains("iterations"))
        {
            const Json& iterations = m_json.at("iterations");
            if (!iterations.is_number_unsigned() || iterations.get<uint64_t>() < 1 ||
                iterations.get<uint64_t>() > JobsFile::MAX_ITERATIONS)
            {
                throw std::invalid_argument("\"iterations\" must be an integer from 1 to " +
                                            std::to_string(JobsFile::MAX_ITERATIONS));
            }
            m_entry.iterations = iterations.get<uint32_t>();
        }
    }

    const Json& m_json; //!< The job's object
    JobEntry m_entry;   //!< What was read
};

/// \return the jobs array of \p root, after checking the top level's fields
const Json&
JobsOf(const Json& root, const std::string& path, JobPlacementPolicy& placement)
{
    if (!root.is_object() || !root.contains("jobs"))
    {
        throw InputFileError(path, "must hold an object with a \"jobs\" array");
    }
    for (const auto& [key, value] : root.items())
    {
        if (key != "jobs" && key != "placement")
        {
            throw InputFileError(path,
                                 "unknown field \"" + InputText::Escape(key) +
                                     "\" (the file holds \"jobs\" and an optional "
                                     "\"placement\")");
        }
    }
    if (root.contains("placement"))
    {
        const Json& name = root.at("placement");
        try
        {
            placement =
                JobsFile::ParsePlacement(name.is_string() ? name.get<std::string>() : name.dump());
        }
        catch (const std::invalid_argument& e)
        {
            throw InputFileError(path, e.what());
        }
    }
    const Json& jobs = root.at("jobs");
    if (!jobs.is_array() || jobs.empty() || jobs.size() > JobsFile::MAX_JOBS)
    {
        throw InputFileError(path,
                             "\"jobs\" must be an array of 1 to " +
                                 std::to_string(JobsFile::MAX_JOBS) + " jobs");
    }
    return jobs;
}

} // namespace

std::vector<JobEntry>
JobsFile::Read(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    Json root = JsonInput::ReadFile(path, "jobs file");
    JobPlacementPolicy placement = JobPlacementPolicy::PACKED;
    const Json& jobs = JobsOf(root, path, placement);
    std::vector<JobEntry> entries;
    std::set<std::string> names;
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        std::string where = "jobs[" + std::to_string(i) + "]";
        if (jobs[i].is_object() && jobs[i].contains("name") && jobs[i].at("name").is_string())
        {
            where += " (\"" + InputText::Escape(jobs[i].at("name").get<std::string>()) + "\")";
        }
        try
        {
            entries.push_back(EntryReader(jobs[i], placement).Read());
        }
        catch (const std::invalid_argument& e)
        {
            throw InputFileError(path, where + ": " + e.what());
        }
        // Names become folders (alone/NAME): "a" and "A" would be one on some file systems.
        std::string folded = entries.back().name;
        std::transform(folded.begin(), folded.end(), folded.begin(), [](unsigned char c) {
            return std::tolower(c);
        });
        if (!names.insert(folded).second)
        {
            throw InputFileError(path,
                                 where + ": the name is given to another job too (names "
                                         "differ in more than case)");
        }
    }
    return entries;
}

JobPlacementPolicy
JobsFile::ParsePlacement(const std::string& name)
{
    for (const auto& [text, policy] : POLICIES)
    {
        if (text == name)
        {
            return policy;
        }
    }
    throw std::invalid_argument("\"placement\" " + StrictCommandLine::Quote(name) +
                                " is not a policy (" + PlacementNames() + ")");
}

std::string
JobsFile::PlacementNames()
{
    return "packed, spread or random";
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOBS_FILE_H
#define JOBS_FILE_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief How a job that asks for a number of servers gets them (JobPlacement).
 */
enum class JobPlacementPolicy : uint8_t
{
    PACKED, //!< The lowest-numbered free servers (neighbours share leaf switches)
    SPREAD, //!< Free servers evenly spaced over the free ones (across leaves)
    RANDOM, //!< Free servers drawn with the run's seed
};

/**
 * \ingroup photonic-rails
 * \brief One job of a --jobs file, as written (nothing is loaded or placed yet).
 */
struct JobEntry
{
    std::string name;                  //!< Unique; prefixes its groups ("name/group")
    std::vector<std::string> workload; //!< Workload flags: --dag, --chakra, --job, --model ...
    std::vector<uint32_t> servers;     //!< Explicit servers (empty: serverCount by policy)
    uint32_t serverCount{0};           //!< Servers it needs (explicit: their number)
    JobPlacementPolicy placement{JobPlacementPolicy::PACKED}; //!< Without explicit servers
    Time start;                                               //!< When its ranks start
    uint32_t iterations{1};                                   //!< Replays of its workload
};

/**
 * \ingroup photonic-rails
 * \brief Reads a --jobs file: the jobs that share one fabric (the format is in the user
 *        documentation, "Several jobs on one fabric").
 *
 *   {"placement": "packed",
 *    "jobs": [{"name": "a", "workload": "--job=b16", "servers": 4, "iterations": 2},
 *             {"name": "b", "workload": ["--dag=b.json"], "servers": [4, 5],
 *              "start": "5ms"}]}
 *
 * Every problem is one InputFileError line naming the job and the field.
 */
class JobsFile
{
  public:
    static constexpr uint32_t MAX_JOBS = 4096;          //!< Jobs in one file
    static constexpr uint32_t MAX_ITERATIONS = 1000000; //!< As --iterations

    /**
     * \param path the file
     * \return its jobs, in file order
     * \throws InputFileError "PATH: reason"
     */
    static std::vector<JobEntry> Read(const std::string& path);

    /**
     * \param name a placement policy's name
     * \return the policy (std::invalid_argument if unknown)
     */
    static JobPlacementPolicy ParsePlacement(const std::string& name);

    /// \return "packed, spread or random"
    static std::string PlacementNames();
};

} // namespace ns3

#endif /* JOBS_FILE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESTART_POLICY_H
#define RESTART_POLICY_H

#include "ns3/nstime.h"
#include "ns3/strict-command-line.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief How a training job recovers from a failure that stops it (a GPU, a server).
 *
 * Synchronous training cannot go on without a rank: the job is detected as stuck, restarts
 * from its last checkpoint and re-runs the work done since. The policy says where the lost
 * server's ranks go (its repaired self, or a spare that the rails are re-pointed to) and what
 * each step costs. Default values and their sources are in the design doc ("Failures that
 * stop the job").
 */
struct RestartPolicy
{
    /// Where the failed server's ranks restart.
    enum Action
    {
        WAIT, //!< On the failed server, once it is repaired
        SWAP, //!< On a spare server (on optical rails, after one reconfiguration per rail)
    };

    std::string onServerFailure{"wait"}; //!< --onServerFailure: wait or swap
    uint32_t spareServers{0};            //!< --spareServers: idle servers on every rail
    /// --checkpointInterval: iterations between checkpoints (0: only the job's start)
    uint32_t checkpointInterval{0};
    std::string failureDetection{"10min"}; //!< --failureDetection: failure to restart order
    std::string restoreTime{"10min"};      //!< --restoreTime: relaunch and checkpoint load
    Action action{WAIT};                   //!< onServerFailure, read by Check
    Time failureDetectionTime;             //!< failureDetection, read by Check
    Time restoreTimeTime;                  //!< restoreTime, read by Check

    /// \param cmd the program's flags: every field above gets its flag
    void AddFlags(StrictCommandLine& cmd);
    /// Checks the values and reads the durations (std::invalid_argument, one line).
    void Check();
};

} // namespace ns3

#endif /* RESTART_POLICY_H */

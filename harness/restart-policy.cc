/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "restart-policy.h"

#include <stdexcept>

namespace ns3
{

namespace
{
const FlagRange SPARE_SERVERS(0, 4096, "spare servers");
const FlagRange CHECKPOINT_INTERVAL(0, 1000000, "iterations", "only the job's start");
} // namespace

void
RestartPolicy::AddFlags(StrictCommandLine& cmd)
{
    cmd.Add("onServerFailure",
            "a GPU or server failure restarts the job from its last checkpoint: wait (for the "
            "repair) or swap (onto a spare server; optical rails reconfigure once per rail)",
            onServerFailure);
    cmd.Add("spareServers",
            "idle servers attached to every rail, taken by --onServerFailure=swap",
            spareServers,
            SPARE_SERVERS);
    cmd.Add("checkpointInterval",
            "iterations between checkpoints (Megatron's --save-interval); 0: only the start",
            checkpointInterval,
            CHECKPOINT_INTERVAL);
    cmd.Add("failureDetection",
            "from a GPU or server failure to the job's restart order (default: PyTorch's NCCL "
            "timeout)",
            failureDetection);
    cmd.Add("restoreTime",
            "from the restart order to training again: relaunch, communicator setup, checkpoint "
            "load",
            restoreTime);
}

void
RestartPolicy::Check()
{
    StrictCommandLine::CheckRange("spareServers", spareServers, SPARE_SERVERS);
    StrictCommandLine::CheckRange("checkpointInterval", checkpointInterval, CHECKPOINT_INTERVAL);
    if (onServerFailure != "wait" && onServerFailure != "swap")
    {
        throw std::invalid_argument(
            "--onServerFailure: " + StrictCommandLine::Quote(onServerFailure) +
            " is not wait or swap");
    }
    action = onServerFailure == "swap" ? SWAP : WAIT;
    if (action == SWAP && spareServers == 0)
    {
        throw std::invalid_argument("--onServerFailure=swap needs spare servers (--spareServers)");
    }
    failureDetectionTime = StrictCommandLine::ParseTime("failureDetection", failureDetection);
    restoreTimeTime = StrictCommandLine::ParseTime("restoreTime", restoreTime);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLURM_ARRAY_H
#define SLURM_ARRAY_H

#include "sweep-runner.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief A sweep's points as a Slurm job array: one task per point, task N running the
 *        point on line N + 1 of points.txt through its command.sh (as on this machine).
 *
 * Slurm does the scheduling; this writes the job script (DIR/sweep.sbatch), submits it
 * with sbatch and asks squeue whether the job still has tasks. Its tasks' own output
 * (Slurm's, not the simulator's: that goes to each run.log) is in DIR/slurm/JOB_TASK.out.
 */
class SlurmArray
{
  public:
    /// sbatch's options the user may give.
    struct Options
    {
        std::string partition; //!< --partition ("" = the cluster's default)
        std::string time;      //!< --time, per task ("" = the partition's default)
        std::string memory;    //!< --mem, per task ("" = the partition's default)
    };

    /// \param runner the sweep (its points prepared)
    explicit SlurmArray(const SweepRunner& runner);

    /**
     * \brief Writes DIR/sweep.sbatch for points \p which.
     * \return its path
     */
    std::string WriteScript(const std::vector<std::size_t>& which, const Options& options) const;

    /**
     * \brief Submits a job script with sbatch.
     * \return the job's id
     * \throws std::runtime_error with sbatch's message if it refuses
     */
    static std::string Submit(const std::string& script);

    /**
     * \param job a job's id
     * \return true while the job has tasks pending or running
     * \throws std::runtime_error if squeue cannot answer
     */
    static bool InQueue(const std::string& job);

    /**
     * \brief Writes the sweep's job id (DIR/slurm/job), for CheckNoneQueued.
     * \param job its id
     */
    void Remember(const std::string& job) const;

    /**
     * \brief Refuses to run points while the sweep's last job array is still queued: they
     *        would run twice, into the same folders.
     * \throws std::runtime_error naming the job
     */
    void CheckNoneQueued() const;

    /// \return \p which as an --array list: "0-3,5,7-9"
    static std::string ArrayList(const std::vector<std::size_t>& which);

  private:
    const SweepRunner& m_runner; //!< The sweep
};

} // namespace ns3

#endif /* SLURM_ARRAY_H */

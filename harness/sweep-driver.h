/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWEEP_DRIVER_H
#define SWEEP_DRIVER_H

#include "slurm-array.h"
#include "sweep-runner.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class StrictCommandLine;

/**
 * \ingroup photonic-rails
 * \brief Where a sweep's points run, and following them: on this machine (--workers at a
 *        time) or as a Slurm job array (--slurm, waited for or not), each ended point on a
 *        progress line (done/total, failures, time left). The flags are the same in every
 *        sweep program (photonic-rails-sweep and its presets).
 */
class SweepDriver
{
  public:
    /**
     * \param program the program's name, for the messages that tell what to run next
     * \param tag the message prefix, e.g. "[sweep]"
     * \param collect what collects a job array not waited for, e.g. "the same command"
     */
    SweepDriver(std::string program, std::string tag, std::string collect);

    /// Registers --workers, --points, --slurm, --wait, --partition, --time, --mem, --poll.
    void AddFlags(StrictCommandLine& cmd);

    /// Refuses flags that do not go together, and sbatch values it would misread.
    void CheckFlags(const StrictCommandLine& cmd) const;

    /**
     * \brief Prepares the sweep's folder (SweepRunner::Prepare), once no job array of it is
     *        queued on Slurm, then runs the points not finished (or --points) and follows
     *        them to their end.
     * \param runner the sweep
     * \param out the sweep's folder as given (for the messages)
     * \return false if the points were submitted to Slurm and not waited for (--wait=0):
     *         their results are not there yet
     * \throws StopSignalReceived if a stop signal ended the points run here
     */
    bool Run(const SweepRunner& runner, const std::string& out) const;

    /**
     * \brief Gives a preset's points (their folders and labels set) their arguments: the
     *        preset's program runs again with \p preset (if not ""), its own arguments but
     *        the driver's flags, --out, --plot and --point, then --out=OUT --point=FOLDER.
     * \param points the points
     * \param argc main()'s argument count
     * \param argv main()'s arguments
     * \param preset "--preset=NAME" when photonic-rails-sweep runs the preset, else ""
     * \param out the sweep's folder, absolute
     * \return the points
     */
    static std::vector<SweepPoint> PresetPoints(std::vector<SweepPoint> points,
                                                int argc,
                                                char* argv[],
                                                const std::string& preset,
                                                const std::string& out);

    /**
     * \brief Run(), for a program that goes on with the results.
     * \param runner the sweep
     * \param out the sweep's folder as given
     * \return nothing once every point has ended (their results are there), or the exit
     *         status the program ends with: 0 when submitted to Slurm and not waited for;
     *         128 + the signal when a stop signal stopped the points here (after one line
     *         on stderr)
     */
    std::optional<int> RunToEnd(const SweepRunner& runner, const std::string& out) const;

    /**
     * \brief Refuses to report a sweep with points that did not run (left out by --points,
     *        stopped, or killed on Slurm): a preset's tables need every point.
     * \throws std::runtime_error naming how many and what runs them
     */
    void CheckAllRan(const SweepRunner& runner) const;

    /**
     * \param runner a preset's sweep
     * \param i a point that did not finish
     * \return why, as the preset's run of it said in its error line (the program's name
     *         left out), or SweepRunner::FailureOf's line
     */
    std::string PointError(const SweepRunner& runner, std::size_t i) const;

    /**
     * \brief Lists the points that failed or did not run, and how to run them again.
     * \return the number of points that failed
     */
    std::size_t ReportUnfinished(const SweepRunner& runner) const;

  private:
    /// \return the points to run: --points, or every one not finished
    std::vector<std::size_t> PointsToRun(const SweepRunner& runner) const;

    /// Runs \p which here.
    void RunHere(const SweepRunner& runner, const std::vector<std::size_t>& which) const;

    /// Submits \p which; with --wait, follows the job to its end. \return false if not waited
    bool RunOnSlurm(const SweepRunner& runner,
                    const std::vector<std::size_t>& which,
                    const std::string& out) const;

    std::string m_program;       //!< For messages
    std::string m_tag;           //!< Message prefix
    std::string m_collect;       //!< What collects a job array not waited for
    uint32_t m_workers{2};       //!< Points at once here (two: this machine's cores)
    std::string m_points;        //!< --points
    bool m_slurm{false};         //!< --slurm
    bool m_wait{true};           //!< --wait
    SlurmArray::Options m_batch; //!< --partition, --time, --mem
    double m_poll{5};            //!< s between squeue calls
};

} // namespace ns3

#endif /* SWEEP_DRIVER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWEEP_RUNNER_H
#define SWEEP_RUNNER_H

#include "sweep-plan.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The run folders of a sweep and the points run in them, on this machine.
 *
 * Each point runs a program (photonic-rails-sim, or a preset sweep's own program) with the
 * point's arguments from a script of its own, DIR/runs/FOLDER/command.sh (the same script a
 * Slurm task runs), from the folder the sweep started in (relative paths in the arguments
 * hold); its messages go to the run folder's run.log, its outputs (summary.json...) beside
 * them (its arguments say so), and its exit status to exit-status, written last by a rename. A
 * point is finished when exit-status says 0 and its command.sh is this sweep's: a sweep started
 * again skips those (resume); a point stopped half-way (Ctrl-C, a killed task) has no
 * exit-status and runs again, as does one whose command.sh differs (other flags, another
 * folder started from, another build of the program: the script names its size and time).
 * DIR/points.txt lists the folders, one per line, in point order (a Slurm array task runs line
 * TASK_ID + 1); DIR/sweep.json keeps the points (folders, varied flags, arguments) and the program,
 * so that a later --merge needs only the folder.
 */
class SweepRunner
{
  public:
    /// Where a point stands.
    enum State
    {
        PENDING,  //!< Not run, or stopped before it ended
        FINISHED, //!< Ended with exit status 0
        FAILED    //!< Ended with another status (its run.log says why)
    };

    /**
     * \param dir the sweep's folder
     * \param program the program each point runs (photonic-rails-sim), its path
     * \param points the points, in order
     */
    SweepRunner(std::filesystem::path dir, std::string program, std::vector<SweepPoint> points);

    /**
     * \brief Reads the sweep that Prepare() wrote in \p dir, for --merge and --list: a
     *        point's state is then what its exit-status says (the folder may have moved,
     *        which changes the scripts' paths).
     * \throws std::runtime_error if DIR/sweep.json is missing or not one
     */
    static SweepRunner Load(const std::filesystem::path& dir);

    /**
     * \brief Writes every point's command.sh, points.txt and sweep.json. A folder whose
     *        command.sh differs (a run of other flags: another sweep in the same folder)
     *        loses its exit-status: the point runs anew.
     * \throws std::runtime_error if a file cannot be written
     */
    void Prepare() const;

    /// \return true if \p other has the same points (folders, varied flags, arguments)
    bool SamePoints(const SweepRunner& other) const;

    /// \return the sweep's folder (absolute)
    const std::filesystem::path& GetDir() const;

    /// \return the points
    const std::vector<SweepPoint>& GetPoints() const;

    /// \return point \p i's run folder
    std::filesystem::path FolderOf(std::size_t i) const;

    /// \return where point \p i stands, from its exit-status file (PENDING if its
    ///         command.sh is not this sweep's: a run of other flags)
    State StateOf(std::size_t i) const;

    /// \return point \p i's labels as "flag=value flag=value"
    std::string Describe(std::size_t i) const;

    /// Forgets that point \p i ended (it is about to run again elsewhere).
    void Forget(std::size_t i) const;

    /// \return why point \p i failed, in one line: the last line of its run.log, or its status
    std::string FailureOf(std::size_t i) const;

    /**
     * \brief Runs points on this machine, \p workers at a time, each in a child process
     *        (its command.sh). A stop signal stops the running ones and throws
     *        StopSignalReceived (they run again next time).
     * \param which the points to run, in order
     * \param workers how many at once
     * \param ended called with its index as each ends
     */
    void RunHere(const std::vector<std::size_t>& which,
                 uint32_t workers,
                 const std::function<void(std::size_t)>& ended) const;

    /**
     * \brief Finds photonic-rails-sim beside the running program, whose name (in a build
     *        of ns-3, with a prefix and suffix) contains \p program.
     * \return its path
     * \throws std::runtime_error if it is not there
     */
    static std::string FindSimulator(const std::string& program);

    /// \return the running program's path (for points that run it again)
    static std::string ThisProgram();

  private:
    /// \return the text of point \p i's command.sh
    std::string Script(std::size_t i) const;

    std::filesystem::path m_dir;      //!< The sweep's folder
    std::string m_workdir;            //!< Where the points run (where the sweep started)
    std::string m_program;            //!< What each point runs
    std::string m_build;              //!< Its size and time (a rebuild runs points anew)
    bool m_asSaved{false};            //!< Read back by Load (states from exit-status alone)
    std::vector<SweepPoint> m_points; //!< The points
};

} // namespace ns3

#endif /* SWEEP_RUNNER_H */

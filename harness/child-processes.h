/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHILD_PROCESSES_H
#define CHILD_PROCESSES_H

#include <csignal>
#include <cstddef>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <sys/types.h>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief A stop signal (SIGINT, SIGTERM, SIGHUP) ended a program running child processes;
 *        the children were stopped and reaped.
 */
class StopSignalReceived : public std::runtime_error
{
  public:
    /**
     * \param signal the signal received
     * \param stopped how many children were running
     */
    StopSignalReceived(int signal, std::size_t stopped);

    /**
     * \param signal the signal received
     * \param what what it stopped, after "stopped by SIGNAME: "
     */
    StopSignalReceived(int signal, const std::string& what);

    /// \return the signal's name, e.g. SIGINT
    static std::string SignalName(int signal);

    /// \return the exit status a shell reports for a program ended by the signal (128 + it)
    int ExitStatus() const;

  private:
    int m_signal; //!< The signal received
};

/**
 * \ingroup photonic-rails
 * \brief Waits for a stop signal (SIGINT, SIGTERM, SIGHUP not ignored) for a while, the
 *        signals blocked while the object lives: a wait between two polls of a job that
 *        ends with a line, not silently.
 */
class StopSignals
{
  public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    /// \return the stop signal that came within \p seconds, or 0 if none did
    int WaitFor(double seconds);

  private:
    sigset_t m_signals;      //!< The stop signals not ignored
    sigset_t m_previousMask; //!< The mask before
};

/**
 * \ingroup photonic-rails
 * \brief Child processes, each running one task (a sweep's point), each in a process group
 *        of its own so that a signal reaches what the task started too (the simulator under
 *        a shell script).
 *
 * SIGINT, SIGTERM and SIGHUP (those not ignored when the object is made: nohup ignores
 * SIGHUP) stop the program: Wait() forwards the signal to every running child's group,
 * reaps them and throws StopSignalReceived. On destruction (an error) the running ones are
 * stopped with SIGTERM.
 *
 * The parent blocks those signals and SIGCHLD and takes them with sigwaitinfo(), so a
 * signal that arrives between a check and a wait is not lost; children get the mask back.
 */
class ChildProcesses
{
  public:
    ChildProcesses();
    ~ChildProcesses();
    ChildProcesses(const ChildProcesses&) = delete;
    ChildProcesses& operator=(const ChildProcesses&) = delete;

    /**
     * \brief Starts task \p index in a child that returns \p run's value as its exit status.
     * \param index the caller's name for the task, returned by Wait()
     * \param run what the child does (it may exec another program)
     */
    void Start(std::size_t index, const std::function<int()>& run);

    /// \return the number of running children
    std::size_t Running() const;

    /// Throws StopSignalReceived (after stopping the children) if a stop signal is pending.
    void ThrowIfStopped();

    /**
     * \brief Waits for a child to end.
     * \param status receives its wait status (WIFEXITED, WEXITSTATUS...)
     * \return its task's index
     */
    std::size_t Wait(int& status);

  private:
    /// \return the index of reaped child \p pid, forgotten
    std::size_t Reaped(pid_t pid);

    /// Sends \p signal to every running child's group and reaps them all.
    void Stop(int signal);

    /// Stop(signal), then throws StopSignalReceived.
    [[noreturn]] void StopAndThrow(int signal);

    std::map<pid_t, std::size_t> m_running; //!< pid -> task
    sigset_t m_stopSignals;                 //!< SIGINT, SIGTERM, SIGHUP
    sigset_t m_awaited;                     //!< Those and SIGCHLD
    sigset_t m_previousMask;                //!< The mask before (children get it back)
    bool m_stopped{false};                  //!< A stop signal ended the program
};

} // namespace ns3

#endif /* CHILD_PROCESSES_H */

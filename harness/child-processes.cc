/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "child-processes.h"

#include <cerrno>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// \return SIGINT, SIGTERM and SIGHUP, but those ignored when the program started (nohup
///         ignores SIGHUP; a shell without job control starts background commands with
///         SIGINT ignored): one ignored on purpose stays ignored
sigset_t
StopSignalSet()
{
    sigset_t set;
    sigemptyset(&set);
    for (int signal : {SIGINT, SIGTERM, SIGHUP})
    {
        struct sigaction action;
        if (sigaction(signal, nullptr, &action) == 0 && action.sa_handler != SIG_IGN)
        {
            sigaddset(&set, signal);
        }
    }
    return set;
}

} // namespace

std::string
StopSignalReceived::SignalName(int signal)
{
    return signal == SIGINT    ? "SIGINT"
           : signal == SIGTERM ? "SIGTERM"
           : signal == SIGHUP  ? "SIGHUP"
                               : "signal " + std::to_string(signal);
}

StopSignalReceived::StopSignalReceived(int signal, const std::string& what)
    : std::runtime_error("stopped by " + SignalName(signal) + ": " + what),
      m_signal(signal)
{
}

StopSignals::StopSignals()
    : m_signals(StopSignalSet())
{
    sigprocmask(SIG_BLOCK, &m_signals, &m_previousMask);
}

StopSignals::~StopSignals()
{
    sigprocmask(SIG_SETMASK, &m_previousMask, nullptr);
}

int
StopSignals::WaitFor(double seconds)
{
    timespec wait{static_cast<time_t>(seconds), static_cast<long>((seconds - long(seconds)) * 1e9)};
    int signal = sigtimedwait(&m_signals, nullptr, &wait);
    return signal > 0 ? signal : 0;
}

StopSignalReceived::StopSignalReceived(int signal, std::size_t stopped)
    : std::runtime_error("stopped by " + SignalName(signal) + ": " + std::to_string(stopped) +
                         " running simulation" + (stopped == 1 ? "" : "s") +
                         " stopped; the same command resumes the sweep"),
      m_signal(signal)
{
}

int
StopSignalReceived::ExitStatus() const
{
    return 128 + m_signal;
}

ChildProcesses::ChildProcesses()
    : m_stopSignals(StopSignalSet())
{
    m_awaited = m_stopSignals;
    sigaddset(&m_awaited, SIGCHLD);
    sigprocmask(SIG_BLOCK, &m_awaited, &m_previousMask);
}

ChildProcesses::~ChildProcesses()
{
    Stop(SIGTERM);
    if (!m_stopped)
    {
        sigprocmask(SIG_SETMASK, &m_previousMask, nullptr);
    }
}

void
ChildProcesses::Start(std::size_t index, const std::function<int()>& run)
{
    std::cout.flush();
    std::cerr.flush();
    pid_t pid = fork();
    if (pid < 0)
    {
        throw std::runtime_error("cannot start a child process");
    }
    if (pid == 0)
    {
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, &m_previousMask, nullptr);
        _exit(run());
    }
    setpgid(pid, pid); // both sides: whichever runs first, a signal finds the group
    m_running[pid] = index;
}

std::size_t
ChildProcesses::Running() const
{
    return m_running.size();
}

void
ChildProcesses::ThrowIfStopped()
{
    const timespec now{0, 0};
    int signal = sigtimedwait(&m_stopSignals, nullptr, &now);
    if (signal > 0)
    {
        StopAndThrow(signal);
    }
}

std::size_t
ChildProcesses::Wait(int& status)
{
    while (true)
    {
        // A stop signal first: a child killed by the terminal's Ctrl-C is not a failure.
        ThrowIfStopped();
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0)
        {
            return Reaped(pid);
        }
        if (pid < 0 && errno != EINTR)
        {
            throw std::runtime_error("lost track of the child processes");
        }
        siginfo_t info;
        int signal = sigwaitinfo(&m_awaited, &info); // a child ended, or a stop signal
        if (signal > 0 && signal != SIGCHLD)
        {
            StopAndThrow(signal);
        }
    }
}

std::size_t
ChildProcesses::Reaped(pid_t pid)
{
    auto found = m_running.find(pid);
    if (found == m_running.end())
    {
        throw std::runtime_error("lost track of a child process");
    }
    std::size_t index = found->second;
    m_running.erase(found);
    return index;
}

void
ChildProcesses::Stop(int signal)
{
    for (const auto& [pid, index] : m_running)
    {
        kill(-pid, signal);
    }
    for (const auto& [pid, index] : m_running)
    {
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR)
        {
        }
    }
    m_running.clear();
}

void
ChildProcesses::StopAndThrow(int signal)
{
    std::size_t running = m_running.size();
    Stop(signal);
    m_stopped = true; // stays blocked: the program ends with 128 + signal
    throw StopSignalReceived(signal, running);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-phase-replay.h"

#include "ns3/input-text.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusPhaseReplay");

double
OpusReplayRun::MeanStepMs() const
{
    return OpusPhaseReplay::MeanAfterFirst(stepTimeMs);
}

namespace
{

/// "file:line", the place messages point at.
std::string
Where(const std::string& name, const OpusReplayPhase& phase)
{
    return name + ":" + std::to_string(phase.line);
}

/// What a phase log line says (all but its line number).
auto
Content(const WorkloadPhaseLogEntry& e)
{
    return std::tie(e.parallelism,
                    e.startBackend,
                    e.startIdx,
                    e.endBackend,
                    e.endIdx,
                    e.len,
                    e.startMs,
                    e.endMs);
}

/// True if both logs hold the same phases (kind, communicators, indices, times).
bool
SamePhases(const WorkloadPhaseLog& a, const WorkloadPhaseLog& b)
{
    const auto& x = a.GetEntries();
    const auto& y = b.GetEntries();
    return std::equal(x.begin(),
                      x.end(),
                      y.begin(),
                      y.end(),
                      [](const WorkloadPhaseLogEntry& p, const WorkloadPhaseLogEntry& q) {
                          return Content(p) == Content(q);
                      });
}

std::string
CommRange(const OpusReplayPhase& phase)
{
    return std::to_string(phase.firstComm) +
           (phase.lastComm == phase.firstComm ? "" : "-" + std::to_string(phase.lastComm));
}

/**
 * \brief One replay pass over the two coupled chains.
 *
 * Each phase has two milestones, its start and its end, computed as soon as what they
 * depend on is known: the previous phase of its stage and, for PP phases, its partners on
 * the other stage. The chains advance in turn until both are done.
 */
class ReplayPass
{
  public:
    ReplayPass(const std::array<std::vector<OpusReplayPhase>, 2>& phases,
               double delayMs,
               OpusReconfigurationPolicy policy)
        : m_phases(phases),
          m_delayMs(delayMs),
          m_policy(policy)
    {
        for (uint32_t s = 0; s < 2; ++s)
        {
            m_start[s].assign(phases[s].size(), 0.0);
            m_end[s].assign(phases[s].size(), 0.0);
            m_started[s].assign(phases[s].size(), false);
            m_ended[s].assign(phases[s].size(), false);
        }
    }

    /// Runs both chains to their end; throws if they wait for each other.
    void Run(const std::array<std::string, 2>& names)
    {
        while (m_next[0] < m_phases[0].size() || m_next[1] < m_phases[1].size())
        {
            bool progress = false;
            for (uint32_t s = 0; s < 2; ++s)
            {
                progress = Advance(s) || progress;
            }
            if (!progress)
            {
                throw std::runtime_error(Position(names, 0) + " and " + Position(names, 1) +
                                         " wait for each other: the logs cannot be replayed");
            }
        }
    }

    const std::array<std::vector<double>, 2>& GetStart() const
    {
        return m_start;
    }

    const std::array<std::vector<double>, 2>& GetEnd() const
    {
        return m_end;
    }

  private:
    /// Where stage s's chain stands, for messages.
    std::string Position(const std::array<std::string, 2>& names, uint32_t s) const
    {
        return m_next[s] < m_phases[s].size() ? Where(names[s], m_phases[s][m_next[s]])
                                              : names[s] + " (done)";
    }

    /// Moves stage s's chain as far as it can; true if anything was computed.
    bool Advance(uint32_t s)
    {
        bool progress = false;
        while (m_next[s] < m_phases[s].size())
        {
            std::size_t i = m_next[s];
            progress = TryStart(s, i) || progress;
            progress = TryEnd(s, i) || progress;
            if (!m_ended[s][i])
            {
                break;
            }
            ++m_next[s];
        }
        return progress;
    }

    bool PreviousEnded(uint32_t s, std::size_t i) const
    {
        return i == 0 || m_ended[s][i - 1];
    }

    /// ready_i, then the later of it and the time the phase's circuits are up.
    double Earliest(uint32_t s, std::size_t i) const
    {
        const OpusReplayPhase& p = m_phases[s][i];
        if (i == 0)
        {
            return p.loggedStartMs; // preset: the run starts in its parallelism
        }
        double previousEnd = m_end[s][i - 1];
        double ready = previousEnd + p.gapMs;
        if (!p.reconfigures)
        {
            return ready;
        }
        // Opus profiles the first step on demand and provisions from the second on.
        bool provision = m_policy == OpusReconfigurationPolicy::PROVISIONING && p.step >= 1;
        double up = (provision ? previousEnd : ready) + m_delayMs;
        return std::max(ready, up);
    }

    bool TryStart(uint32_t s, std::size_t i)
    {
        if (m_started[s][i] || !PreviousEnded(s, i))
        {
            return false;
        }
        const OpusReplayPhase& p = m_phases[s][i];
        uint32_t o = 1 - s;
        std::size_t j = p.startPartner;
        double start = Earliest(s, i);
        if (p.pipeline && p.startsTogether)
        {
            // Same first send/recv: both sides wait for the later one (and its circuits).
            if (!PreviousEnded(o, j))
            {
                return false;
            }
            start = std::max(start, Earliest(o, j));
            m_start[o][j] = start;
            m_started[o][j] = true;
        }
        else if (p.pipeline)
        {
            // Its first send/recv is part of a phase the other side already runs.
            if (!m_started[o][j])
            {
                return false;
            }
            start = std::max(start, m_start[o][j]);
        }
        m_start[s][i] = start;
        m_started[s][i] = true;
        return true;
    }

    bool TryEnd(uint32_t s, std::size_t i)
    {
        if (!m_started[s][i] || m_ended[s][i])
        {
            return false;
        }
        const OpusReplayPhase& p = m_phases[s][i];
        double end = m_start[s][i] + p.durationMs;
        if (p.pipeline && p.endsTogether)
        {
            // The last send/recv is one transfer: it completes at once on both sides.
            uint32_t o = 1 - s;
            std::size_t z = p.endPartner;
            if (!m_started[o][z])
            {
                return false;
            }
            end = std::max(end, m_start[o][z] + m_phases[o][z].durationMs);
        }
        m_end[s][i] = end;
        m_ended[s][i] = true;
        return true;
    }

    const std::array<std::vector<OpusReplayPhase>, 2>& m_phases;
    double m_delayMs;
    OpusReconfigurationPolicy m_policy;
    std::array<std::vector<double>, 2> m_start;
    std::array<std::vector<double>, 2> m_end;
    std::array<std::vector<bool>, 2> m_started;
    std::array<std::vector<bool>, 2> m_ended;
    std::array<std::size_t, 2> m_next{0, 0};
};

} // namespace

// ---- OpusPipelineMatcher -----------------------------------------------------------------

void
OpusPipelineMatcher::CheckOrder(std::vector<OpusReplayPhase>& phases,
                                const std::vector<WorkloadPhaseLogEntry>& entries,
                                const std::string& name)
{
    const OpusReplayPhase* previous = nullptr;
    for (std::size_t i = 0; i < phases.size(); ++i)
    {
        OpusReplayPhase& p = phases[i];
        const WorkloadPhaseLogEntry& e = entries[i];
        if (!p.pipeline)
        {
            continue;
        }
        if (e.startBackend != PIPELINE_BACKEND)
        {
            throw std::runtime_error(Where(name, p) + ": PP phase starts on backend " +
                                     std::to_string(e.startBackend) +
                                     ", not on the pipeline communicator (1)");
        }
        if (e.len == 0)
        {
            throw std::runtime_error(Where(name, p) + ": PP phase without collectives (len 0)");
        }
        // end_idx is not always on the pipeline communicator (end_backend may be another):
        // the phase's send/recv are start_idx .. start_idx + len - 1.
        p.firstComm = e.startIdx;
        p.lastComm = e.startIdx + e.len - 1;
        if (previous && p.firstComm <= previous->lastComm)
        {
            throw std::runtime_error(Where(name, p) + ": PP collectives " + CommRange(p) +
                                     " do not follow the previous PP phase's (" +
                                     CommRange(*previous) + ")");
        }
        previous = &p;
    }
}

std::size_t
OpusPipelineMatcher::Holder(const std::vector<OpusReplayPhase>& phases,
                            uint32_t comm,
                            const std::string& name,
                            const std::string& asker)
{
    auto it = std::find_if(phases.begin(), phases.end(), [comm](const OpusReplayPhase& p) {
        return p.pipeline && p.firstComm <= comm && comm <= p.lastComm;
    });
    if (it == phases.end())
    {
        throw std::runtime_error(name + ": no PP phase carries pipeline send/recv #" +
                                 std::to_string(comm) + " of " + asker +
                                 ": the two logs cannot be matched");
    }
    return std::size_t(it - phases.begin());
}

void
OpusPipelineMatcher::Match(std::array<std::vector<OpusReplayPhase>, 2>& phases,
                           const std::array<const std::vector<WorkloadPhaseLogEntry>*, 2>& entries,
                           const std::array<std::string, 2>& names)
{
    NS_LOG_FUNCTION_NOARGS();
    for (uint32_t s = 0; s < 2; ++s)
    {
        CheckOrder(phases[s], *entries[s], names[s]);
    }
    for (uint32_t s = 0; s < 2; ++s)
    {
        const std::vector<OpusReplayPhase>& other = phases[1 - s];
        for (OpusReplayPhase& p : phases[s])
        {
            if (!p.pipeline)
            {
                continue;
            }
            for (uint32_t k = p.firstComm; k <= p.lastComm; ++k)
            {
                Holder(other, k, names[1 - s], Where(names[s], p)); // every one has a peer
            }
            p.startPartner = Holder(other, p.firstComm, names[1 - s], Where(names[s], p));
            p.startsTogether = other[p.startPartner].firstComm == p.firstComm;
            p.endPartner = Holder(other, p.lastComm, names[1 - s], Where(names[s], p));
            p.endsTogether = other[p.endPartner].lastComm == p.lastComm;
        }
    }
}

// ---- OpusPhaseReplay ---------------------------------------------------------------------

OpusPhaseReplay::OpusPhaseReplay(const WorkloadPhaseLog& stage0,
                                 const std::string& name0,
                                 const WorkloadPhaseLog& stage1,
                                 const std::string& name1)
    : m_names{name0, name1}
{
    std::array<const WorkloadPhaseLog*, 2> logs{&stage0, &stage1};
    for (uint32_t s = 0; s < 2; ++s)
    {
        m_phases[s] = Chain(*logs[s], m_names[s]);
    }
    if (stage0.GetIterationCount() != stage1.GetIterationCount())
    {
        uint32_t steps = stage0.GetIterationCount();
        throw std::runtime_error(name0 + " has " + std::to_string(steps) + " training step" +
                                 (steps == 1 ? "" : "s") + " but " + name1 + " has " +
                                 std::to_string(stage1.GetIterationCount()) +
                                 ": the two logs cannot be matched");
    }
    m_steps = stage0.GetIterationCount();
    OpusPipelineMatcher::Match(m_phases, {&stage0.GetEntries(), &stage1.GetEntries()}, m_names);
    CheckSharedClock();
    CoupleMeasuredTimes();
    MeasureGaps();
    // Fails now, not in the program's loop, if the chains wait for each other.
    OpusReplayRun baseline = Run(0, OpusReconfigurationPolicy::ON_DEMAND);
    // Slowdowns are relative to the mean step at delay 0: it must not be 0 (0/0 = nan).
    if (m_steps >= 2 && !(baseline.MeanStepMs() > 0))
    {
        throw std::runtime_error(name0 + " and " + name1 + ": steps 2-" + std::to_string(m_steps) +
                                 " last 0 ms at delay 0: no step time to compare with");
    }
}

OpusPhaseReplay
OpusPhaseReplay::ReadFiles(const std::string& path0, const std::string& path1)
{
    // One after the other: a missing stage 0 is reported first.
    WorkloadPhaseLog stage0 = WorkloadPhaseLog::ReadFile(path0);
    WorkloadPhaseLog stage1 = WorkloadPhaseLog::ReadFile(path1);
    // Two stages never log the same phases at the same host-clock times: one log twice is a
    // mistake in the command line, and would be replayed as a perfectly symmetric pipeline.
    std::error_code error;
    if (std::filesystem::equivalent(path0, path1, error))
    {
        throw std::runtime_error(path0 + " and " + path1 +
                                 " are the same file: the replay needs the logs of two "
                                 "pipeline stages");
    }
    if (SamePhases(stage0, stage1))
    {
        throw std::runtime_error(path1 + " holds the same phases as " + path0 +
                                 ": the replay needs the logs of two pipeline stages");
    }
    return OpusPhaseReplay(stage0, path0, stage1, path1);
}

std::vector<OpusReplayPhase>
OpusPhaseReplay::Chain(const WorkloadPhaseLog& log, const std::string& name)
{
    const std::vector<WorkloadPhaseLogEntry>& entries = log.GetEntries();
    std::vector<WorkloadPhase> timed = log.ToPhases(); // labels, steps, clamped ends
    std::vector<OpusReplayPhase> chain;
    for (std::size_t i = 0; i < entries.size(); ++i)
    {
        const WorkloadPhaseLogEntry& e = entries[i];
        if (e.parallelism != "PP" && e.parallelism != "DP")
        {
            throw std::runtime_error(name + ":" + std::to_string(e.line) + ": phase kind " +
                                     InputText::Quote(e.parallelism) + " is neither PP nor DP");
        }
        OpusReplayPhase p;
        p.pipeline = e.parallelism == "PP";
        p.label = timed[i].label;
        p.step = e.iteration;
        p.line = e.line;
        p.loggedStartMs = e.startMs;
        p.loggedEndMs = std::max(e.startMs, e.endMs); // README: an earlier end = no duration
        p.reconfigures = i > 0 && p.pipeline != chain.back().pipeline;
        chain.push_back(p);
    }
    return chain;
}

void
OpusPhaseReplay::CheckSharedClock() const
{
    // The coupling compares the two logs' times: an offset between their clocks would be
    // replayed as waits (1000 ms on one log made the replay 6% slower than measured). An
    // offset cannot be seen in general, but one is certain when a stage starts after the
    // other's first step ended: that step exchanged pipeline send/recv with it (every PP
    // phase has a partner on the other stage), so both were running.
    for (uint32_t s = 0; s < 2; ++s)
    {
        const OpusReplayPhase& first = m_phases[1 - s].front();
        double firstStepEndMs = 0;
        for (const OpusReplayPhase& p : m_phases[s])
        {
            if (p.step == 0)
            {
                firstStepEndMs = std::max(firstStepEndMs, p.loggedEndMs);
            }
        }
        if (first.loggedStartMs > firstStepEndMs)
        {
            std::ostringstream reason;
            reason << std::setprecision(15) << Where(m_names[1 - s], first)
                   << ": the first phase starts at " << first.loggedStartMs << " ms, after "
                   << m_names[s] << "'s first training step ended (" << firstStepEndMs
                   << " ms): the two logs must share a clock (each stage starts before the "
                      "other's first step ends, as their pipeline send/recv couple them)";
            throw std::runtime_error(reason.str());
        }
    }
}

void
OpusPhaseReplay::CoupleMeasuredTimes()
{
    // Starts first, in pipeline order: a phase that begins inside its partner needs the
    // partner's coupled start, and the partner holds an earlier collective.
    std::vector<std::tuple<uint32_t, uint32_t, std::size_t>> order; // (firstComm, stage, i)
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (std::size_t i = 0; i < m_phases[s].size(); ++i)
        {
            OpusReplayPhase& p = m_phases[s][i];
            p.startMs = p.loggedStartMs;
            p.endMs = p.loggedEndMs;
            if (p.pipeline)
            {
                order.emplace_back(p.firstComm, s, i);
            }
        }
    }
    std::sort(order.begin(), order.end());
    for (const auto& [comm, s, i] : order)
    {
        OpusReplayPhase& p = m_phases[s][i];
        const OpusReplayPhase& partner = m_phases[1 - s][p.startPartner];
        p.startMs =
            std::max(p.loggedStartMs, p.startsTogether ? partner.loggedStartMs : partner.startMs);
    }
    // Then ends: a shared last send/recv ends at the later of both logged ends.
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (OpusReplayPhase& p : m_phases[s])
        {
            p.endMs = std::max(p.startMs, p.loggedEndMs);
            if (p.pipeline && p.endsTogether)
            {
                const OpusReplayPhase& partner = m_phases[1 - s][p.endPartner];
                p.endMs = std::max({p.endMs, partner.startMs, partner.loggedEndMs});
            }
            p.durationMs = p.endMs - p.startMs;
        }
    }
}

void
OpusPhaseReplay::MeasureGaps()
{
    for (auto& chain : m_phases)
    {
        for (std::size_t i = 1; i < chain.size(); ++i)
        {
            chain[i].gapMs = std::max(0.0, chain[i].loggedStartMs - chain[i - 1].endMs);
        }
    }
}

const std::vector<OpusReplayPhase>&
OpusPhaseReplay::GetPhases(uint32_t stage) const
{
    return m_phases.at(stage);
}

const std::string&
OpusPhaseReplay::GetName(uint32_t stage) const
{
    return m_names.at(stage);
}

uint32_t
OpusPhaseReplay::GetStepCount() const
{
    return m_steps;
}

std::vector<double>
OpusPhaseReplay::StepTimes(const std::array<std::vector<double>, 2>& endMs) const
{
    // The run starts when the first stage logged its first phase, replayed or not: the
    // coupling may hold that phase back, and the wait belongs to the first step.
    double firstStartMs =
        std::min(m_phases[0].front().loggedStartMs, m_phases[1].front().loggedStartMs);
    std::vector<double> stepEnd(m_steps, firstStartMs);
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (std::size_t i = 0; i < m_phases[s].size(); ++i)
        {
            double& end = stepEnd[m_phases[s][i].step];
            end = std::max(end, endMs[s][i]);
        }
    }
    std::vector<double> times;
    double previous = firstStartMs;
    for (double end : stepEnd)
    {
        end = std::max(end, previous); // a step ends no earlier than the one before it
        times.push_back(end - previous);
        previous = end;
    }
    return times;
}

std::vector<double>
OpusPhaseReplay::MeasuredStepTimesMs() const
{
    std::array<std::vector<double>, 2> ends;
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (const OpusReplayPhase& p : m_phases[s])
        {
            ends[s].push_back(p.loggedEndMs);
        }
    }
    return StepTimes(ends);
}

OpusReplayRun
OpusPhaseReplay::Run(double delayMs, OpusReconfigurationPolicy policy) const
{
    if (!std::isfinite(delayMs) || delayMs < 0)
    {
        throw std::invalid_argument("replay: the reconfiguration delay must be >= 0 ms");
    }
    ReplayPass pass(m_phases, delayMs, policy);
    pass.Run(m_names);
    OpusReplayRun run;
    run.delayMs = delayMs;
    run.policy = policy;
    run.startMs = pass.GetStart();
    run.endMs = pass.GetEnd();
    run.stepTimeMs = StepTimes(run.endMs);
    return run;
}

std::vector<uint32_t>
OpusPhaseReplay::ReconfigurationsPerStep(uint32_t stage) const
{
    std::vector<uint32_t> count(m_steps, 0);
    for (const OpusReplayPhase& p : GetPhases(stage))
    {
        count[p.step] += p.reconfigures ? 1 : 0;
    }
    return count;
}

std::vector<WorkloadWindow>
OpusPhaseReplay::ReconfigurationWindows(uint32_t stage, uint32_t firstStep) const
{
    const std::vector<OpusReplayPhase>& chain = GetPhases(stage);
    std::vector<WorkloadWindow> windows;
    for (std::size_t i = 1; i < chain.size(); ++i)
    {
        const OpusReplayPhase& p = chain[i];
        if (!p.reconfigures || p.step < firstStep)
        {
            continue;
        }
        WorkloadWindow w;
        w.view = stage;
        w.iteration = p.step;
        w.startS = chain[i - 1].endMs / 1e3;
        w.endS = w.startS + p.gapMs / 1e3;
        w.before = chain[i - 1].pipeline ? "PP" : "DP";
        w.next.parallelism = p.pipeline ? "PP" : "DP";
        w.next.label = chain[i - 1].label + " -> " + p.label;
        windows.push_back(w);
    }
    return windows;
}

double
OpusPhaseReplay::MeanAfterFirst(const std::vector<double>& stepTimesMs)
{
    if (stepTimesMs.size() < 2)
    {
        return 0;
    }
    double sum = 0;
    for (std::size_t k = 1; k < stepTimesMs.size(); ++k)
    {
        sum += stepTimesMs[k];
    }
    return sum / double(stepTimesMs.size() - 1);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_PHASE_REPLAY_H
#define OPUS_PHASE_REPLAY_H

#include "ns3/workload-phase-log.h"
#include "ns3/workload-windows.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief When Opus asks the OCS for the circuits of a new phase (paper §4.1).
 */
enum class OpusReconfigurationPolicy
{
    ON_DEMAND,   //!< when the new phase is ready to start (the shim intercepts its first call)
    PROVISIONING //!< as soon as the previous phase ends (from the second training step on)
};

/**
 * \ingroup photonic-rails
 * \brief One phase of one pipeline stage as OpusPhaseReplay replays it (times in ms, on the
 *        clock of the logs).
 */
struct OpusReplayPhase
{
    bool pipeline{false};     //!< a PP phase (pipeline send/recv); else DP (FSDP, optimizer)
    std::string label;        //!< "PP x1", "DP x17", "DP x20 opt" (WorkloadPhaseLog::ToPhases)
    uint32_t step{0};         //!< training step, 0-based (WorkloadPhaseLog's iteration)
    std::size_t line{0};      //!< line in its log
    uint32_t firstComm{0};    //!< PP: running index of its first pipeline collective
    uint32_t lastComm{0};     //!< PP: of its last one
    double loggedStartMs{0};  //!< start as logged
    double loggedEndMs{0};    //!< end as logged, raised to the start if earlier
    double startMs{0};        //!< measured start with the coupling applied (logged for DP)
    double endMs{0};          //!< measured end with the coupling applied (logged for DP)
    double durationMs{0};     //!< D: endMs - startMs
    double gapMs{0};          //!< G: the window, loggedStartMs - previous endMs (>= 0)
    bool reconfigures{false}; //!< its parallelism differs from the previous phase's
    /// PP: index (in the other stage) of the phase holding firstComm
    std::size_t startPartner{0};
    bool startsTogether{false}; //!< PP: that phase also begins with firstComm
    /// PP: index (in the other stage) of the phase holding lastComm
    std::size_t endPartner{0};
    bool endsTogether{false}; //!< PP: that phase also ends with lastComm
};

/**
 * \ingroup photonic-rails
 * \brief One replay: every phase's replayed start and end, and the step times.
 */
struct OpusReplayRun
{
    double delayMs{0};                          //!< reconfiguration delay
    OpusReconfigurationPolicy policy{};         //!< when circuits are requested
    std::array<std::vector<double>, 2> startMs; //!< per stage, per phase: start'
    std::array<std::vector<double>, 2> endMs;   //!< per stage, per phase: end'
    std::vector<double> stepTimeMs;             //!< per training step

    /// \return the mean step time after the first step (OpusPhaseReplay::MeanAfterFirst)
    double MeanStepMs() const;
};

/**
 * \ingroup photonic-rails
 * \brief Matches the pipeline send/recv phases of the two stages' logs.
 *
 * The k-th collective on the 2-rank pipeline communicator (backend 1) is the same send/recv
 * seen from both sides, so a PP phase carrying collectives a..b (start_idx .. start_idx +
 * len - 1) shares them with the other stage's PP phases that carry any of a..b. The two logs
 * need not group them alike (stage 0 of the authors' run issues one FSDP AllGather between
 * the two halves of an exchange that stage 1 issues as one fused phase), so each PP phase
 * gets two partners on the other stage: the phase holding its first collective and the one
 * holding its last.
 *
 * The logs cannot be matched (std::runtime_error, one line naming the file and line) if a
 * PP phase does not start on the pipeline communicator, is empty, or does not follow the
 * previous PP phase of its log (indices must increase), or if one of its collectives has no
 * PP phase on the other stage.
 */
class OpusPipelineMatcher
{
  public:
    /// Communicator id of the pipeline send/recv in the authors' shim.
    static constexpr uint32_t PIPELINE_BACKEND = 1;

    /**
     * \brief Fills firstComm, lastComm and the partner fields of the PP phases.
     * \param phases the phases of stage 0 and stage 1 (pipeline, line already set)
     * \param entries the two logs' entries, phase for phase
     * \param names the two logs' names, for messages
     */
    static void Match(std::array<std::vector<OpusReplayPhase>, 2>& phases,
                      const std::array<const std::vector<WorkloadPhaseLogEntry>*, 2>& entries,
                      const std::array<std::string, 2>& names);

  private:
    /// Sets one log's collective ranges; throws unless they are well-formed and increasing.
    static void CheckOrder(std::vector<OpusReplayPhase>& phases,
                           const std::vector<WorkloadPhaseLogEntry>& entries,
                           const std::string& name);
    /// \return the index of the PP phase carrying comm; throws if there is none
    static std::size_t Holder(const std::vector<OpusReplayPhase>& phases,
                              uint32_t comm,
                              const std::string& name,
                              const std::string& asker);
};

/**
 * \ingroup photonic-rails
 * \brief Replays the authors' measured phase logs of the two stages of a PP=2 job, coupled by
 *        their pipeline send/recv, under an OCS reconfiguration delay, and gives the training
 *        step times (paper §3.1 windows, §4 provisioning, Fig. 8).
 *
 * No simulator: a replay is a pass over the two phase chains (times in ms). The coupling
 * compares the two logs' times, so they must share a clock; the authors' do (the last
 * send/recv before each optimizer step ends within 0.1 ms in both logs). Logs that cannot
 * share one are refused: each stage's first phase must start before the other stage's
 * first step ends, since that step exchanges pipeline send/recv with it. A smaller offset
 * cannot be told from a wait, and is replayed as one.
 *
 * **Measured quantities.** Each stage is its log's chain of phases in log order. Phase i has
 * a measured duration D_i and is preceded by a measured compute gap (window) G_i:
 * - DP phase: D_i = max(0, end_i - start_i).
 * - PP phase: its send/recv run when both stages have reached them, so its measured start is
 *   coupled: the later of its own logged start and its start partner's (the other stage's
 *   phase holding its first collective: its logged start when that phase begins with the
 *   same collective, else its coupled start, since it is already running). A PP phase ends
 *   with its end partner when both end with the same collective: at the later of both
 *   logged ends (a side's own end misses the wait for the other side: an eager send ends
 *   before the receiver even posts), and not before either coupled start.
 *   D_i = coupled end - coupled start.
 * - G_i = logged start_i - coupled end_{i-1}, clamped at 0. Measuring from the coupled end
 *   keeps the wait for the other stage out of G (the coupling replays it). G is negative only
 *   where a stage issued its next phase while its send still waited for the other stage (in
 *   the authors' logs: stage 0's single AllGather between the two halves of a fused stage-1
 *   exchange); the replay keeps log order, so that phase follows the coupled start.
 *
 * **Replay** with reconfiguration delay d and a policy, phase by phase on both chains:
 * - ready_i = end'_{i-1} + G_i (the first phase of a stage: its logged start).
 * - A phase reconfigures its stage's rails when its parallelism (PP or DP) differs from the
 *   previous phase's on that stage; the first phase of a stage is preset (no delay). Its
 *   circuits are up at ready_i + d on demand (and in the first, profiled step), or at
 *   end'_{i-1} + d with provisioning (steps 2 on), which adds max(0, d - G_i). A phase that
 *   keeps the parallelism is not delayed.
 * - DP phase: start'_i = max(ready_i, circuits up); end'_i = start'_i + D_i.
 * - PP phase: needs circuits at both stages. With a start partner that begins with the same
 *   collective, both start together at the later of both sides' max(ready, circuits up);
 *   otherwise it starts at max(ready_i, circuits up, the partner's replayed start). It ends
 *   at start'_i + D_i, or, with an end partner that ends with the same collective, together
 *   with it at the later of both sides' start' + D.
 * - Delay 0 is the electrical (fully connected) baseline, and reproduces the measured
 *   coupled times exactly when no G was clamped.
 *
 * Every delay is on the critical path of its stage. On the authors' testbed the shim's sleep
 * ran on the communication stream while compute kernels on other streams went on, so part of
 * each delay overlapped compute: this replay is an upper bound of the slowdown. Two more
 * choices of the model lean the same way: a sender whose send completed eagerly waits for
 * the exchange's coupled end before its next phase, and log order is kept (see G above).
 *
 * **Steps.** A training step ends after its backend-6 (optimizer) phase (WorkloadPhaseLog);
 * its end is the latest end of its phases on both stages, and its time that end minus the
 * previous step's end (the first step: minus the earliest logged start). Both logs must
 * hold the same number of steps. The mean step time excludes the first step, which Opus
 * profiles on demand (as photonic-rails-sim's iteration_time_s excludes its first).
 */
class OpusPhaseReplay
{
  public:
    /**
     * \param stage0 stage 0's log
     * \param name0 its name, for messages
     * \param stage1 stage 1's log
     * \param name1 its name
     * \throws std::runtime_error (one line) if the logs cannot be matched, do not share a
     *         clock (a stage starts after the other's first step ended), or if steps 2 and
     *         later last 0 ms in all (no step time to compare delays with)
     */
    OpusPhaseReplay(const WorkloadPhaseLog& stage0,
                    const std::string& name0,
                    const WorkloadPhaseLog& stage1,
                    const std::string& name1);

    /**
     * \param path0 stage 0's log file
     * \param path1 stage 1's log file
     * \return the replay of the two files
     * \throws std::runtime_error (one line) if a file cannot be read, parsed or matched, or
     *         if both name one file or the two files hold the same phases (one stage twice)
     */
    static OpusPhaseReplay ReadFiles(const std::string& path0, const std::string& path1);

    /// \param stage 0 or 1 \return its phases in log order
    const std::vector<OpusReplayPhase>& GetPhases(uint32_t stage) const;
    /// \param stage 0 or 1 \return its log's name
    const std::string& GetName(uint32_t stage) const;
    /// \return the number of training steps (the same in both logs)
    uint32_t GetStepCount() const;

    /// \return the measured time of each step, from the logged times (ms)
    std::vector<double> MeasuredStepTimesMs() const;

    /**
     * \param delayMs reconfiguration delay (ms, >= 0)
     * \param policy when circuits are requested
     * \return the replay
     */
    OpusReplayRun Run(double delayMs, OpusReconfigurationPolicy policy) const;

    /// \param stage 0 or 1 \return per step, the phases that reconfigure its rails
    std::vector<uint32_t> ReconfigurationsPerStep(uint32_t stage) const;

    /**
     * \param stage 0 or 1
     * \param firstStep first step (0-based) to include
     * \return the window (G) before each reconfiguring phase of those steps, labelled
     *         "<previous label> -> <label>" (next.label) for WorkloadWindows::Classify
     */
    std::vector<WorkloadWindow> ReconfigurationWindows(uint32_t stage, uint32_t firstStep) const;

    /**
     * \param stepTimesMs step times
     * \return the mean of all but the first (0 if there are fewer than 2)
     */
    static double MeanAfterFirst(const std::vector<double>& stepTimesMs);

  private:
    /// \return one log's phases in log order, with labels, steps and logged times
    static std::vector<OpusReplayPhase> Chain(const WorkloadPhaseLog& log, const std::string& name);
    /// Throws unless each stage's first phase starts before the other's first step ends.
    void CheckSharedClock() const;
    /// Sets startMs, endMs and durationMs from the logged times and the coupling.
    void CoupleMeasuredTimes();
    /// Sets gapMs.
    void MeasureGaps();
    /// \return the step times given every phase's end
    std::vector<double> StepTimes(const std::array<std::vector<double>, 2>& endMs) const;

    std::array<std::vector<OpusReplayPhase>, 2> m_phases; //!< per stage
    std::array<std::string, 2> m_names;                   //!< log names
    uint32_t m_steps{0};                                  //!< training steps
};

} // namespace ns3

#endif /* OPUS_PHASE_REPLAY_H */

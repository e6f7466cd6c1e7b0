/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_WINDOWS_H
#define WORKLOAD_WINDOWS_H

#include "workload-timeline.h"

#include "ns3/rail-topology.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief A maximal run of consecutive communications of one parallelism (seen on a rail or
 *        by a rank), e.g. the 17 FSDP AllGathers before a forward pass.
 */
struct WorkloadPhase
{
    std::string parallelism; //!< "dp", "pp", "tp", "ep", ... (group name without its number)
    double startS{0};        //!< earliest start of its communications (slowest member joined)
    double endS{0};          //!< latest end of its communications
    uint64_t bytes{0};       //!< volume: the most bytes one rank hands to its communications
    uint32_t comms{0};       //!< number of communications
    std::string mainType;    //!< op type carrying the most bytes ("" if unknown)
    uint32_t iteration{0};   //!< smallest iteration of its communications (its first one's)
    /// Largest iteration of its communications: a phase can straddle an iteration boundary
    /// (e.g. the optimizer AllReduces and the next iteration's first AllGathers).
    uint32_t lastIteration{0};
    std::string label; //!< class label, e.g. "dp allgather 957.3 MiB" or "DP x17"
};

/**
 * \ingroup photonic-rails
 * \brief The idle time on a rail between two consecutive phases (paper §3.1).
 *
 * Never negative: a phase that starts while an earlier one is still running is concurrent
 * with it, not consecutive, and gets no window (see WorkloadWindows::Between).
 */
struct WorkloadWindow
{
    int64_t view{-1};      //!< rail (or rank) the window was seen on; -1 for a phase log
    uint32_t iteration{0}; //!< iteration of the phase after the window
    double startS{0};      //!< last end of the previous phase's communications
    double endS{0};        //!< first start of the next phase's communications
    std::string before;    //!< parallelism of the previous phase
    WorkloadPhase next;    //!< the phase after the window (its volume classifies it)

    /// \return endS - startS (>= 0; 0 when the next phase starts as the previous one ends)
    double DurationS() const;
};

/**
 * \ingroup photonic-rails
 * \brief Statistics of a set of windows.
 */
struct WorkloadWindowStats
{
    std::size_t count{0};                         //!< windows
    double minS{0};                               //!< shortest
    double medianS{0};                            //!< median
    double meanS{0};                              //!< mean
    double maxS{0};                               //!< longest
    double shareAbove{0};                         //!< fraction longer than the threshold
    std::map<uint32_t, std::size_t> perIteration; //!< windows per iteration
};

/**
 * \ingroup photonic-rails
 * \brief Windows per class of following phase (the paper's Fig. 4(b)).
 */
struct WorkloadWindowClass
{
    std::string label;    //!< class label of the following phase
    std::size_t count{0}; //!< windows
    double meanS{0};      //!< mean window
    double minS{0};       //!< shortest window
    double maxS{0};       //!< longest window
};

/**
 * \ingroup photonic-rails
 * \brief The paper's window analysis (§3.1) on any timeline.
 *
 * 1. Records are grouped into communications: the k-th collective each member issues on a
 *    group (in start order) is one collective; the k-th send a->b with the k-th recv on b
 *    from a (when the peer is known) is one transfer. A communication starts when its
 *    slowest member joins (max of the members' start) and ends at the latest end.
 * 2. Only scale-out communications (members on more than one server) use a rail; one uses
 *    the rails of its members (rank mod gpusPerServer).
 * 3. On each rail, communications sorted by start form phases: maximal runs of the same
 *    parallelism (group name without its number: dp3 -> dp; send/recv -> pp).
 * 4. A window is the idle time before a phase: its first start minus the latest end of
 *    every earlier communication on the view (= the previous phase's last end when phases
 *    do not overlap). A phase that starts before that (it overlaps an earlier phase: both
 *    parallelisms use the view at once) is concurrent, not consecutive: no window. A window
 *    can be 0 (the next phase starts exactly when the previous one ends, e.g. an AllGather
 *    that waits for a pipeline recv): the reconfiguration delay would be fully exposed.
 *    Communications of one parallelism never have windows between them, however far
 *    apart: they are one phase.
 * 5. A window belongs to the next phase's iteration and is classified by that phase's
 *    volume: the most bytes one rank hands to the phase's communications (per-rank buffers,
 *    as in the paper's Fig. 4(b): 957 MiB for 17 FSDP AllGathers even when other groups
 *    share the rail).
 */
class WorkloadWindows
{
  public:
    /**
     * \param gpusPerServer ranks per server (rail = rank mod gpusPerServer)
     */
    explicit WorkloadWindows(uint32_t gpusPerServer);

    /**
     * \param timeline a timeline
     * \param rail a rail, or -1 for every rail
     * \return the windows, rail by rail, in time order
     */
    std::vector<WorkloadWindow> RailWindows(const WorkloadTimeline& timeline, int64_t rail) const;

    /**
     * \brief The same analysis from one rank's point of view (the communications it takes
     *        part in), as the authors' phase logs are.
     * \param timeline a timeline
     * \param rank a rank
     * \return its windows in time order
     */
    std::vector<WorkloadWindow> RankWindows(const WorkloadTimeline& timeline, uint32_t rank) const;

    /**
     * \param timeline a timeline
     * \param rail a rail
     * \return the phases on that rail in time order
     */
    std::vector<WorkloadPhase> RailPhases(const WorkloadTimeline& timeline, uint32_t rail) const;

    /**
     * \param timeline a timeline
     * \param rank a rank
     * \return the phases of the scale-out communications it takes part in, in time order
     */
    std::vector<WorkloadPhase> RankPhases(const WorkloadTimeline& timeline, uint32_t rank) const;

    /**
     * \param timeline a timeline
     * \param rail a rail
     * \return the ranks whose scale-out communications use it (rank mod gpusPerServer)
     */
    std::vector<uint32_t> RailRanks(const WorkloadTimeline& timeline, uint32_t rail) const;

    /**
     * \param phases phases in time order (by start)
     * \param view rail or rank the phases were seen on (-1 if unknown)
     * \param concurrent if set, receives the phases that started while an earlier phase was
     *        still running (they have no window before them)
     * \return the windows between consecutive phases: one before each phase (but the first)
     *         that starts at or after the latest end of every earlier phase
     */
    static std::vector<WorkloadWindow> Between(const std::vector<WorkloadPhase>& phases,
                                               int64_t view,
                                               std::vector<WorkloadPhase>* concurrent = nullptr);

    /**
     * \param windows windows
     * \param thresholdS threshold for shareAbove (the paper uses 1 ms)
     * \return their statistics
     */
    static WorkloadWindowStats Summarize(const std::vector<WorkloadWindow>& windows,
                                         double thresholdS);

    /**
     * \param windows windows
     * \return (duration, fraction of windows <= duration) for each distinct duration, sorted
     */
    static std::vector<std::pair<double, double>> Cdf(const std::vector<WorkloadWindow>& windows);

    /**
     * \param windows windows
     * \return one row per class of the following phase, by decreasing mean window
     */
    static std::vector<WorkloadWindowClass> Classify(const std::vector<WorkloadWindow>& windows);

    /**
     * \param group a group name ("dp3", "edp0"); empty for send/recv
     * \return its parallelism ("dp", "edp"; "pp" for an empty name)
     */
    static std::string Parallelism(const std::string& group);

  private:
    /// One collective or transfer, merged over its members.
    struct Comm
    {
        std::vector<uint32_t> ranks; //!< participants seen in the timeline
        WorkloadOpType type;         //!< type
        std::string parallelism;     //!< parallelism
        uint64_t bytes{0};           //!< per-rank buffer (max over members)
        double startS{0};            //!< slowest member's start
        double endS{0};              //!< latest end
        uint32_t iteration{0};       //!< smallest iteration of its records
        uint32_t lastIteration{0};   //!< largest iteration of its records
    };

    std::vector<Comm> Merge(const WorkloadTimeline& timeline) const;
    bool IsScaleOut(const Comm& comm) const;
    static std::vector<WorkloadPhase> Phases(std::vector<const Comm*> comms);

    RailTopology m_topology; //!< Servers and rails of the ranks
};

} // namespace ns3

#endif /* WORKLOAD_WINDOWS_H */

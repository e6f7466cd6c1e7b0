/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_SUMMARY_H
#define WORKLOAD_SUMMARY_H

#include "workload-estimator.h"
#include "workload-windows.h"

#include "ns3/workload-dag.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What `photonic-rails-workload --validate` prints: sizes, traffic per parallelism
 *        and collective type, and an estimate of the phases and windows per iteration.
 */
class WorkloadSummary
{
  public:
    /// Ops and bytes of one (parallelism, type) pair.
    struct Traffic
    {
        std::size_t ops{0};     //!< ops, all ranks
        uint64_t bytes{0};      //!< sum of per-rank buffers, all ranks
        uint64_t rank0Bytes{0}; //!< sum of rank 0's buffers
    };

    /// Phases and windows of one view (rail 0 or rank 0) in the steady iteration.
    struct View
    {
        std::size_t phases{0};     //!< phases with communications of the steady iteration
        std::size_t newPhases{0};  //!< of which start in it (the others began before)
        std::size_t windows{0};    //!< windows before phases of the steady iteration
        std::size_t concurrent{0}; //!< its phases that overlap an earlier one (no window)
        std::vector<std::string> parallelisms; //!< of its phases, sorted, unique
    };

    /**
     * \brief Counts the DAG and, if estimate is set, replays it twice with the estimator to
     *        count the phases and windows on rail 0 and in rank 0's view (the communications
     *        rank 0 takes part in, as the authors' phase logs) in the steady iteration: the
     *        first iteration of the second replay (the estimator numbers replay r's
     *        iteration i as r x I + i, I = the DAG's iteration count), so that the window
     *        between one iteration's optimizer step and the next one's first phase counts.
     * \param dag a valid DAG
     * \param config estimator configuration (repetitions is overridden to 2)
     * \param estimate false to skip the replay
     * \param progress optional progress callback for the replay
     * \return the summary
     */
    static WorkloadSummary Build(const WorkloadDag& dag,
                                 const WorkloadEstimatorConfig& config,
                                 bool estimate,
                                 std::function<void(double)> progress = nullptr);

    /**
     * \brief Prints the summary as aligned text.
     * \param os output stream
     */
    void Print(std::ostream& os) const;

    uint32_t ranks{0};                                              //!< ranks
    std::size_t ops{0};                                             //!< ops, all ranks
    std::size_t groups{0};                                          //!< groups
    uint32_t iterations{0};                                         //!< iterations in the file
    std::map<std::string, std::size_t> opsByType;                   //!< type -> ops
    std::map<std::pair<std::string, std::string>, Traffic> traffic; //!< (parallelism, type)
    double maxComputeS{0};                          //!< largest per-rank compute sum
    bool estimated{false};                          //!< the estimate below is set
    double iterationTimeS{0};                       //!< estimated steady iteration
    uint32_t gpusPerServer{0};                      //!< ranks per server (rail = rank mod it)
    bool gpusPerServerAssumed{false};               //!< the default, not given (the caller sets it)
    uint32_t steadyIteration{0};                    //!< iteration the counts below are of
    std::vector<uint32_t> rail0Ranks;               //!< ranks whose scale-out traffic uses rail 0
    View rail0;                                     //!< rail 0, steady iteration
    View rank0;                                     //!< rank 0's view, steady iteration
    WorkloadWindowStats windowStats;                //!< of rank 0's windows
    std::vector<WorkloadWindowClass> windowClasses; //!< of rank 0's windows
};

} // namespace ns3

#endif /* WORKLOAD_SUMMARY_H */

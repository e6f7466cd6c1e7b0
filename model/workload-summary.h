#ifndef WORKLOAD_SUMMARY_H
#define WORKLOAD_SUMMARY_H

#include "workload-dag.h"
#include "workload-estimator.h"
#include "workload-windows.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>

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

    /**
     * \brief Counts the DAG and, if estimate is set, replays it twice with the estimator to
     *        count the phases and windows on rail 0 and in rank 0's view (the communications
     *        rank 0 takes part in, as the authors' phase logs) in the second (steady) replay.
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
    std::size_t phasesPerIteration{0};              //!< rail 0, steady replay
    std::size_t windowsPerIteration{0};             //!< rail 0, steady replay
    std::size_t rankWindowsPerIteration{0};         //!< rank 0's view, steady replay
    WorkloadWindowStats windowStats;                //!< of rank 0's windows
    std::vector<WorkloadWindowClass> windowClasses; //!< of rank 0's windows
};

} // namespace ns3

#endif /* WORKLOAD_SUMMARY_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_ESTIMATOR_H
#define WORKLOAD_ESTIMATOR_H

#include "workload-timeline.h"

#include "ns3/workload-dag.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Parameters of the estimator's alpha-beta communication cost model.
 */
struct WorkloadEstimatorConfig
{
    uint32_t gpusPerServer{8};  //!< ranks per server (scale-up domain)
    double scaleUpGBps{300.0};  //!< scale-up bandwidth per GPU and direction, GB/s
    double scaleOutGbps{200.0}; //!< scale-out (NIC) bandwidth per GPU, Gb/s
    double latencyUs{10.0};     //!< per-step latency of a collective, microseconds
    uint32_t repetitions{1};    //!< times the DAG is replayed back to back
    /// Send/recv as a rendezvous: a send waits for its receive to be posted (Opus's
    /// requests, OpusHelper::CheckRendezvous); else eager, as the communicator delivers
    bool rendezvousPointToPoint{false};
};

/**
 * \ingroup photonic-rails
 * \brief Result of WorkloadEstimator::Run.
 */
struct WorkloadEstimate
{
    WorkloadTimeline timeline;           //!< one record per rank per collective or send/recv
    double makespanS{0};                 //!< end of the last op
    std::vector<double> iterationTimesS; //!< per reported iteration (end minus previous end)
};

/**
 * \ingroup photonic-rails
 * \brief A fast, network-free replay of a DAG: gives a plausible timeline (for window
 *        estimates and sanity checks) and proves the DAG cannot deadlock.
 *
 * Semantics follow the CONTRACT: an op starts when its deps and the previous op of its
 * stream have finished; compute takes duration_us; a collective starts when its slowest
 * member joins (the k-th collective a rank issues on a group matches the k-th of every
 * member); the k-th send a->b with tag t matches the k-th recv, and is eager as the
 * communicator's (it leaves when ready, the receive ends once posted and arrived) unless
 * rendezvousPointToPoint makes the pair start when both are ready;
 * replay r+1 of a rank starts once that rank finished replay r. Communication costs come
 * from a ring alpha-beta model at scale-up bandwidth when all members share a server and at
 * NIC bandwidth otherwise: no contention, no reconfiguration. The simulator is the
 * reference; this is an estimate.
 */
class WorkloadEstimator
{
  public:
    /**
     * \param config cost model and repetitions
     */
    explicit WorkloadEstimator(const WorkloadEstimatorConfig& config);

    /**
     * \param dag a valid DAG (see WorkloadValidator)
     * \return the estimate; iteration r * I + i is replay r's iteration i (I iterations)
     * \throws std::runtime_error naming stuck ops if the DAG deadlocks
     */
    WorkloadEstimate Run(const WorkloadDag& dag) const;

    /**
     * \param type a collective or send/recv type
     * \param members ranks taking part (2 for send/recv)
     * \param bytes per-rank buffer
     * \param scaleUp true if all members share a server
     * \return duration in seconds
     */
    double CommSeconds(WorkloadOpType type, uint32_t members, uint64_t bytes, bool scaleUp) const;

    /**
     * \brief Receives the fraction of ops done while Run() works (every ~1% on big DAGs).
     * \param callback the callback
     */
    void SetProgressCallback(std::function<void(double)> callback);

    /// \return the configuration
    const WorkloadEstimatorConfig& GetConfig() const;

  private:
    WorkloadEstimatorConfig m_config;       //!< configuration
    std::function<void(double)> m_progress; //!< progress callback
};

} // namespace ns3

#endif /* WORKLOAD_ESTIMATOR_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RANK_RUNTIME_H
#define RANK_RUNTIME_H

#include "ns3/application.h"
#include "ns3/collective-communicator.h"
#include "ns3/collective-starter.h"
#include "ns3/traced-callback.h"
#include "ns3/workload-dag.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Replays one rank's DAG on its GPU: compute as timed delays, communication through
 * the communicator.
 *
 * An op starts when the ops in its deps and the previous op of its stream (in id order)
 * have finished; ops of different streams overlap. Compute ops last duration_us; the
 * others are handed to the CollectiveCommunicator. The DAG is replayed Iterations times
 * back to back: replay k+1 starts when every op of replay k on this rank has finished (no
 * barrier across ranks; collectives synchronize by themselves).
 *
 * Calls are named so that all participants agree without talking: the k-th collective of
 * a group in id order is "g:<group>#k", the k-th send from a to b with tag t is
 * "p:a>b:t#k" (and so is the matching receive); counts continue across replays.
 */
class RankRuntime : public Application
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    RankRuntime();
    ~RankRuntime() override;

    /**
     * \brief Gives the runtime its workload.
     * \param dag the job's DAG (shared by every rank)
     * \param rank the rank this GPU runs
     * \param communicator the GPU's communicator
     */
    void Setup(std::shared_ptr<const WorkloadDag> dag,
               uint32_t rank,
               Ptr<CollectiveCommunicator> communicator);

    /**
     * \brief Hands every communication to a starter other than the communicator (e.g. the
     *        Opus shim on optical rails, which wraps the same communicator).
     * \param starter the rank's starter
     */
    void SetStarter(Ptr<CollectiveStarter> starter);

    /// \return the number of replays (the Iterations attribute)
    uint32_t GetIterations() const;

    /// \return the rank
    uint32_t GetRank() const;

    /// \return true when every op of every replay has finished
    bool IsFinished() const;

    /// \return ops finished, over all replays
    uint64_t GetOpsDone() const;

    /// \return ops to run, over all replays
    uint64_t GetOpsTotal() const;

    /// \return what this rank waits for, one line per running or ready-but-blocked op
    std::vector<std::string> DescribeBlocked() const;

    /**
     * \brief The call a communication op becomes (without its instance name).
     * \param dag the job
     * \param op a collective, send or receive of it
     * \return the call
     */
    static CollectiveCall CallOf(const WorkloadDag& dag, const WorkloadOp& op);

    /**
     * \brief The name every participant gives an op's calls, without the "#k" that counts
     *        its uses: "g:<group>" for a collective, "p:<from>><to>:<tag>" for send/recv.
     * \param op a communication op
     * \return the name ("" for compute)
     */
    static std::string InstanceOf(const WorkloadOp& op);

    /**
     * TracedCallback signature for op starts and ends.
     * \param op the op
     * \param replay the replay (0 .. Iterations - 1) it belongs to
     */
    typedef void (*OpTracedCallback)(const WorkloadOp& op, uint32_t replay);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    void Prepare();
    void BeginReplay();
    void StartOp(uint32_t index);
    void FinishOp(uint32_t index);
    /// Throws when simulated time went back since this rank's last op event: the clock
    /// wrapped past 2^63 ns (a job longer than the simulator's time range).
    void CheckClock(const WorkloadOp& op);
    CollectiveCall MakeCall(uint32_t index) const;

    std::shared_ptr<const WorkloadDag> m_dag;   //!< The job
    uint32_t m_rank{0};                         //!< This rank
    Ptr<CollectiveCommunicator> m_communicator; //!< Its communicator
    Ptr<CollectiveStarter> m_starter;           //!< Where communications go (the communicator)
    uint32_t m_iterations;                      //!< Attribute: replays
    std::vector<const WorkloadOp*> m_ops;       //!< This rank's ops, in id order
    std::vector<std::vector<uint32_t>> m_next;  //!< Per op: ops waiting for it
    std::vector<uint32_t> m_inputs;             //!< Per op: ops it waits for
    std::vector<std::string> m_instance;        //!< Per communication op: name without #k
    std::vector<uint32_t> m_ordinal;            //!< Per communication op: k within a replay
    std::vector<uint32_t> m_perReplay;          //!< Per communication op: its name's uses
    std::vector<uint32_t> m_waitingFor;         //!< Per op, this replay: inputs not finished
    std::vector<uint8_t> m_state;               //!< Per op, this replay: 0 new, 1 running, 2 done
    uint32_t m_replay{0};                       //!< Current replay
    uint32_t m_left{0};                         //!< Ops of this replay not finished
    uint64_t m_done{0};                         //!< Ops finished, all replays
    Time m_clock;                               //!< Time of the last op event
    TracedCallback<const WorkloadOp&, uint32_t> m_opStart; //!< Op started
    TracedCallback<const WorkloadOp&, uint32_t> m_opEnd;   //!< Op finished
};

} // namespace ns3

#endif /* RANK_RUNTIME_H */

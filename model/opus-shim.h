/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_SHIM_H
#define OPUS_SHIM_H

#include "ns3/collective-communicator.h"
#include "ns3/object.h"
#include "ns3/opus-controller.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Opus's shim on one rank: between the rank runtime and the communicator.
 *
 * Start() sees every communication before it runs. One that stays in the scale-up domain
 * goes straight to the communicator. One that needs rail circuits is requested from the
 * OpusController, and handed to the communicator when the controller grants it; when this
 * rank's part finishes the shim releases it.
 *
 * The shim records the sequence of its communications that need circuits during the first
 * iteration (profiling). With provisioning, from the second iteration on, as soon as a
 * communication finishes the shim announces the next one of the profile to the controller
 * (OpusController::Provision), which sets up its circuits once every member has announced it,
 * so the switching overlaps the window before it. The oracle takes the sequence from the DAG
 * (op id order) and provisions from the first iteration. The finished communication is found
 * in the sequence by its name, not by the order calls started in.
 */
class OpusShim : public Object
{
  public:
    /// How the shim asks for circuits.
    enum Provisioning
    {
        ON_DEMAND, //!< When a communication starts (reconfiguration on the critical path)
        PROFILED,  //!< Also ahead, from the second iteration, with the profiled sequence
        ORACLE,    //!< Also ahead from the first iteration, with the sequence of the DAG
    };

    /// Called when this rank's part of a communication finished.
    using DoneCallback = Callback<void>;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    OpusShim();
    ~OpusShim() override;

    /**
     * \brief Binds the shim to its rank.
     * \param rank the rank
     * \param communicator its communicator
     * \param controller the job's controller
     */
    void Setup(uint32_t rank,
               Ptr<CollectiveCommunicator> communicator,
               Ptr<OpusController> controller);

    /**
     * \brief The rank's communications in DAG order, for the oracle; and the replay count,
     *        so that the last iteration does not provision a next one.
     * \param calls the rank's send, recv and collective calls, in op id order, each with
     *        its instance name without "#k" (RankRuntime::InstanceOf)
     * \param replays iterations the runtime replays
     */
    void SetSchedule(std::vector<CollectiveCall> calls, uint32_t replays);

    /**
     * \brief Runs a communication once its circuits are up.
     * \param call the call
     * \param replay the runtime's iteration (0 first)
     * \param done called when this rank's part finished
     */
    void Start(const CollectiveCall& call, uint32_t replay, DoneCallback done);

  protected:
    void DoDispose() override;

  private:
    /// A communication between its request and its end.
    struct Running
    {
        CollectiveCall call; //!< The call
        uint32_t replay{0};  //!< Its iteration
        DoneCallback done;   //!< The runtime's completion
    };

    /// A communication of the sequence provisioning follows.
    struct Planned
    {
        CollectiveCall call; //!< The call (its instance: the first iteration's)
        std::string base;    //!< Its instance without "#k"
        uint64_t ordinal{0}; //!< k in the first iteration
    };

    /// \return \p call's entry in a sequence (its instance split)
    static Planned Plan(const CollectiveCall& call);
    void Granted(std::string instance);
    void Finished(std::string instance);
    /// Asks for the circuits of the communication after \p done, if they differ.
    void ProvisionAfter(const Running& done);

    uint32_t m_rank{0};                         //!< This rank
    Ptr<CollectiveCommunicator> m_communicator; //!< Its communicator
    Ptr<OpusController> m_controller;           //!< The job's controller
    Provisioning m_provisioning;                //!< Attribute
    std::vector<Planned> m_profile;             //!< Iteration 0's sequence (needing circuits)
    std::vector<Planned> m_oracle;              //!< The DAG's sequence (needing circuits)
    std::map<std::string, uint64_t> m_uses;     //!< Per instance base: calls per iteration
    uint32_t m_replays{1};                      //!< Iterations of the job
    std::map<std::string, Running> m_running;   //!< By instance
};

} // namespace ns3

#endif /* OPUS_SHIM_H */

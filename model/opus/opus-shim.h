/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_SHIM_H
#define OPUS_SHIM_H

#include "ns3/collective-communicator.h"
#include "ns3/collective-starter.h"
#include "ns3/object.h"
#include "ns3/opus-control-plane.h"

#include <map>
#include <memory>
#include <optional>
#include <regex>
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
 * job's OpusControlPlane, and handed to the communicator when it is granted; when this
 * rank's part finishes the shim releases it.
 *
 * The shim records the sequence of its communications that need circuits during the first
 * iteration (profiling). With provisioning, from the second iteration on, as soon as a
 * communication finishes the shim announces the next one of the profile to the control
 * plane (OpusControlPlane::Provision): OpusController sets up its circuits once every member
 * has announced it, so the switching overlaps the window before it. The oracle takes the sequence
 * from the DAG (op id order) and provisions from the first iteration. The finished communication is
 * found in the sequence by its name, not by the order calls started in.
 *
 * Communications whose op label matches the Ignore pattern (ECMAScript regular expression,
 * searched in the label; empty: none) are not intercepted: they run at once, as scale-up
 * ones do. Only for electrical rails (OpusTestbedEmulator): on optical rails they would find
 * no circuits.
 *
 * Iterations are the job's reported ones: replay x (iterations in the DAG) + the op's
 * iteration label, so a DAG that holds several iterations is profiled in its first one and
 * provisioned in the others, as replays of a one-iteration DAG are. A communication is
 * identified within its iteration as the j-th use of its name there (its "#k" counts uses
 * across the whole DAG and continues across replays).
 */
class OpusShim : public CollectiveStarter
{
  public:
    /// How the shim asks for circuits.
    enum Provisioning
    {
        ON_DEMAND,    //!< When a communication starts (reconfiguration on the critical path)
        PROVISIONING, //!< Also ahead, from the second iteration, with the profiled sequence
        ORACLE,       //!< Also ahead from the first iteration, with the sequence of the DAG
    };

    /// Called when this rank's part of a communication finished.

    /// A communication of the rank's DAG, for SetSchedule().
    struct ScheduledCall
    {
        CollectiveCall call;   //!< Its instance: the name without "#k" (RankRuntime::InstanceOf)
        uint32_t iteration{0}; //!< The op's iteration label in the DAG
    };

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    OpusShim();
    ~OpusShim() override;

    /**
     * \brief The rule on the Ignore attribute, applied by the shim (it aborts) and by the
     *        programs before anything runs (AttributeAudit::CheckDefaults).
     * \param ignore a value of Ignore
     * \return "" if it is empty or an ECMAScript regular expression, else why not
     */
    static std::string CheckIgnore(const std::string& ignore);

    /**
     * \brief Binds the shim to its rank.
     * \param rank the rank
     * \param communicator its communicator
     * \param controller the job's controller
     */
    void Setup(uint32_t rank,
               Ptr<CollectiveCommunicator> communicator,
               Ptr<OpusControlPlane> controller);

    /**
     * \brief The rank's communications in DAG order (the oracle's sequence, and how uses of
     *        a name spread over the DAG's iterations), and the job's length, so that the
     *        last iteration does not provision a next one.
     * \param calls the rank's send, recv and collective calls, in op id order
     * \param dagIterations iterations the DAG holds (WorkloadDag::GetIterationCount())
     * \param replays times the runtime replays the DAG
     */
    void SetSchedule(const std::vector<ScheduledCall>& calls,
                     uint32_t dagIterations,
                     uint32_t replays);

    /**
     * \brief Runs a communication once its circuits are up.
     * \param call the call
     * \param iteration its reported iteration: replay x DAG iterations + the op's label
     * \param done called when this rank's part finished
     */
    void StartCommunication(const CollectiveCall& call,
                            uint64_t iteration,
                            DoneCallback done) override;

  protected:
    void DoDispose() override;

  private:
    /// A communication between its request and its end.
    struct Running
    {
        CollectiveCall call;   //!< The call
        uint64_t iteration{0}; //!< Its reported iteration
        DoneCallback done;     //!< The runtime's completion
    };

    /// A communication as provisioning sees it: its name's j-th use in an iteration.
    struct Occurrence
    {
        std::string name;      //!< Its instance without "#k"
        uint32_t label{0};     //!< Its iteration label in the DAG
        uint64_t use{0};       //!< j: uses of the name before it in that iteration
        CollectiveCall call{}; //!< The call (instance without "#k")

        /// \return true if \p o is the same name, label and use
        bool Is(const Occurrence& o) const
        {
            return name == o.name && label == o.label && use == o.use;
        }
    };

    /// A sequence provisioning follows, repeating every `period` reported iterations.
    struct Sequence
    {
        std::vector<Occurrence> entries; //!< In order; labels relative to the period
        uint32_t period{1};              //!< Reported iterations it covers
    };

    /// \return where \p call (of reported \p iteration) is among its name's uses
    Occurrence Locate(const CollectiveCall& call, uint64_t iteration) const;
    /**
     * \brief The j-th use of a name in a reported iteration, as the DAG has it.
     * \param name the instance name without "#k"
     * \param iteration the reported iteration
     * \param use j
     * \param call receives the call, with its instance ("name#k")
     * \return false if that iteration has fewer uses of the name
     */
    bool CallAt(const std::string& name,
                uint64_t iteration,
                uint64_t use,
                CollectiveCall& call) const;
    /// \return true if \p call runs without asking (scale-up only, or ignored)
    bool PassesThrough(const CollectiveCall& call);
    void Granted(std::string instance);
    void Finished(std::string instance);
    /// Asks for the circuits of the communication after \p done, if they differ.
    void ProvisionAfter(const Running& done);

    uint32_t m_rank{0};                         //!< This rank
    Ptr<CollectiveCommunicator> m_communicator; //!< Its communicator
    Ptr<OpusControlPlane> m_controller;         //!< The job's control plane
    std::string m_ignore;                       //!< Attribute Ignore
    std::optional<std::regex> m_ignoreRegex;    //!< m_ignore compiled (on first use)
    Provisioning m_provisioning;                //!< Attribute
    Sequence m_profile;                         //!< Iteration 0's sequence (needing circuits)
    Sequence m_oracle;                          //!< The DAG's sequence (needing circuits)

    /// One use of a name in the DAG.
    struct Use
    {
        uint64_t ordinal{0}; //!< Its k within a replay
        CollectiveCall call; //!< The call (instance without "#k")
    };

    /// Per name, per DAG iteration label: its uses in op id order
    std::map<std::string, std::map<uint32_t, std::vector<Use>>> m_uses;
    std::map<std::string, uint64_t> m_perReplay; //!< Per name: uses per replay
    uint32_t m_dagIterations{1};                 //!< Iterations the DAG holds
    uint64_t m_iterations{1};                    //!< Reported iterations of the job
    std::map<std::string, Running> m_running;    //!< By instance
};

} // namespace ns3

#endif /* OPUS_SHIM_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_TESTBED_EMULATOR_H
#define OPUS_TESTBED_EMULATOR_H

#include "ns3/opus-control-plane.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Opus as the paper's authors ran it on an electrical testbed: no OCS, delays
 *        injected where their controller would have reconfigured.
 *
 * The measured job behind the paper's Fig. 8 (../shared/notes/measured-job.md) ran on
 * electrical rails; their controller kept a virtual topology per rail and slept the
 * reconfiguration delay where it changed. This control plane does the same on an
 * electrical fabric, so the measured delay curves can be reproduced and compared with the
 * faithful optical model (OpusController):
 * - a communication is served once every member has asked for it (or announced it);
 * - it is a *phase start* if its demand (OpusDemand) differs from the previous one of any
 *   member, or, with AskEveryPointToPoint (their on-demand shim), if it is a send or
 *   receive. A phase start pays a control round trip (2 x ControlLatency); if its circuits
 *   are not in the virtual topology it also sleeps ReconfigurationDelay, once, whatever
 *   the number of changed circuits, and concurrently with any other request (two stages
 *   shifting at once cost one delay). Any other communication is granted as its last
 *   member asks, at no cost;
 * - the virtual topology gives every GPU of a served demand exactly the demand's peers on
 *   its rail (all its ports go to the communicating parallelism, as with real Opus), and
 *   never makes anyone wait for a conflicting lease (there was no OCS to conflict);
 * - with provisioning (OpusShim), a member announces its next communication as it finishes
 *   one; once every member has announced (or asked for) it, a phase start is ordered then,
 *   and the members' requests wait until it is ready (their shim's "topology ready").
 * Which communications the testbed's shim did not intercept (the FSDP gathers of backward
 * passes) is the shim's Ignore attribute. Every delay slept is one record (one per changed
 * rail), whose darkPorts are the GPUs whose virtual circuits changed.
 */
class OpusTestbedEmulator : public OpusControlPlane
{
  public:
    /// The labels of the communications the testbed's shim did not intercept: FSDP gathers
    /// of backward passes (OpusShim's Ignore pattern for emulated runs).
    static const std::string TESTBED_IGNORE;
    /// The testbed's one-way shim <-> controller latency, fitted on the measured b16 step
    /// with Opus on demand at 0 ms (10.44 s against 10.18 s without a controller, +2.6%):
    /// the emulation's default ControlLatency in photonic-rails-sim
    static constexpr double TESTBED_CONTROL_LATENCY_S = 0.0175;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    OpusTestbedEmulator();
    ~OpusTestbedEmulator() override;

    /**
     * \brief Binds the emulator to the job.
     * \param gpusPerServer GPUs per server = rails
     * \param communicators every rank's communicator (for the members' plans)
     */
    void Setup(uint32_t gpusPerServer, std::vector<Ptr<CollectiveCommunicator>> communicators);

    /**
     * \brief Before the job: the virtual topology of the given demands (the first
     *        communication of every rank), instantly.
     * \param demands applied in order; one that involves a GPU an earlier one set up is
     *        skipped
     */
    void Preset(const std::vector<std::shared_ptr<const OpusDemand>>& demands);

    void Request(const CollectiveCall& call, uint32_t rank, GrantCallback granted) override;
    void Release(const std::string& instance) override;
    void Provision(const CollectiveCall& call, uint32_t rank) override;
    std::vector<std::string> DescribePending() const override;

  protected:
    void DoDispose() override;

  private:
    /// A communication between its first announcement and its grant.
    struct IncompleteRequest
    {
        std::string group;                        //!< Its group (instance without #k)
        std::shared_ptr<const OpusDemand> demand; //!< Its circuits
        uint32_t members{0};                      //!< Members
        bool pointToPoint{false};                 //!< A send/recv pair
        std::set<uint32_t> announced;             //!< Members that announced or asked
        std::set<uint32_t> asked;                 //!< Members that asked
        std::vector<GrantCallback> grants;        //!< One per member that asked
        Time lastAsked;                           //!< When the last member asked
        bool ordered{false};                      //!< Its phase start was decided
        bool ready{false};                        //!< Its topology is ready
    };

    /// \return the incomplete request of \p call's instance (created on its first member)
    IncompleteRequest& IncompleteRequestOf(const CollectiveCall& call, uint32_t rank);
    /// Decides, once every member announced, whether it starts a phase, and orders it.
    void Order(const std::string& instance);
    /// At the controller: sleeps the delay if the topology changes, then reports ready.
    void Reconfigure(std::string instance);
    /// Marks \p instance ready; grants it if every member asked.
    void Ready(std::string instance);
    /// Grants \p instance once it is ready and every member asked.
    void GrantIfComplete(const std::string& instance);
    /// \return true if \p demand's circuits are all in the virtual topology
    bool InPlace(const OpusDemand& demand) const;
    /// Gives every GPU of \p demand exactly its peers there. \return rail -> changed GPUs
    std::map<uint32_t, std::vector<uint32_t>> Apply(const OpusDemand& demand);

    Time m_delay;                //!< Attribute ReconfigurationDelay
    Time m_controlLatency;       //!< Attribute ControlLatency
    bool m_askEveryPointToPoint; //!< Attribute AskEveryPointToPoint
    /// Per (rail, GPU): its peers in the virtual topology
    std::map<std::pair<uint32_t, uint32_t>, std::set<uint32_t>> m_peers;
    std::map<uint32_t, std::string> m_lastDemand; //!< Per rank: key of its last communication
    std::map<std::string, IncompleteRequest> m_incomplete; //!< Per instance
    std::set<std::string> m_served;                        //!< Instances granted
};

} // namespace ns3

#endif /* OPUS_TESTBED_EMULATOR_H */

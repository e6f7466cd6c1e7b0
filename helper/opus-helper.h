/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_HELPER_H
#define OPUS_HELPER_H

#include "ns3/application-container.h"
#include "ns3/collective-communicator.h"
#include "ns3/object-factory.h"
#include "ns3/opus-controller.h"
#include "ns3/opus-shim.h"
#include "ns3/opus-testbed-emulator.h"
#include "ns3/rail-network.h"
#include "ns3/workload-dag.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Installs Opus on a fabric with optical rails: a controller and a shim per rank,
 *        or a static split of the NIC ports (no reconfiguration); or the paper's testbed
 *        emulation on electrical rails.
 */
class OpusHelper
{
  public:
    OpusHelper();

    /// \param name attribute of OpusController \param value its value
    void SetControllerAttribute(std::string name, const AttributeValue& value);

    /// \param name attribute of OpusShim (e.g. Provisioning) \param value its value
    void SetShimAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Opus reconfiguring the rails: a controller, and a shim in every rank runtime.
     *
     * Before the job starts, the circuits of every rank's first communication that needs
     * circuits are set (in rank order, skipping one that involves a GPU already set): the
     * job is placed with its first parallelism's topology, as a scheduler would.
     * \param fabric the fabric (optical rails)
     * \param communicators every rank's communicator
     * \param runtimes the rank runtimes (RankRuntime), by rank
     * \param dag the job
     * \return the controller
     *
     * Throws std::invalid_argument when a communication's demand cannot be served (more
     * distinct peers on a rail than NIC ports), naming the op, when the job cannot
     * finish under Opus (see CheckRendezvous()), or when the shims' Ignore attribute is set
     * (only the testbed emulation on electrical rails may let communications through).
     */
    Ptr<OpusController> Install(Ptr<RailNetwork> fabric,
                                const std::vector<Ptr<CollectiveCommunicator>>& communicators,
                                const ApplicationContainer& runtimes,
                                const WorkloadDag& dag) const;

    /**
     * \brief The paper's testbed emulation on electrical rails: an OpusTestbedEmulator and a
     *        shim in every rank runtime, placed like Install() (the virtual topology of
     *        every rank's first communication set before the job). The shims ignore what
     *        the testbed's did not intercept (OpusTestbedEmulator::TESTBED_IGNORE) unless
     *        their Ignore attribute was set.
     * \param fabric the fabric (electrical rails)
     * \param communicators every rank's communicator
     * \param runtimes the rank runtimes (RankRuntime), by rank
     * \param dag the job
     * \param emulator attributes of the OpusTestbedEmulator (name, value)
     * \return the emulator
     *
     * Throws std::invalid_argument when the job cannot finish under Opus (CheckRendezvous()).
     */
    Ptr<OpusTestbedEmulator> InstallEmulated(
        Ptr<RailNetwork> fabric,
        const std::vector<Ptr<CollectiveCommunicator>>& communicators,
        const ApplicationContainer& runtimes,
        const WorkloadDag& dag,
        const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& emulator = {}) const;

    /**
     * \brief The ocs-static baseline: circuits set once for the whole job.
     *
     * Every GPU's NIC ports are split evenly among all the peers it has on its rail over
     * the job (OpusDemand::Build of the union of every communication's demand), so each
     * parallelism gets only its share of the ports: the bandwidth fragmentation of a rail
     * that is not reconfigured (the paper's C3).
     * \param fabric the fabric (optical rails)
     * \param communicators every rank's communicator
     * \param dag the job
     * \return the controller that computed the split (it orders no reconfiguration)
     *
     * Throws std::invalid_argument when a GPU has more distinct peers than NIC ports.
     */
    Ptr<OpusController> InstallStatic(Ptr<RailNetwork> fabric,
                                      const std::vector<Ptr<CollectiveCommunicator>>& communicators,
                                      const WorkloadDag& dag) const;

    /**
     * \brief Checks, before a run, that every communication of a job fits the fabric's
     *        NIC ports (as Install() or InstallStatic() would find out when installing).
     * \param fabric the fabric (optical rails)
     * \param communicators every rank's communicator
     * \param dag the job
     * \param staticSplit check the ocs-static split rather than Opus's per-communication
     *        demands
     *
     * Throws std::invalid_argument naming the op (or the split) that cannot be served.
     */
    void CheckDemands(Ptr<RailNetwork> fabric,
                      const std::vector<Ptr<CollectiveCommunicator>>& communicators,
                      const WorkloadDag& dag,
                      bool staticSplit) const;

    /**
     * \brief Checks that a job can finish under Opus, before it runs.
     *
     * Opus sets up a communication's circuits once every member has asked for it, so each
     * communication is a rendezvous of its members: a send waits for its receive to be
     * posted (electrical rails deliver a send eagerly instead). A job whose members post
     * their communications in orders that wait on each other, e.g. two sends to a peer with
     * tags 1, 2 and its receives in the order 2, 1, cannot finish. The check replays the
     * job with rendezvous semantics (WorkloadEstimator), over at most two replays (the
     * replays repeat, so a later boundary adds nothing new). It treats communications inside
     * a server, which Opus lets through, as rendezvous too, which is stricter than needed.
     * \param dag the job
     * \param replays times the rank runtimes replay it
     *
     * Throws std::invalid_argument with a one-line reason naming ops that wait.
     */
    static void CheckRendezvous(const WorkloadDag& dag, uint32_t replays);

  private:
    /**
     * \brief A shim in every rank runtime, bound to \p plane.
     * \return the demand of every rank's first communication that needs circuits (for the
     *         placement before the job), in rank order
     */
    std::vector<std::shared_ptr<const OpusDemand>> InstallShims(
        Ptr<OpusControlPlane> plane,
        const std::vector<Ptr<CollectiveCommunicator>>& communicators,
        const ApplicationContainer& runtimes,
        const WorkloadDag& dag,
        const ObjectFactory& shims) const;

    /// \return the ocs-static split of every GPU's ports among its peers over the job
    static OpusDemand StaticSplit(Ptr<OpusController> controller,
                                  Ptr<RailNetwork> fabric,
                                  const WorkloadDag& dag);

    /// A controller bound to \p fabric.
    Ptr<OpusController> CreateController(
        Ptr<RailNetwork> fabric,
        const std::vector<Ptr<CollectiveCommunicator>>& communicators) const;

    ObjectFactory m_controllerFactory; //!< Controllers
    ObjectFactory m_shimFactory;       //!< Shims
};

} // namespace ns3

#endif /* OPUS_HELPER_H */

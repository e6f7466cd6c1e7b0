/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_BUILDER_H
#define JOB_BUILDER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/collective-communicator.h"
#include "ns3/flow-fabric.h"
#include "ns3/nstime.h"
#include "ns3/opus-control-plane.h"
#include "ns3/opus-shim.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/rail-network.h"
#include "ns3/workload-dag.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One fabric to run a job on: the rails, and how Opus drives optical ones.
 */
struct JobFabric
{
    std::string name;             //!< As printed ("eps", "ocs", "ocs-provisioning", ...)
    RailKind kind{RailKind::EPS}; //!< Rails
    bool staticSplit{false};      //!< ocs-static: circuits set once, ports split
    bool emulated{false};         //!< The paper's testbed: electrical rails, Opus's delays
                                  //!< injected as its emulation did (OpusTestbedEmulator)
    OpusShim::Provisioning provisioning{OpusShim::ON_DEMAND}; //!< With opus

    /**
     * \brief Reads a --fabric name: eps, eps-clos, ocs, ocs-provisioning, ocs-oracle,
     *        ocs-static, emulated, emulated-provisioning (the one spelling of Opus's
     *        mode: OpusShim::Provisioning's values are its suffixes).
     * \param name the name
     * \param flag the flag it came from, for the message
     * \return the fabric (std::invalid_argument if unknown)
     */
    static JobFabric Parse(const std::string& name, const std::string& flag = "fabric");

    /**
     * \brief Reads a comma-separated --fabric list (a fabric named twice is an error).
     * \param names the list
     * \param flag the flag the list came from, for the messages
     * \return the fabrics, in order
     */
    static std::vector<JobFabric> ParseList(const std::string& names,
                                            const std::string& flag = "fabric");

    /// \return true if Opus (or its testbed emulation) drives the run: every communication
    ///         that needs circuits waits for all its members
    bool IsOpus() const;
};

/**
 * \ingroup photonic-rails
 * \brief A job ready for Simulator::Run: a fabric and what runs on it.
 */
struct Job
{
    Ptr<RailNetwork> network;                               //!< The fabric
    std::vector<Ptr<CollectiveCommunicator>> communicators; //!< One per rank
    ApplicationContainer runtimes;                          //!< One RankRuntime per rank
    /// Opus, its static split or its testbed emulation; null on rails nothing reconfigures
    Ptr<OpusControlPlane> controlPlane;
};

/**
 * \ingroup photonic-rails
 * \brief Assembles a job from a fabric spec and a workload.
 *
 * Builds the network (the packet or the flow model) and assigns its random streams from 0,
 * then installs every rank's communicator and runtime and, by the JobFabric, Opus on
 * optical rails (on demand, provisioning, oracle), the static split, or the testbed's
 * emulation on electrical rails. It writes no file and prints nothing, and it sets no global
 * value: the caller seeds the random numbers, chooses the scheduler, runs the simulator and
 * reports (JobRunner does all of it for the programs; the test suites assert on the Job).
 * Like every ns-3 helper, it adds the nodes it builds to the NodeList and what it installs
 * may schedule events: build one job per simulation (Simulator::Destroy between two).
 */
class JobBuilder
{
  public:
    /**
     * \param spec the fabric's hardware (its kind must be the JobFabric's)
     * \param fabric the rails and Opus's mode
     */
    JobBuilder(const RailFabricSpec& spec, const JobFabric& fabric);

    /// \param model a NetworkModelRegistry name, "packet" by default (std::invalid_argument
    ///        for one it does not know)
    void SetNetworkModel(const std::string& model);
    /// \param delays link, fiber and switch delays, in either model (default: the devices')
    void SetHopDelays(const FlowHopDelays& delays);
    /// \param delay electrical rails, packet model: failure to rerouting (EpsRouting)
    void SetDetectionDelay(Time delay);
    /// Sets an attribute of every CollectiveCommunicator (Channels, ChunkBytes, ...).
    /// \param name the attribute
    /// \param value its value
    void SetCommunicatorAttribute(const std::string& name, const AttributeValue& value);
    /// \param iterations replays of the workload (RankRuntime Iterations)
    void SetIterations(uint32_t iterations);
    /// Several jobs on one fabric: per rank, its replays and when it starts (its
    /// RankRuntime's Iterations and start time), set before Opus reads them. Ranks beyond
    /// the lists keep SetIterations' replays and start at 0.
    /// \param iterations replays per rank
    /// \param starts start per rank
    void SetRankSchedule(std::vector<uint32_t> iterations, std::vector<Time> starts);
    /// \param qps packet model: queue pairs per port and peer (RailTransport's
    ///        QpsPerConnection; more than 1 is refused in the flow model at Build)
    void SetQpsPerConnection(uint32_t qps);
    /// \param delay the OCS reconfiguration delay, also the emulation's (default: the
    ///        technology's)
    void SetReconfigurationDelay(Time delay);
    /// \param latency one-way shim <-> control plane delay (default: 0 for Opus, the
    ///        testbed's OpusTestbedEmulator::TESTBED_CONTROL_LATENCY_S for its emulation)
    void SetControlLatency(Time latency);
    /// Sets an attribute of the OpusController (BatchWindow, ...): Opus and the static split
    /// on optical rails (the testbed emulation takes the delay and latency only).
    /// \param name the attribute
    /// \param value its value
    void SetOpusAttribute(const std::string& name, const AttributeValue& value);
    /// Sets an attribute of every OpusShim (Ignore, ...), under Opus and its emulation. Not
    /// Provisioning: the JobFabric's name says it (std::invalid_argument).
    /// \param name the attribute
    /// \param value its value
    void SetShimAttribute(const std::string& name, const AttributeValue& value);
    /// Optical rails without a control plane: every OCS holds its rail's ring circuits
    /// from the start (the fabric collectives run on when nothing reconfigures). It replaces
    /// whatever the JobFabric says of Opus.
    void SetPresetRings();

    /// \return the reconfiguration delay the job's OCSes (or their emulation) use
    Time GetReconfigurationDelay() const;
    /// \return the control latency the job's control plane uses
    Time GetControlLatency() const;

    /// \return the spec the builder builds
    const RailFabricSpec& GetSpec() const;

    /**
     * \brief Whether a default given to an attribute (a command line's
     *        --ns3::Type::Attribute=value) acts on the job this builder builds: an attribute
     *        of an object it does not make, or that its rails or network model leave unused,
     *        would change nothing.
     * \param attribute ns3::Type::Attribute, Type being the attribute's own type
     * \return why it has no effect on this job, or "" if it has
     */
    std::string WhyInert(const std::string& attribute) const;

    /// \return the network, random streams assigned from 0
    Ptr<RailNetwork> BuildNetwork() const;
    /// \param network a network BuildNetwork() returned
    /// \return every rank's communicator on it, connected
    std::vector<Ptr<CollectiveCommunicator>> InstallCommunicators(Ptr<RailNetwork> network) const;
    /**
     * \brief Installs the job on a network BuildNetwork() returned.
     * \param network the network
     * \param dag the workload
     * \return the job
     */
    Job Install(Ptr<RailNetwork> network, std::shared_ptr<const WorkloadDag> dag) const;
    /**
     * \param dag the workload
     * \return the job on a new network: Install(BuildNetwork(), dag)
     */
    Job Build(std::shared_ptr<const WorkloadDag> dag) const;

  private:
    /// Installs Opus, its static split or its emulation per the JobFabric, or presets rings.
    Ptr<OpusControlPlane> InstallControlPlane(const Job& job, const WorkloadDag& dag) const;

    RailFabricSpec m_spec;                                           //!< The hardware
    JobFabric m_fabric;                                              //!< Rails and Opus mode
    std::string m_model{"packet"};                                   //!< Network model
    std::optional<FlowHopDelays> m_delays;                           //!< Else the devices'
    std::optional<Time> m_detectionDelay;                            //!< Else EpsRouting's
    std::map<std::string, Ptr<const AttributeValue>> m_communicator; //!< Attributes
    uint32_t m_iterations{1};                                        //!< Replays
    std::vector<uint32_t> m_rankIterations;                  //!< SetRankSchedule: replays per rank
    std::vector<Time> m_rankStarts;                          //!< SetRankSchedule: start per rank
    uint32_t m_qpsPerConnection{1};                          //!< RailTransport's
    std::optional<Time> m_reconfigurationDelay;              //!< Else the technology's
    std::optional<Time> m_controlLatency;                    //!< Else the default
    std::map<std::string, Ptr<const AttributeValue>> m_opus; //!< Controller attributes
    std::map<std::string, Ptr<const AttributeValue>> m_shim; //!< Shim attributes
    bool m_presetRings{false};                               //!< No control plane
};

} // namespace ns3

#endif /* JOB_BUILDER_H */

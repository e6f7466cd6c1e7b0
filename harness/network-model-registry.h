/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETWORK_MODEL_REGISTRY_H
#define NETWORK_MODEL_REGISTRY_H

#include "ns3/flow-fabric.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/rail-network.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What a network model's builder is given (JobBuilder's settings of the network).
 */
struct NetworkBuildOptions
{
    RailFabricSpec spec;                 //!< The fabric
    std::optional<FlowHopDelays> delays; //!< Per-hop delays, else the devices' defaults
    uint32_t qpsPerConnection{1};        //!< Queue pairs per connection (packet model)
    std::optional<Time> detectionDelay;  //!< Electrical rails' routing reaction time
};

/**
 * \ingroup photonic-rails
 * \brief One network model the programs can run (--network): its builder, and what it can
 *        model.
 */
struct NetworkModelEntry
{
    /// Builds the model's network (throws std::invalid_argument with a one-line reason)
    using Builder = std::function<Ptr<RailNetwork>(const NetworkBuildOptions&)>;

    std::string name;            //!< --network's value, and RailNetwork::GetModelName()
    std::string summary;         //!< What it models, a few words for --help
    Builder build;               //!< Builds it
    bool frames{false};          //!< Frames, queues, switches and a transport to configure
    bool faults{false};          //!< Fault schedules (ports, links and switches to fail)
    bool queuePairs{false};      //!< Several queue pairs per connection (--qpsPerConnection)
    bool mergedRingSteps{false}; //!< Ring steps merged per neighbour (--ringSteps=merged)
};

/**
 * \ingroup photonic-rails
 * \brief The network models, in one list: the command line's checks and refusals read it.
 *
 * "packet" moves frames through devices, queues and switches (faults, queue pairs);
 * "flow" shares links max-min fairly among flows (faults as failed links, no queue pairs,
 * but merged ring steps for thousands of GPUs). A new model is a folder under model/ with its
 * RailNetwork and MessageTransport, a helper, and one entry here.
 */
class NetworkModelRegistry
{
  public:
    /// \return every model, the reference (packet) first
    static const std::vector<NetworkModelEntry>& All();

    /**
     * \param name a model's name
     * \return its entry, or nullptr if there is none
     */
    static const NetworkModelEntry* Find(const std::string& name);

    /**
     * \param separator between two names
     * \return the models' names, e.g. "packet, flow"
     */
    static std::string Names(const std::string& separator);

    /**
     * \return the models' names with their summaries, e.g. "packet (frames, the
     *         reference) or flow (max-min fair flows, for scale)"
     */
    static std::string Describe();

    /**
     * \param capability a capability of a model (e.g. &NetworkModelEntry::faults)
     * \param separator between two names
     * \return the names of the models that have it, e.g. "packet"
     */
    static std::string NamesWith(bool NetworkModelEntry::*capability, const std::string& separator);
};

} // namespace ns3

#endif /* NETWORK_MODEL_REGISTRY_H */

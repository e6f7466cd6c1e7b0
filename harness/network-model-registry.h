/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETWORK_MODEL_REGISTRY_H
#define NETWORK_MODEL_REGISTRY_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One network model the programs can run (--network), and what it can model.
 */
struct NetworkModelEntry
{
    std::string name;            //!< --network's value, and RailNetwork::GetModelName()
    bool faults{false};          //!< Fault schedules (ports, links and switches to fail)
    bool queuePairs{false};      //!< Several queue pairs per connection (--qpsPerConnection)
    bool mergedRingSteps{false}; //!< Ring steps merged per neighbour (--ringSteps=merged)
};

/**
 * \ingroup photonic-rails
 * \brief The network models, in one list: the command line's checks and refusals read it.
 *
 * "packet" moves frames through devices, queues and switches (faults, queue pairs);
 * "flow" shares links max-min fairly among flows (no ports to fail, no queue pairs, but
 * merged ring steps for thousands of GPUs). JobBuilder builds them (RailFabric, FlowFabric).
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
};

} // namespace ns3

#endif /* NETWORK_MODEL_REGISTRY_H */

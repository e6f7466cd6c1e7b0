/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/collective-communicator.h"
#include "ns3/object-factory.h"
#include "ns3/rail-network.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Gives every GPU of a RailNetwork a CollectiveCommunicator, connected to the others.
 *
 * Rank r is GPU r of the fabric (server r / gpusPerServer, rail r mod gpusPerServer), as
 * the workload format assumes. Each communicator is aggregated to its GPU node.
 */
class CollectiveHelper
{
  public:
    CollectiveHelper();

    /**
     * \brief Sets an attribute of the communicators to create.
     * \param name attribute name
     * \param value its value
     */
    void SetCommunicatorAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Installs and connects one communicator per GPU.
     * \param fabric the fabric
     * \return the communicators, indexed by rank
     */
    std::vector<Ptr<CollectiveCommunicator>> Install(Ptr<RailNetwork> fabric) const;

  private:
    ObjectFactory m_factory; //!< Communicators
};

} // namespace ns3

#endif /* COLLECTIVE_HELPER_H */

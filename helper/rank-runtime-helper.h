/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RANK_RUNTIME_HELPER_H
#define RANK_RUNTIME_HELPER_H

#include "ns3/application-container.h"
#include "ns3/collective-communicator.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/workload-dag.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Installs a RankRuntime per rank of a DAG on the GPU nodes (rank r on GPU r).
 */
class RankRuntimeHelper
{
  public:
    RankRuntimeHelper();

    /**
     * \brief Sets an attribute of the runtimes to create (e.g. Iterations).
     * \param name attribute name
     * \param value its value
     */
    void SetAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Installs the runtimes; they start at time 0.
     * \param dag the job (at most one rank per GPU; GPUs beyond its ranks stay idle)
     * \param gpus GPU nodes, indexed by rank
     * \param communicators communicators, indexed by rank
     * \return the applications, indexed by rank
     */
    ApplicationContainer Install(
        std::shared_ptr<const WorkloadDag> dag,
        const NodeContainer& gpus,
        const std::vector<Ptr<CollectiveCommunicator>>& communicators) const;

  private:
    ObjectFactory m_factory; //!< Runtimes
};

} // namespace ns3

#endif /* RANK_RUNTIME_HELPER_H */

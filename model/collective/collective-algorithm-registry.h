/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_ALGORITHM_REGISTRY_H
#define COLLECTIVE_ALGORITHM_REGISTRY_H

#include "ns3/collective-plan-builder.h"
#include "ns3/workload-dag.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One collective algorithm a request, a DAG or --algorithm can name.
 *
 * Its name is the DAG format's (WorkloadAlgorithmName), so the JSON and Chakra readers, the
 * communicator's DefaultAlgorithm and the programs' --algorithm all accept the same names.
 */
struct CollectiveAlgorithm
{
    /// Plans the asking rank's part of a collective of a type in types (group size >= 2).
    using Planner = void (*)(plan::Builder& b,
                             const CollectiveRequest& request,
                             const plan::Group& group);
    /// Checks the group size: empty if the algorithm runs on it, else the one-line reason.
    using GroupRule = std::string (*)(uint32_t members);

    WorkloadAlgorithm id{WorkloadAlgorithm::RING}; //!< The DAG's enum value
    std::vector<WorkloadOpType> types;             //!< The collectives it applies to
    GroupRule groupRule{nullptr};                  //!< nullptr: any group size
    Planner planner{nullptr};                      //!< Its plan for those types

    /// \return the name, e.g. "halving-doubling"
    std::string Name() const;

    /**
     * \param type a collective
     * \return true if the algorithm applies to it
     */
    bool Applies(WorkloadOpType type) const;
};

/**
 * \ingroup photonic-rails
 * \brief The collective algorithms, in one list: where each applies and what plans it.
 *
 * AUTO and UNSPECIFIED are not entries: CollectivePlanner::Choose resolves them to one. A
 * barrier takes no explicit algorithm (no entry lists it); Choose's DIRECT plans it as the
 * dissemination barrier. Adding an algorithm: a WorkloadAlgorithm value and its name
 * (workload-dag), a family file collective-plan-<family>.{h,cc}, and its line in the
 * registry (collective-algorithm-registry.cc).
 */
class CollectiveAlgorithmRegistry
{
  public:
    /// \return every explicit algorithm, in the enum's order
    static const std::vector<CollectiveAlgorithm>& All();

    /**
     * \param id an algorithm
     * \return its entry, or nullptr for AUTO and UNSPECIFIED
     */
    static const CollectiveAlgorithm* Find(WorkloadAlgorithm id);

    /**
     * \param separator between two names
     * \param last between the last two names
     * \return the explicit algorithms' names, e.g. "ring, direct, halving-doubling or tree"
     */
    static std::string Names(const std::string& separator, const std::string& last);
};

} // namespace ns3

#endif /* COLLECTIVE_ALGORITHM_REGISTRY_H */

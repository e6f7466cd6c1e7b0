/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_RANK_PROGRAM_H
#define WORKLOAD_RANK_PROGRAM_H

#include "workload-generator.h"

#include "ns3/workload-dag.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Communication groups of the job and, for each rank, the name of its group along
 *        each dimension (empty when the dimension is not used).
 */
struct WorkloadGroupTable
{
    WorkloadDag::GroupMap groups;                           //!< every group
    std::map<std::string, std::vector<std::string>> ofRank; //!< kind -> rank -> name

    /**
     * \brief Adds the groups of one kind; members(rank) lists the rank's group sorted.
     *
     * Groups are numbered by their lowest member, so names are stable and readable.
     */
    template <typename Members>
    void Add(const std::string& kind, uint32_t ranks, Members members)
    {
        std::vector<std::string>& names = ofRank[kind];
        names.assign(ranks, "");
        uint32_t index = 0;
        for (uint32_t rank = 0; rank < ranks; ++rank)
        {
            if (!names[rank].empty())
            {
                continue; // named when its lowest member was visited (listing it again would
                          // make a group of n cost n^2)
            }
            std::vector<uint32_t> group = members(rank);
            std::string name = kind + std::to_string(index++);
            for (uint32_t member : group)
            {
                names[member] = name;
            }
            groups[name] = std::move(group);
        }
    }

    const std::string& Of(const std::string& kind, uint32_t rank) const
    {
        static const std::string none;
        auto it = ofRank.find(kind);
        return it == ofRank.end() ? none : it->second[rank];
    }
};

/**
 * \ingroup photonic-rails
 * \brief Appends the whole program of one rank of \p generator's job to \p out: its
 *        iterations of pipeline actions, each made of FSDP gathers, layer computations with
 *        their TP/CP/EP collectives, PP send/recv, gradient synchronization and the
 *        optimizer step (WorkloadGenerator::Generate calls it for every rank in turn).
 * \param generator the generator (configuration, rank coordinates, compute times)
 * \param groups the job's communication groups
 * \param rank the rank
 * \param out the ops of the ranks before this one; this rank's are appended
 * \throw std::invalid_argument past WorkloadGenerator::MAX_OPS ops
 */
void EmitWorkloadRankProgram(const WorkloadGenerator& generator,
                             const WorkloadGroupTable& groups,
                             uint32_t rank,
                             std::vector<WorkloadOp>& out);

} // namespace ns3

#endif /* WORKLOAD_RANK_PROGRAM_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_PAIRING_H
#define CHAKRA_PAIRING_H

#include "ns3/workload-dag.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Every rank's ops as a Chakra trace gave them, with where each came from.
 */
struct ChakraTraceOps
{
    std::vector<WorkloadOp> ops;    //!< Rank by rank, each rank's in issue (id) order
    std::vector<uint64_t> nodeIds;  //!< Per op: the Chakra node it came from
    std::vector<std::string> files; //!< Per rank: its file
    WorkloadDag::GroupMap groups;   //!< The groups the collectives name
};

/**
 * \ingroup photonic-rails
 * \brief Pairs the communications of a Chakra trace's ranks, which nothing in a trace ties
 *        together: collectives by issue order within their group, sends and receives by
 *        (src, dst, tag, size) in order. Errors name both ranks' files and nodes.
 */
class ChakraPairing
{
  public:
    /**
     * \brief The k-th collective of a group agrees on every member (type, size, root), and
     *        every member issues as many.
     * \param trace the trace's ops
     * \throws WorkloadFormatError naming both ranks and the position otherwise
     */
    static void CheckCollectives(const ChakraTraceOps& trace);

    /**
     * \brief Pairs sends and receives by (src, dst, tag, size). The engine pairs by
     *        (src, dst, tag): a key used with several sizes gives each size after the first
     *        a tag of its own (tag + k 2^32, beyond any Chakra tag).
     * \param trace the trace's ops (tags changed where needed)
     * \return how many (src, dst, tag) keys carried several sizes
     * \throws WorkloadFormatError for a message without a partner
     */
    static uint64_t PairPointToPoint(ChakraTraceOps& trace);
};

} // namespace ns3

#endif /* CHAKRA_PAIRING_H */

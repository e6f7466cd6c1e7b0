/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_ALLTOALL_H
#define COLLECTIVE_PLAN_ALLTOALL_H

#include "ns3/collective-plan-builder.h"

namespace ns3
{
namespace plan
{

/// Alltoall, direct ("direct": all at once) or pairwise ("pairwise": one peer a round).
void AllToAll(Builder& b, const Group& group, uint64_t bytes, bool pairwise);

/// Ring-relay alltoall ("ring-relay"): blocks relayed along the ring, two peers per rank.
void RingRelay(Builder& b, const Group& group, uint64_t bytes);

} // namespace plan
} // namespace ns3

#endif /* COLLECTIVE_PLAN_ALLTOALL_H */

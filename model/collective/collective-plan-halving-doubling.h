/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_HALVING_DOUBLING_H
#define COLLECTIVE_PLAN_HALVING_DOUBLING_H

#include "ns3/collective-plan-builder.h"

namespace ns3
{
namespace plan
{

/// Halving-doubling ("halving-doubling") for allreduce, allgather or reducescatter on a
/// power-of-two group.
void HalvingDoubling(Builder& b, const CollectiveRequest& request, const Group& group);

} // namespace plan
} // namespace ns3

#endif /* COLLECTIVE_PLAN_HALVING_DOUBLING_H */

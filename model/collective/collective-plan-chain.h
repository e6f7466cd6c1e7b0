/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_CHAIN_H
#define COLLECTIVE_PLAN_CHAIN_H

#include "ns3/collective-plan-builder.h"

namespace ns3
{
namespace plan
{

/// Pipelined chain ("chain"): broadcast from the root, or reduce to it (reduce true).
void Chain(Builder& b, const Group& group, uint64_t bytes, bool reduce);

} // namespace plan
} // namespace ns3

#endif /* COLLECTIVE_PLAN_CHAIN_H */

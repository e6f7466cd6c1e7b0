/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_TREE_H
#define COLLECTIVE_PLAN_TREE_H

#include "ns3/collective-plan-builder.h"

namespace ns3
{
namespace plan
{

/// Double binary tree allreduce ("double-binary-tree").
void DoubleBinaryTree(Builder& b, const Group& group, uint64_t bytes);

} // namespace plan
} // namespace ns3

#endif /* COLLECTIVE_PLAN_TREE_H */

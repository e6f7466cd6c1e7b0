/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_DISSEMINATION_H
#define COLLECTIVE_PLAN_DISSEMINATION_H

#include "ns3/collective-plan-builder.h"

namespace ns3
{
namespace plan
{

/// Dissemination barrier ("dissemination").
void Dissemination(Builder& b, const Group& group);

} // namespace plan
} // namespace ns3

#endif /* COLLECTIVE_PLAN_DISSEMINATION_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATTRIBUTE_DEFAULT_H
#define ATTRIBUTE_DEFAULT_H

#include "ns3/abort.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The initial value of an attribute: its default, or what Config::SetDefault (a
 *        command line's --ns3::Type::Attribute=value) made it, i.e. what an object made now
 *        starts with. For the checks that must see a model's settings before it is built.
 * \tparam Value the attribute's value class (UintegerValue, TimeValue, ...)
 * \param tid the type
 * \param attribute one of its attributes (its own or a parent's)
 * \return the value (aborts if \p tid has no such attribute of that kind: a programming error)
 */
template <typename Value>
auto
AttributeDefault(TypeId tid, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    bool found = tid.LookupAttributeByName(attribute, &info);
    Ptr<const Value> value = found ? DynamicCast<const Value>(info.initialValue) : nullptr;
    NS_ABORT_MSG_UNLESS(value,
                        tid.GetName() << " has no attribute " << attribute << " of that kind");
    return value->Get();
}

} // namespace ns3

#endif /* ATTRIBUTE_DEFAULT_H */

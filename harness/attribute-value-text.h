/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATTRIBUTE_VALUE_TEXT_H
#define ATTRIBUTE_VALUE_TEXT_H

#include "ns3/attribute.h"

#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Reads an attribute's value as typed (--ns3::Type::Attribute=value, a global value,
 *        NS_ATTRIBUTE_DEFAULT) before ns-3 does, and refuses what ns-3 cannot take.
 *
 * ns-3 aborts on an integer or a number it cannot read ("abc", "1e3" for an integer, "nan"),
 * on an enum name it does not know (undefined behaviour in a release build), and on a time
 * whose unit it does not know; it wraps "-1" into an unsigned and reads "1e400s" as 0 and
 * "1e19ns" past its clock; it cannot make an object from text. So each kind of value is read
 * whole here, by its own rules, then within the checker's range:
 *
 * - unsigned and signed integers: decimal digits (a sign for signed ones), within the range;
 * - numbers: decimal, finite, not underflowing to 0, within the range;
 * - durations: StrictCommandLine::ParseTime (a unit, at most 10^6 s, none below 1 ns);
 * - data rates: a decimal number and one of ns-3's units (bps, Gb/s, ...), at most 10^15
 *   bit/s, none between 0 and 1 bit/s;
 * - booleans and strings as ns-3 reads them; enums by one of their names;
 * - every other kind (objects, object containers, addresses, queue sizes, type ids) is
 *   refused: no model here takes it from a command line.
 *
 * Errors are one line: "bad value for --NAME: 'VALUE' (expected WHAT)".
 */
class AttributeValueText
{
  public:
    /// Largest data rate accepted: 10^15 bit/s, far above any link (and below 2^64).
    static constexpr double MAX_BPS = 1e15;

    /**
     * \brief Checks a value as typed.
     * \param name the flag without its dashes, e.g. ns3::EpsSwitch::BufferSize (for messages)
     * \param text the value as typed
     * \param checker the attribute's (or global value's) checker
     * \throws std::invalid_argument with a one-line reason if ns-3 could not take \p text
     *         whole, exactly, within the checker's range
     */
    static void Check(const std::string& name,
                      const std::string& text,
                      Ptr<const AttributeChecker> checker);
};

} // namespace ns3

#endif /* ATTRIBUTE_VALUE_TEXT_H */

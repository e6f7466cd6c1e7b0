/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SIMULATION_HORIZON_H
#define SIMULATION_HORIZON_H

#include "ns3/nstime.h"

#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The delay of an event whose duration comes from data (a compute op, a
 * reduction), checked against the simulator's time range.
 *
 * ns-3's Time is a signed 64-bit count of nanoseconds and Simulator::Schedule does not
 * check Now + delay: past 2^63 - 1 ns (about 292 years) it wraps to a negative time and
 * the event runs before it was scheduled (an op that ends before it starts).
 * \param nanoseconds the duration
 * \param what names the event for the error, e.g. "rank 3 op 7 (compute)"; called only
 *        when the duration does not fit
 * \return the duration rounded to the nanosecond, as NanoSeconds(std::llround(ns)); a
 *         negative, NaN or too long one throws std::runtime_error with a one-line reason
 */
Time DelayWithinHorizon(double nanoseconds, const std::function<std::string()>& what);

} // namespace ns3

#endif /* SIMULATION_HORIZON_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SIMULATION_HORIZON_H
#define SIMULATION_HORIZON_H

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The last simulated time a run may reach, in ns: 2^63 - 1 less 2^53 ns (104 days).
 *
 * The margin is longer than any single delay a run schedules from one event (flags and
 * attributes bound every duration to 10^6 s = 10^15 ns; a frame at 1 Mb/s takes 0.5 s), so
 * that a run stopped here never computes Now + delay past ns-3's clock: that signed overflow
 * is undefined behaviour, and wrapped times run events before they were scheduled.
 */
constexpr int64_t HORIZON_NS = std::numeric_limits<int64_t>::max() - (int64_t(1) << 53);

/**
 * \ingroup photonic-rails
 * \brief Stops a simulation at HORIZON_NS and says whether it had work left then.
 */
class HorizonGuard
{
  public:
    /// Schedules the stop (call before Simulator::Run).
    void Arm();
    /// \return true if the simulation reached the horizon with events still to run
    bool Reached() const;

  private:
    void Stop();
    bool m_reached{false}; //!< Work was left at the horizon
};

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
 *         negative or NaN one, or one ending past HORIZON_NS, throws std::runtime_error
 *         with a one-line reason
 */
Time DelayWithinHorizon(double nanoseconds, const std::function<std::string()>& what);

} // namespace ns3

#endif /* SIMULATION_HORIZON_H */

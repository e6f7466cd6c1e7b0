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
 * \brief Stops a simulation at HORIZON_NS and says whether it had work left then; ends it
 *        early, with the reason, when an event cannot go on (StopRun).
 */
class HorizonGuard
{
  public:
    ~HorizonGuard();

    /// Schedules the stop (call before Simulator::Run); StopRun reports to this guard.
    void Arm();
    /// \return true if the simulation reached the horizon with events still to run
    bool Reached() const;
    /// \return why StopRun ended the run ("" if it did not)
    const std::string& GetFailure() const;

    /**
     * \brief Ends the run after the running event, for \p reason, which the armed guard
     *        keeps (its owner throws it once Simulator::Run returns). An exception thrown
     *        from an event instead would leave ns-3's running event, and every object it
     *        holds, never released (DefaultSimulatorImpl::ProcessOneEvent unrefs it after
     *        the call). Without an armed guard it throws std::runtime_error(reason).
     * \param reason one line
     */
    static void StopRun(const std::string& reason);

  private:
    void Stop();
    bool m_reached{false};        //!< Work was left at the horizon
    std::string m_failure;        //!< StopRun's reason
    static HorizonGuard* s_armed; //!< The guard of the running simulation
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

/**
 * \ingroup photonic-rails
 * \brief DelayWithinHorizon for an event: a duration that does not fit ends the run
 *        (HorizonGuard::StopRun) rather than throwing out of the event.
 * \param nanoseconds the duration
 * \param what names the event for the error
 * \param delay receives the duration
 * \return false if the run ends (the event must schedule nothing more)
 */
bool EventDelayWithinHorizon(double nanoseconds,
                             const std::function<std::string()>& what,
                             Time& delay);

} // namespace ns3

#endif /* SIMULATION_HORIZON_H */

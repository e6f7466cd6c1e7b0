/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CONTROLLER_FAILOVER_H
#define CONTROLLER_FAILOVER_H

#include "ns3/fault-injector.h"
#include "ns3/fault-schedule.h"
#include "ns3/nstime.h"
#include "ns3/opus-controller.h"
#include "ns3/ptr.h"

#include <ostream>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Carries out the controller faults of a schedule (controller@DOWN[-UP]) on Opus's
 *        controller, on every network model (the controller is the same on all).
 *
 * A fault takes the controller down at DOWN (OpusController::Fail: messages are held, lit
 * circuits carry on); a standby, whose state was replicated from the primary, takes over
 * after the failover time, or the primary does at UP if it is repaired sooner
 * (OpusController::TakeOver). Several faults: the controller is down while any of them
 * holds it down (their outages are merged). The other faults of the schedule are the
 * FaultInjector's (network parts, packet model).
 */
class ControllerFailover
{
  public:
    /// An interval in which no controller runs: [down, up].
    using Outage = std::pair<Time, Time>;

    /**
     * Default failover time, seconds: an ONOS cluster reassigned the switches of a failed
     * controller to the surviving one in about 0.5 s (ITU Journal on Future and Evolving
     * Technologies 2(1), 2021, sec. 7.3.2, "Control-plane failover and signalling
     * overhead"). A Raft leader election alone takes one election timeout, 150-300 ms with
     * the Raft paper's recommended setting (Ongaro and Ousterhout, USENIX ATC 2014).
     */
    static constexpr double DEFAULT_FAILOVER_S = 0.5;

    /**
     * \param schedule every fault of the run
     * \param failover from a failure to the standby's takeover
     */
    ControllerFailover(const FaultSchedule& schedule, Time failover);

    /// \return true if the schedule has no controller fault
    bool IsEmpty() const;

    /// \return the schedule's other faults (the whole schedule when it has no controller fault)
    const FaultSchedule& GetOtherFaults() const;

    /**
     * \param fault a controller fault
     * \param failover the failover time
     * \return when a controller takes over: the standby after \p failover, or the primary
     *         at its repair if sooner
     */
    static Time TakeoverOf(const Fault& fault, Time failover);

    /**
     * \param faults controller faults, in failure time order
     * \param failover the failover time
     * \return the intervals without a controller: each fault's [down, takeover], merged
     *         where they overlap or touch; empty ones dropped
     */
    static std::vector<Outage> Outages(const std::vector<Fault>& faults, Time failover);

    /**
     * \brief Schedules every outage on \p controller (call before Simulator::Run).
     * \param controller Opus's controller (CheckBeforeRuns refuses controller faults on
     *        fabrics without one)
     */
    void Schedule(Ptr<OpusController> controller);

    /// \return the outages (merged)
    const std::vector<Outage>& GetOutages() const;

    /// \return per fault: "down" at DOWN, "standby takes over" at DOWN + failover (if before
    ///         UP), "up" at UP (if repaired); in time order
    const std::vector<FaultInjector::Event>& GetEvents() const;

    /// \return the failover time
    Time GetFailover() const;

    /// \return the controller's stall (OpusController::GetStall), 0 before Schedule
    Time GetStall() const;

    /// \return the messages the controller held (OpusController::GetHeldMessages)
    uint64_t GetHeldMessages() const;

    /**
     * \brief Writes faults.csv (time_s, part, event): \p injector's events and \p failover's,
     *        in time order (the injector's first at the same time).
     * \param os the stream
     * \param injector the network faults' injector, or null
     * \param failover the controller faults
     */
    static void WriteCsv(std::ostream& os,
                         const FaultInjector* injector,
                         const ControllerFailover& failover);

  private:
    std::vector<Fault> m_faults;                //!< The controller faults
    FaultSchedule m_others;                     //!< The other faults
    Time m_failover;                            //!< Failure to takeover
    std::vector<Outage> m_outages;              //!< Merged outages
    std::vector<FaultInjector::Event> m_events; //!< For faults.csv
    Ptr<OpusController> m_controller;           //!< Set by Schedule
};

} // namespace ns3

#endif /* CONTROLLER_FAILOVER_H */

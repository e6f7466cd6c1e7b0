/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_RECONFIGURATION_BATCHER_H
#define OPUS_RECONFIGURATION_BATCHER_H

#include "ns3/ocs-circuit-table.h"
#include "ns3/opus-control-plane.h"
#include "ns3/opus-port-assigner.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Opus's reconfiguration batching: gathers the circuit changes the controller orders
 * on a rail into one reconfiguration, hands it to the rail's OCS circuit table, and tells
 * the waiters when its circuits are up.
 *
 * Changes ordered on a rail within BatchWindow of its first one (0: the same instant) join
 * one reconfiguration, which is handed to the OCS after BatchWindow and ControlLatency; each
 * changed port goes dark once. A reconfiguration the OCS fails is retried once, with what
 * the target circuits still want of it; one that fails twice stays dark and is reported.
 * Every reconfiguration has its OpusReconfigurationRecord, indexed by its id.
 *
 * On a whole-switch OCS (OcsCircuitTable::IsWholeSwitch) with batching on (SetBatching: the
 * controller's Arbitration = batch), a change joins the rail's reconfiguration not yet handed
 * to the OCS whenever it comes, and a reconfiguration due while another of the rail is
 * switching is held until that one ends: the changes that meet share one blackout. The
 * blackout listener hears of every blackout of a whole-switch OCS.
 */
class OpusReconfigurationBatcher
{
  public:
    /// No reconfiguration (Joinable).
    static constexpr uint64_t NONE = UINT64_MAX;

    /**
     * \param records the controller's reconfiguration records (appended to and updated)
     * \param targets the target circuits a retry still wants (OpusPortAssigner::GetConfig)
     */
    OpusReconfigurationBatcher(std::vector<OpusReconfigurationRecord>& records,
                               const OpusPortAssigner& targets);

    /// \param tables the OCS circuit table of every rail, indexed by rail
    void SetTables(std::vector<Ptr<OcsCircuitTable>> tables);
    /// \param latency one-way delay between a shim and the controller (ControlLatency)
    void SetControlLatency(Time latency);
    /// \return ControlLatency
    Time GetControlLatency() const;
    /// \param window how long a reconfiguration collects later changes (BatchWindow)
    void SetBatchWindow(Time window);
    /// \return BatchWindow
    Time GetBatchWindow() const;
    /// \param batching true to batch on whole-switch rails (Arbitration = batch)
    void SetBatching(bool batching);
    /// \return true if batching on whole-switch rails
    bool GetBatching() const;
    /// Called when a reconfiguration darkens a whole-switch OCS: rail, start, end.
    using BlackoutListener = std::function<void(uint32_t, Time, Time)>;
    /// \param listener told of every blackout of a whole-switch rail
    void SetBlackoutListener(BlackoutListener listener);

    /**
     * \param rail a rail
     * \return the reconfiguration of \p rail that a change ordered now joins (not handed to
     *         the OCS yet, ordered within BatchWindow), or NONE
     */
    uint64_t Joinable(uint32_t rail) const;

    /**
     * \brief Orders a change of \p rail's circuits: joins the rail's open reconfiguration
     * (Joinable), or starts one that is handed to the OCS after BatchWindow and
     * ControlLatency.
     * \param rail the rail
     * \param connections the circuits to set (later changes of a port override earlier ones)
     * \param group the communication group it serves (for the record)
     * \param speculative true for a speculative setup (provisioning)
     * \return the reconfiguration's id
     */
    uint64_t Order(uint32_t rail,
                   const OcsConnections& connections,
                   const std::string& group,
                   bool speculative);

    /// \param id a reconfiguration in flight \param waiter called ControlLatency after its end
    void AddWaiter(uint64_t id, std::function<void()> waiter);

    /**
     * \param rail a rail
     * \param ports ports of \p rail
     * \return the reconfigurations in flight on \p rail that set or clear one of \p ports,
     *         in id order
     */
    std::vector<uint64_t> InFlightOn(uint32_t rail, const std::set<uint32_t>& ports) const;

    /**
     * \brief Marks the speculative reconfigurations in flight on \p rail that change a port
     * of \p connections: a request waits for them (the OCS serves a port's changes in order).
     * \param rail the rail
     * \param connections what the request changes
     * \param joined the reconfiguration the request joins, which does not delay it
     */
    void MarkSpeculativeInTheWay(uint32_t rail, const OcsConnections& connections, uint64_t joined);

    /// \return one line per reconfiguration that failed twice (its circuits stay dark)
    const std::set<std::string>& GetStuck() const;

    /// Forgets the tables and the reconfigurations in flight (the controller is disposed).
    void Clear();

  private:
    /// A reconfiguration between its order and its end.
    struct InFlight
    {
        uint32_t rail{0};           //!< Its rail
        std::set<uint32_t> ports;   //!< Ports it sets or clears
        OcsConnections connections; //!< What it asks of the OCS
        Time ordered;               //!< When its first change was ordered
        bool issued{false};         //!< Handed to the OCS
        bool held{false};           //!< Due, but held behind a switching reconfiguration (batching)
        uint32_t attempts{0};       //!< Times the OCS failed it
        std::vector<std::function<void()>> waiters; //!< Called when it ends
    };

    /// Hands reconfiguration \p id to its rail's OCS.
    void Issue(uint64_t id);
    /// The OCS ended reconfiguration \p id (\p done says whether it failed).
    void Switched(uint64_t id, const OcsReconfiguration& done);
    /// Hands a failed reconfiguration to the OCS again: what the target still wants of it.
    void Retry(uint64_t id);
    /// \return true if \p rail's OCS is whole-switch and batching is on
    bool Batches(uint32_t rail) const;
    /// \return true if a reconfiguration of \p rail other than \p id is at the OCS (issued,
    ///         not stuck)
    bool Switching(uint32_t rail, uint64_t id) const;
    /// Hands \p rail's held reconfiguration (if any) to the OCS.
    void IssueHeld(uint32_t rail);
    /// Hands \p connections to \p rail's OCS for reconfiguration \p id.
    OcsRequestResult Send(uint64_t id, uint32_t rail, const OcsConnections& connections);
    /// A whole-switch OCS started reconfiguration \p info (BlackoutListener).
    void Darkened(uint32_t rail, const OcsReconfiguration& info);

    std::vector<OpusReconfigurationRecord>& m_records; //!< The controller's records, by id
    const OpusPortAssigner& m_targets;                 //!< Target circuits per rail
    std::vector<Ptr<OcsCircuitTable>> m_tables;        //!< Per rail
    Time m_controlLatency;                             //!< See SetControlLatency
    Time m_batchWindow;                                //!< See SetBatchWindow
    bool m_batching{false};                            //!< See SetBatching
    BlackoutListener m_blackoutListener;               //!< See SetBlackoutListener
    std::map<uint64_t, InFlight> m_inFlight;           //!< By record index
    std::set<std::string> m_stuck;                     //!< Reconfigurations that failed twice
};

} // namespace ns3

#endif /* OPUS_RECONFIGURATION_BATCHER_H */

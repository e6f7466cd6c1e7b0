/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAULT_INJECTOR_H
#define FAULT_INJECTOR_H

#include "ns3/eps-channel.h"
#include "ns3/fault-schedule.h"
#include "ns3/flow-network.h"
#include "ns3/nstime.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/opus-control-plane.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FlowFabric;
class RailFabric;
class RailNetwork;

/**
 * \ingroup photonic-rails
 * \brief Carries out a fault schedule on a fabric, packet-level or flow-level, and records
 *        what it did.
 *
 * A part fails by cutting cables (a NIC port's, a leaf-spine cable, every cable of a
 * switch; on the flow model, their links) or by failing OCS ports (a NIC port on optical
 * rails is the OCS port it is plugged into); an OCS reconfiguration fault makes the next one
 * that changes circuits fail. A cable, link or OCS port that several faults take down comes
 * back when the last of them is repaired. After every change, and whenever routing has moved
 * around one, the GPUs' transports are told (the fabric manager's notice).
 */
class FaultInjector
{
  public:
    /// One thing that happened.
    struct Event
    {
        Time at;           //!< When
        std::string part;  //!< The part, e.g. "nic:gpu5.port1"
        std::string event; //!< "down", "up", "next reconfiguration fails", or a failure
    };

    /**
     * \param network the fabric the faults hit (a RailFabric or a FlowFabric)
     * \param schedule the faults (checked against the fabric's spec)
     */
    FaultInjector(Ptr<RailNetwork> network, const FaultSchedule& schedule);

    /// Schedules every failure and repair (call before Simulator::Run).
    void Schedule();

    /// \return what happened so far, in time order
    const std::vector<Event>& GetEvents() const;

    /// \return the faults
    const std::vector<Fault>& GetFaults() const;

    /**
     * \brief How long the first failure stopped traffic.
     *
     * From the first failure until the traffic it stopped moved again -- the latest time a
     * transport moved stopped data to other ports or around the failure (a detour), resumed
     * it on a repaired path, or had frames lost inside the network acknowledged again -- at
     * most until \p end. For a failed OCS reconfiguration, from its failure until its retry
     * succeeded (\p records, Opus's).
     * \param end the job's end
     * \param records the control plane's reconfigurations (none on electrical rails)
     * \return the recovery time: zero if the failure stopped nothing or struck after \p end
     */
    Time GetRecovery(Time end, const std::vector<OpusReconfigurationRecord>& records) const;

    /**
     * \brief Writes faults.csv: time_s, part, event.
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

  private:
    /// Fails (\p down) or repairs one fault's part.
    void Apply(const Fault& fault, bool down);
    /// Records a reconfiguration of \p rail's OCS that failed.
    void OnReconfigurationEnd(uint32_t rail, const OcsReconfiguration& reconfiguration);
    /// Has OnFrameLost see every frame a failure destroys inside the network.
    void WatchLostFrames();
    /// Tells the transport whose QP waits for \p frame (lost) that a failure destroyed it.
    void OnFrameLost(Ptr<const Packet> frame);
    /// Tells every GPU's transport that the fabric changed.
    /// \param restored true if parts came back or routing moved around failed ones
    void NotifyTransports(bool restored);
    /// \return the cables a fault cuts (electrical rails, packet model)
    std::vector<Ptr<EpsChannel>> CablesOf(const Fault& fault) const;
    /// \return the links a fault takes down (electrical rails, flow model)
    std::vector<FlowNetwork::LinkId> LinksOf(const Fault& fault) const;
    /// \return the OCS ports a fault fails (optical rails)
    std::vector<std::pair<Ptr<OpticalCircuitSwitch>, uint32_t>> OcsPortsOf(
        const Fault& fault) const;

    Ptr<RailNetwork> m_network;                      //!< The fabric
    Ptr<RailFabric> m_fabric;                        //!< It, if packet-level
    Ptr<FlowFabric> m_flow;                          //!< It, if flow-level
    std::vector<Fault> m_faults;                     //!< The schedule
    std::vector<Event> m_events;                     //!< What happened
    std::map<Ptr<EpsChannel>, uint32_t> m_cableCuts; //!< Faults holding each cable down
    std::map<std::pair<Ptr<OpticalCircuitSwitch>, uint32_t>, uint32_t>
        m_portFaults; //!< Faults holding each OCS port down
};

} // namespace ns3

#endif /* FAULT_INJECTOR_H */

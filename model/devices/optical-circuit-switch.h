/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPTICAL_CIRCUIT_SWITCH_H
#define OPTICAL_CIRCUIT_SWITCH_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ocs-circuit-table.h"
#include "ns3/ocs-technology.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class OcsNetDevice;

/**
 * \ingroup photonic-rails
 * \brief An optical circuit switch (OCS): N duplex ports and a one-to-one set of circuits.
 *
 * The switch is the ns-3 Channel that joins the OcsNetDevices (GPU NIC ports) of one rail;
 * each device sits at the end of its own fiber on one port. A circuit input i -> output j
 * carries the frames transmitted by the device on port i to the device on port j. The
 * switch is passive: frames cross it at the speed of light, with no queue and no header
 * processing, and only while their circuit is up.
 *
 * Reconfiguration (see Reconfigure()): only the ports whose circuit changes go dark, for
 * ReconfigurationDelay; every other circuit keeps carrying traffic. A request that touches a
 * port (as input, or as old or new output) that an earlier request still holds waits until
 * every earlier request touching any of its ports has finished: requests are served in
 * arrival order per port, and requests on disjoint ports proceed concurrently. With
 * Switching = WholeSwitch (a rotor switch's; Technology, the default, takes ApplyTechnology's)
 * a reconfiguration darkens every port instead, unchanged
 * circuits included (their devices hold frames as on a changed port), and requests are
 * served one at a time (OcsCircuitTable::SetWholeSwitch).
 *
 * The circuit state (circuits, requests, dark and failed ports, dark-time accounting) is an
 * OcsCircuitTable the switch owns (GetCircuitTable()); the switch itself carries frames and
 * tells its devices and trace sinks what the table changes. Its circuit methods delegate.
 */
class OpticalCircuitSwitch : public Channel
{
  public:
    /// Output value that means "not connected".
    static constexpr uint32_t NO_PORT = OcsCircuitTable::NO_PORT;

    /// Called when a request's circuits are in place.
    using DoneCallback = OcsCircuitTable::DoneCallback;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    OpticalCircuitSwitch();
    ~OpticalCircuitSwitch() override;

    /**
     * \brief Sets ReconfigurationDelay, Radix and WholeSwitch from a catalogued technology.
     * \param name a name from OcsTechnologyCatalog (e.g. "piezo")
     */
    void ApplyTechnology(const std::string& name);

    /**
     * \return the circuit state, which Opus and the flow model drive directly (the devices
     *         and trace sinks hear of its changes through this switch)
     */
    Ptr<OcsCircuitTable> GetCircuitTable() const;

    /// \return the number of duplex ports
    uint32_t GetRadix() const;
    /// \return the time a changed port stays dark
    Time GetReconfigurationDelay() const;
    /// \return true if a reconfiguration darkens every port (attribute Switching, or the
    ///         technology's)
    bool IsWholeSwitch() const;

    /**
     * \brief Takes the next free port into use with no device behind it: a network model
     *        without frames (FlowFabric) drives the circuit state alone.
     * \return the port number
     */
    uint32_t AddPort();

    /**
     * \brief Plugs a device's fiber into the next free port.
     * \param device the device
     * \return the port number
     */
    uint32_t Attach(Ptr<OcsNetDevice> device);

    /**
     * \param port a port number
     * \return the device on that port, or null if none is plugged in
     */
    Ptr<OcsNetDevice> GetPortDevice(uint32_t port) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \brief Sets circuits instantly, with no blackout: the state before the job starts.
     *
     * Only valid while no reconfiguration is pending. Ports not named stay unconnected.
     * \param configuration the circuits
     * \return the outcome (rejected, with the reason, when invalid)
     */
    OcsRequestResult Preset(const OcsConnections& configuration);

    /**
     * \brief Requests a change of some circuits.
     *
     * Each entry input -> output sets that input's circuit (NO_PORT disconnects it); inputs
     * not named keep their circuit. The request is checked against the configuration that
     * all earlier accepted requests will leave (ports in range, every output used by at most
     * one input); an invalid request is rejected and changes nothing. An accepted request
     * darkens exactly the ports whose circuit differs when it starts, for
     * ReconfigurationDelay; a request that changes nothing completes at once, with no
     * blackout and no Reconfiguration trace. \p done is called once the circuits are up.
     * \param changes the circuits to set
     * \param done called when the request completes (may be null)
     * \return the outcome
     */
    OcsRequestResult Reconfigure(const OcsConnections& changes, DoneCallback done = DoneCallback());

    /**
     * \brief Requests a whole configuration: named circuits set, every other one removed.
     * \param configuration the circuits wanted
     * \param done called when the request completes (may be null)
     * \return the outcome
     */
    OcsRequestResult SetConfiguration(const OcsConnections& configuration,
                                      DoneCallback done = DoneCallback());

    /**
     * \brief Builds the directed connections of duplex circuits a <-> b.
     * \param pairs the port pairs
     * \return both directions of every pair
     */
    static OcsConnections Duplex(const std::vector<std::pair<uint32_t, uint32_t>>& pairs);

    /**
     * \param input an input port
     * \return its current output (even while dark), or NO_PORT
     */
    uint32_t GetConnection(uint32_t input) const;

    /**
     * \param input an input port
     * \return true if the circuit from \p input is up (connected and not dark)
     */
    bool IsCircuitUp(uint32_t input) const;

    /**
     * \param port a port
     * \return true while a reconfiguration darkens it
     */
    bool IsPortDark(uint32_t port) const;

    /// \return the circuits that are up now
    OcsConnections GetCircuits() const;

    /// \return the configuration once every accepted request has completed
    OcsConnections GetTargetConfiguration() const;

    /// \return completed reconfigurations that changed at least one circuit
    uint64_t GetReconfigurationCount() const;

    /// \return requests accepted but not yet completed
    std::size_t GetPendingRequestCount() const;

    /// \return frames lost because their circuit was torn down under them
    uint64_t GetFramesLost() const;

    /**
     * \brief Fails (true) or repairs (false) a port: a dead port, or the fibre or NIC
     * transceiver plugged into it. No light passes a failed port, so a circuit through it
     * carries nothing (its frames in flight are lost) until the port is repaired; the
     * mirrors keep their position, so the circuit is back with the repair. Both ends'
     * devices see their link go down and come back.
     * \param port the port
     * \param failed the new state
     */
    void SetPortFailed(uint32_t port, bool failed);
    /// \param port a port \return true while it is failed
    bool IsPortFailed(uint32_t port) const;
    /**
     * \brief Makes the next reconfiguration that changes circuits and ends from now on
     * fail (one already running included): when its blackout ends, its new circuits stay
     * dark and its done callback reports failed. Repeating the same request retries it.
     */
    void FailNextReconfiguration();

    /**
     * \param port a port
     * \return the total time the port has been dark, up to now
     */
    Time GetPortDarkTime(uint32_t port) const;

    /**
     * \param input the transmitting device's port
     * \return the device at the far end of an up circuit, or null
     */
    Ptr<OcsNetDevice> GetCircuitPeer(uint32_t input) const;

    /**
     * \param input a port
     * \return the device at the far end of the circuit set from \p input, lit or darkened
     *         by a failed port (the mirrors keep their position), or null if none is set or
     *         it is switching
     */
    Ptr<OcsNetDevice> GetCircuitEnd(uint32_t input) const;

    /**
     * \brief Carries a frame from the device on \p input along its circuit.
     *
     * The caller has checked that the circuit is up. The frame reaches the far device
     * after \p txTime plus both fibers' delays, unless the circuit is torn down before the
     * frame's last bit has passed the switch: then it is lost, FrameLost fires, and the
     * sender is told.
     * \param frame the frame
     * \param input the sender's port
     * \param txTime the frame's serialization time at the sender's rate
     */
    void Transmit(Ptr<Packet> frame, uint32_t input, Time txTime);

    /**
     * TracedCallback signature for circuit state changes.
     * \param input the input port
     * \param output the output port
     */
    typedef void (*CircuitTracedCallback)(uint32_t input, uint32_t output);

    /**
     * TracedCallback signature for reconfiguration events.
     * \param reconfiguration the request
     */
    typedef void (*ReconfigurationTracedCallback)(const OcsReconfiguration& reconfiguration);

    /**
     * TracedCallback signature for lost frames.
     * \param frame the frame
     * \param input the sender's port
     * \param output the output its circuit led to
     */
    /**
     * TracedCallback signature of PortFailure.
     * \param port the port
     * \param failed true when it fails, false when it is repaired
     */
    typedef void (*PortFailureTracedCallback)(uint32_t port, bool failed);

    typedef void (*FrameLostTracedCallback)(Ptr<const Packet> frame,
                                            uint32_t input,
                                            uint32_t output);

  protected:
    void DoDispose() override;

  private:
    /// \param radix the number of duplex ports (attribute Radix)
    void SetRadix(uint32_t radix);
    /// \param delay the blackout of a changed port (attribute ReconfigurationDelay)
    void SetReconfigurationDelay(Time delay);
    /// \param switching an OcsSwitching (attribute Switching)
    void SetSwitching(int switching);
    /// \return attribute Switching, an OcsSwitching
    int GetSwitching() const;
    /// Tells the table whether it is whole-switch: Switching, or the technology's.
    void UpdateSwitching();
    /// Arrival of a frame at the far fiber end; drops it if its circuit was cut in time.
    void Deliver(Ptr<Packet> frame,
                 uint32_t input,
                 uint32_t output,
                 uint32_t generation,
                 Time lastBitThrough);
    /// Tells the device on \p port that its circuit changed.
    void NotifyDevice(uint32_t port) const;

    Ptr<OcsCircuitTable> m_table;                               //!< The circuit state
    OcsSwitching m_switching{OcsSwitching::TECHNOLOGY};         //!< Attribute Switching
    OcsSwitching m_technologySwitching{OcsSwitching::PER_PORT}; //!< ApplyTechnology's
    std::string m_technology; //!< Technology name, if one was applied

    std::vector<Ptr<OcsNetDevice>> m_devices; //!< Device per port (null: nothing plugged)
    std::vector<uint32_t> m_attachedPorts;    //!< Ports with a device, in attach order
    uint64_t m_framesLost;                    //!< Frames lost on torn-down circuits

    TracedCallback<uint32_t, uint32_t> m_circuitUpTrace;                    //!< A circuit came up
    TracedCallback<uint32_t, uint32_t> m_circuitDownTrace;                  //!< A circuit went down
    TracedCallback<const OcsReconfiguration&> m_reconfigStartTrace;         //!< Ports went dark
    TracedCallback<const OcsReconfiguration&> m_reconfigEndTrace;           //!< Circuits came up
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_frameLostTrace; //!< Frame lost
    TracedCallback<uint32_t, bool> m_portFailureTrace; //!< A port failed or was repaired
};

} // namespace ns3

#endif /* OPTICAL_CIRCUIT_SWITCH_H */

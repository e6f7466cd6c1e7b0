/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OCS_NET_DEVICE_H
#define OCS_NET_DEVICE_H

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rail-net-device.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>

namespace ns3
{

class OpticalCircuitSwitch;
class Node;

/**
 * \ingroup photonic-rails
 * \brief Frame and byte counters of one OcsNetDevice.
 */
struct OcsNetDeviceCounters
{
    uint64_t framesSent{0};             //!< Frames whose transmission started
    uint64_t bytesSent{0};              //!< Bytes of those frames (with the Ethernet header)
    uint64_t framesReceived{0};         //!< Frames received intact
    uint64_t bytesReceived{0};          //!< Bytes of those frames (with the Ethernet header)
    uint64_t framesHeld{0};             //!< Frames that had to wait for a circuit to their peer
    uint64_t framesDroppedNoCircuit{0}; //!< Frames dropped for want of a circuit (DROP policy)
    uint64_t framesDroppedQueueFull{0}; //!< Frames refused by a full transmit queue
    uint64_t framesDroppedOversize{0};  //!< Payloads larger than the MTU, refused
    uint64_t framesLostInFlight{0};     //!< Sent frames lost to a circuit torn down under them
    uint64_t framesCorrupted{0};        //!< Received frames dropped by the receive error model
};

/**
 * \ingroup photonic-rails
 * \brief A GPU NIC port connected by a fiber to one port of an OpticalCircuitSwitch.
 *
 * Frames carry an Ethernet II header (14 bytes) and leave at DataRate. A frame addressed to a
 * peer leaves only while this port's circuit leads to that peer's port; broadcast and
 * multicast frames go to whichever peer the circuit leads to. A frame that reaches the head
 * of the transmit queue when no circuit leads to its destination is either held (policy
 * HOLD, the default: it waits, in arrival order per destination, and leaves first once such
 * a circuit comes up, while frames to other destinations keep flowing) or dropped (policy
 * DROP, MacTxDrop); both are counted. Frames on the fiber when their circuit is torn down
 * are lost: the switch's FrameLost and this device's PhyTxDrop fire.
 *
 * The link is up while this port's circuit is up; link-change callbacks fire on every
 * change.
 */
class OcsNetDevice : public RailNetDevice
{
  public:
    /// What to do with a frame when no circuit leads to its destination.
    enum NoCircuitPolicy
    {
        HOLD, //!< Keep it until a circuit to its destination comes up
        DROP, //!< Drop it (counted, MacTxDrop)
    };

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    OcsNetDevice();
    ~OcsNetDevice() override;

    /**
     * \brief Plugs this device's fiber into the next free port of \p ocs.
     * \param ocs the switch
     */
    void Attach(Ptr<OpticalCircuitSwitch> ocs);

    /// \return the switch port this device is plugged into
    uint32_t GetPort() const;
    /// \return the switch, or null before Attach()
    Ptr<OpticalCircuitSwitch> GetSwitch() const;
    /// \return the one-way delay of this device's fiber to the switch
    Time GetFiberDelay() const;

    /// \return the counters
    const OcsNetDeviceCounters& GetCounters() const;
    /// \return frames waiting for a circuit to their destination
    uint32_t GetHeldFrameCount() const;

    /**
     * \param peer a MAC address
     * \return true if this port's circuit is up and leads to \p peer
     */
    bool IsConnectedTo(const Address& peer) const;

    /**
     * \brief Called by the switch when this port's circuit changed.
     */
    void NotifyCircuitChanged();

    /**
     * \brief Called by the switch when a frame this device sent was lost on the way.
     * \param frame the frame
     */
    void NotifyFrameLost(Ptr<const Packet> frame);

    /**
     * \brief Called by the switch when a frame's last bit arrives at this device.
     * \param frame the frame, with its Ethernet header
     */
    void Receive(Ptr<Packet> frame);

    // NetDevice API (the rest is RailNetDevice's)
    Ptr<Channel> GetChannel() const override;
    bool IsLinkUp() const override;
    bool IsPointToPoint() const override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

  protected:
    void DoDispose() override;

  private:
    /// Starts the next frame that may leave now, if the transmitter is idle.
    void TryTransmit() override;
    /// \return the next frame whose destination the circuit reaches, or null.
    Ptr<Packet> NextSendableFrame();
    /// \return true if a frame to \p destination may leave on the current circuit.
    bool CircuitReaches(Mac48Address destination) const;

    Ptr<OpticalCircuitSwitch> m_switch; //!< The switch, once attached
    uint32_t m_port;                    //!< Switch port
    Time m_fiberDelay;                  //!< One-way fiber delay to the switch
    NoCircuitPolicy m_policy;           //!< Frames with no circuit: hold or drop
    std::map<Mac48Address, std::deque<Ptr<Packet>>> m_held; //!< Waiting frames per peer
    uint32_t m_heldCount;                                   //!< Frames in m_held
    bool m_linkUp;                                          //!< Last link state reported
    OcsNetDeviceCounters m_counters;                        //!< Counters
    TracedCallback<Ptr<const Packet>> m_phyTxDropTrace;     //!< Lost on the way
};

} // namespace ns3

#endif /* OCS_NET_DEVICE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EPS_NET_DEVICE_H
#define EPS_NET_DEVICE_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rail-net-device.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

class EpsChannel;
class Node;

/**
 * \ingroup photonic-rails
 * \brief Frame, byte and flow-control counters of one EpsNetDevice.
 *
 * Data frames only in the frame and byte counters; PAUSE/RESUME control frames (64 bytes
 * each on the wire) are counted apart.
 */
struct EpsNetDeviceCounters
{
    uint64_t framesSent{0};             //!< Data frames whose transmission started
    uint64_t bytesSent{0};              //!< Bytes of those frames (with the Ethernet header)
    uint64_t framesReceived{0};         //!< Data frames received intact
    uint64_t bytesReceived{0};          //!< Bytes of those frames (with the Ethernet header)
    uint64_t framesDroppedQueueFull{0}; //!< Frames refused by a full transmit queue
    uint64_t framesDroppedOversize{0};  //!< Payloads larger than the MTU, refused
    uint64_t framesCorrupted{0};        //!< Received frames dropped by the receive error model
    uint64_t framesDroppedLinkDown{0};  //!< Frames queued or given while the cable was cut
    uint64_t pauseFramesSent{0};        //!< PAUSE (XOFF) frames sent
    uint64_t resumeFramesSent{0};       //!< RESUME (XON) frames sent
    uint64_t pauseFramesReceived{0};    //!< PAUSE (XOFF) frames received
    uint64_t resumeFramesReceived{0};   //!< RESUME (XON) frames received
    Time pausedTime{0}; //!< Completed intervals during which the peer held this transmitter
};

/**
 * \ingroup photonic-rails
 * \brief A full-duplex point-to-point Ethernet port: a GPU NIC port or an EpsSwitch port.
 *
 * Frames carry an Ethernet II header (14 bytes, counted on the wire) and leave at DataRate
 * with LineRate timing, joined to the peer by an EpsChannel: a frame of S bytes whose
 * transmission starts at t arrives at t + 8S/DataRate + Delay.
 *
 * Frames to send come from the TxQueue (Send/SendFrom) and, when it is empty, from an
 * optional frame source (SetFrameSource): a switch keeps its own egress queue and hands this
 * device the next frame only when the line is free.
 *
 * Priority flow control (IEEE 802.1Qbb, one traffic class): SendPause(true/false) makes the
 * device send a PAUSE (XOFF) or RESUME (XON) MAC control frame (EtherType 0x8808, 64 bytes).
 * Control frames bypass the TxQueue: they start as soon as the frame being serialized ends.
 * A device that receives PAUSE starts no new data frame (the one on the wire finishes) until
 * it receives RESUME; it still sends control frames. A PAUSE holds until RESUME (the pause
 * quanta are not timed out). Control frames are consumed here, never passed up.
 *
 * Network control: a frame that carries a SocketPriorityTag of NETWORK_CONTROL_PRIORITY or
 * above (802.1p's network-control classes; RoCE deployments send DCQCN's CNPs at priority 6
 * in a strict-priority class without PFC) skips the TxQueue: it leaves right after the frame
 * on the wire, ahead of queued data, and the peer's PAUSE does not hold it. A paused device
 * asks its frame source for network-control frames only.
 *
 * Received frames are handed up without a copy: the receive callback gets the frame with
 * its Ethernet header removed, then the promiscuous callback gets the same packet (last,
 * because a switch forwards that very packet). Trace sinks that keep a packet must Copy() it.
 */
class EpsNetDevice : public RailNetDevice
{
  public:
    /**
     * Supplies the next frame (with its Ethernet header) when the TxQueue is empty, or null.
     * Its argument is true while the device is paused: then only a network-control frame.
     */
    using FrameSource = Callback<Ptr<Packet>, bool>;

    /// Lowest 802.1p priority (SocketPriorityTag) of network-control frames.
    static constexpr uint8_t NETWORK_CONTROL_PRIORITY = 6;

    /// Ethernet II header: destination, source, EtherType.
    static constexpr uint32_t ETHERNET_HEADER_BYTES = 14;
    /// Size of a PAUSE/RESUME frame on the wire: the minimum Ethernet frame (FCS included).
    static constexpr uint32_t PAUSE_FRAME_BYTES = 64;
    /// EtherType of MAC control frames; reserved: Send() refuses it.
    static constexpr uint16_t MAC_CONTROL_ETHERTYPE = 0x8808;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    EpsNetDevice();
    ~EpsNetDevice() override;

    /**
     * \param frame a frame or payload
     * \return whether it is network control (SocketPriorityTag >= NETWORK_CONTROL_PRIORITY)
     */
    static bool IsNetworkControl(Ptr<const Packet> frame);

    /**
     * \brief Connects this device to one end of \p channel.
     * \param channel the cable
     */
    void Attach(Ptr<EpsChannel> channel);
    /// \return the cable, or null before Attach()
    Ptr<EpsChannel> GetEpsChannel() const;
    /// \return the device at the other end of the cable, or null
    Ptr<EpsNetDevice> GetPeer() const;

    /**
     * \brief Sets where frames come from when the TxQueue is empty (a switch egress queue).
     * \param source returns the next frame, with its Ethernet header, or null
     */
    void SetFrameSource(FrameSource source);
    /// Tells the device that its frame source has a frame: it starts it if the line is free.
    void NotifyFrameAvailable();

    /**
     * \brief Asks the peer to stop (PAUSE) or restart (RESUME) sending data frames.
     *
     * The control frame leaves right after the frame being serialized. Asking for the state
     * the peer already has (or will have once the pending control frame is sent) is a no-op;
     * a request that undoes a pending one before it leaves cancels it.
     * \param pause true for PAUSE (XOFF), false for RESUME (XON)
     */
    void SendPause(bool pause);
    /// \return true while the peer holds this device's data transmissions (PAUSE received)
    bool IsPaused() const;
    /// \return total time paused by the peer, including a pause in progress
    Time GetPausedTime() const;
    /// \return the counters
    const EpsNetDeviceCounters& GetCounters() const;

    /**
     * \brief Called by the channel when a frame's last bit arrives.
     * \param frame the frame, with its Ethernet header
     */
    void Receive(Ptr<Packet> frame);
    /// Called by the channel when both ends are attached, and when it is repaired.
    void NotifyLinkUp();
    /**
     * Called by the channel when it is cut: the frames waiting to leave are lost, and the
     * pause state (ours and the peer's) is void.
     */
    void NotifyLinkDown();

    // NetDevice API (the rest is RailNetDevice's)
    Ptr<Channel> GetChannel() const override;
    bool IsLinkUp() const override;
    bool IsPointToPoint() const override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

    /// Signature of the PauseChanged trace: the peer paused (true) or resumed (false) us.
    typedef void (*PauseTracedCallback)(bool paused);

  protected:
    void DoDispose() override;

  private:
    /// Starts the next frame if the line is free: a pending MAC control frame, else the next.
    void TryTransmit() override;
    /**
     * \return the next frame: network control first, then (unless paused) the TxQueue's
     * head, else the frame source's, or null.
     */
    Ptr<Packet> NextFrame();
    /// \return a new PAUSE (\p pause true) or RESUME frame.
    Ptr<Packet> MakePauseFrame(bool pause) const;
    /// Acts on a received MAC control frame (\p payload without its Ethernet header).
    void ReceiveControl(Ptr<const Packet> payload);
    /// Counts and traces a frame lost because the cable is cut.
    void DropLinkDown(Ptr<const Packet> frame);
    /// Enters or leaves the paused state (peer's PAUSE/RESUME).
    void SetPaused(bool paused);

    Ptr<EpsChannel> m_channel;                //!< The cable, once attached
    FrameSource m_frameSource;                //!< Frames from a switch egress queue, optional
    std::deque<Ptr<Packet>> m_networkControl; //!< Network-control frames given to Send
    bool m_linkUp;                            //!< Both ends attached
    bool m_paused;                            //!< The peer holds our data frames
    Time m_pausedSince;                       //!< When the current pause began
    bool m_pauseWanted;                       //!< The pause state we want the peer in
    bool m_pauseAdvertised;                   //!< The pause state last sent to the peer
    EpsNetDeviceCounters m_counters;          //!< Counters
    TracedCallback<bool> m_pauseTrace;        //!< Paused / resumed by the peer
};

} // namespace ns3

#endif /* EPS_NET_DEVICE_H */

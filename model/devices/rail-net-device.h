/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_NET_DEVICE_H
#define RAIL_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/line-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \defgroup photonic-rails Photonic rails
 *
 * Rail-optimized GPU fabrics at packet level: optical circuit switch ports and switches
 * (OcsNetDevice, OpticalCircuitSwitch), electrical rails (EpsNetDevice, EpsSwitch, a single
 * switch or a Clos), the helper that builds DGX/HGX topologies (RailFabricHelper), RDMA-like
 * transport and collectives (RailTransport, CollectiveCommunicator), the replay of per-rank
 * workload DAGs (RankRuntime) and Opus, the control plane that reconfigures the circuits
 * between parallelism phases (OpusController, OpusShim). See doc/photonic-rails-design.rst.
 */

class Node;

/**
 * \ingroup photonic-rails
 * \brief What the module's port devices (OcsNetDevice, EpsNetDevice) share: Ethernet II
 * framing, MAC-48 addressing, a line rate with exact serialization times, a transmit
 * queue, the ns-3 trace sources users expect, and the NetDevice API's bookkeeping.
 *
 * Subclasses decide how a frame reaches the wire (circuits, a cable) and when the link is
 * up. Received frames are passed up without a copy: MacRx and the receive callback get the
 * payload (header removed), then the promiscuous callback gets the same packet, last, so a
 * switch can forward that very object. Trace sinks that keep packets must copy them.
 */
class RailNetDevice : public NetDevice
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    RailNetDevice();
    ~RailNetDevice() override;

    /// \param rate the line rate
    void SetDataRate(DataRate rate);
    /// \return the line rate
    DataRate GetDataRate() const;
    /// \param queue the transmit queue
    void SetQueue(Ptr<Queue<Packet>> queue);
    /// \return the transmit queue
    Ptr<Queue<Packet>> GetQueue() const;
    /// \param model error model applied to received frames (PhyRxDrop on error)
    void SetReceiveErrorModel(Ptr<ErrorModel> model);

    // NetDevice API shared by the port devices
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

    /**
     * \brief Prepends the Ethernet header, or refuses a payload larger than the MTU.
     * \param packet the payload; the frame on success
     * \param source source address
     * \param dest destination address
     * \param protocol EtherType
     * \return false (MacTxDrop fired) if the payload exceeds the MTU
     */
    bool Frame(Ptr<Packet> packet, const Address& source, const Address& dest, uint16_t protocol);

    /**
     * \brief First steps of a reception: the error model, then the sniffer and PHY traces.
     * \param frame the frame, with its Ethernet header
     * \return false (PhyRxDrop fired) if the error model corrupted it
     */
    bool Arrive(Ptr<Packet> frame);

    /**
     * \brief Passes a payload up: MacRx and the receive callback if it is for this host,
     * then the promiscuous callback.
     * \param payload the frame without its header
     * \param header the header removed from it
     */
    void DeliverUp(Ptr<Packet> payload, const EthernetHeader& header);

    /// Fires the link-change callbacks.
    void NotifyLinkChange();

    /**
     * \brief Starts the next frame if the transmitter is free (subclasses choose it and
     * call BeginTransmission). Called again whenever a frame's last bit has left.
     */
    virtual void TryTransmit() = 0;

    /**
     * \brief Serializes \p frame: sniffer and PhyTxBegin traces, the transmitter busy until
     * its last bit (plus InterframeGap) has left, then PhyTxEnd and TryTransmit().
     * \param frame the frame
     * \return its serialization time, for the subclass to put it on the wire
     */
    Time BeginTransmission(Ptr<Packet> frame);

    /// \return the destination of a frame (its first six bytes), without a full parse.
    static Mac48Address DestinationOf(Ptr<const Packet> frame);

    /**
     * \brief Fires a per-frame trace source only when a sink is connected.
     *
     * An empty TracedCallback still costs an out-of-line call and a reference-count round
     * trip of the packet; a frame crosses about ten of them per hop.
     * \param trace the trace source
     * \param frame the frame
     */
    static void FireTrace(const TracedCallback<Ptr<const Packet>>& trace, const Ptr<Packet>& frame)
    {
        if (!trace.IsEmpty())
        {
            trace(frame);
        }
    }

    Ptr<Node> m_node;                    //!< Owning node
    uint32_t m_ifIndex;                  //!< Interface index
    Mac48Address m_address;              //!< MAC address
    uint16_t m_mtu;                      //!< Largest payload (without Ethernet header)
    LineRate m_lineRate;                 //!< Line rate and serialization clock
    Time m_interframeGap;                //!< Idle time after each frame
    Ptr<Queue<Packet>> m_queue;          //!< Transmit queue
    Ptr<ErrorModel> m_receiveErrorModel; //!< Receive error model, optional
    bool m_busy;                         //!< The transmitter is taken (serializing, or
                                         //!< choosing a frame: Dequeue sinks may re-enter)

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< Accepted for transmission
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;      //!< Dropped before transmission
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< Serialization began
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;       //!< Serialization ended
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< Non-promiscuous sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< Promiscuous sniffer

  private:
    /// The last bit of the current frame has left.
    void EndTransmission();

    Ptr<Packet> m_currentFrame;                            //!< The frame being serialized
    NetDevice::ReceiveCallback m_rxCallback;               //!< Upper layer receive
    NetDevice::PromiscReceiveCallback m_promiscCallback;   //!< Promiscuous receive
    TracedCallback<> m_linkChangeCallbacks;                //!< Link change callbacks
    TracedCallback<Ptr<const Packet>> m_macRxTrace;        //!< Delivered up (host)
    TracedCallback<Ptr<const Packet>> m_macPromiscRxTrace; //!< Delivered up (promiscuous)
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;     //!< Last bit received
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;    //!< Corrupted on receive
};

} // namespace ns3

#endif /* RAIL_NET_DEVICE_H */

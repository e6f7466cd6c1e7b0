/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EPS_CHANNEL_H
#define EPS_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

class EpsNetDevice;

/**
 * \ingroup photonic-rails
 * \brief A full-duplex point-to-point cable between two EpsNetDevices.
 *
 * Each direction is independent. A frame whose transmission starts at t with serialization
 * time s arrives (last bit) at the other end at t + s + Delay. The channel neither queues nor
 * drops, except when it is cut (SetLinkUp(false): a fibre cut, a dead transceiver, a port or
 * switch failure): the frames on the wire are lost, both ends see the link go down, and
 * nothing passes until it is repaired.
 */
class EpsChannel : public Channel
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    EpsChannel();
    ~EpsChannel() override;

    /**
     * \brief Connects \p device to the next free end; the link comes up with the second one.
     * \param device the device
     */
    void Attach(Ptr<EpsNetDevice> device);

    /// \return the one-way propagation delay
    Time GetDelay() const;

    /**
     * \param device one end of this channel
     * \return the other end, or null if none is attached yet
     */
    Ptr<EpsNetDevice> GetPeer(const EpsNetDevice* device) const;

    /**
     * \brief Carries a frame from \p sender to the other end.
     * \param frame the frame, with its Ethernet header; handed over, not copied
     * \param sender the transmitting end
     * \param txTime its serialization time
     */
    void Transmit(Ptr<Packet> frame, const EpsNetDevice* sender, Time txTime);

    /**
     * \brief Cuts (false) or repairs (true) the cable; both ends are told.
     *
     * Frames whose last bit had not arrived when the cable is cut are lost.
     * \param up the new state
     */
    void SetLinkUp(bool up);
    /// \return false while the cable is cut
    bool IsLinkUp() const;
    /// \return frames lost on the wire because the cable was cut under them
    uint64_t GetFramesLost() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    /// Hands \p frame to \p receiver unless the cable was cut since it left (\p cuts).
    void Deliver(Ptr<EpsNetDevice> receiver, Ptr<Packet> frame, uint32_t cuts);

    Time m_delay;                                       //!< One-way propagation delay
    std::array<Ptr<EpsNetDevice>, 2> m_devices;         //!< The two ends
    std::size_t m_nDevices;                             //!< Ends attached so far
    bool m_up;                                          //!< Not cut
    uint32_t m_cuts;                                    //!< Times cut so far (frames check it)
    uint64_t m_framesLost;                              //!< Frames lost to cuts
    TracedCallback<Ptr<const Packet>> m_frameLostTrace; //!< FrameLost
};

} // namespace ns3

#endif /* EPS_CHANNEL_H */

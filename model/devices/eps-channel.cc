/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "eps-channel.h"

#include "eps-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EpsChannel");

NS_OBJECT_ENSURE_REGISTERED(EpsChannel);

TypeId
EpsChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EpsChannel")
                            .SetParent<Channel>()
                            .SetGroupName("PhotonicRails")
                            .AddConstructor<EpsChannel>()
                            .AddAttribute("Delay",
                                          "One-way propagation delay (about 5 ns per metre).",
                                          TimeValue(NanoSeconds(50)),
                                          MakeTimeAccessor(&EpsChannel::m_delay),
                                          MakeTimeChecker(Time(0)))
                            .AddTraceSource("FrameLost",
                                            "A frame was lost because the cable was cut under "
                                            "it (with its Ethernet header).",
                                            MakeTraceSourceAccessor(&EpsChannel::m_frameLostTrace),
                                            "ns3::Packet::TracedCallback");
    return tid;
}

EpsChannel::EpsChannel()
    : m_nDevices(0),
      m_up(true),
      m_cuts(0),
      m_framesLost(0)
{
    NS_LOG_FUNCTION(this);
}

EpsChannel::~EpsChannel()
{
    NS_LOG_FUNCTION(this);
}

void
EpsChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_devices = {nullptr, nullptr};
    Channel::DoDispose();
}

void
EpsChannel::Attach(Ptr<EpsNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!device, "EpsChannel::Attach: null device");
    NS_ABORT_MSG_IF(m_nDevices == 2, "EpsChannel already joins two devices");
    NS_ABORT_MSG_IF(!device->GetNode(), "EpsChannel::Attach: add the device to a node first");
    m_devices[m_nDevices++] = device;
    if (m_nDevices == 2)
    {
        m_devices[0]->NotifyLinkUp();
        m_devices[1]->NotifyLinkUp();
    }
}

Time
EpsChannel::GetDelay() const
{
    NS_LOG_FUNCTION(this);
    return m_delay;
}

Ptr<EpsNetDevice>
EpsChannel::GetPeer(const EpsNetDevice* device) const
{
    NS_LOG_FUNCTION(this << device);
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return PeekPointer(m_devices[0]) == device ? m_devices[1] : m_devices[0];
}

void
EpsChannel::Transmit(Ptr<Packet> frame, const EpsNetDevice* sender, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << sender << txTime);
    const Ptr<EpsNetDevice>& receiver =
        PeekPointer(m_devices[0]) == sender ? m_devices[1] : m_devices[0];
    // The receiver's events run in its node's context, as for any ns-3 channel.
    Simulator::ScheduleWithContext(receiver->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &EpsChannel::Deliver,
                                   this,
                                   receiver,
                                   frame,
                                   m_cuts);
}

void
EpsChannel::Deliver(Ptr<EpsNetDevice> receiver, Ptr<Packet> frame, uint32_t cuts)
{
    if (cuts != m_cuts)
    {
        NS_LOG_INFO("frame lost: the cable was cut under it");
        ++m_framesLost;
        m_frameLostTrace(frame);
        return;
    }
    receiver->Receive(frame);
}

void
EpsChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    NS_ABORT_MSG_IF(m_nDevices < 2, "EpsChannel::SetLinkUp: attach both ends first");
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        ++m_cuts;
    }
    for (const auto& device : m_devices)
    {
        up ? device->NotifyLinkUp() : device->NotifyLinkDown();
    }
}

bool
EpsChannel::IsLinkUp() const
{
    NS_LOG_FUNCTION(this);
    return m_up;
}

uint64_t
EpsChannel::GetFramesLost() const
{
    NS_LOG_FUNCTION(this);
    return m_framesLost;
}

std::size_t
EpsChannel::GetNDevices() const
{
    NS_LOG_FUNCTION(this);
    return m_nDevices;
}

Ptr<NetDevice>
EpsChannel::GetDevice(std::size_t i) const
{
    NS_LOG_FUNCTION(this << i);
    NS_ABORT_MSG_IF(i >= m_nDevices, "EpsChannel::GetDevice(" << i << "): out of range");
    return m_devices[i];
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_TRACE_HELPER_H
#define RAIL_TRACE_HELPER_H

#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/rail-net-device.h"
#include "ns3/trace-helper.h"

#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief PCAP and ASCII tracing of the module's port devices, shared by their helpers.
 *
 * Devices of another type than \p Device are skipped (a helper traces only its own).
 * PCAP files are Ethernet (DLT_EN10MB) from the (promiscuous) sniffer; ASCII traces log
 * receptions, the drop traces and the transmit queue's events, as ns-3's point-to-point
 * helper does.
 */
class RailTraceHelper
{
  public:
    /// Enables PCAP on \p nd if it is a \p Device (see PcapHelperForDevice).
    template <typename Device>
    static void EnablePcap(std::string prefix,
                           Ptr<NetDevice> nd,
                           bool promiscuous,
                           bool explicitFilename)
    {
        Ptr<Device> device = DynamicCast<Device>(nd);
        if (!device)
        {
            return;
        }
        PcapHelper pcapHelper;
        std::string filename =
            explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
        Ptr<PcapFileWrapper> file =
            pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
        pcapHelper.HookDefaultSink<Device>(device,
                                           promiscuous ? "PromiscSniffer" : "Sniffer",
                                           file);
    }

    /**
     * \brief Enables ASCII tracing on \p nd if it is a \p Device (see
     * AsciiTraceHelperForDevice).
     * \param drops the device's drop trace sources to log
     */
    template <typename Device>
    static void EnableAscii(Ptr<OutputStreamWrapper> stream,
                            std::string prefix,
                            Ptr<NetDevice> nd,
                            bool explicitFilename,
                            const std::vector<std::string>& drops)
    {
        Ptr<Device> device = DynamicCast<Device>(nd);
        if (!device)
        {
            return;
        }
        Packet::EnablePrinting();
        if (!stream)
        {
            AsciiTraceHelper ascii;
            std::string filename =
                explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
            stream = ascii.CreateFileStream(filename);
        }
        // Hooked with context, so lines sharing a stream say which device they come from.
        std::ostringstream base;
        base << "/NodeList/" << nd->GetNode()->GetId() << "/DeviceList/" << nd->GetIfIndex() << "/$"
             << Device::GetTypeId().GetName() << "/";
        auto connect = [&](const std::string& path, auto sink) {
            Config::Connect(base.str() + path, MakeBoundCallback(sink, stream));
        };
        connect("MacRx", &AsciiTraceHelper::DefaultReceiveSinkWithContext);
        for (const auto& drop : drops)
        {
            connect(drop, &AsciiTraceHelper::DefaultDropSinkWithContext);
        }
        connect("TxQueue/Enqueue", &AsciiTraceHelper::DefaultEnqueueSinkWithContext);
        connect("TxQueue/Dequeue", &AsciiTraceHelper::DefaultDequeueSinkWithContext);
        connect("TxQueue/Drop", &AsciiTraceHelper::DefaultDropSinkWithContext);
    }
};

} // namespace ns3

#endif /* RAIL_TRACE_HELPER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Six GPUs on one optical rail: circuits, transfers, and a reconfiguration with blackout.
 *
 *   GPU0 <-> GPU1   stays up all along:   flow A (0 -> 1) streams through the blackout
 *   GPU2 <-> GPU3   torn down at --reconfigAt, after flow B (2 -> 3) has finished
 *   GPU2 <-> GPU4   comes up --delay later: flow C (2 -> 4) waits for it (held frames)
 *
 * Each flow sends --bytes in frames of --mtu payload bytes plus a 14-byte Ethernet header.
 * The program prints the circuit events, then per flow its measured completion time next
 * to the one computed from the line rate (frames x frame time + fibers), and the counters.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/strict-command-line.h"
#include "ns3/text-table.h"

#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <stdexcept>
#include <string>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("OcsCircuitExample");

namespace
{

const char* const PROGRAM = "ocs-circuit-example";

constexpr uint32_t HEADER_BYTES = 14;

/// One bulk transfer and what became of it.
struct Flow
{
    std::string name;          //!< Label
    uint32_t from;             //!< Sending GPU
    uint32_t to;               //!< Receiving GPU
    Time start;                //!< When it is handed to the sender
    Address fromAddress{};     //!< Sender's MAC address
    uint64_t bytesReceived{0}; //!< Payload bytes received
    Time lastArrival{};        //!< Arrival of its last frame so far
};

std::vector<Flow> g_flows;

bool
CountArrival(Ptr<NetDevice> device, Ptr<const Packet> packet, uint16_t, const Address& from)
{
    for (Flow& flow : g_flows)
    {
        if (device->GetNode()->GetId() == flow.to && from == flow.fromAddress)
        {
            flow.bytesReceived += packet->GetSize();
            flow.lastArrival = Simulator::Now();
        }
    }
    return true;
}

/// Enqueues a whole transfer at once; the device paces it at line rate.
void
StartTransfer(Ptr<OcsNetDevice> sender, Address peer, uint64_t bytes, uint32_t mtu)
{
    for (uint64_t left = bytes; left > 0;)
    {
        uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(left, mtu));
        sender->Send(Create<Packet>(payload), peer, 0x88b5);
        left -= payload;
    }
}

void
PrintCircuit(const char* what, uint32_t input, uint32_t output)
{
    std::cout << std::setw(12) << Simulator::Now().As(Time::US) << "  circuit " << input << " -> "
              << output << " " << what << "\n";
}

void
PrintReconfiguration(const char* what, const OcsReconfiguration& r)
{
    std::cout << std::setw(12) << Simulator::Now().As(Time::US) << "  reconfiguration " << r.id
              << " " << what << " (dark ports:";
    for (uint32_t port : r.darkPorts)
    {
        std::cout << " " << port;
    }
    std::cout << ")\n";
}

/// Every flag of the program, as typed, with its default.
struct Options
{
    std::string technology{"sip"};   //!< OCS technology
    std::string delay;               //!< Reconfiguration delay ("": the technology's)
    std::string rate{"400Gbps"};     //!< NIC port line rate
    uint64_t bytes{8 << 20};         //!< Bytes per flow
    uint32_t mtu{9000};              //!< Frame payload bytes
    std::string reconfigAt{"200us"}; //!< When the controller asks for GPU2 <-> GPU4
    std::string fiber{"50ns"};       //!< Fiber delay between a GPU and the OCS
    bool pcap{false};                //!< Write PCAP traces
};

/// The flags, checked and converted.
struct Setup
{
    OcsTechnology technology; //!< From the catalog
    bool delayGiven{false};   //!< --delay was given (else the technology's)
    Time delay;               //!< Reconfiguration delay, when given
    DataRate rate;            //!< NIC port line rate
    uint64_t bytes{0};        //!< Bytes per flow
    uint32_t mtu{0};          //!< Frame payload bytes
    Time reconfigAt;          //!< When the controller asks for GPU2 <-> GPU4
    Time fiber;               //!< Fiber delay
    bool pcap{false};         //!< Write PCAP traces
};

/// GPU2 queues flows B and C at once, each of at most this many frames: the port queue
/// (2 x this) never drops, and every count stays far from 2^32.
constexpr uint64_t MAX_FRAMES_PER_FLOW = 500000;
constexpr uint32_t MAX_MTU = 65000;
constexpr double MIN_RATE_BPS = 1e6;  // 1 Mb/s: the longest flow stays under 3 x 10^5 s
constexpr double MAX_RATE_BPS = 1e13; // 10 Tb/s, as RailFabricSpec's bound on a NIC port
const FlagRange MTU_RANGE(1, MAX_MTU, "frame payload bytes");

/// --bytes' range, which --mtu sets: registered with the flag, checked again by Check().
FlagRange
BytesRange(uint32_t mtu)
{
    return FlagRange(1,
                     static_cast<double>(MAX_FRAMES_PER_FLOW * mtu),
                     "bytes per flow (at most " + std::to_string(MAX_FRAMES_PER_FLOW) +
                         " frames of --mtu=" + std::to_string(mtu) + " bytes)");
}

void
AddFlags(StrictCommandLine& cmd, Options& o)
{
    cmd.Add("technology", "OCS technology: " + OcsTechnologyCatalog::Names(), o.technology);
    cmd.Add("delay", "reconfiguration delay, e.g. 10us, 25ms (default: the technology's)", o.delay);
    cmd.Add("rate", "NIC port line rate: a number and bps, kbps, Mbps, Gbps or Tbps", o.rate);
    cmd.Add("bytes",
            "bytes per flow (in [1, " + std::to_string(MAX_FRAMES_PER_FLOW) + " x --mtu])",
            o.bytes,
            [&o]() { return BytesRange(o.mtu); });
    cmd.Add("mtu", "frame payload bytes", o.mtu, MTU_RANGE);
    cmd.Add("reconfigAt", "when the controller asks for GPU2 <-> GPU4, e.g. 200us", o.reconfigAt);
    cmd.Add("fiber", "fiber delay between a GPU and the OCS, e.g. 50ns", o.fiber);
    cmd.Add("pcap", "write PCAP traces ocs-circuit-example-<node>-<device>.pcap", o.pcap);
    cmd.Creates({"ns3::Node", "ns3::OcsNetDevice", "ns3::OpticalCircuitSwitch"});
    cmd.Reserve("ns3::RailNetDevice::DataRate", "--rate");
    cmd.Reserve("ns3::OpticalCircuitSwitch::Radix", "--technology (its radix)");
    cmd.Reserve("ns3::RailNetDevice::Mtu", "--mtu");
    cmd.Reserve("ns3::OcsNetDevice::FiberDelay", "--fiber");
    cmd.Reserve("ns3::OpticalCircuitSwitch::ReconfigurationDelay", "--technology and --delay");
}

/// A line rate such as "400Gbps" or "1.6Tbps", within [1 Mb/s, 10 Tb/s].
DataRate
ParseRate(const std::string& text)
{
    static const std::regex format(
        "([0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?)(bps|kbps|Mbps|Gbps|Tbps)");
    static const std::map<std::string, double> scale = {{"bps", 1},
                                                        {"kbps", 1e3},
                                                        {"Mbps", 1e6},
                                                        {"Gbps", 1e9},
                                                        {"Tbps", 1e12}};
    std::smatch match;
    if (!std::regex_match(text, match, format))
    {
        throw std::invalid_argument("--rate: " + StrictCommandLine::Quote(text) +
                                    " is not a line rate (e.g. 400Gbps, 1.6Tbps, 100Mbps)");
    }
    // strtod, not stod: an overflowing number becomes infinity and fails the range check.
    double bps = std::strtod(match[1].str().c_str(), nullptr) * scale.at(match[4].str());
    if (!(bps >= MIN_RATE_BPS && bps <= MAX_RATE_BPS))
    {
        throw std::invalid_argument("--rate: " + StrictCommandLine::Quote(text) +
                                    " is outside [1Mbps, 10Tbps]");
    }
    return DataRate(static_cast<uint64_t>(std::llround(bps)));
}

/// Checks every flag: one line naming the flag and what it expects otherwise.
Setup
Check(const Options& o)
{
    Setup s;
    if (!OcsTechnologyCatalog::Find(o.technology, s.technology))
    {
        throw std::invalid_argument("unknown --technology " +
                                    StrictCommandLine::Quote(o.technology) +
                                    " (valid: " + OcsTechnologyCatalog::Names() + ")");
    }
    s.delayGiven = !o.delay.empty();
    s.delay = s.delayGiven ? StrictCommandLine::ParseTime("delay", o.delay) : Time(0);
    s.rate = ParseRate(o.rate);
    StrictCommandLine::CheckRange("mtu", o.mtu, MTU_RANGE);
    s.mtu = o.mtu;
    StrictCommandLine::CheckRange("bytes", static_cast<double>(o.bytes), BytesRange(o.mtu));
    s.bytes = o.bytes;
    s.reconfigAt = StrictCommandLine::ParseTime("reconfigAt", o.reconfigAt);
    s.fiber = StrictCommandLine::ParseTime("fiber", o.fiber);
    s.pcap = o.pcap;
    return s;
}

/// Runs the example with checked flags. \return the exit status
int
Run(const Setup& setup)
{
    const OcsTechnology& tech = setup.technology;
    const DataRate rate = setup.rate;
    const uint64_t bytes = setup.bytes;
    const uint32_t mtu = setup.mtu;
    const Time reconfigAt = setup.reconfigAt;
    const Time fiber = setup.fiber;

    NodeContainer gpus;
    gpus.Create(6);
    OcsHelper ocsHelper;
    ocsHelper.SetTechnology(tech.name);
    if (setup.delayGiven)
    {
        ocsHelper.SetSwitchAttribute("ReconfigurationDelay", TimeValue(setup.delay));
    }
    ocsHelper.SetDeviceAttribute("DataRate", DataRateValue(rate));
    ocsHelper.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    ocsHelper.SetDeviceAttribute("FiberDelay", TimeValue(fiber));
    ocsHelper.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1000000p"));
    NetDeviceContainer ports = ocsHelper.Install(gpus);
    auto port = [&](uint32_t i) { return DynamicCast<OcsNetDevice>(ports.Get(i)); };
    Ptr<OpticalCircuitSwitch> ocs = port(0)->GetSwitch();
    if (setup.pcap)
    {
        ocsHelper.EnablePcapAll("ocs-circuit-example");
    }

    ocs->TraceConnectWithoutContext("CircuitUp", MakeBoundCallback(&PrintCircuit, "up"));
    ocs->TraceConnectWithoutContext("CircuitDown", MakeBoundCallback(&PrintCircuit, "down"));
    ocs->TraceConnectWithoutContext("ReconfigurationStart",
                                    MakeBoundCallback(&PrintReconfiguration, "starts"));
    ocs->TraceConnectWithoutContext("ReconfigurationEnd",
                                    MakeBoundCallback(&PrintReconfiguration, "ends"));
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        port(i)->SetReceiveCallback(MakeCallback(&CountArrival));
    }

    std::cout << "OCS '" << tech.name << "' (" << tech.example << "), reconfiguration delay "
              << ocs->GetReconfigurationDelay().As(Time::US) << ", " << ports.GetN() << " of "
              << ocs->GetRadix() << " ports used; ports at " << rate.GetBitRate() / 1e9
              << " Gb/s, MTU " << mtu << "\n\n";
    ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}, {2, 3}}));

    g_flows = {{"A", 0, 1, Time(0)}, {"B", 2, 3, Time(0)}, {"C", 2, 4, Time(0)}};
    for (Flow& flow : g_flows)
    {
        flow.fromAddress = port(flow.from)->GetAddress();
        Simulator::Schedule(flow.start,
                            &StartTransfer,
                            port(flow.from),
                            port(flow.to)->GetAddress(),
                            bytes,
                            mtu);
    }
    Simulator::Schedule(reconfigAt, [&]() {
        std::cout << std::setw(12) << Simulator::Now().As(Time::US)
                  << "  controller asks for GPU2 <-> GPU4\n";
        auto result = ocs->Reconfigure({{2, 4}, {4, 2}, {3, OpticalCircuitSwitch::NO_PORT}});
        NS_ABORT_MSG_UNLESS(result.accepted, result.error);
    });
    Simulator::Run();

    // Expected completion: frames leave back to back at line rate from the moment the
    // circuit is up; the last one then crosses both fibers.
    uint64_t frames = (bytes + mtu - 1) / mtu;
    double wireUs = 8.0 * (bytes + frames * HEADER_BYTES) / rate.GetBitRate() * 1e6;
    double fibersUs = 2 * fiber.ToDouble(Time::US);
    // A and B start at 0 (B's frames are queued before C's); C when its circuit is up.
    std::map<std::string, double> expectedUs = {
        {"A", wireUs + fibersUs},
        {"B", wireUs + fibersUs},
        {"C",
         (reconfigAt + ocs->GetReconfigurationDelay()).ToDouble(Time::US) + wireUs + fibersUs}};
    bool reconfiguredAfterB = reconfigAt.ToDouble(Time::US) >= expectedUs["B"];

    // Every column widens to its widest cell: a dark time of 120 s (robotic) or 10^6 frames
    // sent never run into the next column.
    std::cout << "\n";
    TextTable flows;
    flows.AddColumn("flow", TextTable::LEFT, 4);
    flows.AddColumn("circuit", TextTable::LEFT, 9);
    flows.AddColumn("bytes", TextTable::LEFT, 13);
    flows.AddColumn("finished (us)", TextTable::RIGHT, 15);
    flows.AddColumn("expected (us)", TextTable::RIGHT, 15);
    flows.AddColumn("goodput since t=0 (Gb/s)", TextTable::RIGHT, 26);
    for (const Flow& flow : g_flows)
    {
        double seconds = (flow.lastArrival - flow.start).GetSeconds();
        bool expected = flow.name != "B" || reconfiguredAfterB;
        flows.AddRow(
            {flow.name,
             std::to_string(flow.from) + " -> " + std::to_string(flow.to),
             std::to_string(flow.bytesReceived),
             TextTable::Fixed(flow.lastArrival.ToDouble(Time::US), 3),
             expected ? TextTable::Fixed(expectedUs[flow.name], 3) : "(cut)",
             TextTable::Fixed(seconds > 0 ? 8.0 * flow.bytesReceived / seconds / 1e9 : 0.0, 1)});
    }
    flows.Print(std::cout);

    std::cout << "\n";
    TextTable counters;
    counters.AddColumn("port", TextTable::RIGHT, 4);
    counters.AddColumn("sent", TextTable::RIGHT, 7);
    counters.AddColumn("received", TextTable::RIGHT, 11);
    counters.AddColumn("held", TextTable::RIGHT, 6);
    counters.AddColumn("lost-in-flight", TextTable::RIGHT, 16);
    counters.AddColumn("dark (us)", TextTable::RIGHT, 11);
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        const OcsNetDeviceCounters& c = port(i)->GetCounters();
        counters.AddRow({std::to_string(i),
                         std::to_string(c.framesSent),
                         std::to_string(c.framesReceived),
                         std::to_string(c.framesHeld),
                         std::to_string(c.framesLostInFlight),
                         TextTable::Fixed(ocs->GetPortDarkTime(i).ToDouble(Time::US), 3)});
    }
    counters.Print(std::cout);
    std::cout << "\nreconfigurations: " << ocs->GetReconfigurationCount()
              << ", frames lost on the switch: " << ocs->GetFramesLost() << "\n";

    // Flow B loses its circuit if the reconfiguration comes before it finished: its rest
    // stays held (and a frame on the fiber is lost), as it should. A and C must complete.
    bool delivered = g_flows[0].bytesReceived == bytes && g_flows[2].bytesReceived == bytes;
    if (!reconfiguredAfterB)
    {
        std::cout << "flow B was cut by the reconfiguration: " << port(2)->GetHeldFrameCount()
                  << " frames still held for GPU3\n";
    }
    Simulator::Destroy();
    if (!delivered)
    {
        std::cerr << PROGRAM << ": error: flow A or C did not deliver all of its bytes\n";
        return 1;
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    return RunProgram(
        argc,
        argv,
        PROGRAM,
        __FILE__,
        "Six GPUs on one optical rail: circuits, transfers, and a "
        "reconfiguration with blackout.",
        [&o](StrictCommandLine& cmd) { AddFlags(cmd, o); },
        [&o](const StrictCommandLine&) { return Run(Check(o)); });
}

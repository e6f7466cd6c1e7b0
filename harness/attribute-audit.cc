/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-audit.h"

#include "ns3/attribute-default.h"
#include "ns3/eps-switch.h"
#include "ns3/opus-shim.h"
#include "ns3/rail-fabric-helper.h"
#include "ns3/strict-command-line.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <map>
#include <stdexcept>

namespace ns3
{

std::vector<std::string>
AttributeAudit::JobTypes()
{
    // Ours, whatever a change adds to the group; and ns-3's that the fabrics and the job
    // runner make: nodes, port queues, the switches' ECN draws, the event scheduler.
    std::vector<std::string> types = {"ns3::Node",
                                      "ns3::DropTailQueue<Packet>",
                                      "ns3::UniformRandomVariable",
                                      "ns3::PriorityQueueScheduler"};
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() == "PhotonicRails")
        {
            types.push_back(tid.GetName());
        }
    }
    return types;
}

std::string
AttributeAudit::Refusal(const std::string& attribute)
{
    static const std::string anotherRun =
        "another random run is the program's --seed (or --RngRun where it has none)";
    static const std::map<std::string, std::string> refused = {
        {"ns3::RailNetDevice::Address",
         "every port gets its own address when it is made (Mac48Address::Allocate)"},
        {"ns3::RailNetDevice::TxQueue",
         "every port gets its own queue when it is made (the helpers' SetQueue)"},
        {"ns3::RailNetDevice::ReceiveErrorModel",
         "an object, one that every port would share: give a port its own in C++ "
         "(RailNetDevice::SetReceiveErrorModel)"},
        {"ns3::RailTransport::RealMtu",
         "the fabrics size their devices' MTU, and the flow model its frames, for RoCE's "
         "4096-B real frames (RailFabricSpec::REAL_FRAME_BYTES)"},
        {"ns3::DropTailQueue<Packet>::MaxSize",
         "a port's queue holds what its transport gives it, at most "
         "ns3::RailTransport::DeviceQueueFrames frames and their acknowledgements; a "
         "switch's buffer is ns3::EpsSwitch::BufferSize"},
        {"ns3::Application::StartTime",
         "every rank starts at 0, the job's time origin (with --jobs, at its job's start)"},
        {"ns3::Application::StopTime",
         "a rank runs until its workload is done (stopped before, it would leave the job "
         "stuck)"},
        {"ns3::UniformRandomVariable::Min", "the switches draw their ECN marks from [0, 1)"},
        {"ns3::UniformRandomVariable::Max", "the switches draw their ECN marks from [0, 1)"},
        {"ns3::RandomVariableStream::Stream",
         "every run numbers its switches' streams from 0 (RailNetwork::AssignStreams); " +
             anotherRun},
        {"ns3::RandomVariableStream::Antithetic", anotherRun},
        {"ChecksumEnabled", "no model here has a checksum (there is no IP stack)"},
        {"SimulatorImplementationType",
         "the programs run ns-3's default simulator (the real-time one would pace them by "
         "the wall clock; the distributed one needs MPI)"}};
    auto it = refused.find(attribute);
    return it == refused.end() ? "" : it->second;
}

void
AttributeAudit::ForFabricExample(StrictCommandLine& cmd,
                                 bool optical,
                                 const std::vector<std::string>& others)
{
    std::vector<std::string> types = {"ns3::Node",
                                      "ns3::RailFabric",
                                      "ns3::RailEndpoints",
                                      "ns3::RailTransport",
                                      "ns3::EpsNetDevice",
                                      "ns3::EpsChannel",
                                      "ns3::EpsSwitch",
                                      "ns3::EpsRouting",
                                      "ns3::DropTailQueue<Packet>",
                                      "ns3::UniformRandomVariable"}; // each switch's ECN draws
    if (optical)
    {
        types.insert(types.end(), {"ns3::OcsNetDevice", "ns3::OpticalCircuitSwitch"});
    }
    types.insert(types.end(), others.begin(), others.end());
    cmd.Creates(types);
    for (const auto& [attribute, from] : RailFabricHelper::SpecAttributes())
    {
        cmd.Refuse(attribute, "RailFabricHelper sets it from " + from);
    }
    cmd.Refuse("ns3::EpsRouting::DetectionDelay",
               "it acts on link failures, and this example fails nothing");
    cmd.Refuse("ns3::RailTransport::Detour",
               "it acts on failed ports and relayed pairs, and this example has none");
}

void
AttributeAudit::CheckDefaults()
{
    std::vector<EpsSwitch::PfcPort> noPorts;
    std::string error = EpsSwitch::CheckBuffer(EpsSwitch::DefaultSettings(), noPorts);
    if (!error.empty())
    {
        throw std::invalid_argument("ns3::EpsSwitch: " + error);
    }
    error = OpusShim::CheckIgnore(AttributeDefault<StringValue>(OpusShim::GetTypeId(), "Ignore"));
    if (!error.empty())
    {
        throw std::invalid_argument("ns3::OpusShim: " + error);
    }
}

} // namespace ns3

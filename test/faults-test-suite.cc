/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Faults: a NIC or OCS port that dies under a transfer (the rest moves to the surviving
 * port after one retransmission timeout: closed form), a GPU's only rail port that dies (the
 * rest detours through the servers' scale-up domains and another rail), a spine that dies
 * under PFC (routing moves around it; only frames at the dead parts are lost), and a path
 * that stays down (the transfer waits without timers and is reported).
 */

#include "eps-test-bed.h"
#include "rail-transport-test-bed.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::tests;

namespace
{
/// Time of one 4096-byte frame with its 62 bytes of headers at 100 Gb/s, ns.
constexpr double FRAME_NS = 4158 * 8 / 100.0;
/// Frames per cumulative ACK (RailTransport's AckInterval default).
constexpr uint32_t ACK_INTERVAL = 16;

/// A fabric of 100G NIC ports built by the fabric helper (default: one GPU per server).
Ptr<RailFabric>
TwoGpuFabric(RailKind kind,
             uint32_t servers,
             uint32_t nicPorts,
             uint32_t radix = 64,
             uint32_t gpusPerServer = 1)
{
    RailFabricSpec spec;
    spec.servers = servers;
    spec.gpusPerServer = gpusPerServer;
    spec.nicPorts = nicPorts;
    spec.nicPortBps = 100000000000;
    spec.kind = kind;
    spec.switchRadix = radix;
    RailFabricHelper helper;
    helper.SetSpec(spec);
    return helper.Build();
}

/// \return a fault schedule of the inline faults \p text
FaultSchedule
Faults(const std::string& text)
{
    return FaultSchedule::Read("", text);
}

/// What the receiver saw of one message.
struct Arrival
{
    uint32_t deliveries{0}; //!< Times it was delivered
    Time at;                //!< When, the last time
};

/// Sends \p bytes from GPU \p from to GPU \p to of \p fabric under the inline \p faults, and
/// runs the simulation. \return what GPU \p to saw
Arrival
SendUnderFaults(Ptr<RailFabric> fabric,
                const std::string& faults,
                uint32_t from,
                uint32_t to,
                uint64_t bytes)
{
    FaultInjector injector(fabric, Faults(faults));
    injector.Schedule();
    Arrival arrival;
    fabric->GetTransport(to)->SetReceiveCallback(
        Callback<void, uint32_t, uint64_t, uint64_t>([&arrival](uint32_t, uint64_t, uint64_t) {
            ++arrival.deliveries;
            arrival.at = Simulator::Now();
        }));
    fabric->GetTransport(from)->Send(to, bytes);
    Simulator::Run();
    return arrival;
}
} // namespace

/**
 * Two circuits join GPU0 and GPU1; a 8 MiB message is striped 4 MiB per port. GPU0's port 1
 * (its OCS port) dies at 100 us. Port 1 had 300 frames through the switch by then (frame i
 * leaves at i x 332.64 ns and passes the switch 50 ns of fiber later); the receiver's last
 * ACK (after 288 frames) reached GPU0 at 288 x 332.64 + 100 + 4.96 + 100 ns. The QP's
 * deadline is that ACK + RetransmitTimeout + one ACK interval of frames; then the 724 frames
 * the receiver lacks move to port 0, idle since its own half ended (340.6 us), and arrive
 * 724 frame times plus two fibers later.
 */
class OcsPortDiesTestCase : public TestCase
{
  public:
    OcsPortDiesTestCase()
        : TestCase("an OCS port dies mid-transfer: the rest goes over the other port after one "
                   "RTO (closed form)")
    {
    }

  private:
    void DoRun() override
    {
        OpticalTransportBed bed(2, 2, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(bed.Circuits(0, 1, 2));
        const uint64_t bytes = 8 << 20;
        bed.transports[0]->Send(1, bytes);
        Simulator::Schedule(MicroSeconds(100),
                            [&]() { bed.ocs->SetPortFailed(bed.Port(0, 1), true); });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "delivered once");
        const double rtoNs = 1e6;
        double lastAckNs = 288 * FRAME_NS + 100 + 4.96 + 100;
        double moveNs = lastAckNs + rtoNs + ACK_INTERVAL * FRAME_NS;
        double expectedNs = moveNs + (1024 - 300) * FRAME_NS + 100;
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.deliveries[1][0].at.GetNanoSeconds(),
                                  expectedNs,
                                  2.0,
                                  "closed form plus one RTO");
        const auto& sender = bed.transports[0]->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(sender.partsMoved, 1, "port 1's part moved");
        NS_TEST_ASSERT_MSG_EQ(sender.bytesMoved, (1024 - 300) * 4096, "the frames not received");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[1]->GetCounters().payloadBytesDelivered,
                              bytes,
                              "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[0]->GetPendingMessageCount(), 0, "acknowledged");
    }
};

/**
 * The same on an electrical rail, through the fault injector: GPU0's NIC port 1 cable is
 * cut at 100 us. Switch latency and the last ACK's exact time are not in the closed form
 * (t_fail + RTO + ACK interval + the frames port 1 had not sent, at line rate): within 1%.
 */
class NicPortDiesTestCase : public TestCase
{
  public:
    NicPortDiesTestCase()
        : TestCase("a NIC port's cable is cut mid-transfer: the rest goes over the other port "
                   "(within 1% of the closed form)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RailFabric> fabric = TwoGpuFabric(RailKind::EPS, 2, 2);
        FaultInjector faults(fabric, Faults("nic:gpu0.port1@100us"));
        faults.Schedule();
        const uint64_t bytes = 8 << 20;
        Time delivered;
        fabric->GetTransport(1)->SetReceiveCallback(Callback<void, uint32_t, uint64_t, uint64_t>(
            [&](uint32_t, uint64_t, uint64_t) { delivered = Simulator::Now(); }));
        fabric->GetTransport(0)->Send(1, bytes);
        Simulator::Run();

        double sentByFailure = std::floor(100e3 / FRAME_NS);
        double expectedNs =
            100e3 + 1e6 + ACK_INTERVAL * FRAME_NS + (1024 - sentByFailure) * FRAME_NS;
        NS_TEST_ASSERT_MSG_EQ_TOL(delivered.GetNanoSeconds(), expectedNs, expectedNs * 0.01, "");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(0)->GetCounters().partsMoved, 1, "");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(1)->GetCounters().payloadBytesDelivered,
                              bytes,
                              "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(faults.GetEvents().size(), 1, "one event: down");
        Simulator::Destroy();
    }
};

/**
 * Two servers of two GPUs, one 100G NIC port per GPU, electrical rails, 800G scale-up: GPU 0
 * sends 8 MiB to GPU 2 on rail 0, and GPU 0's only rail port is cut at 100 us. One RTO and
 * one ACK interval after the failure the frames GPU 2 lacks leave as one detour message
 * along the shortest working path: GPU 1 (scale-up), rail 1 to GPU 3, GPU 3 to GPU 2
 * (scale-up). Rail 1 at 100G is the slowest hop and each proxy forwards frame by frame, so
 * they arrive at the line rate: t_fail + RTO + ACK interval + the frames not sent by the
 * failure, within 1% (the proxies' store-and-forward and switch latencies are left out).
 */
class DeadRailDetourTestCase : public TestCase
{
  public:
    DeadRailDetourTestCase()
        : TestCase("a GPU's rail dies mid-transfer: the rest detours through the scale-up "
                   "domains and another rail (within 1% of the closed form)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RailFabric> fabric = TwoGpuFabric(RailKind::EPS, 2, 1, 64, 2);
        const uint64_t bytes = 8 << 20;
        Arrival arrival = SendUnderFaults(fabric, "nic:gpu0.port0@100us", 0, 2, bytes);

        NS_TEST_ASSERT_MSG_EQ(arrival.deliveries, 1, "delivered once");
        double sentByFailure = std::floor(100e3 / FRAME_NS);
        double expectedNs =
            100e3 + 1e6 + ACK_INTERVAL * FRAME_NS + (2048 - sentByFailure) * FRAME_NS;
        NS_TEST_ASSERT_MSG_EQ_TOL(arrival.at.GetNanoSeconds(), expectedNs, expectedNs * 0.01, "");
        const auto& sender = fabric->GetTransport(0)->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(sender.detours, 1, "one detour");
        NS_TEST_ASSERT_MSG_EQ(sender.bytesDetoured,
                              (2048 - sentByFailure) * 4096,
                              "the frames GPU 2 lacked");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(1)->GetCounters().messagesForwarded, 1, "");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(3)->GetCounters().messagesForwarded, 1, "");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(2)->GetCounters().payloadBytesDelivered,
                              bytes,
                              "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(0)->GetPendingMessageCount(), 0, "acked");
        Simulator::Destroy();
    }
};

/**
 * Two servers of three GPUs (one 100G NIC port each, electrical rails): GPU 0 sends 8 MiB to
 * GPU 3 on rail 0 and its rail port is cut at 100 us, so the 1748 frames GPU 3 lacks detour
 * from t1 = 100 us + RTO + ACK interval, through GPU 2, rail 2 and GPU 5 (of the two equal
 * paths, the one at (0 + 3) mod 2). At t2 = 1.5 ms GPU 5's rail port dies too: GPU 2's
 * share for GPU 5 has arrived in full over the scale-up link, so one RTO and one ACK interval
 * later the frames GPU 5 lacks go to GPU 5 another way (GPU 1, rail 1, GPU 4), and GPU 5
 * forwards them to GPU 3 as before. Delivered once at t2 + RTO + ACK interval + the frames
 * not through rail 2 by t2, at line rate, within 1%.
 */
class DetourFailsTestCase : public TestCase
{
  public:
    DetourFailsTestCase()
        : TestCase("a detour whose own path fails goes on another way (within 1% of the closed "
                   "form)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RailFabric> fabric = TwoGpuFabric(RailKind::EPS, 2, 1, 64, 3);
        const uint64_t bytes = 8 << 20;
        Arrival arrival =
            SendUnderFaults(fabric, "nic:gpu0.port0@100us,nic:gpu5.port0@1.5ms", 0, 3, bytes);

        NS_TEST_ASSERT_MSG_EQ(arrival.deliveries, 1, "delivered once");
        const double t1 = 100e3 + 1e6 + ACK_INTERVAL * FRAME_NS;
        const double t2 = 1.5e6;
        double throughRail2 = std::floor((t2 - t1) / FRAME_NS);
        double expectedNs = t2 + 1e6 + ACK_INTERVAL * FRAME_NS + (1748 - throughRail2) * FRAME_NS;
        NS_TEST_ASSERT_MSG_EQ_TOL(arrival.at.GetNanoSeconds(), expectedNs, expectedNs * 0.01, "");
        NS_TEST_ASSERT_MSG_GT(fabric->GetTransport(2)->GetCounters().detours, 0, "GPU 2 goes on");
        NS_TEST_ASSERT_MSG_GT(fabric->GetTransport(4)->GetCounters().messagesForwarded, 0, "");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(3)->GetCounters().payloadBytesDelivered,
                              bytes,
                              "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(0)->GetPendingMessageCount(), 0, "acked");
        Simulator::Destroy();
    }
};

/**
 * Four GPUs on two leaves send to four on the other two leaves through two spines; spine 0
 * dies at 50 us and routing moves around it 20 us later. Under PFC no frame is dropped for
 * want of buffer or route; the only frames lost are those at the dead spine, its cables and
 * the queues towards it, up to the rerouting; every byte arrives.
 */
class SpineDiesTestCase : public TestCase
{
  public:
    SpineDiesTestCase()
        : TestCase("a spine dies under PFC: flows move to the other spine after the detection "
                   "delay; only frames at dead parts are lost")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RailFabric> fabric = TwoGpuFabric(RailKind::EPS_CLOS, 8, 1, 4);
        const ClosPlan& plan = fabric->GetClosPlan();
        NS_TEST_ASSERT_MSG_EQ(plan.spines, 2, "two spines");
        NS_TEST_ASSERT_MSG_EQ(plan.leaves, 4, "four leaves");
        fabric->GetRailRouting(0)->SetAttribute("DetectionDelay", TimeValue(MicroSeconds(20)));
        FaultInjector faults(fabric, Faults("switch:rail0.spine0@50us"));
        faults.Schedule();
        const auto& switches = fabric->GetRailSwitches(0);
        Time lastLoss;
        for (const auto& sw : switches)
        {
            sw->TraceConnectWithoutContext(
                "Drop",
                Sink<Ptr<const Packet>, uint32_t, EpsSwitch::DropReason>(
                    [&](Ptr<const Packet>, uint32_t, EpsSwitch::DropReason) {
                        lastLoss = Simulator::Now();
                    }));
        }
        const uint64_t bytes = 4 << 20;
        uint32_t messages = 0;
        for (uint32_t gpu = 4; gpu < 8; ++gpu)
        {
            fabric->GetTransport(gpu)->SetReceiveCallback(
                Callback<void, uint32_t, uint64_t, uint64_t>(
                    [&](uint32_t, uint64_t, uint64_t) { ++messages; }));
        }
        for (uint32_t gpu = 0; gpu < 4; ++gpu)
        {
            fabric->GetTransport(gpu)->Send(gpu + 4, bytes);
        }
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(messages, 4, "every message arrives");
        uint64_t delivered = 0;
        for (uint32_t gpu = 4; gpu < 8; ++gpu)
        {
            delivered += fabric->GetTransport(gpu)->GetCounters().payloadBytesDelivered;
        }
        NS_TEST_ASSERT_MSG_EQ(delivered, 4 * bytes, "bytes delivered = bytes sent");
        uint64_t lost = 0;
        for (const auto& sw : switches)
        {
            const EpsSwitchCounters& c = sw->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(c.framesDroppedBufferFull, 0, "PFC: no buffer drop");
            NS_TEST_ASSERT_MSG_EQ(c.framesDroppedNoRoute, 0, "always a route");
            lost += c.framesDroppedLinkDown;
        }
        NS_TEST_ASSERT_MSG_GT(lost, 0, "frames were on their way through spine 0");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(lastLoss, MicroSeconds(70), "no loss after rerouting");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetRailRouting(0)->GetRecomputations(), 1, "");
        NS_TEST_ASSERT_MSG_EQ(switches[plan.leaves]->GetBufferUsed(), 0, "the dead spine is empty");
        Simulator::Destroy();
    }
};

/**
 * GPU0's only NIC port dies for good: its transfer waits without timers (the simulation
 * ends), the port is named, and nothing is delivered twice once a repair comes.
 */
class PathStaysDownTestCase : public TestCase
{
  public:
    PathStaysDownTestCase()
        : TestCase("a transfer whose only path is down waits, is reported, and resumes on repair")
    {
    }

  private:
    void DoRun() override
    {
        {
            Ptr<RailFabric> fabric = TwoGpuFabric(RailKind::EPS, 2, 1);
            FaultInjector faults(fabric, Faults("nic:gpu1.port0@20us"));
            faults.Schedule();
            fabric->GetTransport(0)->Send(1, 4 << 20);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(0)->GetPendingMessageCount(), 1, "waits");
            auto lines = fabric->GetTransport(0)->DescribeWaiting();
            NS_TEST_ASSERT_MSG_EQ(lines.size(), 1, "");
            NS_TEST_ASSERT_MSG_EQ(lines[0],
                                  "GPU 0 -> GPU 1: 1 transfer (4194304 B) wait: port gpu1.port0 "
                                  "down; no working path around them",
                                  "");
            Simulator::Destroy();
        }
        Ptr<RailFabric> fabric = TwoGpuFabric(RailKind::EPS, 2, 1);
        FaultInjector faults(fabric, Faults("nic:gpu1.port0@20us-3ms"));
        faults.Schedule();
        fabric->GetTransport(0)->Send(1, 4 << 20);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(0)->GetPendingMessageCount(), 0, "done");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetTransport(1)->GetCounters().payloadBytesDelivered,
                              4 << 20,
                              "once");
        NS_TEST_ASSERT_MSG_GT(Simulator::Now(), MilliSeconds(3), "after the repair");
        Simulator::Destroy();
    }
};

/**
 * Recomputed over a fabric with every link up, the shortest-path routes are the builder's
 * (so rerouting changes only what a failure changes). With leaf 0's cable to spine 0 cut,
 * leaf 0 reaches the other leaves over spine 1 only, and the other leaves reach leaf 0 over
 * spine 1 only but each other over both.
 */
class RoutingRecomputeTestCase : public TestCase
{
  public:
    RoutingRecomputeTestCase()
        : TestCase("recomputed routes equal the builder's; a cut cable leaves every route")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RailFabric> fabric = TwoGpuFabric(RailKind::EPS_CLOS, 8, 1, 4);
        const auto& switches = fabric->GetRailSwitches(0);
        std::vector<Mac48Address> nics;
        for (uint32_t gpu = 0; gpu < 8; ++gpu)
        {
            nics.push_back(Mac48Address::ConvertFrom(fabric->GetNicPorts(gpu)[0]->GetAddress()));
        }
        auto snapshot = [&]() {
            std::vector<std::vector<uint32_t>> routes;
            for (const auto& sw : switches)
            {
                for (const auto& mac : nics)
                {
                    routes.push_back(sw->GetRoute(mac));
                }
            }
            return routes;
        };
        auto built = snapshot();
        fabric->GetRailRouting(0)->Recompute();
        NS_TEST_ASSERT_MSG_EQ((snapshot() == built), true, "the builder's routes");

        // Leaf 0 (NICs 0, 1; uplinks on ports 2, 3 to spines 0, 1) loses its spine-0 cable.
        Ptr<EpsSwitch> leaf0 = switches[0];
        leaf0->GetPortDevice(2)->GetEpsChannel()->SetLinkUp(false);
        fabric->GetRailRouting(0)->Recompute();
        NS_TEST_ASSERT_MSG_EQ((leaf0->GetRoute(nics[4]) == std::vector<uint32_t>{3}), true, "");
        Ptr<EpsSwitch> leaf2 = switches[2];
        NS_TEST_ASSERT_MSG_EQ(leaf2->GetRoute(nics[0]).size(), 1, "only via spine 1");
        NS_TEST_ASSERT_MSG_EQ(leaf2->GetRoute(nics[6]).size(), 2, "others keep both spines");
        Simulator::Destroy();
    }
};

/// The fault test suite.
class FaultsTestSuite : public TestSuite
{
  public:
    FaultsTestSuite()
        : TestSuite("photonic-rails-faults", SYSTEM)
    {
        AddTestCase(new OcsPortDiesTestCase, TestCase::QUICK);
        AddTestCase(new NicPortDiesTestCase, TestCase::QUICK);
        AddTestCase(new DeadRailDetourTestCase, TestCase::QUICK);
        AddTestCase(new DetourFailsTestCase, TestCase::QUICK);
        AddTestCase(new SpineDiesTestCase, TestCase::QUICK);
        AddTestCase(new PathStaysDownTestCase, TestCase::QUICK);
        AddTestCase(new RoutingRecomputeTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
static FaultsTestSuite g_faultsTestSuite;

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Frames over fixed circuits: timing to the nanosecond, line rate, link state, counters.
 * Expected values are computed by hand in each test from size * 8 / rate + fiber delays.
 */

#include "ocs-test-bed.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::tests;

namespace
{
constexpr uint32_t ETHERNET_HEADER = 14;
} // namespace

/// One frame of S bytes arrives at exactly S*8/rate plus both fibers.
class OcsFrameTimingTestCase : public TestCase
{
  public:
    OcsFrameTimingTestCase()
        : TestCase("a frame arrives after its serialization time plus both fiber delays")
    {
    }

  private:
    void DoRun() override
    {
        OcsTestBed bed(2, DataRate("10Gbps"), NanoSeconds(100), MicroSeconds(1));
        bed.Device(1)->SetAttribute("FiberDelay", TimeValue(NanoSeconds(250)));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        // 986 + 14 = 1000 bytes = 8000 bits at 10 Gb/s = 800 ns; fibers 100 + 250 ns.
        bed.Send(0, 1, 1000 - ETHERNET_HEADER, MicroSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 1, "one frame expected");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].at, NanoSeconds(1000 + 800 + 100 + 250), "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].payload, 986, "payload size preserved");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].from, bed.Device(0)->GetAddress(), "sender");
    }
};

/// Back-to-back frames leave at line rate, also when a frame is not a whole number of ns.
class OcsLineRateTestCase : public TestCase
{
  public:
    OcsLineRateTestCase()
        : TestCase("back-to-back frames reach line rate (exact on average)")
    {
    }

  private:
    void Check(DataRate rate, uint32_t frameBytes, double exactFrameNs)
    {
        const uint32_t frames = 1000;
        OcsTestBed bed(2, rate, NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        bed.Send(0, 1, frameBytes - ETHERNET_HEADER, Time(0), frames);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), frames, "every frame delivered");
        // The last bit of frame k leaves at k * frame time; both fibers add 50 ns each.
        Time expectedLast = NanoSeconds(static_cast<int64_t>(frames * exactFrameNs + 100));
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].back().at, expectedLast, "last arrival");
        double bits = 8.0 * frameBytes * frames;
        double seconds = (bed.arrivals[1].back().at - NanoSeconds(100)).GetSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(bits / seconds,
                                  rate.GetBitRate(),
                                  rate.GetBitRate() * 1e-9,
                                  "throughput equals the line rate");
    }

    void DoRun() override
    {
        Check(DataRate("100Gbps"), 1250, 100.0); // 10000 bits / 100 Gb/s = 100 ns
        Check(DataRate("400Gbps"), 4110, 82.2);  // 32880 bits / 400 Gb/s = 82.2 ns
    }
};

/// The link is up exactly while the port's circuit is up; callbacks fire on each change.
class OcsLinkStateTestCase : public TestCase
{
  public:
    OcsLinkStateTestCase()
        : TestCase("link state and link-change callbacks follow the circuit")
    {
    }

  private:
    void DoRun() override
    {
        OcsTestBed bed(3, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(10));
        std::vector<std::pair<Time, bool>> changes;
        Ptr<OcsNetDevice> device = bed.Device(0);
        device->AddLinkChangeCallback(
            Callback<void>([&]() { changes.emplace_back(Simulator::Now(), device->IsLinkUp()); }));
        NS_TEST_ASSERT_MSG_EQ(device->IsLinkUp(), false, "no circuit yet");
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        NS_TEST_ASSERT_MSG_EQ(device->IsLinkUp(), true, "preset circuit is up at once");
        NS_TEST_ASSERT_MSG_EQ(device->IsConnectedTo(bed.Device(1)->GetAddress()), true, "");
        NS_TEST_ASSERT_MSG_EQ(device->IsConnectedTo(bed.Device(2)->GetAddress()), false, "");
        Simulator::Schedule(MicroSeconds(3), [&]() {
            // 0 <-> 2 frees output 0 by disconnecting 1 -> 0.
            bed.ocs->Reconfigure({{0, 2}, {2, 0}, {1, OpticalCircuitSwitch::NO_PORT}});
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(changes.size(), 3, "up, down, up");
        if (changes.size() != 3)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(changes[0].second, true, "preset");
        NS_TEST_ASSERT_MSG_EQ(changes[1].first, MicroSeconds(3), "down when reconfiguring");
        NS_TEST_ASSERT_MSG_EQ(changes[1].second, false, "");
        NS_TEST_ASSERT_MSG_EQ(changes[2].first, MicroSeconds(13), "up after the 10 us delay");
        NS_TEST_ASSERT_MSG_EQ(changes[2].second, true, "");
        NS_TEST_ASSERT_MSG_EQ(device->IsConnectedTo(bed.Device(2)->GetAddress()), true, "");
    }
};

/// Counters add up: bytes received equal bytes sent; a queue overflow is counted.
class OcsCountersTestCase : public TestCase
{
  public:
    OcsCountersTestCase()
        : TestCase("counters: bytes delivered equal bytes sent; queue overflow counted")
    {
    }

  private:
    void DoRun() override
    {
        OcsTestBed bed(2, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.Device(0)->GetQueue()->SetMaxSize(QueueSize("10p"));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        // 25 frames at once: the first leaves at once, 10 wait, 14 overflow.
        bed.Send(0, 1, 500, Time(0), 25);
        bed.Send(1, 0, 700, Time(0), 3);
        Simulator::Run();
        const auto& a = bed.Device(0)->GetCounters();
        const auto& b = bed.Device(1)->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(a.framesSent, 11, "1 on the wire + 10 queued");
        NS_TEST_ASSERT_MSG_EQ(a.framesDroppedQueueFull, 14, "25 - 11");
        NS_TEST_ASSERT_MSG_EQ(a.bytesSent, 11 * 514, "with the 14-byte header");
        NS_TEST_ASSERT_MSG_EQ(b.bytesReceived, a.bytesSent, "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(a.bytesReceived, b.bytesSent, "and the other way");
        NS_TEST_ASSERT_MSG_EQ(b.framesReceived, 11, "");
        NS_TEST_ASSERT_MSG_EQ(a.framesReceived, 3, "");
    }
};

/// A sender that refills the queue from its Dequeue trace keeps its frames in order.
class OcsRefillOrderTestCase : public TestCase
{
  public:
    OcsRefillOrderTestCase()
        : TestCase("frames sent from a Dequeue trace sink keep their order")
    {
    }

  private:
    void DoRun() override
    {
        OcsTestBed bed(2, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        Ptr<OcsNetDevice> sender = bed.Device(0);
        uint32_t sent = 0;
        auto sendNext = [&]() {
            // Payload sizes number the frames: 100, 101, 102, ...
            sender->Send(Create<Packet>(100 + sent++), bed.Device(1)->GetAddress(), 0x88b5);
        };
        sender->GetQueue()->TraceConnectWithoutContext(
            "Dequeue",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) {
                if (sent < 50)
                {
                    sendNext();
                }
            }));
        Simulator::Schedule(Time(0), [&]() {
            sendNext();
            sendNext();
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 50, "");
        for (uint32_t k = 0; k < bed.arrivals[1].size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][k].payload, 100 + k, "frame " << k);
        }
    }
};

/// A switch attribute set on the helper wins over its technology preset, whichever is set
/// first; what the attribute does not name (the radix) stays the technology's.
class OcsHelperAttributeOverTechnologyTestCase : public TestCase
{
  public:
    OcsHelperAttributeOverTechnologyTestCase()
        : TestCase("OcsHelper: an explicit switch attribute wins over the technology")
    {
    }

  private:
    void DoRun() override
    {
        for (bool technologyFirst : {true, false})
        {
            OcsHelper helper;
            if (technologyFirst)
            {
                helper.SetTechnology("piezo");
            }
            helper.SetSwitchAttribute("ReconfigurationDelay", TimeValue(MicroSeconds(100)));
            if (!technologyFirst)
            {
                helper.SetTechnology("piezo");
            }
            NodeContainer nodes;
            nodes.Create(2);
            NetDeviceContainer ports = helper.Install(nodes);
            Ptr<OpticalCircuitSwitch> ocs = DynamicCast<OcsNetDevice>(ports.Get(0))->GetSwitch();
            NS_TEST_EXPECT_MSG_EQ(ocs->GetReconfigurationDelay(),
                                  MicroSeconds(100),
                                  "explicit delay, not piezo's 25 ms");
            NS_TEST_EXPECT_MSG_EQ(ocs->GetRadix(),
                                  OcsTechnologyCatalog::Get("piezo").radix,
                                  "the technology's radix");
            Simulator::Destroy();
        }
    }
};

/// The OCS circuit suite.
class OcsCircuitTestSuite : public TestSuite
{
  public:
    OcsCircuitTestSuite()
        : TestSuite("photonic-rails-ocs-circuit", UNIT)
    {
        AddTestCase(new OcsFrameTimingTestCase, TestCase::QUICK);
        AddTestCase(new OcsLineRateTestCase, TestCase::QUICK);
        AddTestCase(new OcsLinkStateTestCase, TestCase::QUICK);
        AddTestCase(new OcsCountersTestCase, TestCase::QUICK);
        AddTestCase(new OcsRefillOrderTestCase, TestCase::QUICK);
        AddTestCase(new OcsHelperAttributeOverTechnologyTestCase, TestCase::QUICK);
    }
};

static OcsCircuitTestSuite g_ocsCircuitTestSuite; //!< Static instance

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reconfiguration: blackout only on changed ports, exact dark time, held and dropped
 * frames, frames lost in flight, invalid requests, and arrival-order queueing.
 * Expected times are computed by hand in each test.
 */

#include "ocs-test-bed.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::tests;

namespace
{
constexpr uint32_t NO = OpticalCircuitSwitch::NO_PORT;
} // namespace

/// Port 2 moves from host 3 to host 4 while 0 <-> 1 streams through the blackout.
class OcsBlackoutTestCase : public TestCase
{
  public:
    OcsBlackoutTestCase()
        : TestCase("only changed ports go dark, for exactly the delay; held frames follow")
    {
    }

  private:
    void DoRun() override
    {
        // 100 Gb/s, 1250-byte frames: 100 ns each; fibers 50 ns; delay 10 us.
        OcsTestBed bed(5, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(10));
        bed.ocs->Preset({{0, 1}, {1, 0}, {2, 3}, {3, 2}});
        std::vector<OcsReconfiguration> starts;
        std::vector<std::tuple<Time, uint32_t, uint32_t>> downs;
        std::vector<std::tuple<Time, uint32_t, uint32_t>> ups;
        bed.ocs->TraceConnectWithoutContext(
            "ReconfigurationStart",
            Callback<void, const OcsReconfiguration&>(
                [&](const OcsReconfiguration& r) { starts.push_back(r); }));
        bed.ocs->TraceConnectWithoutContext(
            "CircuitDown",
            Callback<void, uint32_t, uint32_t>(
                [&](uint32_t i, uint32_t o) { downs.emplace_back(Simulator::Now(), i, o); }));
        bed.ocs->TraceConnectWithoutContext(
            "CircuitUp",
            Callback<void, uint32_t, uint32_t>(
                [&](uint32_t i, uint32_t o) { ups.emplace_back(Simulator::Now(), i, o); }));

        bed.Send(0, 1, 1236, Time(0), 200); // 0..20 us, across the blackout
        Simulator::Schedule(MicroSeconds(5), [&]() {
            auto result = bed.ocs->Reconfigure({{2, 4}, {4, 2}, {3, NO}});
            NS_TEST_EXPECT_MSG_EQ(result.accepted, true, result.error);
        });
        bed.Send(2, 4, 1236, MicroSeconds(6), 10); // held until 15 us
        Simulator::Run();

        // The unchanged circuit delivered every frame exactly on time.
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 200, "");
        for (uint32_t k = 0; k < 200; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][k].at, NanoSeconds(100 * (k + 1) + 100), k);
        }
        // Changed ports {2, 3, 4} were dark for exactly 10 us; 0 and 1 never.
        NS_TEST_ASSERT_MSG_EQ(starts.size(), 1, "");
        NS_TEST_ASSERT_MSG_EQ(downs.size(), 2, "");
        NS_TEST_ASSERT_MSG_EQ(ups.size(), 2, "2 -> 4 and 4 -> 2 (traces connected after preset)");
        if (downs.size() != 2 || ups.size() != 2 || starts.size() != 1)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(starts[0].darkPorts.size(), 3, "");
        NS_TEST_ASSERT_MSG_EQ(starts[0].startedAt, MicroSeconds(5), "");
        for (uint32_t port : {2, 3, 4})
        {
            NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPortDarkTime(port), MicroSeconds(10), port);
        }
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPortDarkTime(0), Time(0), "");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPortDarkTime(1), Time(0), "");
        // Circuits 2->3 and 3->2 went down at 5 us; 2->4 and 4->2 came up at 15 us.
        NS_TEST_ASSERT_MSG_EQ(std::get<0>(downs[0]), MicroSeconds(5), "");
        NS_TEST_ASSERT_MSG_EQ(std::get<0>(ups[0]), MicroSeconds(15), "");
        NS_TEST_ASSERT_MSG_EQ(std::get<1>(ups[0]), 2, "");
        NS_TEST_ASSERT_MSG_EQ(std::get<2>(ups[0]), 4, "");
        // The 10 held frames left back to back when the circuit came up at 15 us.
        NS_TEST_ASSERT_MSG_EQ(bed.Device(2)->GetCounters().framesHeld, 10, "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[4].size(), 10, "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[4].front().at, NanoSeconds(15000 + 100 + 100), "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[4].back().at, NanoSeconds(15000 + 1000 + 100), "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[3].size(), 0, "nothing reached the old peer");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetReconfigurationCount(), 1, "");
    }
};

/// A frame to a host with no circuit is held until one comes up, or dropped by policy.
class OcsNoCircuitPolicyTestCase : public TestCase
{
  public:
    OcsNoCircuitPolicyTestCase()
        : TestCase("a frame with no circuit to its peer is held or dropped per policy")
    {
    }

  private:
    void Run(bool drop,
             std::vector<OcsTestBed::Arrival>& arrivals,
             OcsNetDeviceCounters& c,
             uint32_t& macTxDrops)
    {
        OcsTestBed bed(3, DataRate("10Gbps"), NanoSeconds(100), MicroSeconds(1));
        if (drop)
        {
            bed.Device(0)->SetAttribute("NoCircuitPolicy", EnumValue(OcsNetDevice::DROP));
        }
        bed.Device(0)->TraceConnectWithoutContext(
            "MacTxDrop",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) { ++macTxDrops; }));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        bed.Send(0, 2, 986, Time(0));         // no circuit to host 2 yet
        bed.Send(0, 1, 986, NanoSeconds(10)); // must not wait behind it
        Simulator::Schedule(MicroSeconds(1), [&]() {
            bed.ocs->Reconfigure({{0, 2}, {2, 0}, {1, NO}});
        });
        Simulator::Run();
        arrivals = bed.arrivals[2];
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 1, "the frame to host 1 went through");
        // Sent at 10 ns: 1000 bytes at 10 Gb/s = 800 ns, fibers 200 ns.
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].at, NanoSeconds(10 + 800 + 200), "");
        c = bed.Device(0)->GetCounters();
    }

    void DoRun() override
    {
        std::vector<OcsTestBed::Arrival> arrivals;
        OcsNetDeviceCounters counters;
        uint32_t drops = 0;
        Run(false, arrivals, counters, drops);
        NS_TEST_ASSERT_MSG_EQ(counters.framesHeld, 1, "held");
        NS_TEST_ASSERT_MSG_EQ(drops, 0, "");
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), 1, "delivered once the circuit came up");
        if (arrivals.size() != 1)
        {
            return;
        }
        // Circuit up at 1 + 1 = 2 us, then 800 ns + 200 ns.
        NS_TEST_ASSERT_MSG_EQ(arrivals[0].at, NanoSeconds(2000 + 800 + 200), "");

        drops = 0;
        Run(true, arrivals, counters, drops);
        NS_TEST_ASSERT_MSG_EQ(counters.framesDroppedNoCircuit, 1, "dropped");
        NS_TEST_ASSERT_MSG_EQ(counters.framesHeld, 0, "");
        NS_TEST_ASSERT_MSG_EQ(drops, 1, "MacTxDrop fired");
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), 0, "never delivered");
    }
};

/// A frame whose bits have not all passed the switch when its circuit is torn down is lost.
class OcsInFlightLossTestCase : public TestCase
{
  public:
    OcsInFlightLossTestCase()
        : TestCase("frames on a torn-down circuit are lost and reported")
    {
    }

  private:
    /// Sends one 1000-byte frame at 0 and tears the circuit down at \p cut.
    void Check(Time cut, bool lost)
    {
        // 10 Gb/s: 800 ns on the wire; fibers 1 us: the last bit passes the switch at 1.8 us.
        OcsTestBed bed(2, DataRate("10Gbps"), MicroSeconds(1), MicroSeconds(1));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        uint32_t lostTraces = 0;
        uint32_t phyTxDrops = 0;
        bed.ocs->TraceConnectWithoutContext(
            "FrameLost",
            Callback<void, Ptr<const Packet>, uint32_t, uint32_t>(
                [&](Ptr<const Packet>, uint32_t, uint32_t) { ++lostTraces; }));
        bed.Device(0)->TraceConnectWithoutContext(
            "PhyTxDrop",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) { ++phyTxDrops; }));
        bed.Send(0, 1, 986, Time(0));
        Simulator::Schedule(cut, [&]() { bed.ocs->Reconfigure({{0, NO}, {1, NO}}); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), lost ? 0 : 1, cut);
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetFramesLost(), lost ? 1 : 0, cut);
        NS_TEST_ASSERT_MSG_EQ(lostTraces, lost ? 1 : 0, cut);
        NS_TEST_ASSERT_MSG_EQ(phyTxDrops, lost ? 1 : 0, cut);
        NS_TEST_ASSERT_MSG_EQ(bed.Device(0)->GetCounters().framesLostInFlight, lost ? 1 : 0, cut);
        if (!lost)
        {
            NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].at, NanoSeconds(800 + 2000), "");
        }
    }

    void DoRun() override
    {
        Check(NanoSeconds(500), true);   // first bit not even at the switch
        Check(NanoSeconds(1500), true);  // mid-frame
        Check(NanoSeconds(1800), false); // last bit just through: on the far fiber, safe
        Check(NanoSeconds(2500), false);
    }
};

/// Invalid requests are rejected with a reason and change nothing.
class OcsInvalidRequestTestCase : public TestCase
{
  public:
    OcsInvalidRequestTestCase()
        : TestCase("invalid configurations are rejected and change nothing")
    {
    }

  private:
    void DoRun() override
    {
        OcsTestBed bed(4, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        OcsConnections before = bed.ocs->GetCircuits();

        auto outOfRange = bed.ocs->Reconfigure({{7, 1}});
        NS_TEST_ASSERT_MSG_EQ(outOfRange.accepted, false, "");
        NS_TEST_ASSERT_MSG_EQ((outOfRange.error.find("out of range") != std::string::npos),
                              true,
                              outOfRange.error);
        auto outputTwice = bed.ocs->Reconfigure({{2, 1}}); // 0 -> 1 already uses output 1
        NS_TEST_ASSERT_MSG_EQ(outputTwice.accepted, false, "");
        NS_TEST_ASSERT_MSG_EQ(outputTwice.error, "output port 1 used twice (inputs 0 and 2)", "");
        auto twiceInOne = bed.ocs->Reconfigure({{2, 3}, {0, 3}, {1, NO}});
        NS_TEST_ASSERT_MSG_EQ(twiceInOne.accepted, false, "");
        auto badPreset = bed.ocs->Preset({{0, 2}, {1, 2}});
        NS_TEST_ASSERT_MSG_EQ(badPreset.accepted, false, "");

        NS_TEST_ASSERT_MSG_EQ((bed.ocs->GetCircuits() == before), true, "circuits unchanged");
        NS_TEST_ASSERT_MSG_EQ((bed.ocs->GetTargetConfiguration() == before), true, "");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPendingRequestCount(), 0, "nothing queued");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetReconfigurationCount(), 0, "");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPortDarkTime(0), Time(0), "");
    }
};

/// Requests wait for earlier requests on shared ports; disjoint ones run concurrently.
class OcsRequestQueueTestCase : public TestCase
{
  public:
    OcsRequestQueueTestCase()
        : TestCase("requests on busy ports queue in arrival order; disjoint ones do not wait")
    {
    }

  private:
    void DoRun() override
    {
        OcsTestBed bed(6, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(10));
        std::map<char, OcsReconfiguration> done;
        auto request = [&](char name, Time at, OcsConnections changes) {
            Simulator::Schedule(at, [&, name, changes]() {
                auto result = bed.ocs->Reconfigure(
                    changes,
                    Callback<void, const OcsReconfiguration&>(
                        [&, name](const OcsReconfiguration& r) { done[name] = r; }));
                NS_TEST_EXPECT_MSG_EQ(result.accepted, true, result.error);
            });
        };
        request('A', Time(0), OpticalCircuitSwitch::Duplex({{0, 1}}));
        request('B', MicroSeconds(5), {{1, 2}, {2, 1}, {0, NO}});              // shares 0, 1 with A
        request('C', MicroSeconds(5), OpticalCircuitSwitch::Duplex({{4, 5}})); // disjoint
        request('D', MicroSeconds(6), OpticalCircuitSwitch::Duplex({{0, 3}})); // after B on 0
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 4, "");
        NS_TEST_ASSERT_MSG_EQ(done['A'].startedAt, MicroSeconds(0), "");
        NS_TEST_ASSERT_MSG_EQ(done['A'].endedAt, MicroSeconds(10), "");
        NS_TEST_ASSERT_MSG_EQ(done['B'].requestedAt, MicroSeconds(5), "");
        NS_TEST_ASSERT_MSG_EQ(done['B'].startedAt, MicroSeconds(10), "waits for A");
        NS_TEST_ASSERT_MSG_EQ(done['B'].endedAt, MicroSeconds(20), "");
        NS_TEST_ASSERT_MSG_EQ(done['C'].startedAt, MicroSeconds(5), "does not wait");
        NS_TEST_ASSERT_MSG_EQ(done['C'].endedAt, MicroSeconds(15), "");
        NS_TEST_ASSERT_MSG_EQ(done['D'].startedAt, MicroSeconds(20), "waits for B");
        NS_TEST_ASSERT_MSG_EQ(done['D'].endedAt, MicroSeconds(30), "");
        OcsConnections expected = {{0, 3}, {3, 0}, {1, 2}, {2, 1}, {4, 5}, {5, 4}};
        NS_TEST_ASSERT_MSG_EQ((bed.ocs->GetCircuits() == expected), true, "final circuits");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetReconfigurationCount(), 4, "");
        // Port 0: dark 0-10 (A), 10-20 (B), 20-30 (D) = 30 us. Port 4: 5-15 = 10 us.
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPortDarkTime(0), MicroSeconds(30), "");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPortDarkTime(4), MicroSeconds(10), "");
    }
};

/// A request for circuits already in place completes at once, with no blackout.
class OcsNoChangeTestCase : public TestCase
{
  public:
    OcsNoChangeTestCase()
        : TestCase("a request that changes nothing completes at once without blackout")
    {
    }

  private:
    void DoRun() override
    {
        OcsTestBed bed(2, DataRate("100Gbps"), NanoSeconds(50), MilliSeconds(25));
        bed.ocs->Preset(OpticalCircuitSwitch::Duplex({{0, 1}}));
        Time doneAt = Seconds(-1);
        uint32_t starts = 0;
        bed.ocs->TraceConnectWithoutContext("ReconfigurationStart",
                                            Callback<void, const OcsReconfiguration&>(
                                                [&](const OcsReconfiguration&) { ++starts; }));
        Simulator::Schedule(MicroSeconds(7), [&]() {
            bed.ocs->Reconfigure(
                OpticalCircuitSwitch::Duplex({{0, 1}}),
                Callback<void, const OcsReconfiguration&>(
                    [&](const OcsReconfiguration&) { doneAt = Simulator::Now(); }));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(doneAt, MicroSeconds(7), "done at once");
        NS_TEST_ASSERT_MSG_EQ(starts, 0, "no reconfiguration trace");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetReconfigurationCount(), 0, "");
        NS_TEST_ASSERT_MSG_EQ(bed.ocs->GetPortDarkTime(0), Time(0), "");
    }
};

/// Technology presets set the paper's Table 3 delay and radix.
class OcsTechnologyPresetTestCase : public TestCase
{
  public:
    OcsTechnologyPresetTestCase()
        : TestCase("technology presets set delay and radix (paper Table 3)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<OpticalCircuitSwitch> ocs = CreateObject<OpticalCircuitSwitch>();
        ocs->ApplyTechnology("piezo");
        NS_TEST_ASSERT_MSG_EQ(ocs->GetReconfigurationDelay(), MilliSeconds(25), "");
        NS_TEST_ASSERT_MSG_EQ(ocs->GetRadix(), 576, "");
        ocs->ApplyTechnology("3D-MEMS");
        NS_TEST_ASSERT_MSG_EQ(ocs->GetReconfigurationDelay(), MilliSeconds(15), "");
        NS_TEST_ASSERT_MSG_EQ(ocs->GetRadix(), 320, "");
        ocs->Dispose();
    }
};

/// The OCS reconfiguration suite.
class OcsReconfigurationTestSuite : public TestSuite
{
  public:
    OcsReconfigurationTestSuite()
        : TestSuite("photonic-rails-ocs-reconfiguration", UNIT)
    {
        AddTestCase(new OcsBlackoutTestCase, TestCase::QUICK);
        AddTestCase(new OcsNoCircuitPolicyTestCase, TestCase::QUICK);
        AddTestCase(new OcsInFlightLossTestCase, TestCase::QUICK);
        AddTestCase(new OcsInvalidRequestTestCase, TestCase::QUICK);
        AddTestCase(new OcsRequestQueueTestCase, TestCase::QUICK);
        AddTestCase(new OcsNoChangeTestCase, TestCase::QUICK);
        AddTestCase(new OcsTechnologyPresetTestCase, TestCase::QUICK);
    }
};

static OcsReconfigurationTestSuite g_ocsReconfigurationTestSuite; //!< Static instance

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One electrical packet switch with hosts on its ports: store-and-forward timing, fair
 * sharing of an egress, ECMP, the shared buffer, PFC and ECN. Expected values are computed
 * by hand in each test.
 *
 * Several tests hold the egress towards host C with a PAUSE from C: nothing leaves, so the
 * queue grows by exactly one frame per arrival and its length is known for every frame.
 */

#include "eps-test-bed.h"

#include "ns3/test.h"

#include <cmath>

using namespace ns3;
using namespace ns3::tests;

/// A frame A -> switch -> B arrives at 2 x (S*8/rate + delay) + ProcessingDelay.
class EpsStoreAndForwardTestCase : public TestCase
{
  public:
    EpsStoreAndForwardTestCase()
        : TestCase("store-and-forward: two serializations, two cables, one processing delay")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(2, DataRate("10Gbps"), NanoSeconds(100));
        TimeValue processing;
        bed.sw->GetAttribute("ProcessingDelay", processing);
        NS_TEST_ASSERT_MSG_EQ(processing.Get(), NanoSeconds(300), "documented default");
        // 1000 bytes at 10 Gb/s = 800 ns per hop; sent at 1 us:
        // 1000 + 2 x (800 + 100) + 300 = 3100 ns.
        bed.Send(0, 1, 1000, MicroSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 1, "one frame");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].at, NanoSeconds(3100), "arrival time");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].from, bed.Host(0)->GetAddress(), "sender");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].payload, 986, "payload intact");
        const auto& c = bed.sw->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(c.framesReceived, 1, "");
        NS_TEST_ASSERT_MSG_EQ(c.framesForwarded, 1, "");
        NS_TEST_ASSERT_MSG_EQ(c.bytesForwarded, 1000, "");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetBufferUsed(), 0, "buffer empty at the end");
    }
};

/// Two senders into one egress: it runs at line rate and each gets half.
class EpsFairShareTestCase : public TestCase
{
  public:
    EpsFairShareTestCase()
        : TestCase("two senders share one egress half and half at line rate")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t frames = 200;
        EpsTestBed bed(3, DataRate("10Gbps"), NanoSeconds(100));
        bed.Send(0, 2, 1000, Time(0), frames);
        bed.Send(1, 2, 1000, Time(0), frames);
        Simulator::Run();
        const auto& rx = bed.arrivals[2];
        NS_TEST_ASSERT_MSG_EQ(rx.size(), 2 * frames, "every frame delivered");
        // Both first frames reach the switch at 800 + 100 and join the queue at +300; the
        // egress then never idles: frame i (from 0) arrives at 1200 + (i+1) x 800 + 100.
        for (std::size_t i = 0; i < rx.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(rx[i].at, NanoSeconds(1300 + (i + 1) * 800), "frame " << i);
        }
        // While both are active (the first 200 egress frames), each gets 50% +- 5%.
        uint32_t fromA = 0;
        for (uint32_t i = 0; i < frames; ++i)
        {
            fromA += rx[i].from == bed.Host(0)->GetAddress();
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(fromA / double(frames), 0.5, 0.05, "A's share");
        NS_TEST_ASSERT_MSG_EQ(bed.PayloadBytes(2), 2 * frames * 986, "bytes delivered = sent");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetCounters().framesDroppedBufferFull, 0, "");
    }
};

/**
 * ECMP: 4000 flow labels over 4 equal-cost ports. With an ideal hash each port's count is
 * Binomial(4000, 1/4): mean 1000, sigma sqrt(4000 x 1/4 x 3/4) = 27.4; we accept +-5 sigma
 * (+-137). One label always takes one port. Two seeds agree on about 1/4 of the labels.
 */
class EpsEcmpTestCase : public TestCase
{
  public:
    EpsEcmpTestCase()
        : TestCase("ECMP spreads flows evenly, keeps a flow on one port, seeds decorrelate")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t labels = 4000;
        // Host 0 sends; hosts 1-4 stand for 4 spines, all equal-cost to a remote MAC.
        EpsTestBed bed(5, DataRate("100Gbps"), NanoSeconds(50));
        bed.sw->SetAttribute("EcmpSeed", UintegerValue(7));
        const Mac48Address remote("02:00:00:00:99:99");
        bed.sw->AddRoute(remote, {1, 2, 3, 4});
        bed.Send(0, remote, 64, Time(0), labels, 0, true);
        bed.Send(0, remote, 64, MicroSeconds(500), 100, 12345, false);
        Simulator::Run();

        std::vector<uint64_t> predicted(5, 0);
        for (uint32_t label = 0; label < labels; ++label)
        {
            ++predicted[bed.sw->SelectEgress(bed.Mac(0), remote, label)];
        }
        uint32_t labelPort = bed.sw->SelectEgress(bed.Mac(0), remote, 12345);
        predicted[labelPort] += 100;
        for (uint32_t port = 1; port <= 4; ++port)
        {
            uint64_t got = bed.SwitchPort(port)->GetCounters().framesSent;
            NS_TEST_ASSERT_MSG_EQ(got, predicted[port], "port " << port << " follows the hash");
            uint64_t spread = got - (port == labelPort ? 100 : 0);
            NS_TEST_ASSERT_MSG_EQ_TOL(double(spread), 1000.0, 137.0, "port " << port);
        }
        NS_TEST_ASSERT_MSG_EQ(predicted[0], 0, "never back to the sender");

        // Another switch: same seed, same choices; another seed, ~1/4 agreement
        // (sigma 0.7%, we accept 25% +- 5%).
        EpsTestBed other(5, DataRate("100Gbps"), NanoSeconds(50));
        other.sw->AddRoute(remote, {1, 2, 3, 4});
        auto agreement = [&](uint32_t seed) {
            other.sw->SetAttribute("EcmpSeed", UintegerValue(seed));
            uint32_t same = 0;
            for (uint32_t label = 0; label < labels; ++label)
            {
                same += other.sw->SelectEgress(bed.Mac(0), remote, label) ==
                        bed.sw->SelectEgress(bed.Mac(0), remote, label);
            }
            return same / double(labels);
        };
        NS_TEST_ASSERT_MSG_EQ(agreement(7), 1.0, "same seed, same hash");
        NS_TEST_ASSERT_MSG_EQ_TOL(agreement(8), 0.25, 0.05, "independent seeds");
    }
};

/// Unknown destinations (also broadcast) are dropped, counted and traced, never flooded.
class EpsNoRouteTestCase : public TestCase
{
  public:
    EpsNoRouteTestCase()
        : TestCase("frames to an unknown destination are dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(3, DataRate("10Gbps"), NanoSeconds(100));
        std::vector<EpsSwitch::DropReason> reasons;
        bed.sw->TraceConnectWithoutContext(
            "Drop",
            Sink<Ptr<const Packet>, uint32_t, EpsSwitch::DropReason>(
                [&](Ptr<const Packet> frame, uint32_t ingress, EpsSwitch::DropReason reason) {
                    reasons.push_back(reason);
                }));
        bed.Send(0, Mac48Address("02:00:00:00:99:99"), 1000, Time(0));
        bed.Send(0, Mac48Address::GetBroadcast(), 1000, Time(0));
        bed.Send(0, 1, 1000, Time(0)); // a routed frame still gets through
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetCounters().framesDroppedNoRoute, 2, "");
        NS_TEST_ASSERT_MSG_EQ(reasons.size(), 2, "traced");
        for (auto reason : reasons)
        {
            NS_TEST_ASSERT_MSG_EQ(reason, EpsSwitch::NO_ROUTE, "");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 1, "only the routed frame");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[2].size(), 0, "no flooding");
        NS_TEST_ASSERT_MSG_EQ(bed.SwitchPort(2)->GetCounters().framesSent, 0, "no flooding");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetBufferUsed(), 0, "");
    }
};

/**
 * Hosts A (0) and C (1) at 8 Gb/s (1000-byte frame: 1000 ns; PAUSE: 64 ns), cables 100 ns.
 * C pauses the switch at t = 0 (landing at 164 ns) and resumes it at 200 us (landing at
 * 200164 ns); A sends 150 frames from t = 0, frame j reaching the switch at
 * (j+1) x 1000 + 100 ns.
 */
class HeldEgressBed : public EpsTestBed
{
  public:
    static constexpr uint32_t FRAMES = 150;
    static constexpr int64_t RESUME_LANDS_NS = 200164;

    HeldEgressBed()
        : EpsTestBed(2, DataRate("8Gbps"), NanoSeconds(100))
    {
        sw->SetAttribute("BufferSize", UintegerValue(100000));
        sw->SetAttribute("EcnEnabled", BooleanValue(false));
        sw->TraceConnectWithoutContext(
            "Drop",
            Sink<Ptr<const Packet>, uint32_t, EpsSwitch::DropReason>(
                [this](Ptr<const Packet>, uint32_t, EpsSwitch::DropReason reason) {
                    drops.push_back(reason);
                }));
        Simulator::Schedule(Time(0), [this]() { Host(1)->SendPause(true); });
        Simulator::Schedule(MicroSeconds(200), [this]() { Host(1)->SendPause(false); });
        Send(0, 1, 1000, Time(0), FRAMES);
    }

    std::vector<EpsSwitch::DropReason> drops; //!< Drop trace
};

/// PFC off: a held egress fills the 100,000-byte buffer with 100 frames; 50 are dropped.
class EpsBufferOverflowTestCase : public TestCase
{
  public:
    EpsBufferOverflowTestCase()
        : TestCase("PFC off: a full shared buffer drops and counts; the queue is kept")
    {
    }

  private:
    void DoRun() override
    {
        HeldEgressBed bed;
        bed.sw->SetAttribute("PfcEnabled", BooleanValue(false));
        uint64_t peakBuffer = 0;
        bed.sw->TraceConnectWithoutContext("QueueLength",
                                           Sink<uint32_t, uint64_t>([&](uint32_t, uint64_t) {
                                               peakBuffer =
                                                   std::max(peakBuffer, bed.sw->GetBufferUsed());
                                           }));
        Simulator::Run();
        const auto& c = bed.sw->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(c.framesDroppedBufferFull, 50, "150 - 100000 / 1000");
        NS_TEST_ASSERT_MSG_EQ(bed.drops.size(), 50, "traced");
        NS_TEST_ASSERT_MSG_EQ(bed.drops.front(), EpsSwitch::BUFFER_FULL, "reason");
        NS_TEST_ASSERT_MSG_EQ(peakBuffer, 100000, "the buffer filled exactly");
        NS_TEST_ASSERT_MSG_EQ(c.pausesSent, 0, "PFC off");
        // The held queue drains after the RESUME, back to back.
        const auto& rx = bed.arrivals[1];
        NS_TEST_ASSERT_MSG_EQ(rx.size(), 100, "the buffered frames arrive");
        NS_TEST_ASSERT_MSG_EQ(rx.front().at,
                              NanoSeconds(HeldEgressBed::RESUME_LANDS_NS + 1100),
                              "");
        NS_TEST_ASSERT_MSG_EQ(rx.back().at,
                              NanoSeconds(HeldEgressBed::RESUME_LANDS_NS + 100 * 1000 + 100),
                              "");
        NS_TEST_ASSERT_MSG_EQ(c.framesReceived, c.framesForwarded + c.framesDroppedBufferFull, "");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetBufferUsed(), 0, "");
    }
};

/// PFC off, DtAlpha 1: an egress queue may hold the free buffer: j + 1 <= 100 - j admits 50.
class EpsDynamicThresholdTestCase : public TestCase
{
  public:
    EpsDynamicThresholdTestCase()
        : TestCase("dynamic threshold: one egress takes at most alpha x the free buffer")
    {
    }

  private:
    void DoRun() override
    {
        HeldEgressBed bed;
        bed.sw->SetAttribute("PfcEnabled", BooleanValue(false));
        bed.sw->SetAttribute("DtAlpha", DoubleValue(1.0));
        Simulator::Run();
        const auto& c = bed.sw->GetCounters();
        // Frame j sees j frames queued: admitted while (j + 1) x 1000 <= 100000 - j x 1000.
        NS_TEST_ASSERT_MSG_EQ(c.framesDroppedEgressThreshold, 100, "frames 50-149");
        NS_TEST_ASSERT_MSG_EQ(c.framesDroppedBufferFull, 0, "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 50, "frames 0-49");
    }
};

/**
 * PFC on, Xoff 20,000 and Xon 10,000 bytes (headroom 200 + 2 x 9014 + 64 = 18,292 per port:
 * 2 x 38,292 fits in 100,000). Frame 20 takes ingress A to 21,000 > Xoff at 21,100 ns; the
 * PAUSE reaches A at 21,264, during A's frame 21, so 22 frames enter and none is dropped.
 * After C's RESUME, the 12th departure (at 200,164 + 11 x 1000) leaves 10,000 bytes: the
 * RESUME reaches A at 211,328. A refills faster than the egress drains, so the egress runs
 * back to back: frame 149 leaves at 200,164 + 149,000 and arrives 1,100 ns later.
 */
class EpsPfcBackPressureTestCase : public TestCase
{
  public:
    EpsPfcBackPressureTestCase()
        : TestCase("PFC on: a held egress pauses the upstream; nothing is lost")
    {
    }

  private:
    void DoRun() override
    {
        HeldEgressBed bed;
        bed.sw->SetAttribute("PfcXoff", UintegerValue(20000));
        bed.sw->SetAttribute("PfcXon", UintegerValue(10000));
        std::vector<std::pair<Time, bool>> pfc;
        bed.sw->TraceConnectWithoutContext("PfcPause",
                                           Sink<uint32_t, bool>([&](uint32_t port, bool paused) {
                                               pfc.emplace_back(Simulator::Now(), paused);
                                           }));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetPfcHeadroom(0), 18292, "");
        const auto& c = bed.sw->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(bed.drops.size(), 0, "lossless");
        NS_TEST_ASSERT_MSG_EQ(c.pausesSent, 1, "");
        NS_TEST_ASSERT_MSG_EQ(c.resumesSent, 1, "");
        NS_TEST_ASSERT_MSG_EQ(pfc.size(), 2, "");
        if (pfc.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(pfc[0].first, NanoSeconds(21100), "PAUSE decided");
            NS_TEST_ASSERT_MSG_EQ(pfc[1].first, NanoSeconds(211164), "RESUME decided");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetPausedTime(), NanoSeconds(211328 - 21264), "");
        const auto& rx = bed.arrivals[1];
        NS_TEST_ASSERT_MSG_EQ(rx.size(), HeldEgressBed::FRAMES, "everything delivered");
        NS_TEST_ASSERT_MSG_EQ(rx.back().at,
                              NanoSeconds(HeldEgressBed::RESUME_LANDS_NS + 149000 + 1100),
                              "egress never idles after the RESUME");
        NS_TEST_ASSERT_MSG_EQ(bed.PayloadBytes(1), HeldEgressBed::FRAMES * 986, "bytes = sent");
    }
};

/**
 * A network-control frame (SocketPriorityTag 6, as RoCE sends CNPs) overtakes the data
 * queued at its egress and is held by no PAUSE. Derived thresholds: Xoff = 100000 / 2 -
 * 18292 = 31708, so frame 31 (at 32,100 ns) pauses A during its frame 32. At 50 us A, held
 * by the switch, sends a 100-byte control frame anyway: [50000, 50100) on A's cable, at the
 * switch at 50,200, queued at 50,500 behind 33 held data frames, and sent at once although
 * C holds the egress: it reaches C at 50,700, long before the data (after 200 us).
 */
class EpsNetworkControlTestCase : public TestCase
{
  public:
    EpsNetworkControlTestCase()
        : TestCase("a network-control frame overtakes queued data and passes PAUSE")
    {
    }

  private:
    void DoRun() override
    {
        HeldEgressBed bed;
        bed.SendNetworkControl(0, 1, 100, MicroSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetPfcXoff(0), 31708, "");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetCounters().pausesSent, 1, "C's hold paused A");
        const auto& rx = bed.arrivals[1];
        NS_TEST_ASSERT_MSG_EQ(rx.size(), HeldEgressBed::FRAMES + 1, "everything delivered");
        if (!rx.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(rx.front().at, NanoSeconds(50700), "control frame first");
            NS_TEST_ASSERT_MSG_EQ(rx.front().payload, 86, "");
        }
        if (rx.size() > 1)
        {
            NS_TEST_ASSERT_MSG_EQ(rx[1].at,
                                  NanoSeconds(HeldEgressBed::RESUME_LANDS_NS + 1100),
                                  "the data waits for C's RESUME");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.drops.size(), 0, "lossless");
    }
};

/**
 * 8-to-1 incast at 10 Gb/s, 100 frames of 1000 bytes per sender, into a 270,000-byte buffer
 * (a third of the 800,000 bytes sent). MTU 1500: headroom 250 + 2 x 1514 + 64 = 3342, so
 * the derived Xoff is 270000 / 9 - 3342 = 26,658. With PFC: no drop, and the egress never
 * idles: the 800 frames leave back to back from 1200 ns, the last arriving at
 * 1200 + 800 x 800 + 100. Without PFC: drops, and received = forwarded + dropped.
 */
class EpsIncastTestCase : public TestCase
{
  public:
    EpsIncastTestCase()
        : TestCase("8-to-1 incast: lossless at line rate with PFC, lossy without")
    {
    }

  private:
    void Run(bool pfc)
    {
        const uint32_t senders = 8;
        const uint32_t frames = 100;
        EpsTestBed bed(senders + 1, DataRate("10Gbps"), NanoSeconds(100));
        for (uint32_t i = 0; i <= senders; ++i)
        {
            bed.Host(i)->SetMtu(1500);
            bed.SwitchPort(i)->SetMtu(1500);
        }
        bed.sw->SetAttribute("BufferSize", UintegerValue(270000));
        bed.sw->SetAttribute("PfcEnabled", BooleanValue(pfc));
        for (uint32_t i = 0; i < senders; ++i)
        {
            bed.Send(i, senders, 1000, Time(0), frames);
        }
        Simulator::Run();
        const auto& c = bed.sw->GetCounters();
        const auto& rx = bed.arrivals[senders];
        const uint64_t sent = senders * frames;
        if (pfc)
        {
            NS_TEST_ASSERT_MSG_EQ(bed.sw->GetPfcXoff(0), 26658, "derived Xoff");
            NS_TEST_ASSERT_MSG_EQ(bed.sw->GetPfcXon(0), 26658 - 2 * 1514, "derived Xon");
            NS_TEST_ASSERT_MSG_EQ(c.framesDroppedBufferFull, 0, "lossless");
            NS_TEST_ASSERT_MSG_GT(c.pausesSent, 0, "PFC acted");
            NS_TEST_ASSERT_MSG_EQ(c.pausesSent, c.resumesSent, "every pause released");
            NS_TEST_ASSERT_MSG_EQ(rx.size(), sent, "everything delivered");
            NS_TEST_ASSERT_MSG_EQ(bed.PayloadBytes(senders), sent * 986, "bytes = sent");
            NS_TEST_ASSERT_MSG_EQ(rx.back().at, NanoSeconds(1200 + sent * 800 + 100), "");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(c.framesDroppedBufferFull, 0, "drop-tail loses frames");
            NS_TEST_ASSERT_MSG_EQ(c.pausesSent, 0, "");
            NS_TEST_ASSERT_MSG_EQ(rx.size() + c.framesDroppedBufferFull, sent, "accounted");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetBufferUsed(), 0, "");
    }

    void DoRun() override
    {
        Run(true);
        Run(false);
    }
};

/**
 * ECN (Kmin 100 KB, Kmax 400 KB, Pmax 0.2) on a held egress: 500 frames of 1000 bytes wait,
 * then leave; frame j leaves (499 - j) x 1000 bytes behind it, which decides its mark. Frames
 * 399-499 (q <= Kmin) are never marked, frames 0-98 (q > Kmax) always; frame j in 99-398
 * with probability 0.2 ((499 - j) - 100) / 300, about 30.1 marks in all (sigma 5.1; we
 * accept 10-50).
 */
class EpsEcnTestCase : public TestCase
{
  public:
    EpsEcnTestCase()
        : TestCase("ECN: no marks at or below Kmin, all above Kmax, RED ramp between")
    {
    }

  private:
    void Run(bool enabled)
    {
        const uint32_t frames = 500;
        EpsTestBed bed(2, DataRate("100Gbps"), NanoSeconds(100));
        bed.sw->SetAttribute("EcnEnabled", BooleanValue(enabled));
        bed.sw->SetAttribute("PfcEnabled", BooleanValue(false));
        bed.sw->SetAttribute("EcnKmin", UintegerValue(100000));
        bed.sw->SetAttribute("EcnKmax", UintegerValue(400000));
        bed.sw->AssignStreams(1);
        uint32_t traced = 0;
        bed.sw->TraceConnectWithoutContext(
            "EcnMark",
            Sink<Ptr<const Packet>, uint32_t, uint64_t>(
                [&](Ptr<const Packet>, uint32_t port, uint64_t) { traced += port == 1; }));
        Simulator::Schedule(Time(0), [&]() { bed.Host(1)->SendPause(true); });
        Simulator::Schedule(MicroSeconds(100), [&]() { bed.Host(1)->SendPause(false); });
        bed.Send(0, bed.Mac(1), 1000, Time(0), frames, 0, true); // label = frame index
        Simulator::Run();
        const auto& rx = bed.arrivals[1];
        NS_TEST_ASSERT_MSG_EQ(rx.size(), frames, "all delivered");
        uint32_t below = 0;
        uint32_t ramp = 0;
        uint32_t above = 0;
        for (const auto& arrival : rx)
        {
            uint32_t j = arrival.label;
            (j >= 399 ? below : j >= 99 ? ramp : above) += arrival.marked;
        }
        NS_TEST_ASSERT_MSG_EQ(traced, below + ramp + above, "EcnMark trace");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetCounters().framesMarked, traced, "counter");
        NS_TEST_ASSERT_MSG_EQ(below, 0, "q <= Kmin: never");
        if (!enabled)
        {
            NS_TEST_ASSERT_MSG_EQ(ramp + above, 0, "ECN off: no marks");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(above, 99, "q > Kmax: always");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(ramp), 30.1, 20.0, "RED ramp");
    }

    void DoRun() override
    {
        Run(true);
        Run(false);
    }
};

/// PFC thresholds that cannot be lossless, or a buffer too small, are refused at setup.
class EpsPfcHeadroomTestCase : public TestCase
{
  public:
    EpsPfcHeadroomTestCase()
        : TestCase("PFC thresholds are derived from the buffer and the headroom")
    {
    }

  private:
    void DoRun() override
    {
        // 400 Gb/s, 50 ns cables, MTU 9000: headroom 2 x 50 ns x 400 Gb/s / 8 + 2 x 9014 + 64
        // = 5000 + 18028 + 64 = 23092; 4 ports share 32 MiB: Xoff = 8388608 - 23092.
        EpsTestBed bed(4, DataRate("400Gbps"), NanoSeconds(50));
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetPfcHeadroom(3), 23092, "");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetPfcXoff(3), 8388608 - 23092, "");
        NS_TEST_ASSERT_MSG_EQ(bed.sw->GetPfcXon(3), 8388608 - 23092 - 2 * 9014, "");
    }
};

/// The EPS switch suite.
class EpsSwitchTestSuite : public TestSuite
{
  public:
    EpsSwitchTestSuite()
        : TestSuite("photonic-rails-eps-switch", UNIT)
    {
        AddTestCase(new EpsStoreAndForwardTestCase, TestCase::QUICK);
        AddTestCase(new EpsFairShareTestCase, TestCase::QUICK);
        AddTestCase(new EpsEcmpTestCase, TestCase::QUICK);
        AddTestCase(new EpsNoRouteTestCase, TestCase::QUICK);
        AddTestCase(new EpsBufferOverflowTestCase, TestCase::QUICK);
        AddTestCase(new EpsDynamicThresholdTestCase, TestCase::QUICK);
        AddTestCase(new EpsPfcBackPressureTestCase, TestCase::QUICK);
        AddTestCase(new EpsNetworkControlTestCase, TestCase::QUICK);
        AddTestCase(new EpsIncastTestCase, TestCase::QUICK);
        AddTestCase(new EpsEcnTestCase, TestCase::QUICK);
        AddTestCase(new EpsPfcHeadroomTestCase, TestCase::QUICK);
    }
};

static EpsSwitchTestSuite g_epsSwitchTestSuite; //!< Static instance

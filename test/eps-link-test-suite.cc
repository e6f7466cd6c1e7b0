/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One electrical link (two EpsNetDevices on an EpsChannel): frame timing to the
 * nanosecond, line rate, and PFC PAUSE/RESUME. Expected values are computed by hand in each
 * test from size * 8 / rate + delay.
 */

#include "eps-test-bed.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::tests;

/// One frame of S bytes arrives at exactly S*8/rate + delay after its transmission starts.
class EpsFrameTimingTestCase : public TestCase
{
  public:
    EpsFrameTimingTestCase()
        : TestCase("a frame arrives after its serialization time plus the cable delay")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(2, DataRate("10Gbps"), NanoSeconds(100), false);
        // 1000 bytes = 8000 bits at 10 Gb/s = 800 ns; cable 100 ns; sent at 1 us.
        bed.Send(0, bed.Mac(1), 1000, MicroSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 1, "one frame expected");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].at, NanoSeconds(1000 + 800 + 100), "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].payload, 986, "payload size preserved");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][0].from, bed.Host(0)->GetAddress(), "sender");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->IsLinkUp(), true, "both ends attached");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetPeer(), bed.Host(1), "peer");
        const auto& a = bed.Host(0)->GetCounters();
        const auto& b = bed.Host(1)->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(a.framesSent, 1, "");
        NS_TEST_ASSERT_MSG_EQ(a.bytesSent, 1000, "with the 14-byte header");
        NS_TEST_ASSERT_MSG_EQ(b.bytesReceived, a.bytesSent, "bytes delivered = bytes sent");
    }
};

/// Back-to-back frames leave at line rate, also when a frame is not a whole number of ns.
class EpsLineRateTestCase : public TestCase
{
  public:
    EpsLineRateTestCase()
        : TestCase("back-to-back frames reach line rate (exact on average)")
    {
    }

  private:
    void Check(DataRate rate, uint32_t frameBytes, double exactFrameNs)
    {
        const uint32_t frames = 1000;
        EpsTestBed bed(2, rate, NanoSeconds(50), false);
        bed.Send(0, bed.Mac(1), frameBytes, Time(0), frames);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), frames, "every frame delivered");
        // The last bit of frame k leaves at (k+1) frame times; the cable adds 50 ns.
        Time expectedLast = NanoSeconds(static_cast<int64_t>(frames * exactFrameNs + 50));
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].back().at, expectedLast, "last arrival");
        double bits = 8.0 * frameBytes * frames;
        double seconds = (bed.arrivals[1].back().at - NanoSeconds(50)).GetSeconds();
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

/**
 * PAUSE stops the sender after the frame on the wire; RESUME restarts it. At 8 Gb/s a
 * 1000-byte frame takes 1000 ns and a 64-byte PAUSE 64 ns; the cable is 100 ns.
 */
class EpsPauseResumeTestCase : public TestCase
{
  public:
    EpsPauseResumeTestCase()
        : TestCase("PAUSE holds the sender after its current frame; RESUME restarts it")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(2, DataRate("8Gbps"), NanoSeconds(100), false);
        std::vector<std::pair<Time, bool>> pauses;
        bed.Host(0)->TraceConnectWithoutContext("PauseChanged", Sink<bool>(([&](bool paused) {
                                                    pauses.emplace_back(Simulator::Now(), paused);
                                                })));
        uint32_t controlFramesAtA = 0;
        bed.Host(0)->TraceConnectWithoutContext("PhyRxEnd",
                                                Sink<Ptr<const Packet>>(([&](Ptr<const Packet> p) {
                                                    controlFramesAtA += p->GetSize() == 64;
                                                })));
        // A sends frames 0-5 from t = 0: frame k occupies [k, k+1) us.
        bed.Send(0, bed.Mac(1), 1000, Time(0), 6);
        // B's PAUSE at 2.5 us reaches A at 2500 + 64 + 100 = 2664 ns, during frame 2.
        Simulator::Schedule(NanoSeconds(2500), [&]() { bed.Host(1)->SendPause(true); });
        // RESUME at 10 us reaches A at 10164 ns: frame 3 starts then.
        Simulator::Schedule(NanoSeconds(10000), [&]() { bed.Host(1)->SendPause(false); });
        Simulator::Run();

        const std::vector<int64_t> expected{1100, 2100, 3100, 11264, 12264, 13264};
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), expected.size(), "all frames arrive");
        for (std::size_t k = 0; k < expected.size() && k < bed.arrivals[1].size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][k].at, NanoSeconds(expected[k]), "frame " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(pauses.size(), 2, "paused once, resumed once");
        if (pauses.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(pauses[0].first, NanoSeconds(2664), "PAUSE lands");
            NS_TEST_ASSERT_MSG_EQ(pauses[0].second, true, "");
            NS_TEST_ASSERT_MSG_EQ(pauses[1].first, NanoSeconds(10164), "RESUME lands");
            NS_TEST_ASSERT_MSG_EQ(pauses[1].second, false, "");
        }
        const auto& a = bed.Host(0)->GetCounters();
        const auto& b = bed.Host(1)->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetPausedTime(), NanoSeconds(10164 - 2664), "");
        NS_TEST_ASSERT_MSG_EQ(b.pauseFramesSent, 1, "");
        NS_TEST_ASSERT_MSG_EQ(b.resumeFramesSent, 1, "");
        NS_TEST_ASSERT_MSG_EQ(a.pauseFramesReceived, 1, "");
        NS_TEST_ASSERT_MSG_EQ(a.resumeFramesReceived, 1, "");
        // Control frames reach A's PHY but are consumed there.
        NS_TEST_ASSERT_MSG_EQ(controlFramesAtA, 2, "two 64-byte control frames on the wire");
        NS_TEST_ASSERT_MSG_EQ(a.framesReceived, 0, "pause frames are not data");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[0].size(), 0, "pause frames are not passed up");
        NS_TEST_ASSERT_MSG_EQ(b.bytesReceived, a.bytesSent, "bytes delivered = bytes sent");
    }
};

/**
 * A control frame leaves right after the frame on the wire, ahead of the TxQueue, and
 * shifts the queued frames by its 64 ns. A paused device still sends control frames.
 */
class EpsPauseAheadOfQueueTestCase : public TestCase
{
  public:
    EpsPauseAheadOfQueueTestCase()
        : TestCase("a PAUSE leaves right after the current frame, ahead of the queue")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(2, DataRate("8Gbps"), NanoSeconds(100), false);
        // Both directions busy: B sends 5 frames to A, A sends 5 frames to B, from t = 0.
        bed.Send(1, bed.Mac(0), 1000, Time(0), 5);
        bed.Send(0, bed.Mac(1), 1000, Time(0), 5);
        // B's PAUSE at 2.5 us waits for B's frame 2 (ends 3000), occupies 3000-3064 and
        // reaches A at 3164, while A's frame 3 (3000-4000) is on the wire.
        Simulator::Schedule(NanoSeconds(2500), [&]() { bed.Host(1)->SendPause(true); });
        // A, paused, still answers with its own PAUSE at 5 us: it reaches B at 5164.
        Simulator::Schedule(NanoSeconds(5000), [&]() { bed.Host(0)->SendPause(true); });
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();

        // B's frames 3 and 4 are shifted by the 64-ns PAUSE; B is paused at 5164, when its
        // frame 4 (4064-5064) has already left.
        const std::vector<int64_t> atA{1100, 2100, 3100, 4164, 5164};
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[0].size(), atA.size(), "B's frames at A");
        for (std::size_t k = 0; k < atA.size() && k < bed.arrivals[0].size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(bed.arrivals[0][k].at, NanoSeconds(atA[k]), "frame " << k);
        }
        // A is held from 3164: its frame 3 finishes, frame 4 never starts.
        const std::vector<int64_t> atB{1100, 2100, 3100, 4100};
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), atB.size(), "A's frames at B");
        for (std::size_t k = 0; k < atB.size() && k < bed.arrivals[1].size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1][k].at, NanoSeconds(atB[k]), "frame " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->IsPaused(), true, "");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetQueue()->GetNPackets(), 1, "frame 4 waits");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetPausedTime(), NanoSeconds(20000 - 3164), "");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(1)->IsPaused(), true, "");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetCounters().pauseFramesSent, 1, "");
    }
};

/// A PAUSE undone before it could leave is never sent; repeated requests are no-ops.
class EpsPauseCancelTestCase : public TestCase
{
  public:
    EpsPauseCancelTestCase()
        : TestCase("a PAUSE undone before it leaves is not sent")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(2, DataRate("8Gbps"), NanoSeconds(100), false);
        bed.Send(1, bed.Mac(0), 1000, Time(0), 5);
        bed.Send(0, bed.Mac(1), 1000, Time(0), 5);
        // Both requests fall within B's frame 2 (2000-3000): nothing goes on the wire.
        Simulator::Schedule(NanoSeconds(2500), [&]() { bed.Host(1)->SendPause(true); });
        Simulator::Schedule(NanoSeconds(2800), [&]() { bed.Host(1)->SendPause(false); });
        // RESUME without a PAUSE before it: a no-op.
        Simulator::Schedule(NanoSeconds(7000), [&]() { bed.Host(1)->SendPause(false); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.Host(1)->GetCounters().pauseFramesSent, 0, "");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(1)->GetCounters().resumeFramesSent, 0, "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 5, "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].back().at, NanoSeconds(5100), "A never held");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[0].back().at, NanoSeconds(5100), "B never delayed");
    }
};

/**
 * A network-control frame (SocketPriorityTag 6, as RoCE sends CNPs) skips the TxQueue and
 * PAUSE: it leaves right after the frame on the wire, and while the device is paused.
 * 8 Gb/s: a 1000-byte frame takes 1000 ns, a 100-byte one 100 ns; the cable is 100 ns.
 */
class EpsNetworkControlTestCase : public TestCase
{
  public:
    EpsNetworkControlTestCase()
        : TestCase("a network-control frame goes ahead of the TxQueue and is not paused")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(2, DataRate("8Gbps"), NanoSeconds(100), false);
        // A queues data frames 0-5 at t = 0; frame 0 occupies [0, 1000).
        bed.Send(0, bed.Mac(1), 1000, Time(0), 6);
        // A control frame at 500 ns follows frame 0: [1000, 1100), arriving at 1200; data
        // frames 1 and 2 shift by 100 ns: [1100, 2100) and [2100, 3100).
        bed.SendNetworkControl(0, 1, 100, NanoSeconds(500));
        // B's PAUSE at 2.5 us lands at 2664, during frame 2: A holds its data from 3100.
        Simulator::Schedule(NanoSeconds(2500), [&]() { bed.Host(1)->SendPause(true); });
        // A paused control frame still leaves at once: [5000, 5100), arriving at 5200.
        bed.SendNetworkControl(0, 1, 100, MicroSeconds(5));
        // The RESUME at 10 us lands at 10164: frames 3-5 follow back to back.
        Simulator::Schedule(MicroSeconds(10), [&]() { bed.Host(1)->SendPause(false); });
        Simulator::Run();

        const std::vector<std::pair<int64_t, uint32_t>> expected{{1100, 986},
                                                                 {1200, 86},
                                                                 {2200, 986},
                                                                 {3200, 986},
                                                                 {5200, 86},
                                                                 {11264, 986},
                                                                 {12264, 986},
                                                                 {13264, 986}};
        const auto& rx = bed.arrivals[1];
        NS_TEST_ASSERT_MSG_EQ(rx.size(), expected.size(), "6 data and 2 control frames");
        for (std::size_t k = 0; k < expected.size() && k < rx.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(rx[k].at, NanoSeconds(expected[k].first), "arrival " << k);
            NS_TEST_ASSERT_MSG_EQ(rx[k].payload, expected[k].second, "arrival " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetCounters().framesSent, 8, "both kinds count");
    }
};

/// Payloads above the MTU are refused, counted and traced.
class EpsOversizeTestCase : public TestCase
{
  public:
    EpsOversizeTestCase()
        : TestCase("payloads above the MTU are refused and counted")
    {
    }

  private:
    void DoRun() override
    {
        EpsTestBed bed(2, DataRate("10Gbps"), NanoSeconds(100), false);
        bed.Host(0)->SetMtu(1500);
        uint32_t drops = 0;
        bed.Host(0)->TraceConnectWithoutContext(
            "MacTxDrop",
            Sink<Ptr<const Packet>>(([&](Ptr<const Packet>) { ++drops; })));
        bool accepted = bed.Host(0)->Send(Create<Packet>(1501), bed.Mac(1), TEST_ETHERTYPE);
        bool acceptedAtMtu = bed.Host(0)->Send(Create<Packet>(1500), bed.Mac(1), TEST_ETHERTYPE);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(accepted, false, "1501 > MTU");
        NS_TEST_ASSERT_MSG_EQ(acceptedAtMtu, true, "1500 = MTU");
        NS_TEST_ASSERT_MSG_EQ(drops, 1, "");
        NS_TEST_ASSERT_MSG_EQ(bed.Host(0)->GetCounters().framesDroppedOversize, 1, "");
        NS_TEST_ASSERT_MSG_EQ(bed.arrivals[1].size(), 1, "");
    }
};

/// EpsHelper's PCAP trace: Ethernet link type, data and PAUSE frames as on the wire.
class EpsPcapTestCase : public TestCase
{
  public:
    EpsPcapTestCase()
        : TestCase("PCAP traces are Ethernet and show PAUSE frames")
    {
    }

  private:
    void DoRun() override
    {
        std::string file = CreateTempDirFilename("eps-link.pcap");
        {
            EpsTestBed bed(2, DataRate("8Gbps"), NanoSeconds(100), false);
            EpsHelper helper;
            helper.EnablePcap(file, bed.Host(0), false, true);
            bed.Send(0, bed.Mac(1), 1000, Time(0), 2);
            Simulator::Schedule(MicroSeconds(5), [&]() { bed.Host(1)->SendPause(true); });
            Simulator::Run();
        } // Simulator::Destroy closes the file
        PcapFile pcap;
        pcap.Open(file, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(pcap.Fail(), false, "trace file written");
        NS_TEST_ASSERT_MSG_EQ(pcap.GetDataLinkType(), PcapHelper::DLT_EN10MB, "Ethernet");
        std::vector<uint32_t> sizes;
        uint8_t buffer[2000];
        uint32_t seconds;
        uint32_t microseconds;
        uint32_t included;
        uint32_t original;
        uint32_t read;
        while (true)
        {
            pcap.Read(buffer, sizeof(buffer), seconds, microseconds, included, original, read);
            if (pcap.Fail())
            {
                break;
            }
            sizes.push_back(original);
        }
        NS_TEST_ASSERT_MSG_EQ(sizes.size(), 3, "two data frames sent, one PAUSE received");
        if (sizes.size() == 3)
        {
            NS_TEST_ASSERT_MSG_EQ(sizes[0], 1000, "");
            NS_TEST_ASSERT_MSG_EQ(sizes[1], 1000, "");
            NS_TEST_ASSERT_MSG_EQ(sizes[2], 64, "");
        }
    }
};

/// The EPS link suite.
class EpsLinkTestSuite : public TestSuite
{
  public:
    EpsLinkTestSuite()
        : TestSuite("photonic-rails-eps-link", UNIT)
    {
        AddTestCase(new EpsFrameTimingTestCase, TestCase::QUICK);
        AddTestCase(new EpsLineRateTestCase, TestCase::QUICK);
        AddTestCase(new EpsPauseResumeTestCase, TestCase::QUICK);
        AddTestCase(new EpsPauseAheadOfQueueTestCase, TestCase::QUICK);
        AddTestCase(new EpsPauseCancelTestCase, TestCase::QUICK);
        AddTestCase(new EpsNetworkControlTestCase, TestCase::QUICK);
        AddTestCase(new EpsOversizeTestCase, TestCase::QUICK);
        AddTestCase(new EpsPcapTestCase, TestCase::QUICK);
    }
};

static EpsLinkTestSuite g_epsLinkTestSuite; //!< Static instance

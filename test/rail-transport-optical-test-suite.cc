/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RailTransport over OCS circuits: completion times against the closed form, striping,
 * recovery from frames lost to a reconfiguration, and waiting for a circuit.
 */

#include "rail-transport-test-bed.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::tests;

namespace
{
/// Bits on the wire for \p bytes of message in 4096-byte frames with 62 bytes of headers
/// (Ethernet 14 + RoCEv2-sized transport header 48).
double
WireBits(uint64_t bytes)
{
    uint64_t frames = (bytes + 4095) / 4096;
    return 8.0 * (bytes + frames * 62);
}
} // namespace

/// S bytes over one circuit arrive after S plus per-frame headers at line rate, plus fibers.
class TransportCompletionTestCase : public TestCase
{
  public:
    TransportCompletionTestCase()
        : TestCase("a message completes in bytes plus headers over the rate, plus fibers")
    {
    }

  private:
    void DoRun() override
    {
        OpticalTransportBed bed(2, 1, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(bed.Circuits(0, 1, 1));
        const uint64_t bytes = 1 << 20; // 256 frames of 4096 bytes
        Time sentAt;
        Simulator::Schedule(MicroSeconds(1), [&]() {
            bed.transports[0]->Send(1, bytes, Callback<void, uint64_t>([&](uint64_t) {
                                        sentAt = Simulator::Now();
                                    }));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "one message");
        // 256 x 4158 bytes x 8 / 100 Gb/s = 85,155.84 ns, plus two 50 ns fibers.
        double expectedNs = 1000 + WireBits(bytes) / 100e9 * 1e9 + 100;
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.deliveries[1][0].at.GetNanoSeconds(),
                                  expectedNs,
                                  1.0,
                                  "receiver completion");
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1][0].bytes, bytes, "");
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1][0].from, 0, "");
        // The sender completes when the last ACK (62 bytes: 4.96 ns) crosses back.
        NS_TEST_ASSERT_MSG_EQ_TOL(sentAt.GetNanoSeconds(), expectedNs + 4.96 + 100, 1.0, "");
        const auto& c = bed.transports[0]->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(c.dataFrames, 256, "no retransmission");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[1]->GetCounters().payloadBytesReceived, bytes, "");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[0]->GetPendingMessageCount(), 0, "");
    }
};

/// Two 200 Gb/s ports to the same peer deliver 400 Gb/s.
class TransportStripingTestCase : public TestCase
{
  public:
    TransportStripingTestCase()
        : TestCase("a message is striped over both 200G ports: 400G delivered")
    {
    }

  private:
    void DoRun() override
    {
        OpticalTransportBed bed(2, 2, DataRate("200Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(bed.Circuits(0, 1, 2));
        const uint64_t bytes = 8 << 20;
        bed.transports[0]->Send(1, bytes);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "");
        // Each port carries half: 4 MiB at 200 Gb/s, the time 8 MiB take at 400 Gb/s.
        double expectedNs = WireBits(bytes / 2) / 200e9 * 1e9 + 100;
        double measuredNs = bed.deliveries[1][0].at.GetNanoSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(measuredNs, expectedNs, expectedNs * 0.01, "within 1%");
        double goodput = 8.0 * bytes / (measuredNs * 1e-9);
        NS_TEST_ASSERT_MSG_GT(goodput, 0.98 * 400e9 * 4096 / 4158, "about 400G of payload");
    }
};

/// Frames lost to a blackout are recovered; the transfer pauses while the circuit is away.
class TransportBlackoutRecoveryTestCase : public TestCase
{
  public:
    TransportBlackoutRecoveryTestCase()
        : TestCase("frames lost to a reconfiguration are retransmitted; every byte arrives")
    {
    }

  private:
    void DoRun() override
    {
        // Long fibers (2 us) so frames are in flight when the circuit is cut.
        OpticalTransportBed bed(3, 1, DataRate("100Gbps"), MicroSeconds(2), MicroSeconds(10));
        bed.ocs->Preset(bed.Circuits(0, 1, 1));
        const uint64_t bytes = 4 << 20; // about 340 us at 100 Gb/s
        bed.transports[0]->Send(1, bytes);
        const uint32_t NO = OpticalCircuitSwitch::NO_PORT;
        // At 50 us GPU0 is moved to GPU2; at 100 us it comes back to GPU1.
        Simulator::Schedule(MicroSeconds(50), [&]() {
            bed.ocs->Reconfigure({{0, 2}, {2, 0}, {1, NO}});
        });
        Simulator::Schedule(MicroSeconds(100), [&]() {
            bed.ocs->Reconfigure({{0, 1}, {1, 0}, {2, NO}});
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "delivered once");
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1][0].bytes, bytes, "");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[1]->GetCounters().payloadBytesReceived,
                              bytes,
                              "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_GT(bed.ocs->GetFramesLost(), 0, "the cut lost frames in flight");
        NS_TEST_ASSERT_MSG_GT(bed.transports[0]->GetCounters().retransmittedFrames, 0, "");
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[2].size(), 0, "nothing went to GPU2");
        // The circuit is back at 110 us; the rest then needs at least its own wire time.
        NS_TEST_ASSERT_MSG_GT(bed.deliveries[1][0].at, MicroSeconds(110), "");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[0]->GetPendingMessageCount(), 0, "");
    }
};

/// A message to a GPU no circuit reaches waits, then goes when the circuit comes up.
class TransportWaitsForCircuitTestCase : public TestCase
{
  public:
    TransportWaitsForCircuitTestCase()
        : TestCase("a message with no circuit to its peer waits for one")
    {
    }

  private:
    void DoRun() override
    {
        OpticalTransportBed bed(3, 1, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(5));
        bed.ocs->Preset(bed.Circuits(0, 2, 1));
        bed.transports[0]->Send(1, 4096);
        const uint32_t NO = OpticalCircuitSwitch::NO_PORT;
        Simulator::Schedule(MicroSeconds(10), [&]() {
            bed.ocs->Reconfigure({{0, 1}, {1, 0}, {2, NO}});
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "");
        // Up at 15 us; one 4158-byte frame at 100 Gb/s = 332.64 ns; fibers 100 ns.
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.deliveries[1][0].at.GetNanoSeconds(),
                                  15000 + 332.64 + 100,
                                  1.0,
                                  "");
    }
};

/// Circuits to the same peer re-paired mid-transfer (port 0 <-> port 1 crossed): the QPs
/// follow their circuits and the transfer completes.
class TransportRepairedCircuitsTestCase : public TestCase
{
  public:
    TransportRepairedCircuitsTestCase()
        : TestCase("a transfer survives its circuits being re-paired to other peer ports")
    {
    }

  private:
    void DoRun() override
    {
        OpticalTransportBed bed(2, 2, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(5));
        bed.ocs->Preset(bed.Circuits(0, 1, 2)); // port k of GPU 0 <-> port k of GPU 1
        const uint64_t bytes = 4 << 20;
        bed.transports[0]->Send(1, bytes);
        Simulator::Schedule(MicroSeconds(10), [&]() {
            // GPU 0's port 0 to GPU 1's port 1 and the other way round.
            bed.ocs->SetConfiguration(OpticalCircuitSwitch::Duplex(
                {{bed.Port(0, 0), bed.Port(1, 1)}, {bed.Port(0, 1), bed.Port(1, 0)}}));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "delivered");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[1]->GetCounters().payloadBytesReceived, bytes, "");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[0]->GetPendingMessageCount(), 0, "acknowledged");
    }
};

/// Sets an attribute default of RailTransport for one test and restores it after.
class TransportDefault
{
  public:
    TransportDefault(const std::string& name, uint64_t value, uint64_t usual)
        : m_name("ns3::RailTransport::" + name),
          m_usual(usual)
    {
        Config::SetDefault(m_name, UintegerValue(value));
    }

    ~TransportDefault()
    {
        Config::SetDefault(m_name, UintegerValue(m_usual));
    }

  private:
    std::string m_name; //!< Full attribute name
    uint64_t m_usual;   //!< Default to restore
};

/// PSNs are 64-bit: a connection whose PSNs cross 2^32 mid-message completes as any other
/// (with 32-bit PSNs the queued end wrapped below the next PSN and nothing was ever sent).
class TransportPsnPast32BitsTestCase : public TestCase
{
  public:
    TransportPsnPast32BitsTestCase()
        : TestCase("a message whose PSNs cross 2^32 completes in the closed-form time")
    {
    }

  private:
    void DoRun() override
    {
        // Frames 0-99 take PSNs 2^32 - 100 .. 2^32 - 1, frames 100-255 PSNs 2^32 and up.
        TransportDefault psn("InitialPsn", (uint64_t(1) << 32) - 100, 0);
        OpticalTransportBed bed(2, 1, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(bed.Circuits(0, 1, 1));
        const uint64_t bytes = 1 << 20; // 256 frames of 4096 bytes
        Simulator::Schedule(MicroSeconds(1), [&]() { bed.transports[0]->Send(1, bytes); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "one message");
        // As from PSN 0: 256 x 4158 bytes x 8 / 100 Gb/s = 85,155.84 ns, plus two 50-ns fibers.
        double expectedNs = 1000 + WireBits(bytes) / 100e9 * 1e9 + 100;
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.deliveries[1][0].at.GetNanoSeconds(),
                                  expectedNs,
                                  1.0,
                                  "receiver completion");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[0]->GetCounters().dataFrames,
                              256,
                              "no retransmission");
        NS_TEST_ASSERT_MSG_EQ(bed.transports[0]->GetPendingMessageCount(), 0, "acknowledged");
    }
};

/// A message of more than 2^32 frames streams at line rate (a 32-bit frame count kept
/// 1 frame of 2^32 + 1: one byte was sent and the run was reported stuck).
class TransportMoreThan2To32FramesTestCase : public TestCase
{
  public:
    TransportMoreThan2To32FramesTestCase()
        : TestCase("a message of 2^32 + 1 one-byte frames streams at line rate")
    {
    }

  private:
    void DoRun() override
    {
        TransportDefault mtu("Mtu", 1, 4096);
        OpticalTransportBed bed(2, 1, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
        bed.ocs->Preset(bed.Circuits(0, 1, 1));
        const uint64_t bytes = (uint64_t(1) << 32) + 1;
        Simulator::Schedule(MicroSeconds(1), [&]() { bed.transports[0]->Send(1, bytes); });
        // Simulating all of it would take hours: look at the first 10 us of it.
        Simulator::Stop(MicroSeconds(11));
        Simulator::Run();
        // A frame is 1 + 62 bytes = 504 bits: 5.04 ns at 100 Gb/s, back to back from t = 1 us,
        // each arriving two 50-ns fibers after its last bit. By 11 us: floor(9900 / 5.04) =
        // 1964 frames.
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.transports[1]->GetCounters().payloadBytesReceived,
                                  1964,
                                  1,
                                  "one byte per frame, at line rate");
        NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 0, "the message is far from complete");
    }
};

/**
 * A window below AckInterval (16) is acknowledged when it is full, as an RDMA NIC asks for
 * an ACK, instead of waiting for a retransmission timeout: 1 MiB (N = 256 frames) over one
 * 100 G circuit with 50 ns fibers, sent at 1 us. A window of W frames leaves back to back
 * (W x 332.64 ns), its last frame reaches the receiver 100 ns later and the ACK (4.96 ns)
 * 100 ns after that opens the next one: the receiver completes at
 * 1 us + (N / W - 1) (W x 332.64 + 204.96) + W x 332.64 + 100 ns, within 3 ns (frames and
 * ACKs take whole nanoseconds, exact on average over the frames but not the ACKs). Before,
 * every window below 16 frames waited for the 1 ms retransmission timeout.
 */
class TransportSmallWindowTestCase : public TestCase
{
  public:
    TransportSmallWindowTestCase()
        : TestCase("a window below AckInterval is acknowledged when full (closed form)")
    {
    }

  private:
    void DoRun() override
    {
        const double frameNs = 4158 * 8 / 100.0;
        const double ackNs = 62 * 8 / 100.0;
        const uint64_t frames = 256;
        for (uint32_t window : {1u, 4u, 15u, 16u})
        {
            OpticalTransportBed bed(2, 1, DataRate("100Gbps"), NanoSeconds(50), MicroSeconds(1));
            bed.ocs->Preset(bed.Circuits(0, 1, 1));
            bed.transports[0]->SetAttribute("Window", UintegerValue(window));
            Simulator::Schedule(MicroSeconds(1),
                                [&]() { bed.transports[0]->Send(1, frames * 4096); });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(bed.deliveries[1].size(), 1, "window " << window);
            double rounds = std::ceil(double(frames) / window);
            double last = frames - (rounds - 1) * window; // frames in the last window
            double expectedNs =
                1000 + (rounds - 1) * (window * frameNs + 200 + ackNs) + last * frameNs + 100;
            NS_TEST_ASSERT_MSG_EQ_TOL(bed.deliveries[1][0].at.GetNanoSeconds(),
                                      expectedNs,
                                      3.0,
                                      "window " << window);
            NS_TEST_ASSERT_MSG_EQ(bed.transports[0]->GetCounters().timeouts, 0, "no timeout");
        }
    }
};

/// The optical transport suite.
class RailTransportOpticalTestSuite : public TestSuite
{
  public:
    RailTransportOpticalTestSuite()
        : TestSuite("photonic-rails-rail-transport-optical", UNIT)
    {
        AddTestCase(new TransportCompletionTestCase, TestCase::QUICK);
        AddTestCase(new TransportStripingTestCase, TestCase::QUICK);
        AddTestCase(new TransportBlackoutRecoveryTestCase, TestCase::QUICK);
        AddTestCase(new TransportWaitsForCircuitTestCase, TestCase::QUICK);
        AddTestCase(new TransportRepairedCircuitsTestCase, TestCase::QUICK);
        AddTestCase(new TransportPsnPast32BitsTestCase, TestCase::QUICK);
        AddTestCase(new TransportMoreThan2To32FramesTestCase, TestCase::QUICK);
        AddTestCase(new TransportSmallWindowTestCase, TestCase::QUICK);
    }
};

static RailTransportOpticalTestSuite g_railTransportOpticalTestSuite; //!< Static instance

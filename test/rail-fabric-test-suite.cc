/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Rail fabrics built by RailFabricHelper, with RailTransport across them: wiring counts
 * against the Clos formulas, completion times against the closed form on every rail kind
 * and through the scale-up domain (directly and PXN), fair sharing, ECMP spreading, incast
 * with PFC (lossless) and without (losses recovered), and a 2-port exchange on a small Clos
 * at the closed form of its ECMP placement, with and without DCQCN. Expected values are derived
 * by hand in each test.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <array>
#include <map>
#include <numeric>

using namespace ns3;

namespace
{

constexpr double FRAME_OVERHEAD = 62; // Ethernet 14 + RoCEv2-sized transport header 48
constexpr double MTU = 4096;

/// Wire time in ns of one full frame at \p bps.
double
FrameNs(double bps)
{
    return (MTU + FRAME_OVERHEAD) * 8 / bps * 1e9;
}

/// A fabric and the completion times of the messages it received.
struct Bed
{
    Ptr<RailFabric> fabric;
    std::map<std::pair<uint32_t, uint32_t>, Time> received; //!< (from, to) -> completion

    explicit Bed(RailFabricSpec spec, std::function<void(RailFabricHelper&)> tune = {})
    {
        RailFabricHelper helper;
        helper.SetSpec(spec);
        helper.SetEpsChannelAttribute("Delay", TimeValue(NanoSeconds(100)));
        helper.SetEpsSwitchAttribute("ProcessingDelay", TimeValue(NanoSeconds(300)));
        helper.SetOcsDeviceAttribute("FiberDelay", TimeValue(NanoSeconds(100)));
        if (tune)
        {
            tune(helper);
        }
        fabric = helper.Build();
        for (uint32_t gpu = 0; gpu < spec.Gpus(); ++gpu)
        {
            fabric->GetTransport(gpu)->SetReceiveCallback(
                Callback<void, uint32_t, uint64_t, uint64_t>(
                    [this, gpu](uint32_t from, uint64_t, uint64_t) {
                        received[{from, gpu}] = Simulator::Now();
                    }));
        }
    }

    ~Bed()
    {
        Simulator::Destroy();
    }

    double ReceivedNs(uint32_t from, uint32_t to)
    {
        auto it = received.find({from, to});
        return it == received.end() ? -1 : it->second.GetNanoSeconds();
    }
};

RailFabricSpec
Spec(uint32_t servers, uint32_t gpusPerServer, RailKind kind, uint64_t nicBps = 100000000000)
{
    RailFabricSpec spec;
    spec.servers = servers;
    spec.gpusPerServer = gpusPerServer;
    spec.kind = kind;
    spec.nicPortBps = nicBps;
    spec.scaleUpBps = 800000000000;
    return spec;
}

} // namespace

/// Switch and port counts of Clos rails equal the formulas, for several sizes.
class ClosWiringTestCase : public TestCase
{
  public:
    ClosWiringTestCase()
        : TestCase("Clos rails have the switch and port counts of the formulas")
    {
    }

  private:
    void Check(uint32_t servers, uint32_t radix, uint32_t switches, uint64_t ports)
    {
        RailFabricSpec spec = Spec(servers, 2, RailKind::EPS_CLOS);
        spec.switchRadix = radix;
        Bed bed(spec);
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetRailSwitchCount(), 2 * switches, servers);
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetRailSwitchPortCount(), 2 * ports, servers);
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetClosPlan().Switches(), switches, servers);
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetClosPlan().PortsUsed(), ports, servers);
    }

    void DoRun() override
    {
        // 24 ports, radix 16: 3 leaves (8 down, 8 up) + 2 spines of 12 ports:
        // 5 switches, 3 x 16 + 2 x 12 = 72 ports per rail.
        Check(24, 16, 5, 72);
        // 64 ports, radix 16: 8 leaves + 4 spines (2 links per pair, 16 ports each):
        // 12 switches, 8 x 16 + 4 x 16 = 192 ports.
        Check(64, 16, 12, 192);
        // 128 ports, radix 64: 4 leaves + 2 spines (16 links per pair): 6 switches, 384.
        Check(128, 64, 6, 384);
        // A single switch when the rail fits the radix: eps stays eps.
        Bed single(Spec(16, 2, RailKind::EPS));
        NS_TEST_ASSERT_MSG_EQ(single.fabric->GetRailSwitchCount(), 2, "one switch per rail");
        NS_TEST_ASSERT_MSG_EQ(single.fabric->GetRailSwitchPortCount(), 32, "16 per rail");
    }
};

/// One message on an idle path completes at the closed form on every rail kind.
class UncontendedCompletionTestCase : public TestCase
{
  public:
    UncontendedCompletionTestCase()
        : TestCase("a message completes at the closed form on ocs, eps and eps-clos rails")
    {
    }

  private:
    /// 1 MiB = 256 full frames from GPU 0 (server 0) to the GPU on the same rail of
    /// server \p toServer; returns the completion in ns.
    double Run(RailFabricSpec spec, uint32_t toServer)
    {
        Bed bed(spec);
        uint32_t to = toServer * spec.gpusPerServer;
        if (spec.kind == RailKind::OCS)
        {
            Ptr<OpticalCircuitSwitch> ocs = bed.fabric->GetOcs(0);
            ocs->Preset(OpticalCircuitSwitch::Duplex(
                {{bed.fabric->GetOcsPort(0, 0), bed.fabric->GetOcsPort(to, 0)}}));
        }
        bed.fabric->GetTransport(0)->Send(to, 1 << 20);
        Simulator::Run();
        return bed.ReceivedNs(0, to);
    }

    void DoRun() override
    {
        double t = FrameNs(100e9); // 332.64 ns
        // OCS: 256 frames back to back, then two 100 ns fibers.
        double ocs = Run(Spec(4, 1, RailKind::OCS), 1);
        NS_TEST_ASSERT_MSG_EQ_TOL(ocs, 256 * t + 200, 1.0, "ocs");
        // One switch: store-and-forward adds one frame time, 300 ns and a second link.
        double eps = Run(Spec(4, 1, RailKind::EPS), 1);
        NS_TEST_ASSERT_MSG_EQ_TOL(eps, 256 * t + t + 300 + 200, 1.0, "eps");
        // Clos, across leaves: three switches, four links.
        RailFabricSpec clos = Spec(4, 1, RailKind::EPS_CLOS);
        clos.switchRadix = 4; // 2 down, 2 up: servers 0-1 on leaf 0, 2-3 on leaf 1
        double across = Run(clos, 2);
        NS_TEST_ASSERT_MSG_EQ_TOL(across, 256 * t + 3 * t + 3 * 300 + 400, 1.0, "eps-clos");
        double within = Run(clos, 1);
        NS_TEST_ASSERT_MSG_EQ_TOL(within, 256 * t + t + 300 + 200, 1.0, "same leaf");
    }
};

/// Inside a server the scale-up switch carries the message; across rails, PXN.
class ScaleUpAndPxnTestCase : public TestCase
{
  public:
    ScaleUpAndPxnTestCase()
        : TestCase("scale-up transfers and PXN forwarding through the local GPU")
    {
    }

  private:
    void DoRun() override
    {
        // GPUs 0, 1 on server 0; 2, 3 on server 1. Same server: scale-up at 800 G.
        double su = FrameNs(800e9);
        {
            Bed direct(Spec(2, 2, RailKind::EPS));
            direct.fabric->GetTransport(0)->Send(1, 1 << 20);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ_TOL(direct.ReceivedNs(0, 1), 256 * su + su + 300 + 200, 1.0, "");
        }
        // Other server, other rail: PXN. GPU 0 -> GPU 1 (scale-up), then GPU 1 -> GPU 3 over
        // rail 1 at 100 G, forwarded frame by frame: the rail is the bottleneck, so the
        // transfer takes its rail time plus the time the first frame needs to reach the
        // proxy (one frame at 800 G twice, the scale-up switch, two links).
        Bed bed(Spec(2, 2, RailKind::EPS));
        bed.fabric->GetTransport(0)->Send(3, 1 << 20);
        Simulator::Run();
        double rail = 256 * FrameNs(100e9) + FrameNs(100e9) + 300 + 200;
        double firstFrameAtProxy = 2 * su + 300 + 200;
        double pxn = bed.ReceivedNs(0, 3);
        // To 3 ns: each serialization clock on the path rounds to the ns independently.
        NS_TEST_ASSERT_MSG_EQ_TOL(pxn, rail + firstFrameAtProxy, 3.0, "rail + first frame");
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetTransport(0)->GetCounters().messagesRelayed, 1, "");
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetTransport(1)->GetCounters().messagesForwarded, 1, "");
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetTransport(0)->GetPendingMessageCount(),
                              0,
                              "the sender saw both complete");
    }
};

/**
 * Two long flows into one egress share it evenly and keep it busy. With PFC alone the egress
 * alternates between them frame by frame: each ends at both transfers' wire time. With DCQCN
 * (ConnectX's defaults) the start oscillates and a flow left alone at the end climbs back
 * slowly (DCQCN's fixed increase steps), so the completion times say little; once both send
 * (8-16 ms) the egress is at least 90% busy (issue 27's target) and neither flow starves,
 * whatever the random ECN marks.
 */
class FairShareTestCase : public TestCase
{
  public:
    FairShareTestCase()
        : TestCase("two flows into one egress: even shares, the egress busy, PFC or DCQCN")
    {
    }

  private:
    /// What one run measured.
    struct Shares
    {
        double endNs[2];       //!< Completion times
        double windowBytes[2]; //!< Frame bytes each delivered in [8, 16) ms
    };

    /// \param stream seeds the ECN marks
    Shares Run(bool dcqcn, int64_t stream)
    {
        Bed bed(Spec(3, 1, RailKind::EPS), [dcqcn](RailFabricHelper& helper) {
            helper.SetTransportAttribute("Dcqcn", BooleanValue(dcqcn));
        });
        // Fixed streams: ECN marking draws random numbers, and without this the draws
        // depended on how many streams earlier suites in the same process had taken.
        bed.fabric->AssignStreams(stream);
        Shares shares{};
        bool counting = false;
        bed.fabric->GetEndpoints()->GetPorts(2)[0]->TraceConnectWithoutContext(
            "MacRx",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet> frame) {
                RailTransportHeader header;
                frame->PeekHeader(header);
                if (counting && header.kind == RailTransportHeader::DATA)
                {
                    shares.windowBytes[header.sourceGpu] += frame->GetSize();
                }
            }));
        Simulator::Schedule(MilliSeconds(8), [&counting]() { counting = true; });
        Simulator::Schedule(MilliSeconds(16), [&counting]() { counting = false; });
        for (uint32_t from : {0u, 1u})
        {
            bed.fabric->GetTransport(from)->Send(2, 128 << 20); // 32768 frames each
        }
        Simulator::Run();
        shares.endNs[0] = bed.ReceivedNs(0, 2);
        shares.endNs[1] = bed.ReceivedNs(1, 2);
        return shares;
    }

    void DoRun() override
    {
        double both = 2 * 32768 * FrameNs(100e9);
        Shares pfc = Run(false, 0);
        NS_TEST_ASSERT_MSG_EQ_TOL(pfc.endNs[0], both, both * 0.05, "PFC: flow 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(pfc.endNs[1], both, both * 0.05, "PFC: flow 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(std::max(pfc.endNs[0], pfc.endNs[1]),
                                  both + FrameNs(100e9) + 500,
                                  both * 0.01,
                                  "PFC: the egress never idles");
        // 8 ms of the egress at line rate, in the bytes MacRx sees (the Ethernet header
        // removed).
        const double window = 8e6 / FrameNs(100e9) * (MTU + FRAME_OVERHEAD - 14);
        for (int64_t stream = 0; stream < 10; ++stream)
        {
            Shares d = Run(true, stream);
            std::string which = "DCQCN, stream " + std::to_string(stream);
            double total = d.windowBytes[0] + d.windowBytes[1];
            NS_TEST_ASSERT_MSG_GT_OR_EQ(total, 0.9 * window, which << ": egress >= 90% busy");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(total, window * 1.001, which << ": at most line rate");
            // Neither starves. 50% +- 5% is issue 27's target, which ConnectX's defaults do
            // not reach at 100 Gb/s: once the queue stays below Kmin no mark comes, and 5 Mb/s
            // steps take tens of ms to even out the shares (0.42-0.61 here, 0.42-0.58 over
            // 80 ms; the design doc's "DCQCN" section).
            NS_TEST_ASSERT_MSG_EQ_TOL(d.windowBytes[0] / total, 0.5, 0.25, which << ": share 0");
        }
    }
};

/**
 * QpsPerConnection (NCCL_IB_QPS_PER_CONNECTION): a message to a peer is spread over that many
 * QPs per port, evenly, each with its own flow label (so ECMP hashes them apart). 1 MiB over
 * one port with 4 QPs arrives as 4 x 64 frames on 4 labels, and the port's round robin over
 * them keeps the line busy: the last frame lands at the single-QP closed form.
 */
class QpsPerConnectionTestCase : public TestCase
{
  public:
    QpsPerConnectionTestCase()
        : TestCase("QpsPerConnection: a message over 4 QPs of one port, at the line rate")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(Spec(2, 1, RailKind::EPS), [](RailFabricHelper& helper) {
            helper.SetTransportAttribute("QpsPerConnection", UintegerValue(4));
        });
        std::map<uint32_t, uint32_t> framesPerLabel;
        bed.fabric->GetEndpoints()->GetPorts(1)[0]->TraceConnectWithoutContext(
            "MacRx",
            Callback<void, Ptr<const Packet>>([&framesPerLabel](Ptr<const Packet> frame) {
                RailTransportHeader header;
                frame->PeekHeader(header);
                if (header.kind == RailTransportHeader::DATA)
                {
                    ++framesPerLabel[header.label];
                }
            }));
        bed.fabric->GetTransport(0)->Send(1, 1 << 20);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(framesPerLabel.size(), 4, "four QPs, four flow labels");
        for (const auto& [label, frames] : framesPerLabel)
        {
            NS_TEST_ASSERT_MSG_EQ(frames, 64, "a quarter of 256 frames on label " << label);
        }
        double t = FrameNs(100e9);
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.ReceivedNs(0, 1), 256 * t + t + 300 + 200, 1.0, "");
    }
};

/// Many flows across a Clos rail spread over every uplink.
class EcmpSpreadTestCase : public TestCase
{
  public:
    EcmpSpreadTestCase()
        : TestCase("ECMP spreads many flows over the uplinks of a leaf")
    {
    }

  private:
    void DoRun() override
    {
        // Radix 16: 8 servers per leaf, 2 leaves, 1 spine, 8 parallel uplinks per leaf.
        RailFabricSpec spec = Spec(16, 1, RailKind::EPS_CLOS);
        spec.switchRadix = 16;
        Bed bed(spec);
        for (uint32_t from = 0; from < 8; ++from)
        {
            for (uint32_t to = 8; to < 16; ++to)
            {
                bed.fabric->GetTransport(from)->Send(to, 4096); // one frame per flow
            }
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.received.size(), 64, "every flow delivered");
        Ptr<Node> leaf = bed.fabric->GetRailSwitches(0)[0]->GetObject<Node>();
        std::vector<uint64_t> perUplink;
        for (uint32_t p = 8; p < 16; ++p) // ports 0-7 face NICs, 8-15 the spine
        {
            auto device = DynamicCast<EpsNetDevice>(leaf->GetDevice(p));
            perUplink.push_back(device->GetCounters().framesSent);
        }
        uint64_t total = std::accumulate(perUplink.begin(), perUplink.end(), uint64_t(0));
        NS_TEST_ASSERT_MSG_EQ(total, 64, "64 data frames went up");
        for (uint64_t frames : perUplink)
        {
            NS_TEST_ASSERT_MSG_GT(frames, 0, "every uplink used");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(frames, 24, "none carries 3x its share (8)");
        }
    }
};

/// 8-to-1 incast: lossless with PFC; with drop-tail, losses are recovered.
class IncastTestCase : public TestCase
{
  public:
    IncastTestCase()
        : TestCase("8-to-1 incast: no loss under PFC, losses recovered under drop-tail")
    {
    }

  private:
    void Run(bool pfc, uint64_t& drops, uint64_t& retransmitted, double& lastNs)
    {
        const uint64_t bytes = 1 << 20;
        Bed bed(Spec(9, 1, RailKind::EPS), [pfc](RailFabricHelper& helper) {
            helper.SetEpsSwitchAttribute("PfcEnabled", BooleanValue(pfc));
            helper.SetEpsSwitchAttribute("BufferSize", UintegerValue(2 << 20));
            helper.SetTransportAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
            helper.SetTransportAttribute("Dcqcn", BooleanValue(false)); // PFC or loss alone
        });
        for (uint32_t from = 1; from <= 8; ++from)
        {
            bed.fabric->GetTransport(from)->Send(0, bytes);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(bed.received.size(), 8, "every message delivered");
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetTransport(0)->GetCounters().payloadBytesReceived,
                              8 * bytes,
                              "bytes delivered = bytes sent");
        drops = bed.fabric->GetRailSwitches(0)[0]->GetCounters().framesDroppedBufferFull;
        retransmitted = 0;
        lastNs = 0;
        for (uint32_t from = 1; from <= 8; ++from)
        {
            retransmitted += bed.fabric->GetTransport(from)->GetCounters().retransmittedFrames;
            lastNs = std::max(lastNs, bed.ReceivedNs(from, 0));
        }
    }

    void DoRun() override
    {
        uint64_t drops = 0;
        uint64_t retransmitted = 0;
        double lastNs = 0;
        Run(true, drops, retransmitted, lastNs);
        NS_TEST_ASSERT_MSG_EQ(drops, 0, "PFC: lossless");
        NS_TEST_ASSERT_MSG_EQ(retransmitted, 0, "PFC: nothing resent");
        // The receiver's link is the bottleneck: 8 x 256 frames at 100 G, then the last
        // frame's second hop.
        double bound = 8 * 256 * FrameNs(100e9);
        NS_TEST_ASSERT_MSG_EQ_TOL(lastNs, bound, bound * 0.01, "PFC: at the egress rate");
        Run(false, drops, retransmitted, lastNs);
        NS_TEST_ASSERT_MSG_GT(drops, 0, "drop-tail: the 2 MiB buffer overflowed");
        NS_TEST_ASSERT_MSG_GT(retransmitted, 0, "drop-tail: losses were recovered");
    }
};

/**
 * With ECN and DCQCN, an incast draws CNPs and the senders slow down, losslessly, yet keep
 * the egress busy: 4 x 16 MiB into one port ends within 20% of the egress's wire time for
 * them at 100 Gb/s (issue 27's target), within 50% at 400 Gb/s, whatever the ECN marks.
 */
class DcqcnIncastTestCase : public TestCase
{
  public:
    DcqcnIncastTestCase()
        : TestCase("DCQCN reacts to ECN marks in an incast and keeps the egress busy")
    {
    }

  private:
    void Run(uint64_t bps, int64_t stream)
    {
        Bed bed(Spec(5, 1, RailKind::EPS, bps), [](RailFabricHelper& helper) {
            helper.SetTransportAttribute("Dcqcn", BooleanValue(true));
        });
        bed.fabric->AssignStreams(stream);
        uint32_t rateCuts = 0;
        for (uint32_t from = 1; from <= 4; ++from)
        {
            bed.fabric->GetTransport(from)->TraceConnectWithoutContext(
                "Rate",
                Callback<void, uint32_t, double>([&](uint32_t, double) { ++rateCuts; }));
            bed.fabric->GetTransport(from)->Send(0, 16 << 20); // 4096 frames each
        }
        Simulator::Run();
        std::string which =
            std::to_string(bps / 1000000000) + "G, stream " + std::to_string(stream);
        NS_TEST_ASSERT_MSG_EQ(bed.received.size(), 4, which);
        NS_TEST_ASSERT_MSG_GT(bed.fabric->GetTransport(0)->GetCounters().cnpsSent, 0, which);
        NS_TEST_ASSERT_MSG_GT(rateCuts, 0, which << ": senders cut their rates");
        NS_TEST_ASSERT_MSG_EQ(
            bed.fabric->GetRailSwitches(0)[0]->GetCounters().framesDroppedBufferFull,
            0,
            which);
        double last = 0;
        for (uint32_t from = 1; from <= 4; ++from)
        {
            last = std::max(last, bed.ReceivedNs(from, 0));
        }
        double wire = 4 * 4096 * FrameNs(bps);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(last, wire, which << ": at most at the egress rate");
        // Issue 27's target, 20%, holds at 100 Gb/s; at 400 Gb/s ConnectX's fixed increase
        // steps leave the last flows below the freed egress for longer (+16% to +37% over
        // seeds 1-10 in photonic-rails-sim): bounded at 50%, no collapse.
        double bound = bps == 100000000000 ? 1.2 : 1.5;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(last, wire * bound, which << ": within the bound");
    }

    void DoRun() override
    {
        for (uint64_t bps : {100000000000, 400000000000})
        {
            for (int64_t stream = 0; stream < 10; ++stream)
            {
                Run(bps, stream);
            }
        }
    }
};

/// A slow port never times out spuriously: the timeout covers one ACK interval of frames.
class SlowPortTimeoutTestCase : public TestCase
{
  public:
    SlowPortTimeoutTestCase()
        : TestCase("a 400 Mbps port sends 4 MiB without a spurious timeout")
    {
    }

  private:
    void DoRun() override
    {
        // 16 frames at 400 Mb/s take 1.33 ms, more than the 1 ms RetransmitTimeout alone.
        Bed bed(Spec(2, 1, RailKind::EPS, 400000000));
        bed.fabric->GetTransport(0)->Send(1, 4 << 20);
        Simulator::Run();
        double expected = 1024 * FrameNs(400e6) + FrameNs(400e6) + 500;
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.ReceivedNs(0, 1), expected, 1.0, "at line rate");
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetTransport(0)->GetCounters().timeouts, 0, "");
        NS_TEST_ASSERT_MSG_EQ(bed.fabric->GetTransport(0)->GetCounters().retransmittedFrames,
                              0,
                              "");
    }
};

/**
 * Issue 11, item 9: a 2-GPU exchange (each GPU sends 32 MiB to the other at once) over 2
 * NIC ports of 200 Gb/s on a 1:1 Clos of radix 4. ClosPlan: 2 down and 2 up ports per leaf;
 * GPU 0's ports on leaf 0, GPU 1's on leaf 1; one spine with 2 parallel links to each leaf
 * (spine ports 0-1 to leaf 0, 2-3 to leaf 1). A GPU sends over 2 QPs, port k to the peer's
 * port k, 16 MiB (4096 frames) each; each QP is one ECMP flow, hashed at its leaf (2
 * uplinks) and at the spine (2 links down). If both QPs of a direction share a link at
 * either stage, that 200 Gb/s link carries 8192 frames: the direction's closed form is
 * 8192 frames at 200 Gb/s, half the line rate of its 2 ports (1 - (1/2)(1/2) = 3/4 of
 * placements); otherwise 4096 frames at 200 Gb/s. Both plus 3 frame times, 3 x 300 ns of
 * switching and 4 x 100 ns of cable for the last frame.
 */
class ClosExchange
{
  public:
    static constexpr uint64_t BYTES = 32 << 20;     //!< Per direction
    static constexpr uint64_t FRAMES_PER_QP = 4096; //!< BYTES / 2 ports / 4096
    static constexpr double PORT_BPS = 200e9;       //!< NIC port rate

    /// Completion (ns) and flows on the busiest link, per direction (0: 0 -> 1, 1: 1 -> 0).
    double doneNs[2]{};
    uint32_t flowsOnBusiestLink[2]{};
    uint32_t cnpsReceived{0}; //!< By both GPUs

    /**
     * \param dcqcn DCQCN on
     * \param seeds ECMP seeds of leaf 0, leaf 1 and the spine (0: the default, node id + 1)
     */
    ClosExchange(bool dcqcn, std::array<uint32_t, 3> seeds = {0, 0, 0})
    {
        RailFabricSpec spec = Spec(2, 1, RailKind::EPS_CLOS, PORT_BPS);
        spec.nicPorts = 2;
        spec.switchRadix = 4;
        Bed bed(spec, [dcqcn](RailFabricHelper& helper) {
            helper.SetTransportAttribute("Dcqcn", BooleanValue(dcqcn));
        });
        const auto& switches = bed.fabric->GetRailSwitches(0); // leaf 0, leaf 1, spine
        for (uint32_t i = 0; i < 3; ++i)
        {
            switches[i]->SetEcmpSeed(seeds[i]);
        }
        bed.fabric->GetTransport(0)->Send(1, BYTES);
        bed.fabric->GetTransport(1)->Send(0, BYTES);
        Simulator::Run();
        doneNs[0] = bed.ReceivedNs(0, 1);
        doneNs[1] = bed.ReceivedNs(1, 0);
        // Where the hash put the flows: data frames on a link, in QPs' worth (a link also
        // carries the other direction's ACKs and CNPs, 1/16 of a QP's frames at most).
        auto flows = [&switches](uint32_t sw, uint32_t port) {
            double frames = switches[sw]->GetPortDevice(port)->GetCounters().framesSent;
            return static_cast<uint32_t>(std::lround(frames / FRAMES_PER_QP));
        };
        flowsOnBusiestLink[0] = std::max({flows(0, 2), flows(0, 3), flows(2, 2), flows(2, 3)});
        flowsOnBusiestLink[1] = std::max({flows(1, 2), flows(1, 3), flows(2, 0), flows(2, 1)});
        cnpsReceived = bed.fabric->GetTransport(0)->GetCounters().cnpsReceived +
                       bed.fabric->GetTransport(1)->GetCounters().cnpsReceived;
    }

    /// \return the closed-form completion of direction \p d for where its flows went.
    double ExpectedNs(uint32_t d) const
    {
        double t = FrameNs(PORT_BPS);
        return flowsOnBusiestLink[d] * FRAMES_PER_QP * t + 3 * t + 3 * 300 + 4 * 100;
    }
};

/// Without DCQCN (PFC alone) an exchange runs at the closed form of its ECMP placement.
class ClosExchangeEcmpTestCase : public TestCase
{
  public:
    ClosExchangeEcmpTestCase()
        : TestCase("2-port exchange on a radix-4 Clos: the rate its ECMP placement allows")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t collided = 0;
        uint32_t spread = 0;
        // The default seeds (node id + 1), then distinct seeds per switch.
        for (uint32_t run = 0; run < 5; ++run)
        {
            std::array<uint32_t, 3> seeds{0, 0, 0};
            if (run > 0)
            {
                seeds = {3 * run + 1, 3 * run + 2, 3 * run + 3};
            }
            ClosExchange exchange(false, seeds);
            for (uint32_t d = 0; d < 2; ++d)
            {
                uint32_t flows = exchange.flowsOnBusiestLink[d];
                NS_TEST_ASSERT_MSG_EQ((flows == 1 || flows == 2), true, "run " << run);
                (flows == 2 ? collided : spread) += 1;
                NS_TEST_ASSERT_MSG_EQ_TOL(exchange.doneNs[d],
                                          exchange.ExpectedNs(d),
                                          exchange.ExpectedNs(d) * 0.01,
                                          "run " << run << " direction " << d);
            }
            if (run == 0)
            {
                // The default seeds put both QPs of each direction on one link: each
                // direction gets 200 x 4096 / 4158 = 197.0 Gb/s of its ports' 394.0.
                NS_TEST_ASSERT_MSG_EQ(exchange.flowsOnBusiestLink[0], 2, "0 -> 1 collides");
                NS_TEST_ASSERT_MSG_EQ(exchange.flowsOnBusiestLink[1], 2, "1 -> 0 collides");
            }
        }
        NS_TEST_ASSERT_MSG_GT(collided, 0, "some placements collide");
        NS_TEST_ASSERT_MSG_GT(spread, 0, "some run at both ports' line rate");
    }
};

/**
 * With DCQCN each direction still completes near its ECMP placement's rate, and the two
 * symmetric directions get the same. Both directions collide (default seeds), and each GPU's
 * CNPs cross the other direction's congested uplink; they are network control, so they do
 * not wait there behind the data (before they were, one direction ended at 101.9 Gb/s and
 * the other at 191.9). Tolerance: DCQCN's start (alpha 1, so the first cuts halve the rates,
 * then recovery at ConnectX's 2 MB byte counter and 300 us timer) costs a few hundred
 * microseconds, a large part of this 1.36 ms transfer (+36% to +45% measured); 50% bounds it.
 */
class ClosExchangeDcqcnTestCase : public TestCase
{
  public:
    ClosExchangeDcqcnTestCase()
        : TestCase("2-port exchange on a radix-4 Clos with DCQCN: both directions near the "
                   "ECMP rate, alike")
    {
    }

  private:
    void DoRun() override
    {
        ClosExchange exchange(true);
        NS_TEST_ASSERT_MSG_GT(exchange.cnpsReceived, 0, "DCQCN reacted");
        for (uint32_t d = 0; d < 2; ++d)
        {
            NS_TEST_ASSERT_MSG_EQ(exchange.flowsOnBusiestLink[d], 2, "direction " << d);
            double expected = exchange.ExpectedNs(d);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(exchange.doneNs[d], expected - 1.0, "direction " << d);
            NS_TEST_ASSERT_MSG_LT_OR_EQ(exchange.doneNs[d], expected * 1.5, "direction " << d);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(exchange.doneNs[0],
                                  exchange.doneNs[1],
                                  exchange.doneNs[0] * 0.03,
                                  "symmetric directions, same rate");
    }
};

/// RingCircuits joins the GPUs of an optical rail into a ring, also an odd one, on 2 ports.
class OpticalRingTestCase : public TestCase
{
  public:
    OpticalRingTestCase()
        : TestCase("ring circuits on an optical rail: every GPU reaches its successor")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t servers : {3u, 4u})
        {
            RailFabricSpec spec = Spec(servers, 1, RailKind::OCS);
            spec.nicPorts = 2;
            Bed bed(spec);
            bed.fabric->GetOcs(0)->Preset(bed.fabric->RingCircuits(0));
            for (uint32_t g = 0; g < servers; ++g)
            {
                bed.fabric->GetTransport(g)->Send((g + 1) % servers, 1 << 20);
            }
            Simulator::Run();
            // Each GPU's successor is one circuit away: 256 frames, then two fibers.
            for (uint32_t g = 0; g < servers; ++g)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(bed.ReceivedNs(g, (g + 1) % servers),
                                          256 * FrameNs(100e9) + 200,
                                          1.0,
                                          servers << " GPUs, flow from " << g);
            }
        }
    }
};

/**
 * Issue 11, review (programs), item 18: two GPUs on an optical rail are each other's both ring
 * neighbours, so RingCircuits joins all their ports; a transfer spreads over them as on a
 * switched rail (port 0 alone gave half the rate to 2 x 200G NICs).
 */
class TwoGpuOpticalRingTestCase : public TestCase
{
  public:
    TwoGpuOpticalRingTestCase()
        : TestCase("ring circuits of two GPUs join every port: a transfer uses them all")
    {
    }

  private:
    void DoRun() override
    {
        RailFabricSpec spec = Spec(2, 1, RailKind::OCS);
        spec.nicPorts = 2;
        Bed bed(spec);
        OcsConnections circuits = bed.fabric->RingCircuits(0);
        NS_TEST_ASSERT_MSG_EQ(circuits.size(), 4, "two duplex circuits, one per port");
        for (uint32_t port = 0; port < 2; ++port)
        {
            // find, not at: the runner goes on after a failed check.
            auto circuit = circuits.find(bed.fabric->GetOcsPort(0, port));
            uint32_t peer =
                circuit == circuits.end() ? OpticalCircuitSwitch::NO_PORT : circuit->second;
            NS_TEST_ASSERT_MSG_EQ(peer,
                                  bed.fabric->GetOcsPort(1, port),
                                  "port " << port << " of GPU 0 leads to the same of GPU 1");
        }
        bed.fabric->GetOcs(0)->Preset(circuits);
        bed.fabric->GetTransport(0)->Send(1, 1 << 20);
        Simulator::Run();
        // Half the MiB on each 100G port: 128 frames, then two fibers of 100 ns (one port
        // alone took 256 frames).
        NS_TEST_ASSERT_MSG_EQ_TOL(bed.ReceivedNs(0, 1),
                                  128 * FrameNs(100e9) + 200,
                                  1.0,
                                  "1 MiB over both ports");
    }
};

/// The rail fabric suite.
class RailFabricTestSuite : public TestSuite
{
  public:
    RailFabricTestSuite()
        : TestSuite("photonic-rails-rail-fabric", UNIT)
    {
        AddTestCase(new ClosWiringTestCase, TestCase::QUICK);
        AddTestCase(new UncontendedCompletionTestCase, TestCase::QUICK);
        AddTestCase(new ScaleUpAndPxnTestCase, TestCase::QUICK);
        AddTestCase(new FairShareTestCase, TestCase::QUICK);
        AddTestCase(new EcmpSpreadTestCase, TestCase::QUICK);
        AddTestCase(new IncastTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnIncastTestCase, TestCase::QUICK);
        AddTestCase(new QpsPerConnectionTestCase, TestCase::QUICK);
        AddTestCase(new SlowPortTimeoutTestCase, TestCase::QUICK);
        AddTestCase(new ClosExchangeEcmpTestCase, TestCase::QUICK);
        AddTestCase(new ClosExchangeDcqcnTestCase, TestCase::QUICK);
        AddTestCase(new OpticalRingTestCase, TestCase::QUICK);
        AddTestCase(new TwoGpuOpticalRingTestCase, TestCase::QUICK);
    }
};

static RailFabricTestSuite g_railFabricTestSuite; //!< Static instance

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fabric specifications: presets, validation, and the leaf-spine wiring formulas, checked
 * against counts worked out by hand.
 */

#include "ns3/config.h"
#include "ns3/flow-fabric-helper.h"
#include "ns3/flow-fabric.h"
#include "ns3/nstime.h"
#include "ns3/rail-fabric-helper.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/rail-fabric.h"
#include "ns3/simulator.h"
#include "ns3/workload-generator-flags.h"
#include "ns3/workload-json.h"

#include <gtest/gtest.h>
#include <tuple>

using namespace ns3;

namespace
{
ClosPlan
Plan(uint32_t endpoints, uint32_t radix, double oversubscription = 1.0)
{
    ClosPlan plan;
    std::string error = ClosPlan::Make(endpoints, radix, oversubscription, plan);
    EXPECT_EQ(error, "") << endpoints << " ports, radix " << radix;
    return plan;
}
} // namespace

TEST(ClosPlan, NonBlockingRailOf128Ports)
{
    // Radix 64 split 32 down / 32 up; 128 / 32 = 4 leaves; 4 x 32 = 128 uplinks need
    // 128 / 64 = 2 spines; 32 / 2 = 16 parallel links per leaf-spine pair; 4 x 16 = 64.
    ClosPlan plan = Plan(128, 64);
    EXPECT_EQ(plan.downPerLeaf, 32u);
    EXPECT_EQ(plan.upPerLeaf, 32u);
    EXPECT_EQ(plan.leaves, 4u);
    EXPECT_EQ(plan.spines, 2u);
    EXPECT_EQ(plan.linksPerPair, 16u);
    EXPECT_EQ(plan.spinePortsUsed, 64u);
    EXPECT_EQ(plan.Switches(), 6u);
    EXPECT_EQ(plan.PortsUsed(), 4u * 64 + 2u * 64);
}

TEST(ClosPlan, SeveralSizes)
{
    // 512 ports: 16 leaves, 512 uplinks -> 8 spines, 4 links each, 64 spine ports.
    ClosPlan p512 = Plan(512, 64);
    EXPECT_EQ(p512.leaves, 16u);
    EXPECT_EQ(p512.spines, 8u);
    EXPECT_EQ(p512.linksPerPair, 4u);
    // 40 ports: 2 leaves (one half full), 64 uplinks -> 1 spine with 32 links per leaf.
    ClosPlan p40 = Plan(40, 64);
    EXPECT_EQ(p40.leaves, 2u);
    EXPECT_EQ(p40.spines, 1u);
    EXPECT_EQ(p40.linksPerPair, 32u);
    // 2048 ports, the largest two-tier radix-64 Clos: 64 leaves x 32 spines, 1 link each.
    ClosPlan p2048 = Plan(2048, 64);
    EXPECT_EQ(p2048.leaves, 64u);
    EXPECT_EQ(p2048.spines, 32u);
    EXPECT_EQ(p2048.linksPerPair, 1u);
    EXPECT_EQ(p2048.Switches(), 96u);
    // Radix 16, 24 ports: 8 down / 8 up, 3 leaves, 24 uplinks -> 2 spines, 4 links, 12.
    ClosPlan p24 = Plan(24, 16);
    EXPECT_EQ(p24.leaves, 3u);
    EXPECT_EQ(p24.spines, 2u);
    EXPECT_EQ(p24.spinePortsUsed, 12u);
}

TEST(ClosPlan, Oversubscription)
{
    // 3:1 on radix 64: 48 down, 16 up; 100 ports -> 3 leaves, 48 uplinks -> 1 spine.
    ClosPlan plan = Plan(100, 64, 3.0);
    EXPECT_EQ(plan.downPerLeaf, 48u);
    EXPECT_EQ(plan.upPerLeaf, 16u);
    EXPECT_EQ(plan.leaves, 3u);
    EXPECT_EQ(plan.spines, 1u);
    EXPECT_EQ(plan.spinePortsUsed, 48u);
}

TEST(ClosPlan, TooLargeForTwoTiers)
{
    ClosPlan plan;
    std::string error = ClosPlan::Make(4096, 64, 1.0, plan);
    EXPECT_NE(error.find("needs more than a two-tier Clos"), std::string::npos) << error;
}

TEST(RailFabricSpec, PresetsFollowTheReferenceNumbers)
{
    RailFabricSpec spec;
    ASSERT_TRUE(RailFabricSpec::Preset("dgx-h200", spec));
    EXPECT_EQ(spec.gpusPerServer, 8u);
    EXPECT_EQ(spec.nicPortBps, 400000000000u);
    EXPECT_EQ(spec.scaleUpBps, 7200000000000u); // 900 GB/s
    ASSERT_TRUE(RailFabricSpec::Preset("perlmutter", spec));
    EXPECT_EQ(spec.gpusPerServer, 4u);
    EXPECT_EQ(spec.nicPortBps, 200000000000u);
    EXPECT_EQ(spec.scaleUpBps, 4800000000000u); // 600 GB/s
    ASSERT_TRUE(RailFabricSpec::Preset("perlmutter-testbed", spec));
    EXPECT_EQ(spec.gpusPerServer, 4u);
    EXPECT_EQ(spec.nicPorts, 1u);
    // 1 GiB/s of payload in 4096-byte frames with 62 bytes of headers:
    // 2^30 x 8 x 4158 / 4096 = 8,719,958,016 b/s.
    EXPECT_EQ(spec.nicPortBps, 8719958016u);
    ASSERT_TRUE(RailFabricSpec::Preset("gb200-nvl72", spec));
    EXPECT_EQ(spec.gpusPerServer, 72u);
    EXPECT_FALSE(RailFabricSpec::Preset("dgx-a100", spec));
}

TEST(RailFabricSpec, NicConfigurations)
{
    RailFabricSpec spec;
    EXPECT_EQ(spec.SetNicConfig("2x200G"), "");
    EXPECT_EQ(spec.nicPorts, 2u);
    EXPECT_EQ(spec.nicPortBps, 200000000000u);
    EXPECT_EQ(spec.SetNicConfig("4x100G"), "");
    EXPECT_EQ(spec.nicPorts, 4u);
    EXPECT_NE(spec.SetNicConfig("400G"), "");
    EXPECT_NE(spec.SetNicConfig("2x200"), "");
    EXPECT_NE(spec.SetNicConfig("0x200G"), "");
}

TEST(RailFabricSpec, ValidationAndEffectiveKind)
{
    RailFabricSpec spec;
    spec.servers = 128;
    spec.kind = RailKind::EPS;
    EXPECT_EQ(spec.EffectiveKind(), RailKind::EPS_CLOS) << "128 ports > radix 64";
    EXPECT_EQ(spec.Validate(), "");
    spec.servers = 64;
    EXPECT_EQ(spec.EffectiveKind(), RailKind::EPS);

    spec.kind = RailKind::OCS;
    spec.ocsTechnology = "plzt"; // radix 16
    spec.servers = 20;
    EXPECT_EQ(spec.Validate(),
              "a rail needs 20 OCS ports (20 servers x 1 NIC ports) but plzt has radix 16");
    spec.ocsTechnology = "warp-drive";
    EXPECT_NE(spec.Validate().find("unknown OCS technology"), std::string::npos);
    spec.servers = 0;
    EXPECT_NE(spec.Validate(), "");
}

TEST(ClosPlan, ARailThatFitsOneLeafHasNoSpine)
{
    // 4 ports on radix 64: one leaf, no uplinks, 4 ports in use.
    ClosPlan plan = Plan(4, 64);
    EXPECT_EQ(plan.leaves, 1u);
    EXPECT_EQ(plan.spines, 0u);
    EXPECT_EQ(plan.Switches(), 1u);
    EXPECT_EQ(plan.PortsUsed(), 4u);
}

TEST(RailFabricSpec, OutOfRangeInputsAreRejected)
{
    RailFabricSpec spec;
    EXPECT_NE(spec.SetNicConfig("-1x100G"), "");
    EXPECT_NE(spec.SetNicConfig("1x-100G"), "");
    EXPECT_NE(spec.SetNicConfig("1x1e12G"), "");
    EXPECT_NE(spec.SetNicConfig("99999x100G"), "");
    EXPECT_EQ(spec.nicPorts, 1u) << "a rejected configuration changes nothing";
    spec.servers = 1u << 29; // x 8 GPUs would wrap a 32-bit count
    EXPECT_NE(spec.Validate().find("too large"), std::string::npos);
    spec.servers = 4;
    spec.switchRadix = 100000;
    EXPECT_NE(spec.Validate().find("radix"), std::string::npos);
}

// Issue 11: a server of 160 GPUs aborted inside EpsSwitch (PFC headroom); Validate now
// refuses what a switch's buffer cannot hold. EpsSwitch's defaults: 32 MiB buffer, 50-ns
// cables, PFC on with Xoff derived, so each port needs its headroom (cable round trip at
// line rate + 2 maximal frames + a 64-B PAUSE) plus one maximal frame.
TEST(RailFabricSpec, ScaleUpSwitchMustHoldPfcHeadroom)
{
    RailFabricSpec spec;
    ASSERT_TRUE(RailFabricSpec::Preset("perlmutter", spec)); // 4.8 Tb/s scale-up
    spec.servers = 1;
    spec.scaleUpFrameBytes = 61440; // photonic-rails-sim's default
    // Frames of 61440 + 48 + 14 x 62 (coalesced padding) = 62356 B, + 14 = 62370 B; a round
    // trip of 100 ns at 4.8 Tb/s is 60000 B: 60000 + 2 x 62370 + 64 + 62370 = 247174 B per
    // port, and 33554432 / 247174 = 135.75.
    spec.gpusPerServer = 135;
    EXPECT_EQ(spec.Validate(), "");
    spec.gpusPerServer = 136;
    EXPECT_EQ(spec.Validate(),
              "a server's scale-up switch of 136 ports cannot be lossless: PFC needs 247174 B "
              "per port (headroom at 4800 Gb/s over 50-ns cables, 61440-B frames) and its "
              "33554432-B buffer holds 135; use at most 135 GPUs per server, or smaller "
              "scale-up frames");
    // 4096-B frames ride 9000-B jumbo MTUs: 60000 + 2 x 9014 + 64 + 9014 = 87106 B, 385 fit.
    spec.scaleUpFrameBytes = 4096;
    spec.gpusPerServer = 385;
    EXPECT_EQ(spec.Validate(), "");
    spec.gpusPerServer = 386;
    EXPECT_NE(spec.Validate().find("87106 B per port"), std::string::npos) << spec.Validate();
}

TEST(RailFabricSpec, RailSwitchMustHoldPfcHeadroom)
{
    // One 400G port per GPU, 4096-B frames (9000-B MTU): 5000 + 2 x 9014 + 64 + 9014 =
    // 32106 B per port; 33554432 / 32106 = 1045.1 ports on one switch of radix 4096.
    RailFabricSpec spec;
    spec.gpusPerServer = 1;
    spec.switchRadix = 4096;
    spec.servers = 1045;
    EXPECT_EQ(spec.EffectiveKind(), RailKind::EPS);
    EXPECT_EQ(spec.Validate(), "");
    spec.servers = 1046;
    EXPECT_EQ(spec.Validate(),
              "a rail switch of 1046 ports cannot be lossless: PFC needs 32106 B per port "
              "(headroom at 400 Gb/s over 50-ns cables, 4096-B frames) and its 33554432-B "
              "buffer holds 1045; use a switch radix of at most 1045 (bigger rails become a "
              "Clos), or smaller frames");
    // With radix 64 the same rail is a Clos of 64-port switches: it fits.
    spec.switchRadix = 64;
    EXPECT_EQ(spec.Validate(), "");
}

TEST(RailFabricSpec, SizesThatWrap32BitsAreRefused)
{
    RailFabricSpec spec;
    spec.servers = 1;
    spec.gpusPerServer = 4294967295u;
    EXPECT_EQ(spec.Validate(),
              "fabric too large: 1 servers x 4294967295 GPUs x 1 NIC ports (at most 1048576 GPUs, "
              "1048576 ports per rail and 64 NIC ports per GPU)");
    spec.gpusPerServer = 8;
    spec.servers = 4294967295u;
    EXPECT_NE(spec.Validate().find("fabric too large"), std::string::npos);
}

// Issue 11, review: the fabric took at most 10^6 GPUs while the DAG format (and --validate)
// took 2^20 ranks; both are now RailFabricSpec::MAX_GPUS = 2^20.
TEST(RailFabricSpec, TheLargestFabricHoldsTheLargestDag)
{
    static_assert(RailFabricSpec::MAX_GPUS == 1048576, "2^20 GPUs");
    static_assert(WorkloadJson::MAX_RANKS == RailFabricSpec::MAX_GPUS, "one bound");
    static_assert(WorkloadGeneratorFlags::MAX_RANKS == RailFabricSpec::MAX_GPUS, "one bound");
    // 2^20 GPUs on one port each: 131072 servers x 8 GPUs, a two-tier Clos of 1024-port
    // switches per rail (2^17 ports <= 1024 x 512).
    RailFabricSpec spec;
    spec.servers = 131072;
    spec.gpusPerServer = 8;
    spec.switchRadix = 1024;
    EXPECT_EQ(spec.Validate(), "");
    spec.servers = 131073;
    EXPECT_EQ(spec.Validate(),
              "fabric too large: 131073 servers x 8 GPUs x 1 NIC ports (at most 1048576 GPUs, "
              "1048576 ports per rail and 64 NIC ports per GPU)");
    // A rail of 2^20 ports (one GPU per server) is the bound too.
    spec.servers = 1048576;
    spec.gpusPerServer = 1;
    EXPECT_NE(spec.Validate().find("two-tier Clos"), std::string::npos) << spec.Validate();
    spec.servers = 1048577;
    EXPECT_NE(spec.Validate().find("fabric too large: 1048577 servers"), std::string::npos);
}

// Issue 11: an oversubscription a leaf cannot realize used to be clamped silently.
TEST(ClosPlan, OversubscriptionBeyondTheRadixIsRefused)
{
    // Radix 4: at most 3 down / 1 up, at least 1 down / 3 up.
    ClosPlan plan = Plan(8, 4, 3.0);
    EXPECT_EQ(plan.downPerLeaf, 3u);
    EXPECT_EQ(plan.upPerLeaf, 1u);
    plan = Plan(3, 4, 1.0 / 3);
    EXPECT_EQ(plan.downPerLeaf, 1u);
    EXPECT_EQ(plan.upPerLeaf, 3u);
    EXPECT_EQ(ClosPlan::Make(8, 4, 3.5, plan),
              "oversubscription 3.5 is more than switch radix 4 allows (at most 3: a leaf's 4 "
              "ports split 3 down, 1 up)");
    EXPECT_EQ(ClosPlan::Make(8, 4, 0.3, plan),
              "oversubscription 0.3 is less than switch radix 4 allows (at least 1/3: a leaf's 4 "
              "ports split 1 down, 3 up)");
    // Also on a rail that fits one switch: the value would be reported but never used.
    RailFabricSpec spec;
    spec.oversubscription = 100;
    EXPECT_EQ(spec.Validate(),
              "oversubscription 100 is more than switch radix 64 allows (at most 63: a leaf's 64 "
              "ports split 63 down, 1 up)");
}

TEST(RailFabricSpec, TheRetransmitTimeoutIsAboveTheLongestRoundTrip)
{
    // Issue 32/34 hostile pass: EpsSwitch::ProcessingDelay=1e6s made every frame time out
    // (RTO 1 ms) and the run end "stuck ... waiting for failed parts"; FiberDelay=1e6s ran
    // 2.4 x 10^7 s of retransmissions. The round trips without frames, at 50-ns cables and
    // fibers and 300-ns switches: one rail switch 2 x (2 x 50 + 300) = 800 ns; a Clos 2 x
    // (4 x 50 + 3 x 300) = 2200 ns; an OCS 2 x 2 x 50 = 200 ns, below a server's scale-up
    // switch (800 ns) when it has two GPUs.
    auto refused = [](RailKind kind, uint32_t gpusPerServer, int64_t timeoutNs) {
        RailFabricSpec spec;
        spec.kind = kind;
        spec.servers = 8;
        spec.gpusPerServer = gpusPerServer;
        spec.switchRadix = 4; // 8 ports on a rail: a Clos
        Config::SetDefault("ns3::RailTransport::RetransmitTimeout",
                           TimeValue(NanoSeconds(timeoutNs)));
        std::string error = RailFabric::ValidateRetransmitTimeout(spec);
        Config::Reset();
        return error;
    };
    EXPECT_EQ(refused(RailKind::EPS_CLOS, 1, 2201), "");
    EXPECT_EQ(refused(RailKind::EPS_CLOS, 1, 2200),
              "ns3::RailTransport::RetransmitTimeout (2200 ns) is not above the round trip of "
              "the longest path without its frames, 2 x (4 links x 50 ns + 3 switches x 300 "
              "ns) = 2200 ns: every frame would time out before its acknowledgement");
    EXPECT_EQ(refused(RailKind::OCS, 1, 201), "");
    EXPECT_EQ(refused(RailKind::OCS, 1, 200),
              "ns3::RailTransport::RetransmitTimeout (200 ns) is not above the round trip of "
              "the longest path without its frames, 2 x 2 fibers x 50 ns = 200 ns: every frame "
              "would time out before its acknowledgement");
    EXPECT_EQ(refused(RailKind::OCS, 2, 801), "");
    EXPECT_NE(refused(RailKind::OCS, 2, 800).find("2 x (2 links x 50 ns + 1 switch x 300 ns)"),
              std::string::npos);
    RailFabricSpec one; // the defaults: 1 ms, far above
    EXPECT_EQ(RailFabric::ValidateRetransmitTimeout(one), "");
    // An acknowledgement waits for 16 frames: with a 1-ms interframe gap (the hostile pass:
    // stuck on a Clos) one rail switch needs 800 ns + 16 x 1 ms = 16000800 ns.
    Config::SetDefault("ns3::RailNetDevice::InterframeGap", TimeValue(MilliSeconds(1)));
    EXPECT_EQ(RailFabric::ValidateRetransmitTimeout(one),
              "ns3::RailTransport::RetransmitTimeout (1000000 ns) is not above the round trip "
              "of the longest path without its frames, 2 x (2 links x 50 ns + 1 switch x 300 "
              "ns) + 16 frames x 1000000 ns of interframe gap = 16000800 ns: every frame would "
              "time out before its acknowledgement");
    Config::SetDefault("ns3::RailTransport::RetransmitTimeout", TimeValue(NanoSeconds(16000801)));
    EXPECT_EQ(RailFabric::ValidateRetransmitTimeout(one), "");
    Config::Reset();
}

TEST(RailFabricSpec, OcsSwitchingFollowsTheTechnologyUnlessOverridden)
{
    RailFabricSpec spec;
    EXPECT_EQ(spec.ocsSwitching, OcsSwitching::TECHNOLOGY);
    EXPECT_FALSE(spec.WholeSwitch()); // piezo
    spec.ocsTechnology = "rotornet";
    EXPECT_TRUE(spec.WholeSwitch());
    spec.ocsSwitching = OcsSwitching::PER_PORT;
    EXPECT_FALSE(spec.WholeSwitch());
    spec.ocsTechnology = "piezo";
    spec.ocsSwitching = OcsSwitching::WHOLE_SWITCH;
    EXPECT_TRUE(spec.WholeSwitch());
    ASSERT_TRUE(RailFabricSpec::Preset("dgx-h100", spec));
    EXPECT_EQ(spec.ocsSwitching, OcsSwitching::WHOLE_SWITCH) << "a preset keeps it";
}

TEST(RailFabricSpec, BothNetworkModelsBuildTheSwitchingAsked)
{
    RailFabricSpec spec;
    spec.servers = 2;
    spec.gpusPerServer = 1;
    spec.kind = RailKind::OCS;
    const std::vector<std::tuple<std::string, OcsSwitching, bool>> cases{
        {"piezo", OcsSwitching::TECHNOLOGY, false},
        {"rotornet", OcsSwitching::TECHNOLOGY, true},
        {"rotornet", OcsSwitching::PER_PORT, false},
        {"piezo", OcsSwitching::WHOLE_SWITCH, true},
    };
    for (const auto& [technology, switching, whole] : cases)
    {
        spec.ocsTechnology = technology;
        spec.ocsSwitching = switching;
        RailFabricHelper packet;
        packet.SetSpec(spec);
        EXPECT_EQ(packet.Build()->GetOcs(0)->IsWholeSwitch(), whole) << technology;
        FlowFabricHelper flow;
        flow.SetSpec(spec);
        Ptr<FlowFabric> fabric = flow.Build();
        EXPECT_EQ(fabric->GetOcs(0)->IsWholeSwitch(), whole) << technology;
        EXPECT_EQ(fabric->GetOcs(0)->GetCircuitTable()->IsWholeSwitch(), whole) << technology;
        Simulator::Destroy();
    }
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fabric specifications: presets, validation, and the leaf-spine wiring formulas, checked
 * against counts worked out by hand.
 */

#include "ns3/rail-fabric-spec.h"

#include <gtest/gtest.h>

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

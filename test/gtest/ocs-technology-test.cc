/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The OCS technology catalogue against the paper's Table 3.
 */

#include "ns3/ocs-technology.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(OcsTechnology, CatalogueHasTheSevenTechnologiesOfTable3)
{
    struct Row
    {
        const char* name;
        Time delay;
        uint32_t radix;
    };

    const Row table3[] = {
        {"plzt", NanoSeconds(10), 16},
        {"sip", MicroSeconds(7), 32},
        {"rotornet", MicroSeconds(10), 128},
        {"3d-mems", MilliSeconds(15), 320},
        {"piezo", MilliSeconds(25), 576},
        {"liquid-crystal", MilliSeconds(100), 512},
        {"robotic", Seconds(120), 1008},
    };
    ASSERT_EQ(OcsTechnologyCatalog::All().size(), 7u);
    for (const Row& row : table3)
    {
        OcsTechnology technology;
        ASSERT_TRUE(OcsTechnologyCatalog::Find(row.name, technology)) << row.name;
        EXPECT_EQ(technology.reconfigurationDelay, row.delay) << row.name;
        EXPECT_EQ(technology.radix, row.radix) << row.name;
    }
}

TEST(OcsTechnology, MaxGpusIsGpusPerScaleUpTimesHalfTheRadix)
{
    // Table 3: #GPUs = GPUs per scale-up x radix / 2 (2-port NICs).
    const std::pair<const char*, std::pair<uint64_t, uint64_t>> expected[] = {
        {"plzt", {576, 64}},
        {"sip", {1152, 128}},
        {"rotornet", {4608, 512}},
        {"3d-mems", {11520, 1280}},
        {"piezo", {20736, 2304}},
        {"liquid-crystal", {18432, 2048}},
        {"robotic", {36288, 4032}},
    };
    for (const auto& [name, gpus] : expected)
    {
        OcsTechnology technology = OcsTechnologyCatalog::Get(name);
        EXPECT_EQ(technology.MaxGpus(72), gpus.first) << name << " GB200";
        EXPECT_EQ(technology.MaxGpus(8), gpus.second) << name << " H200";
    }
}

TEST(OcsTechnology, LookupIgnoresCaseAndRejectsUnknownNames)
{
    OcsTechnology technology;
    EXPECT_TRUE(OcsTechnologyCatalog::Find("PLZT", technology));
    EXPECT_EQ(technology.name, "plzt");
    EXPECT_FALSE(OcsTechnologyCatalog::Find("mems", technology));
    EXPECT_EQ(OcsTechnologyCatalog::Names(),
              "plzt, sip, rotornet, 3d-mems, piezo, liquid-crystal, robotic");
}

TEST(OcsTechnology, OnlyTheRotorSwitchDarkensEveryPort)
{
    // A rotor switch moves all ports to its next matching at once (RotorNet, SIGCOMM 2017);
    // the others steer each port on its own (design doc, "Reconfiguration of the other ports").
    for (const OcsTechnology& technology : OcsTechnologyCatalog::All())
    {
        OcsSwitching expected =
            technology.name == "rotornet" ? OcsSwitching::WHOLE_SWITCH : OcsSwitching::PER_PORT;
        EXPECT_EQ(technology.switching, expected) << technology.name;
    }
}

TEST(OcsTechnology, SwitchingNamesParseBack)
{
    for (OcsSwitching switching :
         {OcsSwitching::TECHNOLOGY, OcsSwitching::PER_PORT, OcsSwitching::WHOLE_SWITCH})
    {
        OcsSwitching parsed = OcsSwitching::TECHNOLOGY;
        ASSERT_TRUE(ParseOcsSwitching(OcsSwitchingName(switching), parsed));
        EXPECT_EQ(parsed, switching);
    }
    EXPECT_EQ(OcsSwitchingName(OcsSwitching::WHOLE_SWITCH), "whole-switch");
    OcsSwitching parsed;
    EXPECT_FALSE(ParseOcsSwitching("rotor", parsed));
}

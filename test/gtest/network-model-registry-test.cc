// The network models' registry: the names the command line accepts and what each model can
// run, as the design doc describes them (packet: frames, faults, queue pairs; flow: max-min
// fair flows, faults, no queue pairs, merged ring steps).
#include "ns3/network-model-registry.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(NetworkModelRegistry, NamesThePacketModelFirst)
{
    EXPECT_EQ(NetworkModelRegistry::Names(", "), "packet, flow");
    EXPECT_EQ(NetworkModelRegistry::Find("fluid"), nullptr);
    EXPECT_EQ(NetworkModelRegistry::Find(""), nullptr);
}

TEST(NetworkModelRegistry, CapabilitiesMatchTheModels)
{
    const NetworkModelEntry* packet = NetworkModelRegistry::Find("packet");
    const NetworkModelEntry* flow = NetworkModelRegistry::Find("flow");
    ASSERT_NE(packet, nullptr);
    ASSERT_NE(flow, nullptr);
    EXPECT_TRUE(packet->faults);
    EXPECT_TRUE(packet->queuePairs);
    EXPECT_FALSE(packet->mergedRingSteps);
    EXPECT_TRUE(flow->faults);
    EXPECT_FALSE(flow->queuePairs);
    EXPECT_TRUE(flow->mergedRingSteps);
    EXPECT_TRUE(packet->frames);
    EXPECT_FALSE(flow->frames);
    EXPECT_TRUE(packet->build);
    EXPECT_TRUE(flow->build);
}

TEST(NetworkModelRegistry, FlowBuilderRefusesQueuePairs)
{
    // Refused before anything is built: the flow model has no queue pairs.
    NetworkBuildOptions options;
    options.qpsPerConnection = 2;
    try
    {
        NetworkModelRegistry::Find("flow")->build(options);
        ADD_FAILURE() << "no refusal";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(),
                     "queue pairs per connection are a packet-model setting: the flow model has "
                     "no queue pairs");
    }
}

TEST(NetworkModelRegistry, HelpAndRefusalsComeFromTheEntries)
{
    // The --network help text the programs printed before it was generated, word for word.
    EXPECT_EQ(NetworkModelRegistry::Describe(),
              "packet (frames, the reference) or flow (max-min fair flows, for scale)");
    EXPECT_EQ(NetworkModelRegistry::NamesWith(&NetworkModelEntry::faults, " or "),
              "packet or flow");
    EXPECT_EQ(NetworkModelRegistry::NamesWith(&NetworkModelEntry::frames, ", "), "packet");
    EXPECT_EQ(NetworkModelRegistry::NamesWith(&NetworkModelEntry::mergedRingSteps, ", "), "flow");
}

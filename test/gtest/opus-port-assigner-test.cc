/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Opus's port assignment alone (no simulator): which OCS ports a demand's circuits take,
 * which circuits stay, how failed ports cut a demand. Four GPUs, one per server (one rail),
 * two NIC ports each: GPU g sits on OCS ports 2g and 2g + 1. Every expected value is worked
 * out by hand in the comments.
 */

#include "ns3/opus-port-assigner.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
constexpr uint32_t NO = OcsCircuitTable::NO_PORT;

/// The four-GPU rail of every test: radix 8, GPU g on ports {2g, 2g + 1}.
OpusPortAssigner
FourGpus()
{
    return OpusPortAssigner({8}, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, 1);
}

/// A demand of one pair on rail 0 with two NIC ports per GPU: two circuits.
OpusDemand
Pair(uint32_t a, uint32_t b)
{
    return OpusDemand::Build({{0, a, b}}, 2);
}
} // namespace

TEST(OpusPortAssigner, UnconnectedPortsFirstInPortOrder)
{
    OpusPortAssigner ports = FourGpus();
    std::map<uint32_t, OpusRailChange> changes;
    ASSERT_TRUE(ports.AssignDemand(Pair(0, 1), {}, changes));
    // First circuit: GPU 0's first free port 0, GPU 1's port 2; then 1 and 3.
    std::map<uint32_t, uint32_t> expected{{0, 2}, {2, 0}, {1, 3}, {3, 1}};
    EXPECT_EQ(changes.at(0).config, expected);
    EXPECT_EQ(changes.at(0).connections, OcsConnections(expected.begin(), expected.end()));
    EXPECT_EQ(changes.at(0).used, (std::set<uint32_t>{0, 1, 2, 3}));
    EXPECT_TRUE(changes.at(0).relayed.empty());
    // Planning changes nothing until the caller says so.
    EXPECT_TRUE(ports.GetConfig(0).empty());
}

TEST(OpusPortAssigner, CircuitsTheDemandHasStay)
{
    OpusPortAssigner ports = FourGpus();
    ports.SetConfig(0, {{0, 2}, {2, 0}});
    std::map<uint32_t, OpusRailChange> changes;
    ASSERT_TRUE(ports.AssignDemand(Pair(0, 1), {}, changes));
    // 0 <-> 2 already joins GPUs 0 and 1: only the second circuit, 1 <-> 3, is ordered.
    EXPECT_EQ(changes.at(0).connections, (OcsConnections{{1, 3}, {3, 1}}));
    EXPECT_EQ(changes.at(0).config, (std::map<uint32_t, uint32_t>{{0, 2}, {2, 0}, {1, 3}, {3, 1}}));
}

TEST(OpusPortAssigner, PairsToKeepAreNeverTakenDown)
{
    OpusPortAssigner ports = FourGpus();
    ports.SetConfig(0, {{0, 2}, {2, 0}, {1, 3}, {3, 1}}); // GPUs 0 and 1 on both ports
    std::map<uint32_t, OpusRailChange> kept;
    // GPU 0's ports both join the pair to keep: no port for GPUs 0 and 2.
    EXPECT_FALSE(ports.AssignDemand(Pair(0, 2), {{0, 0, 1}}, kept));
    // Without it: port 0 (connected, the first usable) takes GPU 2's unconnected port 4,
    // cutting 0 <-> 2; then port 1 takes 5, cutting 1 <-> 3. Ports 2 and 3 are cleared.
    std::map<uint32_t, OpusRailChange> changes;
    ASSERT_TRUE(ports.AssignDemand(Pair(0, 2), {}, changes));
    EXPECT_EQ(changes.at(0).connections,
              (OcsConnections{{0, 4}, {1, 5}, {2, NO}, {3, NO}, {4, 0}, {5, 1}}));
    EXPECT_EQ(changes.at(0).config, (std::map<uint32_t, uint32_t>{{0, 4}, {4, 0}, {1, 5}, {5, 1}}));
}

TEST(OpusPortAssigner, DeadPortsCutTheNeeds)
{
    OpusPortAssigner ports = FourGpus();
    ports.MarkDead(0, 1); // GPU 0 keeps one live port
    EXPECT_TRUE(ports.IsDead(0, 1));
    EXPECT_TRUE(ports.HasDeadPorts(0));
    // One pair wanting 2 circuits: GPU 0 has 1 live port for 1 peer -> 1 circuit.
    std::vector<OpusCircuitNeed> live;
    std::vector<OpusDemand::Link> relayed;
    ports.LiveNeeds(0, {{0, 0, 1, 2}}, live, relayed);
    EXPECT_EQ(live, (std::vector<OpusCircuitNeed>{{0, 0, 1, 1}}));
    EXPECT_TRUE(relayed.empty());
    // Two pairs of GPU 0 (1 circuit each): an equal share is 1 / 2 = 0 each; the spare port
    // goes to the first pair without a circuit, (0, 1); (0, 2) relays.
    live.clear();
    ports.LiveNeeds(0, {{0, 0, 1, 1}, {0, 0, 2, 1}}, live, relayed);
    EXPECT_EQ(live, (std::vector<OpusCircuitNeed>{{0, 0, 1, 1}}));
    EXPECT_EQ(relayed, (std::vector<OpusDemand::Link>{{0, 0, 2}}));
    // A new circuit avoids the dead port: 0 <-> 2 only.
    std::map<uint32_t, OpusRailChange> changes;
    ASSERT_TRUE(ports.AssignDemand(Pair(0, 1), {}, changes));
    EXPECT_EQ(changes.at(0).connections, (OcsConnections{{0, 2}, {2, 0}}));
    EXPECT_TRUE(ports.Revive(0, 1));
    EXPECT_FALSE(ports.Revive(0, 1));
    EXPECT_FALSE(ports.HasDeadPorts(0));
}

TEST(OpusPortAssigner, JoinedAndSetUp)
{
    OpusPortAssigner ports = FourGpus();
    ports.SetConfig(0, {{0, 2}, {2, 0}});
    EXPECT_TRUE(ports.IsJoined({0, 0, 1}));
    EXPECT_FALSE(ports.IsJoined({0, 0, 2}));
    // One circuit of the two the pair needs with two ports each; all of one port's worth.
    EXPECT_FALSE(ports.IsSetUp(Pair(0, 1)));
    EXPECT_TRUE(ports.IsSetUp(OpusDemand::Build({{0, 0, 1}}, 1)));
    // A dead end leaves the pair unjoined, though the target still holds the circuit.
    ports.MarkDead(0, 2);
    EXPECT_FALSE(ports.IsJoined({0, 0, 1}));
    EXPECT_TRUE(ports.IsSetUp(OpusDemand::Build({{0, 0, 1}}, 1)));
}

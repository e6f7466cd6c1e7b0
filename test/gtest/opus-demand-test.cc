/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Opus's demand matrix: which rail circuits a communication needs and how a GPU's NIC ports
 * are split among its peers, against cases worked out by hand.
 */

#include "ns3/opus-demand.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

/// Links of a plan where every member sends to the next one of \p ring (a ring).
std::set<OpusDemand::Link>
RingLinks(const std::vector<uint32_t>& ring, uint32_t gpusPerServer)
{
    std::vector<CollectivePlan> plans(ring.size());
    std::vector<std::pair<uint32_t, const CollectivePlan*>> members;
    for (std::size_t i = 0; i < ring.size(); ++i)
    {
        CollectiveTask send;
        send.kind = CollectiveTask::SEND;
        send.peer = ring[(i + 1) % ring.size()];
        send.bytes = 1;
        plans[i].tasks.push_back(send);
        members.emplace_back(ring[i], &plans[i]);
    }
    std::set<OpusDemand::Link> links;
    OpusDemand::AddPlans(members, gpusPerServer, links);
    return links;
}

} // namespace

TEST(OpusDemand, MessagesUseTheDestinationsRail)
{
    std::set<OpusDemand::Link> links;
    // 4 GPUs per server: GPU 1 (server 0, rail 1) to GPU 6 (server 1, rail 2) goes over the
    // scale-up domain to GPU 2, then rail 2 to GPU 6 (PXN).
    OpusDemand::AddMessage(1, 6, 4, links);
    // Same rail: direct. Same server: no circuit.
    OpusDemand::AddMessage(9, 1, 4, links);
    OpusDemand::AddMessage(0, 3, 4, links);
    std::set<OpusDemand::Link> expected = {{2, 2, 6}, {1, 1, 9}};
    EXPECT_EQ(links, expected);
}

TEST(OpusDemand, PortsAreSplitAmongPeers)
{
    // A ring of four one-GPU servers: two peers each, so one circuit each of 2 ports.
    OpusDemand ring = OpusDemand::Build(RingLinks({0, 1, 2, 3}, 1), 2);
    ASSERT_EQ(ring.GetNeeds().size(), 4u);
    for (const OpusCircuitNeed& need : ring.GetNeeds())
    {
        EXPECT_EQ(need.circuits, 1u) << need.a << "-" << need.b;
    }
    // A pair gets every port; with 4 ports, a ring of three gets 2 circuits per neighbour.
    EXPECT_EQ(OpusDemand::Build(RingLinks({0, 1}, 1), 2).GetNeeds().at(0).circuits, 2u);
    EXPECT_EQ(OpusDemand::Build(RingLinks({0, 1, 2}, 1), 4).GetNeeds().at(0).circuits, 2u);
    // A pair's share is the smaller end's: GPU 0 has peers 1 and 2, GPU 1 only 0.
    OpusDemand star = OpusDemand::Build({{0, 0, 1}, {0, 0, 2}}, 3);
    EXPECT_EQ(star.GetNeeds().at(0).circuits, 1u);
    EXPECT_EQ(star.GetKey(), "0:0-1x1 0:0-2x1 ");
}

TEST(OpusDemand, RailsAndEmptiness)
{
    // A ring over two servers of 2 GPUs, members 0, 1, 2, 3: 1->2 uses rail 0 (PXN via 0),
    // 3->0 uses rail 0 (via 2); 0->1 and 2->3 stay in the servers.
    OpusDemand demand = OpusDemand::Build(RingLinks({0, 1, 2, 3}, 2), 1);
    EXPECT_EQ(demand.GetRails(), std::vector<uint32_t>({0}));
    EXPECT_EQ(demand.GetKey(), "0:0-2x1 ");
    EXPECT_TRUE(OpusDemand::Build(RingLinks({0, 1}, 2), 1).IsEmpty());
}

TEST(OpusDemand, MorePeersThanPortsIsRejected)
{
    // GPU 0 talks to three servers with two NIC ports: no single configuration serves it.
    try
    {
        OpusDemand::Build({{0, 0, 1}, {0, 0, 2}, {0, 0, 3}}, 2);
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "GPU 0 needs circuits to 3 peers on rail 0 at once but has 2 NIC port(s): "
                  "one circuit configuration cannot serve it");
    }
    EXPECT_THROW(OpusDemand::Build({{0, 0, 1}}, 0), std::invalid_argument);
}

TEST(OpusDemand, RingRelayAllToAllFitsTwoPorts)
{
    // An alltoall over four one-GPU servers on optical rails: pairwise talks to 3 peers and
    // needs 3 ports; ring-relay (what AUTO plans) talks to the two ring neighbours only, so
    // the ring configuration of 2 ports serves it, one circuit per neighbour.
    auto links = [](WorkloadAlgorithm algorithm) {
        CollectiveRequest request;
        request.type = WorkloadOpType::ALLTOALL;
        request.members = {0, 1, 2, 3};
        request.bytes = 4000;
        request.algorithm = algorithm;
        request.gpusPerServer = 1;
        request.optical = true;
        std::vector<CollectivePlan> plans;
        for (uint32_t rank : request.members)
        {
            request.rank = rank;
            plans.push_back(CollectivePlanner::Plan(request));
        }
        std::vector<std::pair<uint32_t, const CollectivePlan*>> members;
        for (uint32_t rank : request.members)
        {
            members.emplace_back(rank, &plans[rank]);
        }
        std::set<OpusDemand::Link> result;
        OpusDemand::AddPlans(members, request.gpusPerServer, result);
        return result;
    };
    OpusDemand relay = OpusDemand::Build(links(WorkloadAlgorithm::AUTO), 2);
    EXPECT_EQ(relay.GetKey(), "0:0-1x1 0:0-3x1 0:1-2x1 0:2-3x1 ");
    EXPECT_EQ(relay.GetKey(), OpusDemand::Build(RingLinks({0, 1, 2, 3}, 1), 2).GetKey());
    EXPECT_THROW(OpusDemand::Build(links(WorkloadAlgorithm::RING), 2), std::invalid_argument);
}

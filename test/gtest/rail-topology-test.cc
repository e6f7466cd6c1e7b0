/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RailTopology on a hand-drawn fabric of 4 servers x 4 GPUs: rank 5 is server 1's GPU 1,
 * on rail 1; a message from 5 to 14 (server 3, rail 2) leaves from 6, server 1's GPU on
 * rail 2.
 */

#include "ns3/rail-topology.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(RailTopology, PlacesRanksInServersAndRails)
{
    RailTopology t(4);
    EXPECT_EQ(t.GetGpusPerServer(), 4u);
    EXPECT_EQ(t.ServerOf(5), 1u);
    EXPECT_EQ(t.RailOf(5), 1u);
    EXPECT_EQ(t.ServerOf(3), 0u);
    EXPECT_EQ(t.RailOf(15), 3u);
    EXPECT_EQ(t.RankOf(1, 1), 5u);
    EXPECT_EQ(t.RankOf(3, 2), 14u);
    EXPECT_TRUE(t.SameServer(4, 7));
    EXPECT_FALSE(t.SameServer(3, 4));
    for (uint32_t rank = 0; rank < 16; ++rank)
    {
        EXPECT_EQ(t.RankOf(t.ServerOf(rank), t.RailOf(rank)), rank);
    }
}

TEST(RailTopology, ProxyIsTheSourceServersGpuOnTheDestinationsRail)
{
    RailTopology t(4);
    EXPECT_EQ(t.ProxyFor(5, 14), 6u);  // server 1, rail 2
    EXPECT_EQ(t.ProxyFor(6, 14), 6u);  // already on rail 2: itself
    EXPECT_EQ(t.ProxyFor(14, 5), 13u); // server 3, rail 1
    EXPECT_EQ(t.ProxyFor(5, 7), 7u);   // same server: scale-up, no rail
}

TEST(RailTopology, OneGpuPerServerIsOneRail)
{
    RailTopology t(1);
    EXPECT_EQ(t.ServerOf(9), 9u);
    EXPECT_EQ(t.RailOf(9), 0u);
    EXPECT_EQ(t.ProxyFor(2, 9), 2u);
    EXPECT_THROW(RailTopology(0), std::invalid_argument);
}

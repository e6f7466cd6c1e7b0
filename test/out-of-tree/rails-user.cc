/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Uses the installed module as a user would: a line clock and the rail topology, printing
// values checked by hand in test/check-out-of-tree.cmake.

#include "ns3/core-module.h"
#include "ns3/line-rate.h"
#include "ns3/rail-topology.h"

#include <iostream>

using namespace ns3;

int
main()
{
    // Five 4110-byte frames at 400 Gb/s: 5 x 4110 x 8 bits / 400e9 b/s = 411 ns exactly,
    // although each frame alone is 82.2 ns.
    LineRate clock(DataRate("400Gbps"));
    Time total;
    for (int frame = 0; frame < 5; ++frame)
    {
        total += clock.Next(4110);
    }
    std::cout << "5 frames of 4110 bytes at 400Gbps: " << total.GetNanoSeconds() << " ns\n";
    // With 8 GPUs per server, rank 13 is GPU 5 of server 1; rank 3 (server 0) reaches it
    // through the GPU of its own server on rail 5: rank 5.
    RailTopology topology(8);
    std::cout << "rank 13: server " << topology.ServerOf(13) << ", rail " << topology.RailOf(13)
              << "; PXN proxy for 3 -> 13: rank " << topology.ProxyFor(3, 13) << "\n";
    return 0;
}

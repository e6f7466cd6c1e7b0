/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * EpsSwitch::CheckBuffer, the one rule between the switch's buffer attributes and its ports
 * (issue 32, item 4; issue 34, items 3 and 4): the switch aborted on these, and PfcXoff =
 * 2^64 - 1 slipped past the lossless check by overflow. Values by hand, on the job's rail
 * switch: 8 ports of 200 Gb/s, 50-ns cables, 9014-B frames (a 9000-B MTU and the 14-B
 * Ethernet header), the 32-MiB buffer.
 */

#include "ns3/eps-switch.h"
#include "ns3/nstime.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Headroom of each port: 2 x 50 ns x 200 Gb/s = 20,000 bits = 2,500 B in flight, two
/// 9014-B frames and a 64-B PAUSE frame.
constexpr uint64_t HEADROOM = 2500 + 2 * 9014 + 64;
constexpr uint64_t FRAME = 9014;
constexpr uint64_t BUFFER = 32 * 1024 * 1024;

/// The attributes' defaults (EpsSwitch's GetTypeId).
EpsSwitch::BufferSettings
Defaults()
{
    EpsSwitch::BufferSettings s;
    s.bufferSize = BUFFER;
    s.ecnKmin = 0; // derived from each port's rate
    s.ecnKmax = 0;
    return s;
}

/// \return CheckBuffer's message for \p s on \p n like ports (\p ports receives them)
std::string
Check(const EpsSwitch::BufferSettings& s,
      std::vector<EpsSwitch::PfcPort>& ports,
      uint32_t n = 8,
      uint64_t frame = FRAME)
{
    ports.assign(n, EpsSwitch::PfcPort{HEADROOM, frame});
    return EpsSwitch::CheckBuffer(s, ports);
}

} // namespace

TEST(EpsSwitchBuffer, TheHeadroomIsTheRoundTripTwoFramesAndAPause)
{
    EXPECT_EQ(EpsSwitch::PfcHeadroom(200000000000, NanoSeconds(50), FRAME), HEADROOM);
    EXPECT_EQ(HEADROOM, 20592u);
}

TEST(EpsSwitchBuffer, DerivedThresholdsShareTheBufferExactly)
{
    std::vector<EpsSwitch::PfcPort> ports;
    ASSERT_EQ(Check(Defaults(), ports), "");
    // Xoff = 32 MiB / 8 - headroom = 4,194,304 - 20,592; Xon = Xoff - 2 frames.
    EXPECT_EQ(ports[7].xoff, 4173712u);
    EXPECT_EQ(ports[7].xon, 4173712u - 2 * 9014);
}

TEST(EpsSwitchBuffer, XonMustBeBelowTheDerivedXoff)
{
    EpsSwitch::BufferSettings s = Defaults();
    s.pfcXon = 100000000;
    std::vector<EpsSwitch::PfcPort> ports;
    EXPECT_EQ(Check(s, ports),
              "PfcXon (100000000 B) must be below PfcXoff (4173712 B, BufferSize / 8 ports - "
              "20592 B of headroom)");
    s.pfcXon = 4173711;
    EXPECT_EQ(Check(s, ports), "");
    EXPECT_EQ(ports[0].xon, 4173711u);
}

TEST(EpsSwitchBuffer, AGivenXoffMustKeepPfcLossless)
{
    // 8 x (Xoff + headroom) <= 32 MiB holds up to the derived Xoff, 4,173,712 B.
    EpsSwitch::BufferSettings s = Defaults();
    std::vector<EpsSwitch::PfcPort> ports;
    s.pfcXoff = 4173712;
    EXPECT_EQ(Check(s, ports), "");
    s.pfcXoff = 4173713;
    EXPECT_EQ(Check(s, ports),
              "PFC cannot be lossless: the ports' PfcXoff plus headroom need 33554440 B but "
              "BufferSize is 33554432 B (lower PfcXoff, or 0 to derive it)");
    // 2^32 - 1 is above the buffer itself; 2^64 - 1 used to wrap the sum to below it.
    s.pfcXoff = 4294967295;
    EXPECT_EQ(Check(s, ports), "PfcXoff (4294967295 B) exceeds BufferSize (33554432 B)");
    s.pfcXoff = UINT64_MAX;
    EXPECT_EQ(Check(s, ports), "PfcXoff (18446744073709551615 B) exceeds BufferSize (33554432 B)");
    // A buffer of 2^63 B and 4 ports at Xoff 2^63 need 2^65 B: beyond 64 bits, still refused.
    s.bufferSize = s.pfcXoff = uint64_t(1) << 63;
    EXPECT_EQ(Check(s, ports, 4),
              "PFC cannot be lossless: the ports' PfcXoff plus headroom need more than "
              "18446744073709551615 B but BufferSize is 9223372036854775808 B (lower PfcXoff, "
              "or 0 to derive it)");
}

TEST(EpsSwitchBuffer, TheDerivedXoffLeavesAFrame)
{
    // 8 ports x (20,592 + 9,014) = 236,848 B is the least buffer.
    EpsSwitch::BufferSettings s = Defaults();
    std::vector<EpsSwitch::PfcPort> ports;
    s.bufferSize = 236848;
    EXPECT_EQ(Check(s, ports), "");
    EXPECT_EQ(ports[0].xoff, FRAME);
    EXPECT_EQ(ports[0].xon, 0u); // Xoff is not above two frames
    s.bufferSize = 236847;
    EXPECT_EQ(Check(s, ports),
              "BufferSize (236847 B) is too small for PFC on 8 ports: port 0 needs 20592 B of "
              "headroom plus a 9014-B frame");
}

TEST(EpsSwitchBuffer, RulesBetweenTheAttributesAlone)
{
    std::vector<EpsSwitch::PfcPort> none;
    EpsSwitch::BufferSettings s = Defaults();
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none), "");
    s.ecnKmin = 500000; // EcnKmax 0: derived per port, at least EcnKmin
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none), "");
    s.ecnKmax = 400000;
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none), "EcnKmin (500000 B) exceeds EcnKmax (400000 B)");
    s.ecnKmin = BUFFER;
    s.ecnKmax = 0;
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none),
              "EcnKmin (33554432 B) is not below BufferSize (33554432 B): no frame would be "
              "marked");
    s.ecnKmax = 400000;
    s.ecnKmin = 400000; // equal: no ramp, all marked above it
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none), "");
    s = Defaults();
    s.dtAlpha = 0.5; // the dynamic threshold is for lossy switches: with PFC it was ignored
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none),
              "DtAlpha (0.5) applies with PFC off (PfcEnabled false)");
    s.pfcEnabled = false;
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none), "");
    s.pfcXon = 1000;
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none),
              "PfcXoff and PfcXon apply with PFC on (PfcEnabled true)");
    s = Defaults();
    s.pfcXoff = 20000;
    s.pfcXon = 20000;
    EXPECT_EQ(EpsSwitch::CheckBuffer(s, none), "PfcXon (20000 B) must be below PfcXoff (20000 B)");
}

TEST(EpsSwitchBuffer, ALossySwitchHoldsAFrame)
{
    EpsSwitch::BufferSettings s = Defaults();
    s.pfcEnabled = false;
    std::vector<EpsSwitch::PfcPort> ports;
    s.bufferSize = FRAME;
    EXPECT_EQ(Check(s, ports), "");
    s.bufferSize = FRAME - 1;
    EXPECT_EQ(Check(s, ports), "BufferSize (9013 B) cannot hold a 9014-B frame");
}

TEST(EpsSwitchEcn, ThresholdsScaleWithThePortRate)
{
    // HPCC's simulator: Kmin 100 KB and Kmax 400 KB per 25 Gb/s (KB of 1000 bytes).
    using Pair = std::pair<uint64_t, uint64_t>;
    EXPECT_EQ(EpsSwitch::EcnThresholds(0, 0, 100000000000), Pair(400000, 1600000));
    EXPECT_EQ(EpsSwitch::EcnThresholds(0, 0, 200000000000), Pair(800000, 3200000));
    EXPECT_EQ(EpsSwitch::EcnThresholds(0, 0, 400000000000), Pair(1600000, 6400000));
    // A value given wins; the derived other never crosses it.
    EXPECT_EQ(EpsSwitch::EcnThresholds(150000, 1500000, 400000000000), Pair(150000, 1500000));
    EXPECT_EQ(EpsSwitch::EcnThresholds(2000000, 0, 100000000000), Pair(2000000, 2000000));
    EXPECT_EQ(EpsSwitch::EcnThresholds(0, 300000, 100000000000), Pair(300000, 300000));
    EXPECT_EQ(EpsSwitch::EcnThresholds(0, 2000000, 100000000000), Pair(400000, 2000000));
}

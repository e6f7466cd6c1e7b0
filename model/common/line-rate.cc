/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "line-rate.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LineRate");

LineRate::LineRate(DataRate rate)
    : m_bps(rate.GetBitRate()),
      m_remainder(0)
{
}

void
LineRate::SetRate(DataRate rate)
{
    m_bps = rate.GetBitRate();
    m_remainder = 0;
}

DataRate
LineRate::GetRate() const
{
    return DataRate(m_bps);
}

Time
LineRate::Next(uint32_t bytes)
{
    NS_ABORT_MSG_IF(m_bps == 0, "line rate is zero");
    // ticks = bits * ticksPerSecond / bps, with the division's remainder carried over.
    // 128-bit: bits (< 2^35) times ticks per second (up to 10^15 at fs resolution).
    static const unsigned __int128 ticksPerSecond = Seconds(1).GetTimeStep();
    unsigned __int128 numerator =
        static_cast<unsigned __int128>(bytes) * 8 * ticksPerSecond + m_remainder;
    uint64_t ticks = static_cast<uint64_t>(numerator / m_bps);
    m_remainder = static_cast<uint64_t>(numerator % m_bps);
    return TimeStep(ticks);
}

} // namespace ns3

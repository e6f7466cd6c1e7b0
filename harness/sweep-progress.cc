/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sweep-progress.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

SweepProgress::SweepProgress(std::size_t total, std::size_t done)
    : m_total(total),
      m_done(done),
      m_failed(0),
      m_timed(0)
{
}

std::string
SweepProgress::Ended(bool failed, double elapsed)
{
    ++m_done;
    m_failed += failed ? 1 : 0;
    ++m_timed;
    std::string line = std::to_string(m_done) + "/" + std::to_string(m_total);
    if (m_failed > 0)
    {
        line += " (" + std::to_string(m_failed) + " failed)";
    }
    std::size_t left = m_total - std::min(m_done, m_total);
    if (left > 0)
    {
        // At the pace so far: the points left end as fast as these did.
        line += "; about " + Duration(elapsed / double(m_timed) * double(left)) + " left";
    }
    return line;
}

std::string
SweepProgress::Duration(double seconds)
{
    long s = std::lround(seconds);
    if (s < 60)
    {
        return std::to_string(s) + " s";
    }
    if (s < 3600)
    {
        return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
    }
    return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
}

} // namespace ns3

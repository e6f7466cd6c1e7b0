/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-rate-controller.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnRateController");

DcqcnRateController::DcqcnRateController(const DcqcnParameters& parameters)
    : m_p(parameters),
      m_rate(parameters.lineRateBps),
      m_target(parameters.lineRateBps),
      m_alpha(1.0),
      m_congested(false),
      m_timerStages(0),
      m_byteStages(0),
      m_bytes(0)
{
    NS_LOG_FUNCTION(this);
}

void
DcqcnRateController::OnCnp(Time now)
{
    NS_LOG_FUNCTION(this << now);
    AdvanceTo(now);
    m_congested = true; // the alpha and increase timers run from the first CNP on
    m_target = m_rate;
    m_rate = std::max(m_p.minRateBps, m_rate * (1 - m_alpha / 2));
    m_alpha = (1 - m_p.g) * m_alpha + m_p.g;
    m_alphaSince = now;
    m_timerSince = now;
    m_timerStages = 0;
    m_byteStages = 0;
    m_bytes = 0;
}

void
DcqcnRateController::OnSent(uint64_t bytes, Time now)
{
    NS_LOG_FUNCTION(this << bytes << now);
    AdvanceTo(now);
    if (!IsThrottled())
    {
        return;
    }
    m_bytes += bytes;
    while (m_bytes >= m_p.byteCounter && IsThrottled())
    {
        m_bytes -= m_p.byteCounter;
        ++m_byteStages;
        Increase();
    }
}

double
DcqcnRateController::GetRate(Time now)
{
    NS_LOG_FUNCTION(this << now);
    AdvanceTo(now);
    return m_rate;
}

double
DcqcnRateController::GetAlpha() const
{
    NS_LOG_FUNCTION(this);
    return m_alpha;
}

bool
DcqcnRateController::IsThrottled() const
{
    NS_LOG_FUNCTION(this);
    return m_rate < m_p.lineRateBps;
}

void
DcqcnRateController::AdvanceTo(Time now)
{
    if (!m_congested)
    {
        return; // never cut: line rate, alpha at its initial 1
    }
    int64_t alphaPeriods = (now - m_alphaSince).GetTimeStep() / m_p.alphaTimer.GetTimeStep();
    if (alphaPeriods > 0)
    {
        m_alpha *= std::pow(1 - m_p.g, static_cast<double>(alphaPeriods));
        m_alphaSince += m_p.alphaTimer * alphaPeriods;
    }
    while (IsThrottled() && now - m_timerSince >= m_p.increaseTimer)
    {
        m_timerSince += m_p.increaseTimer;
        ++m_timerStages;
        Increase();
    }
    if (!IsThrottled())
    {
        m_timerSince = now; // an unthrottled sender has no running increase timer
    }
}

void
DcqcnRateController::Increase()
{
    uint32_t most = std::max(m_timerStages, m_byteStages);
    uint32_t least = std::min(m_timerStages, m_byteStages);
    if (most < m_p.fastRecoverySteps)
    {
        // Fast recovery: move halfway back towards the rate before the cut.
    }
    else if (least > m_p.fastRecoverySteps)
    {
        m_target += (least - m_p.fastRecoverySteps) * m_p.hyperIncreaseBps;
    }
    else
    {
        m_target += m_p.additiveIncreaseBps;
    }
    m_target = std::min(m_target, m_p.lineRateBps);
    m_rate = std::min((m_rate + m_target) / 2, m_p.lineRateBps);
    if (m_p.lineRateBps - m_rate < m_p.additiveIncreaseBps)
    {
        // Halving the gap never closes it: within one additive step, the line is reached.
        m_rate = m_p.lineRateBps;
        m_target = m_p.lineRateBps;
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-rate-controller.h"

#include "ns3/fatal-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnRateController");

DcqcnProfile
DcqcnProfile::Get(const std::string& name, double lineRateBps)
{
    DcqcnProfile profile;
    DcqcnParameters& rp = profile.reactionPoint;
    rp.lineRateBps = lineRateBps;
    if (name == "cx7")
    {
        // The struct's defaults are ConnectX firmware's (design doc, "Congestion control on
        // electrical rails").
        profile.cnpInterval = MicroSeconds(4);
    }
    else if (name == "paper-40g")
    {
        // The DCQCN paper's settings (and its authors' ns-3 configuration): alpha and the
        // increase timer on 55 us, a 10 MB byte counter, five fast-recovery stages, a cut on
        // every CNP (the receiver sends at most one per 50 us), R_T reset on every cut.
        rp.g = 1.0 / 256;
        rp.alphaPeriod = MicroSeconds(55);
        rp.decreasePeriod = Time(0);
        rp.increaseTimer = MicroSeconds(55);
        rp.byteCounter = 10 * 1000 * 1000;
        rp.fastRecoveryStages = 5;
        rp.additiveIncreaseBps = 40e6;
        rp.hyperIncreaseBps = 200e6;
        rp.clampAlways = true;
        profile.cnpInterval = MicroSeconds(50);
        profile.cnpIntervalPerPort = false;
    }
    else
    {
        NS_FATAL_ERROR("unknown DCQCN profile '" << name << "'");
    }
    return profile;
}

DcqcnRateController::DcqcnRateController(const DcqcnParameters& parameters)
    : m_p(parameters),
      m_rate(parameters.lineRateBps),
      m_target(parameters.lineRateBps),
      m_alpha(parameters.initialAlpha),
      m_started(false),
      m_alphaCnp(false),
      m_cutPending(false),
      m_timerAt(Time::Max()),
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
    if (!m_started)
    {
        // The clocks start with the first CNP, which itself cuts at the end of its period
        // (ConnectX's rate_to_set_on_first_cnp 0 leaves the rate alone until then).
        m_started = true;
        m_alpha = m_p.initialAlpha;
        m_alphaStart = now;
        m_decreaseStart = now;
    }
    AdvanceAlpha(now);
    m_alphaCnp = true;
    if (m_p.decreasePeriod.IsZero())
    {
        Cut(now);
        return;
    }
    if (!m_cutPending)
    {
        int64_t periods = (now - m_decreaseStart).GetTimeStep() / m_p.decreasePeriod.GetTimeStep();
        m_cutPending = true;
        m_cutAt = m_decreaseStart + m_p.decreasePeriod * (periods + 1);
    }
}

void
DcqcnRateController::OnSent(uint64_t bytes, Time now)
{
    NS_LOG_FUNCTION(this << bytes << now);
    AdvanceTo(now);
    if (!IsThrottled() || m_p.byteCounter == 0)
    {
        return;
    }
    m_bytes += bytes;
    while (m_bytes >= m_p.byteCounter && IsThrottled())
    {
        m_bytes -= m_p.byteCounter;
        Increase();
        ++m_byteStages;
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
DcqcnRateController::GetTargetRate(Time now)
{
    NS_LOG_FUNCTION(this << now);
    AdvanceTo(now);
    return m_target;
}

double
DcqcnRateController::GetAlpha(Time now)
{
    NS_LOG_FUNCTION(this << now);
    AdvanceTo(now);
    AdvanceAlpha(now);
    return m_alpha;
}

bool
DcqcnRateController::IsThrottled() const
{
    NS_LOG_FUNCTION(this);
    return m_rate < m_p.lineRateBps;
}

Time
DcqcnRateController::GetNextIncrease(Time now)
{
    NS_LOG_FUNCTION(this << now);
    AdvanceTo(now);
    return m_started && IsThrottled() ? m_timerAt : Time::Max();
}

void
DcqcnRateController::AdvanceTo(Time now)
{
    if (!m_started)
    {
        return; // no CNP yet: line rate, no clock runs
    }
    for (;;)
    {
        bool timer = IsThrottled() && (!m_cutPending || m_timerAt < m_cutAt);
        Time next = timer ? m_timerAt : (m_cutPending ? m_cutAt : Time::Max());
        if (next > now)
        {
            return;
        }
        if (timer)
        {
            m_timerAt += m_p.increaseTimer;
            Increase();
            ++m_timerStages;
        }
        else
        {
            Cut(next);
        }
    }
}

void
DcqcnRateController::AdvanceAlpha(Time now)
{
    int64_t periods = (now - m_alphaStart).GetTimeStep() / m_p.alphaPeriod.GetTimeStep();
    if (periods <= 0)
    {
        return;
    }
    // The period that ended first may have seen a CNP; the later ones saw none.
    m_alpha = (1 - m_p.g) * m_alpha + (m_alphaCnp ? m_p.g : 0);
    m_alpha *= std::pow(1 - m_p.g, static_cast<double>(periods - 1));
    m_alphaCnp = false;
    m_alphaStart += m_p.alphaPeriod * periods;
}

void
DcqcnRateController::Cut(Time at)
{
    AdvanceAlpha(at); // the update at the period's end comes first
    if (m_p.clampAlways || m_timerStages > 0)
    {
        m_target = m_rate;
    }
    m_rate = std::max(m_p.minRateBps, m_rate * (1 - m_alpha / 2));
    m_cutPending = false;
    m_timerAt = at + m_p.increaseTimer;
    m_timerStages = 0;
    m_byteStages = 0;
    m_bytes = 0;
    NS_LOG_LOGIC("cut at " << at.As(Time::US) << " to " << m_rate << " bit/s, alpha " << m_alpha);
}

void
DcqcnRateController::Increase()
{
    // T and BC count the expiries before this one; without a byte counter T stands for both.
    uint32_t bytes = m_p.byteCounter == 0 ? m_timerStages : m_byteStages;
    uint32_t most = std::max(m_timerStages, bytes);
    uint32_t least = std::min(m_timerStages, bytes);
    if (least > m_p.fastRecoveryStages)
    {
        m_target += m_p.hyperIncreaseBps;
    }
    else if (most >= m_p.fastRecoveryStages)
    {
        m_target += m_p.additiveIncreaseBps;
    }
    // else fast recovery: R_T stays, R_C moves halfway back to it.
    m_target = std::min(m_target, m_p.lineRateBps);
    m_rate = (m_rate + m_target) / 2;
    if (m_p.lineRateBps - m_rate < m_p.additiveIncreaseBps)
    {
        // Halving the gap never closes it: within one additive step, the line is reached.
        m_rate = m_p.lineRateBps;
        m_target = m_p.lineRateBps;
    }
}

} // namespace ns3

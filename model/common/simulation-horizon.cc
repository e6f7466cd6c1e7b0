/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "simulation-horizon.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SimulationHorizon");

Time
DelayWithinHorizon(double nanoseconds, const std::function<std::string()>& what)
{
    NS_LOG_FUNCTION(nanoseconds);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const int64_t left = HORIZON_NS - now;
    // Compared as a double first (2^63 exactly): llround beyond int64 is undefined.
    if (nanoseconds >= 0 && nanoseconds < 0x1p63 && std::llround(nanoseconds) <= left)
    {
        return NanoSeconds(std::llround(nanoseconds));
    }
    std::ostringstream reason;
    if (nanoseconds >= 0)
    {
        reason << what() << ": a duration of " << nanoseconds * 1e-9 << " s at " << now * 1e-9
               << " s ends past the simulator's time range (2^63 ns, about 292 years)";
    }
    else
    {
        reason << what() << ": " << nanoseconds * 1e-9 << " s is not a duration"; // < 0, NaN
    }
    throw std::runtime_error(reason.str());
}

bool
EventDelayWithinHorizon(double nanoseconds, const std::function<std::string()>& what, Time& delay)
{
    try
    {
        delay = DelayWithinHorizon(nanoseconds, what);
        return true;
    }
    catch (const std::runtime_error& e)
    {
        HorizonGuard::StopRun(e.what());
        return false;
    }
}

HorizonGuard* HorizonGuard::s_armed = nullptr;

HorizonGuard::~HorizonGuard()
{
    if (s_armed == this)
    {
        s_armed = nullptr;
    }
}

void
HorizonGuard::StopRun(const std::string& reason)
{
    NS_LOG_FUNCTION(reason);
    if (s_armed == nullptr)
    {
        throw std::runtime_error(reason);
    }
    if (s_armed->m_failure.empty()) // the first reason: later ones follow from it
    {
        s_armed->m_failure = reason;
    }
    Simulator::Stop();
}

const std::string&
HorizonGuard::GetFailure() const
{
    return m_failure;
}

void
HorizonGuard::Arm()
{
    NS_LOG_FUNCTION(this);
    s_armed = this;
    Simulator::Schedule(NanoSeconds(HORIZON_NS) - Simulator::Now(), &HorizonGuard::Stop, this);
}

void
HorizonGuard::Stop()
{
    // This event has left the queue: anything still in it is work past the horizon.
    m_reached = !Simulator::IsFinished();
    Simulator::Stop();
}

bool
HorizonGuard::Reached() const
{
    NS_LOG_FUNCTION(this);
    return m_reached;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIRCUIT_RECORDER_H
#define CIRCUIT_RECORDER_H

#include "ns3/nstime.h"
#include "ns3/optical-circuit-switch.h"
#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Measures how long every OCS port has had a circuit up (circuit up-time).
 *
 * Attach it before the circuits are first set (Preset fires CircuitUp too): it follows the
 * CircuitUp and CircuitDown traces of every rail's OCS. A port counts as up while the
 * circuit from it (as input) is connected and not dark.
 */
class CircuitRecorder
{
  public:
    /**
     * \brief Starts following the switches.
     * \param switches one OCS per rail
     */
    void Attach(const std::vector<Ptr<OpticalCircuitSwitch>>& switches);

    /**
     * \param rail a rail
     * \param port an OCS port of that rail
     * \param until the end of the measurement (e.g. the makespan)
     * \return the time the port had a circuit up before \p until
     */
    Time GetUpTime(uint32_t rail, uint32_t port, Time until) const;

  private:
    void Up(uint32_t rail, uint32_t input, uint32_t output);
    void Down(uint32_t rail, uint32_t input, uint32_t output);

    /// Per port: closed up intervals, and the start of the open one (negative: down).
    struct PortState
    {
        std::vector<std::pair<Time, Time>> intervals; //!< Closed [up, down) intervals
        Time upSince{-1};                             //!< Open interval start, or negative
    };

    std::vector<std::vector<PortState>> m_ports; //!< Per rail, per OCS port
};

} // namespace ns3

#endif /* CIRCUIT_RECORDER_H */

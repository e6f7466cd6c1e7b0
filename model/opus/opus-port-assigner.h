/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_PORT_ASSIGNER_H
#define OPUS_PORT_ASSIGNER_H

#include "ns3/ocs-circuit-table.h"
#include "ns3/opus-demand.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What serving a demand changes on one rail.
 */
struct OpusRailChange
{
    std::map<uint32_t, uint32_t> config;   //!< The rail's circuits afterwards
    OcsConnections connections;            //!< For OcsCircuitTable::Reconfigure
    std::set<uint32_t> used;               //!< Ports of the demand's circuits
    std::vector<OpusDemand::Link> relayed; //!< Pairs left without a live port
};

/**
 * \ingroup photonic-rails
 * \brief Opus's port assignment: which OCS ports a demand's circuits take (no simulator).
 *
 * It knows the NIC ports of every GPU on its rail's OCS, the ports planned around because
 * they failed, and the target circuits of every rail (what the controller has ordered). For a
 * demand it keeps every circuit the demand already has and, for the missing ones, picks
 * ports whose circuit joins no pair to keep (unconnected ports first), so only ports whose
 * circuit differs go dark. It decides nothing about time: OpusController asks it, and
 * orders what it returns.
 */
class OpusPortAssigner
{
  public:
    OpusPortAssigner() = default;

    /**
     * \param radixes the OCS radix of every rail
     * \param ocsPorts per GPU (rank), the OCS port of each of its NIC ports on its rail
     * \param gpusPerServer GPUs per server = rails
     */
    OpusPortAssigner(const std::vector<uint32_t>& radixes,
                     std::vector<std::vector<uint32_t>> ocsPorts,
                     uint32_t gpusPerServer);

    /// \return the number of rails
    uint32_t GetRails() const;

    /// \param rail a rail \return its target circuits (both directions of every circuit)
    const std::map<uint32_t, uint32_t>& GetConfig(uint32_t rail) const;
    /// \param rail a rail \param config its target circuits from now
    void SetConfig(uint32_t rail, std::map<uint32_t, uint32_t> config);

    /// Plans around \p port of \p rail from now. \param rail a rail \param port the port
    void MarkDead(uint32_t rail, uint32_t port);
    /// \param rail a rail \param port the port \return true if it was planned around
    bool Revive(uint32_t rail, uint32_t port);
    /// \param rail a rail \param port a port \return true if \p port of \p rail is down
    bool IsDead(uint32_t rail, uint32_t port) const;
    /// \param rail a rail \return true if a port of \p rail is planned around
    bool HasDeadPorts(uint32_t rail) const;

    /**
     * \brief Cuts \p needs of \p rail to the live ports: a GPU with d of its P ports down
     * has P - d for its peers on the rail.
     * \param rail the rail
     * \param needs the needs on \p rail
     * \param[out] live the needs cut
     * \param[out] relayed the pairs left without a port (they relay through other GPUs)
     */
    void LiveNeeds(uint32_t rail,
                   const std::vector<OpusCircuitNeed>& needs,
                   std::vector<OpusCircuitNeed>& live,
                   std::vector<OpusDemand::Link>& relayed) const;

    /**
     * \brief Assigns ports to the needs of one rail on \p change.config (updated).
     * A circuit joining a pair in \p keep is never taken down.
     * \param rail the rail
     * \param needs the needs on \p rail
     * \param change its config is the starting point; connections and used are added to
     * \param keep the pairs whose circuits stay
     * \return false if a circuit finds no port
     */
    bool AssignRailPorts(uint32_t rail,
                         const std::vector<OpusCircuitNeed>& needs,
                         OpusRailChange& change,
                         const std::set<OpusDemand::Link>& keep) const;

    /**
     * \brief Assigns the ports of \p demand's circuits on every rail, cut to the live ports,
     * starting from the target circuits.
     * \param demand the demand
     * \param keep the pairs whose circuits stay
     * \param[out] changes per rail of the demand, what it changes
     * \return false if a needed port is taken by a pair to keep (or dead)
     */
    bool AssignDemand(const OpusDemand& demand,
                      const std::set<OpusDemand::Link>& keep,
                      std::map<uint32_t, OpusRailChange>& changes) const;

    /// \param pair a GPU pair on a rail \return true if a target circuit joins it on live ports
    bool IsJoined(const OpusDemand::Link& pair) const;
    /// \param rail the rail of \p gpu \param gpu a GPU (rank)
    /// \return true if \p gpu exists and a NIC port of it on \p rail is not planned around
    bool HasLivePort(uint32_t rail, uint32_t gpu) const;
    /// \param demand a demand \return true if the target circuits hold all of its circuits
    bool IsSetUp(const OpusDemand& demand) const;

  private:
    std::vector<std::vector<uint32_t>> m_ocsPorts;      //!< Per GPU, per NIC port
    std::vector<std::vector<uint32_t>> m_portGpu;       //!< Per rail, per OCS port
    std::vector<std::map<uint32_t, uint32_t>> m_config; //!< Per rail: target circuits
    std::vector<std::set<uint32_t>> m_deadPorts;        //!< Per rail: ports planned around
};

} // namespace ns3

#endif /* OPUS_PORT_ASSIGNER_H */

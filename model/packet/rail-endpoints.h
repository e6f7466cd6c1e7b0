/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_ENDPOINTS_H
#define RAIL_ENDPOINTS_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <map>
#include <set>
#include <vector>

namespace ns3
{

class OpticalCircuitSwitch;

/**
 * \ingroup photonic-rails
 * \brief The directory of a fabric's GPU endpoints: which NIC ports belong to which GPU.
 *
 * GPUs are numbered 0..N-1 (global ranks); each has its ports in a fixed order. Every port
 * belongs to a plane: the ports of one plane can reach each other (a rail's switch or OCS,
 * or a server's scale-up switch), ports of different planes never. Transports use it to
 * address a peer GPU's ports and to recognize who is at the far end of an optical circuit.
 */
class RailEndpoints : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    /**
     * \brief Appends a port to a GPU's list.
     * \param gpu the GPU
     * \param port its next port
     * \param plane the plane the port is on (e.g. its rail)
     * \return the port's index at that GPU
     */
    uint32_t AddPort(uint32_t gpu, Ptr<NetDevice> port, uint32_t plane = 0);

    /**
     * \param gpu a GPU
     * \param index one of its ports
     * \return the port's plane
     */
    uint32_t GetPlane(uint32_t gpu, uint32_t index) const;

    /**
     * \param gpu a GPU
     * \param plane a plane
     * \return the indices of the GPU's ports on that plane, in order
     */
    std::vector<uint32_t> GetPortsOnPlane(uint32_t gpu, uint32_t plane) const;

    /// \return one more than the highest GPU number with a port
    uint32_t GetGpuCount() const;

    /**
     * \param plane a plane
     * \return every port on it as (GPU, port index), in the order they were added
     */
    const std::vector<std::pair<uint32_t, uint32_t>>& GetPlaneMembers(uint32_t plane) const;

    /// \param plane a plane that is a scale-up domain (PXN proxies are reached through it)
    void MarkScaleUpPlane(uint32_t plane);

    /// \param plane a plane \return true if it is a scale-up domain
    bool IsScaleUpPlane(uint32_t plane) const;

    /**
     * \param gpu a GPU
     * \return its ports, in order
     */
    const std::vector<Ptr<NetDevice>>& GetPorts(uint32_t gpu) const;

    /**
     * \param gpu a GPU
     * \param index one of its ports
     * \return true if the port is down: its cable is cut (packet-switched or scale-up port),
     *         or its OCS port failed
     */
    bool IsPortDown(uint32_t gpu, uint32_t index) const;

    /**
     * \param gpu a GPU
     * \param index one of its ports
     * \return since when the port has been down (IsPortDown), or Time::Max() if it is up
     */
    Time GetDownSince(uint32_t gpu, uint32_t index) const;

    /**
     * \brief Calls \p callback after any port's link changes (a failure, a repair, a
     * circuit made or torn down), wherever it is: a path around a failure can depend on
     * any rail.
     * \param callback called with no argument
     */
    void AddChangeCallback(Callback<void> callback);

    /**
     * \brief Finds the GPU and port index owning a MAC address.
     * \param address a port's address
     * \param[out] gpu the GPU
     * \param[out] index the port index at that GPU
     * \return false if no registered port has that address
     */
    bool Find(const Address& address, uint32_t& gpu, uint32_t& index) const;

  protected:
    void DoDispose() override;

  private:
    /// A port's link changed: notes when it went down.
    void OnLinkChange(uint32_t gpu, uint32_t index);
    /// Port \p port of OCS \p ocs failed or came back: notes it for the NIC plugged into it
    /// (whose link changes only if a circuit went: a dark port fails unseen by its NIC).
    void OnOcsPortFailure(const OpticalCircuitSwitch* ocs, uint32_t port, bool failed);

    std::vector<std::vector<Ptr<NetDevice>>> m_ports; //!< Ports per GPU
    std::vector<std::vector<uint32_t>> m_planes;      //!< Plane of each port
    std::set<uint32_t> m_scaleUpPlanes;               //!< Scale-up domains
    std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> m_members; //!< Per plane
    std::map<Mac48Address, std::pair<uint32_t, uint32_t>> m_owners; //!< Address -> GPU, index
    std::map<std::pair<uint32_t, uint32_t>, Time> m_downSince;      //!< Ports down, since when
    std::vector<Callback<void>> m_changeCallbacks;                  //!< AddChangeCallback
    /// (OCS, OCS port) -> (GPU, port index) of the NIC plugged into it
    std::map<std::pair<const OpticalCircuitSwitch*, uint32_t>, std::pair<uint32_t, uint32_t>>
        m_ocsPorts;
};

} // namespace ns3

#endif /* RAIL_ENDPOINTS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_TRANSPORT_H
#define FLOW_TRANSPORT_H

#include "ns3/flow-fabric.h"
#include "ns3/message-transport.h"

#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief A GPU's messages as flows (the flow model's MessageTransport).
 *
 * Send() splits a message over the routes FlowFabric gives to the peer now, in the shares it
 * gives them, one transfer per route (C6), as RailTransport splits it over its ports. The
 * receiver is told when every part has arrived: its drain plus its route's latency
 * (propagation, switching and the store-and-forward of the frames the part makes); the sender
 * when every part's ACK would be back. A message with
 * no route waits (C5); a transfer whose circuit goes dark pauses, and moves with its port's
 * circuit while it still leads to the peer. Losses, retransmissions, PFC and DCQCN are not
 * modelled.
 */
class FlowTransport : public MessageTransport
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    /**
     * \param gpu this GPU's number
     * \param fabric the fabric it belongs to
     */
    void Setup(uint32_t gpu, Ptr<FlowFabric> fabric);

    uint32_t GetGpu() const override;

    /**
     * \brief A circuit of a NIC port of this server changed: transfers on it pause, resume
     *        or move, and waiting messages try again.
     * \param railGpu the GPU whose port it is
     * \param port the port
     */
    void OnPortChange(uint32_t railGpu, uint32_t port);

  protected:
    void DoDispose() override;
    void DoSend(uint64_t id, uint32_t peer, uint64_t bytes) override;

  private:
    /// One transfer of a message, on one route.
    struct Part
    {
        uint32_t railGpu;                      //!< GPU whose NIC port carries it
        uint32_t port;                         //!< That port (FlowRoute::SCALE_UP within a server)
        FlowNetwork::TransferId transfer;      //!< Its transfer
        std::vector<FlowNetwork::LinkId> path; //!< Its links while running
        Time latency;                          //!< From its drain to its arrival
        Time ackLatency;                       //!< From its arrival to its ACK at the sender
        bool running;                          //!< Not paused
        bool drained;                          //!< Done (its transfer id may be reused)
    };

    /// A message between Send() and its sent callback.
    struct Outgoing
    {
        uint32_t peer;           //!< Destination
        uint64_t bytes;          //!< Size
        std::vector<Part> parts; //!< Its transfers (empty while it waits)
        uint32_t partsLeft{0};   //!< Transfers not yet drained
        Time arrival;            //!< Latest arrival of a drained part
        Time acknowledged;       //!< Latest ACK of a drained part at the sender
    };

    /// Starts \p id's transfers on the routes usable now; false if there is none.
    bool Dispatch(uint64_t id);
    /// Bits of a transfer's tag that name the part (the rest is the message id).
    static constexpr uint32_t PART_BITS = 8;
    static_assert((uint64_t(1) << PART_BITS) > RailFabricSpec::MAX_NIC_PORTS,
                  "a tag's part index (one part per NIC port) fits in PART_BITS");

    /// A part drained: \p tag is (message id << PART_BITS) | part index.
    void PartDrained(uint64_t tag);
    /// The message is complete at the peer.
    void Arrive(uint32_t source, uint64_t id, uint64_t bytes);
    /// The sender learns that message \p id is complete.
    void Complete(uint64_t id);
    /// Dispatches the messages that wait for a circuit, if one has come.
    void RetryWaiting();
    /// Re-routes or pauses a running or paused part after its port's circuit changed.
    void Reroute(uint64_t id, Part& part);

    uint32_t m_gpu{0};                                 //!< This GPU
    Ptr<FlowFabric> m_fabric;                          //!< Its fabric
    std::unordered_map<uint64_t, Outgoing> m_outgoing; //!< Message id -> state
    std::deque<uint64_t> m_waiting;                    //!< Messages with no route yet
    bool m_retryPending{false};                        //!< A RetryWaiting() is scheduled now
    FlowNetwork::DrainedCallback m_drained;            //!< PartDrained, for every transfer
};

} // namespace ns3

#endif /* FLOW_TRANSPORT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_TRANSPORT_H
#define FLOW_TRANSPORT_H

#include "ns3/flow-fabric.h"
#include "ns3/message-transport.h"

#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What a FlowTransport did about failures.
 */
struct FlowTransportCounters
{
    uint64_t partsMoved{0};    //!< Parts whose path failed, moved to other ports
    uint64_t bytesMoved{0};    //!< Their bytes still to send
    uint64_t detours{0};       //!< Parts and messages sent around a failure
    uint64_t bytesDetoured{0}; //!< Their bytes
};

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
 *
 * Failures (FaultInjector on a FlowFabric) follow the packet model's rules: a part whose NIC
 * port or peer port fails pauses; if the port is not back one RetransmitTimeout later, the
 * bytes it has left move to the routes that work (other ports), or, where none does and the
 * traffic MayDetour, around the failure (FlowFabric::DetourRoutes), or wait for a repair. A
 * part stopped by a failure inside a Clos rail resumes once routing goes around it. A new
 * message with no route detours once its peer has been out of reach for a RetransmitTimeout.
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

    /// A part of the fabric failed or came back, or routing moved: every transfer is checked
    /// again and waiting messages try again.
    void OnFabricChange();

    /// \return what this transport did about failures
    const FlowTransportCounters& GetCounters() const;

    /// \param failure when the failure whose recovery GetLastRecovery measures strikes
    void CatchFrom(Time failure);

    /**
     * \return the latest time traffic that a failure stopped within a RetransmitTimeout of
     *         CatchFrom moved again (resumed, moved or detoured), or -1 s if none did
     */
    Time GetLastRecovery() const;

  protected:
    void DoDispose() override;
    void DoSend(uint64_t id, uint32_t peer, uint64_t bytes) override;

  private:
    /// One transfer of a message, on one route.
    struct Part
    {
        uint64_t message;                 //!< Its message
        FlowRoute route;                  //!< Its route (path: its links while running)
        FlowNetwork::TransferId transfer; //!< Its transfer
        bool running{true};               //!< Not paused
        bool done{false};                 //!< Drained or moved (its transfer id may be reused)
        bool gaveUp{false};               //!< Its path failed for a RetransmitTimeout
        Time stoppedAt{Seconds(-1)};      //!< When a failure stopped it, if one did
        EventId giveUp;                   //!< Its GiveUp, while its path is failed
    };

    /// A message between Send() and its sent callback.
    struct Outgoing
    {
        uint32_t peer;                  //!< Destination
        uint64_t bytes;                 //!< Size
        std::vector<uint64_t> parts;    //!< Its parts' tags (empty while it waits)
        uint32_t partsLeft{0};          //!< Parts not yet drained
        Time arrival;                   //!< Latest arrival of a drained part
        Time acknowledged;              //!< Latest ACK of a drained part at the sender
        Time waitingSince{Seconds(-1)}; //!< When it found no route, if it did
    };

    /// Starts \p id's transfers on the routes usable now; false if there is none.
    bool Dispatch(uint64_t id);
    /// Starts a part of message \p id on each of \p routes.
    void StartParts(uint64_t id, const std::vector<FlowRoute>& routes);
    /**
     * \param peer the destination
     * \param bytes the traffic's size
     * \param waited true for a part whose path failed a RetransmitTimeout ago, false for a
     *        new message (which waits until its peer has been out of reach that long)
     * \return the routes around a failure, if the traffic may detour now (else none, and a
     *         check when it may)
     */
    std::vector<FlowRoute> Around(uint32_t peer, uint64_t bytes, bool waited);
    /// A part drained: \p tag names it.
    void PartDrained(uint64_t tag);
    /// The message is complete at the peer.
    void Arrive(uint32_t source, uint64_t id, uint64_t bytes);
    /// The sender learns that message \p id is complete.
    void Complete(uint64_t id);
    /// Dispatches the messages that wait for a circuit, if one has come.
    void RetryWaiting();
    /// Retries the waiting messages at the end of this instant (once).
    void ScheduleRetry();
    /// Revisits the parts not done for which \p concerned is true, in message order.
    void RevisitParts(const std::function<bool(const Part&)>& concerned);
    /// Resumes, re-routes or pauses part \p tag after a change of its path.
    void Revisit(uint64_t tag);
    /// \return true if a NIC port of \p part's rail hop failed
    bool Failed(const Part& part) const;
    /// Part \p tag's path stayed failed for a RetransmitTimeout.
    void GiveUp(uint64_t tag);
    /// Moves what part \p tag has left to the routes that work now, if any.
    void TryMove(uint64_t tag);
    /// Traffic stopped at \p stoppedAt moves again now.
    void Recovered(Time stoppedAt);

    uint32_t m_gpu{0};                                 //!< This GPU
    Ptr<FlowFabric> m_fabric;                          //!< Its fabric
    Time m_retransmitTimeout;                          //!< RetransmitTimeout attribute
    std::unordered_map<uint64_t, Outgoing> m_outgoing; //!< Message id -> state
    std::unordered_map<uint64_t, Part> m_parts;        //!< Tag -> part
    uint64_t m_nextTag{0};                             //!< The next part's tag
    std::deque<uint64_t> m_waiting;                    //!< Messages with no route yet
    bool m_retryPending{false};                        //!< A RetryWaiting() is scheduled now
    EventId m_check;                                   //!< An OnFabricChange() to come
    std::unordered_map<uint32_t, Time> m_stoppedSince; //!< Peer -> out of reach since
    FlowNetwork::DrainedCallback m_drained;            //!< PartDrained, for every transfer
    FlowTransportCounters m_counters;                  //!< See GetCounters
    Time m_caughtFrom{Seconds(-1)};                    //!< See CatchFrom
    Time m_lastRecovery{Seconds(-1)};                  //!< See GetLastRecovery
};

} // namespace ns3

#endif /* FLOW_TRANSPORT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MESSAGE_TRANSPORT_H
#define MESSAGE_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What a GPU's message transport has counted: the part of the contract every network
 *        model keeps (RailTransportCounters has the packet model's own).
 */
struct MessageTransportCounters
{
    uint64_t messagesSent{0};          //!< Messages whose sent callback has fired
    uint64_t messagesReceived{0};      //!< Messages delivered complete at this GPU
    uint64_t payloadBytesDelivered{0}; //!< Bytes of this GPU's own messages delivered here
};

/**
 * \ingroup photonic-rails
 * \brief Reliable messages between the GPUs of a fabric: the seam between the layers that
 *        replay a job (collectives, ranks, Opus) and a network model below them.
 *
 * The collective engine uses only this interface, so a network model is a subclass: the
 * packet model (RailTransport) and the flow model (FlowTransport). Send() is not virtual, as
 * ns-3's QueueDisc::Enqueue wraps DoEnqueue: the base assigns the message id, keeps the
 * message's peer, size and sent callback until it is acknowledged, and owns the counters (C7),
 * the MessageSent and MessageReceived trace sources and the receive callback, so that every
 * model keeps C2 and C7 the same way. A subclass moves the bytes (DoSend) and tells the base
 * what happened: NotifyPayloadDelivered as bytes of a message reach their final GPU,
 * NotifyDelivered when a message is complete there, NotifySent when its sender learns it.
 * The contract, which the suite message-transport tests on every implementation:
 * - C1 Send returns the message id before any callback about that message runs;
 * - C2 ids are unique per sender, counting from 1;
 * - C3 the receive callback fires once, at the receiver, when every byte has arrived; the
 *   sent callback fires once, at the sender, never before the receive callback;
 * - C4 any GPU of the fabric is addressable (routing, e.g. through a PXN proxy, is the
 *   transport's job);
 * - C5 a message with no usable path waits until one appears; it never fails;
 * - C6 a message uses every path to the peer that is up when it is dispatched, split by rate;
 * - C7 the counters (GetMessageCounters) count messages sent and received and the payload
 *   bytes delivered at the final GPU.
 */
class MessageTransport : public Object
{
  public:
    /// Called at the sender when a message is complete at its receiver: message id.
    using SentCallback = Callback<void, uint64_t>;
    /// Called at the receiver when a whole message arrived: source GPU, message id, bytes.
    using ReceiveCallback = Callback<void, uint32_t, uint64_t, uint64_t>;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    ~MessageTransport() override;

    /// \return this GPU's number
    virtual uint32_t GetGpu() const = 0;

    /**
     * \brief Sends a message.
     * \param peer destination GPU (another GPU of the fabric)
     * \param bytes message size (at least 1)
     * \param sent called once the message is complete at its receiver (may be null)
     * \return the message id (unique at this sender, from 1)
     */
    uint64_t Send(uint32_t peer, uint64_t bytes, SentCallback sent = SentCallback());

    /// \return messages accepted by Send() whose sent callback has not fired
    std::size_t GetPendingMessageCount() const;

    /// \return the contract's counters (C7)
    MessageTransportCounters GetMessageCounters() const;

    /// \param callback called for every message received complete at this GPU
    void SetReceiveCallback(ReceiveCallback callback);

    /**
     * TracedCallback signature for whole messages.
     * \param gpu the peer (sent) or source (received) GPU
     * \param id the sender's message id
     * \param bytes the message size
     */
    typedef void (*MessageTracedCallback)(uint32_t gpu, uint64_t id, uint64_t bytes);

  protected:
    void DoDispose() override;

    /**
     * \brief Starts moving a message that Send() accepted: the model's part of Send().
     *
     * The message is pending already (GetPendingMessageCount counts it), so the subclass may
     * call NotifySent(\p id) from here on; it must not before the message is complete at its
     * receiver (C3).
     * \param id the message id the base assigned
     * \param peer destination GPU
     * \param bytes message size (at least 1)
     */
    virtual void DoSend(uint64_t id, uint32_t peer, uint64_t bytes) = 0;

    /**
     * \brief An id for a message the model sends on its own (e.g. a detour), from the same
     * sequence as Send()'s, so that ids stay unique at this sender (C2).
     * \return the next message id
     */
    uint64_t AllocateMessageId();

    /**
     * \brief A subclass calls this when bytes of a message addressed to this GPU arrive
     * (they count in payloadBytesDelivered at once, so a run cut short counts them too).
     * \param bytes the payload bytes that arrived
     */
    void NotifyPayloadDelivered(uint64_t bytes);

    /**
     * \brief A subclass calls this when a message addressed to this GPU is complete: counts
     * it, fires MessageReceived, then the receive callback.
     * \param source the sending GPU
     * \param id the sender's message id
     * \param bytes the message size
     */
    void NotifyDelivered(uint32_t source, uint64_t id, uint64_t bytes);

    /**
     * \brief A subclass calls this at the sender when message \p id (one Send() accepted) is
     * complete at its receiver: forgets it, counts it, fires MessageSent, then its sent
     * callback.
     * \param id the message id
     */
    void NotifySent(uint64_t id);

  private:
    /// A message between Send() and NotifySent().
    struct Pending
    {
        uint32_t peer;     //!< Destination
        uint64_t bytes;    //!< Size
        SentCallback sent; //!< Completion callback
    };

    ReceiveCallback m_receiveCallback;               //!< The upper layer
    uint64_t m_nextMessageId{1};                     //!< Next message id (C2)
    std::unordered_map<uint64_t, Pending> m_pending; //!< Message id -> what NotifySent needs
    MessageTransportCounters m_counters;             //!< The contract's counters (C7)
    TracedCallback<uint32_t, uint64_t, uint64_t> m_messageSentTrace;     //!< peer, id, bytes
    TracedCallback<uint32_t, uint64_t, uint64_t> m_messageReceivedTrace; //!< src, id, bytes
};

} // namespace ns3

#endif /* MESSAGE_TRANSPORT_H */

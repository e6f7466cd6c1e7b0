/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MESSAGE_TRANSPORT_H
#define MESSAGE_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/object.h"

#include <cstddef>
#include <cstdint>

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
 * packet model (RailTransport) today, a flow model next. The base owns the receive callback;
 * a subclass calls NotifyReceived when a message is complete. The contract, which the suite
 * message-transport tests on every implementation:
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
    virtual uint64_t Send(uint32_t peer, uint64_t bytes, SentCallback sent = SentCallback()) = 0;

    /// \return messages accepted by Send() whose sent callback has not fired
    virtual std::size_t GetPendingMessageCount() const = 0;

    /// \return the contract's counters (C7)
    virtual MessageTransportCounters GetMessageCounters() const = 0;

    /// \param callback called for every message received complete at this GPU
    void SetReceiveCallback(ReceiveCallback callback);

  protected:
    void DoDispose() override;

    /**
     * \brief A subclass calls this when a message addressed to this GPU is complete.
     * \param source the sending GPU
     * \param id the sender's message id
     * \param bytes the message size
     */
    void NotifyReceived(uint32_t source, uint64_t id, uint64_t bytes);

  private:
    ReceiveCallback m_receiveCallback; //!< The upper layer
};

} // namespace ns3

#endif /* MESSAGE_TRANSPORT_H */

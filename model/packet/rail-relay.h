/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_RELAY_H
#define RAIL_RELAY_H

#include "ns3/rail-transport.h"

#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The relaying side of a RailTransport: PXN (a message to a GPU on no rail of this
 *        GPU goes over the scale-up domain to the GPU on the peer's rail, which sends it on)
 *        and the hops of detours, which forward the same way.
 *
 * As the origin it picks the proxy and sends the message to it; as a proxy or detour hop it
 * passes the bytes it receives on towards their destination as they arrive, chunk by chunk
 * round robin over its ports, choosing each next hop so that a message never goes back
 * through a GPU it passed. A plain part of its RailTransport, which owns it; it queues
 * through the sender part and asks the failover part where a detour goes next.
 */
class RailRelay : public RailTransportPart
{
  public:
    using RailTransportPart::RailTransportPart;

    /// A message this GPU forwards (as a PXN proxy or a detour hop).
    struct Forwarding
    {
        uint64_t arrived{0};        //!< Bytes received from the origin so far
        std::vector<uint32_t> qpns; //!< QPs carrying its shares, one per port
        uint32_t partsLeft{0};      //!< Shares not yet acknowledged by the next GPU
        bool detour{false};         //!< A detour message (its destination completes it)
        bool around{false};         //!< It goes around a failure (a detour, or past its PXN proxy)
    };

    /// \return a GPU sharing a scale-up domain with this GPU and a rail with \p peer (found
    ///         once per peer), or NO_GPU
    uint32_t ProxyFor(uint32_t peer);
    /// Sends message \p id of this GPU to \p peer through the PXN proxy \p proxy.
    void Relay(uint64_t id, uint32_t proxy, uint32_t peer, uint64_t bytes);
    /// Queues message \p id of this GPU to \p hop, which forwards it towards \p peer.
    void SendThrough(uint64_t id, uint32_t hop, uint32_t peer, uint64_t bytes);
    /// Makes bytes this GPU received for another GPU available to the shares that forward
    /// them (the first bytes of a message set its shares up).
    void PassOn(const RailTransportHeader& header, uint32_t payload);
    /// A share this GPU forwards was acknowledged in full by the next GPU.
    void ShareDone(const Part& part);
    /// A forwarded share moved to QP \p qpn (its old path failed).
    void MoveShare(const Part& share, uint32_t qpn);
    /// \return true if this GPU forwards message \p key around a failure: a detour message,
    ///         or one that has passed its PXN proxy or is not on its way straight to its
    ///         destination (a share of it that waits for a circuit asks for one)
    bool GoesAround(const MessageKey& key) const;
    /**
     * \param key a message on its way to this GPU through proxies or detour hops
     * \return the GPUs it has passed through so far (kept here, at its destination, until
     *         it is complete: a forwarding GPU adds itself and never sends it back to one)
     */
    std::set<uint32_t>& PassedThrough(const MessageKey& key);
    /// Forgets the GPUs message \p key passed through (it is complete here).
    void ForgetPassed(const MessageKey& key);

  private:
    /// \return the GPU a proxy forwards a message for \p to through (\p to if direct), not
    ///         one of \p passed (the GPUs the message has passed through)
    uint32_t NextHop(uint32_t to, bool detour, const std::set<uint32_t>& passed);
    /// \return a GPU sharing a rail with this GPU and a scale-up domain with \p peer, not in
    ///         \p avoid, or NO_GPU (the last stop of a detour off the peer's rail)
    uint32_t ProxyBefore(uint32_t peer, const std::set<uint32_t>& avoid) const;
    /// Sets up the shares that forward message \p key, one per port towards the next hop.
    void StartForwarding(const MessageKey& key,
                         const RailTransportHeader& header,
                         Forwarding& forwarding);

    std::map<MessageKey, Forwarding> m_forwards;       //!< Messages this GPU forwards
    std::map<uint32_t, uint32_t> m_proxies;            //!< Peer -> proxy GPU, once found
    std::map<MessageKey, std::set<uint32_t>> m_passed; //!< See PassedThrough
};

} // namespace ns3

#endif /* RAIL_RELAY_H */

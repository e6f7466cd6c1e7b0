/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_NETWORK_H
#define FLOW_NETWORK_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/flow-rate-solver.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Transfers over links of fixed capacity at max-min fair rates, in simulated time: the
 *        engine of the flow-level network model.
 *
 * A transfer moves a number of bytes over a path of links. Whenever transfers start, finish,
 * pause or change path, the rates of the transfers connected to the change are re-solved
 * (FlowRateSolver) once per simulated instant, each transfer's bytes are advanced at its old
 * rate up to that instant, and its drain time is rescheduled at the new rate. A paused
 * transfer has rate 0 and keeps its remaining bytes.
 *
 * Transfers started on the same connection (a key the caller chooses: the packet model's
 * queue pair, one port towards one peer) run one at a time, in the order they were started,
 * as a queue pair sends its messages in order; transfers on different connections share
 * links max-min fairly, as a port's round robin over its queue pairs does.
 */
class FlowNetwork : public Object
{
  public:
    using LinkId = FlowRateSolver::LinkId; //!< A link
    using TransferId = uint32_t;           //!< A transfer (reused once it has drained)
    /// Called when a transfer's last byte has left its path's bottleneck, with the tag the
    /// transfer was started with (one callback serves all of a caller's transfers).
    using DrainedCallback = Callback<void, uint64_t>;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    /**
     * \param bytesPerSecond the link's capacity
     * \return its id
     */
    LinkId AddLink(double bytesPerSecond);
    /// \param link a link \return its capacity in bytes per second
    double GetLinkCapacity(LinkId link) const;

    /**
     * \brief Starts a transfer, or queues it behind the transfers of its connection.
     * \param path the links it crosses (non-empty, none twice)
     * \param bytes its size (> 0)
     * \param connection its connection: transfers of one connection run in start order
     * \param drained called once when its last byte is through
     * \param tag passed to \p drained
     * \return its id
     */
    TransferId Start(const std::vector<LinkId>& path,
                     uint64_t bytes,
                     uint64_t connection,
                     const DrainedCallback& drained,
                     uint64_t tag);
    /// \param transfer a transfer to stop (rate 0), running or queued, until Resume()
    void Pause(TransferId transfer);
    /**
     * \param transfer a paused transfer
     * \param path the links it crosses from now on (it runs when first of its connection)
     */
    void Resume(TransferId transfer, const std::vector<LinkId>& path);
    /// \param transfer a transfer \return true if it is paused
    bool IsPaused(TransferId transfer) const;
    /**
     * \brief Ends a paused transfer before its drain (its bytes go another way): the next
     *        transfer of its connection may run; no drained callback.
     * \param transfer a paused transfer
     * \return the bytes it had left, rounded up; 0 if its last byte is through at this very
     *         instant (it drains as usual)
     */
    uint64_t Withdraw(TransferId transfer);
    /// \param transfer a transfer \return its rate in bytes per second now
    double GetRate(TransferId transfer) const;
    /// \param transfer a transfer \return the bytes it has left now, rounded up
    uint64_t GetBytesLeft(TransferId transfer) const;

    /// \return transfers started and not yet drained
    std::size_t GetTransferCount() const;
    /// \return transfer rates computed so far (how much re-solving the run did)
    uint64_t GetRatesSolved() const;

  protected:
    void DoDispose() override;

  private:
    /// No solver flow (a paused or free transfer).
    static constexpr FlowRateSolver::FlowId NO_FLOW = 0xffffffff;

    /// A transfer's state.
    struct Transfer
    {
        double remaining{0};                  //!< Bytes still to move at `since`
        double rate{0};                       //!< Bytes per second since `since`
        Time since;                           //!< When remaining was last brought up to date
        FlowRateSolver::FlowId flow{NO_FLOW}; //!< Its solver flow while running
        std::vector<LinkId> path;             //!< Links it crosses (or will)
        uint64_t connection{0};               //!< Its connection
        EventId drain;                        //!< Its drain, at the current rate
        DrainedCallback drained;              //!< Completion callback
        uint64_t tag{0};                      //!< Its argument
        bool active{false};                   //!< Slot in use
        bool paused{false};                   //!< Stopped by Pause()
    };

    /// Runs \p id if it is first of its connection and not paused.
    void RunIfFirst(TransferId id);
    /// Takes \p id off its connection (running the next one) and frees its slot.
    void Release(TransferId id);
    /// Re-solves at the end of this instant (once, however many changes it has).
    void RequestSolve();
    /// Applies the solver's new rates.
    void Solve();
    /// Brings \p t's remaining bytes up to now at its current rate.
    void Advance(Transfer& t);
    /// Gives transfer \p id a new rate and reschedules its drain.
    void SetRate(TransferId id, double rate);
    /// A transfer's last byte is through.
    void Drain(TransferId id);
    /// \return the transfer, which must be active
    Transfer& Get(TransferId id);

    FlowRateSolver m_solver;                  //!< Max-min fair rates
    std::vector<Transfer> m_transfers;        //!< By id
    std::vector<TransferId> m_free;           //!< Free slots
    std::vector<TransferId> m_transferOfFlow; //!< Solver flow -> transfer
    /// Per connection, its transfers in start order (the first one runs)
    std::unordered_map<uint64_t, std::deque<TransferId>> m_connections;
    std::size_t m_active{0};    //!< Active transfers
    bool m_solvePending{false}; //!< A Solve() is scheduled now
    EventId m_solveEvent;       //!< That Solve()
};

} // namespace ns3

#endif /* FLOW_NETWORK_H */

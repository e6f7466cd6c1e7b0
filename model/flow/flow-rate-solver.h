/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RATE_SOLVER_H
#define FLOW_RATE_SOLVER_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Max-min fair rates of flows over links of fixed capacity, by progressive filling,
 *        recomputed incrementally.
 *
 * The core of a flow-level network model: flows come and go and links change capacity, and
 * after each batch of changes Solve() re-fills only the flows connected (through shared
 * links, transitively) to a link that changed. Flows elsewhere keep their rates: nothing
 * they share changed, so their rates are still max-min fair.
 *
 * Built for ~10^5 flows and links: each link keeps the flows crossing it in a vector with
 * O(1) swap-removal, flow slots are reused through a free list, visits are marked by epoch
 * counters instead of cleared arrays, and there is no hashing, so the same sequence of
 * calls gives bit-identical rates.
 */
class FlowRateSolver
{
  public:
    using LinkId = uint32_t; //!< index of a link, in order of AddLink()
    using FlowId = uint32_t; //!< index of a flow slot, reused after RemoveFlow()

    /**
     * \param capacity units per second (any unit); 0 means the link carries nothing
     * \return the new link's id
     * \throws std::invalid_argument if negative or not finite
     */
    LinkId AddLink(double capacity);

    /**
     * \brief Changes a link's capacity; its flows are re-solved by the next Solve().
     * \param link an existing link
     * \param capacity units per second, >= 0 and finite
     * \throws std::invalid_argument if the link does not exist or the capacity is bad
     */
    void SetLinkCapacity(LinkId link, double capacity);

    /// \param link an existing link \return its capacity
    double GetLinkCapacity(LinkId link) const;

    /// \return the number of links
    uint32_t GetLinkCount() const;

    /**
     * \brief Adds a flow; its rate is 0 until the next Solve().
     * \param path the links it crosses: non-empty, existing, none twice
     * \return its id (possibly one of a removed flow)
     * \throws std::invalid_argument if the path is bad
     */
    FlowId AddFlow(const std::vector<LinkId>& path);

    /**
     * \brief Removes a flow; its links' other flows are re-solved by the next Solve().
     * \param flow an active flow
     * \throws std::invalid_argument if not active
     */
    void RemoveFlow(FlowId flow);

    /// \param flow any id \return true if it names an active flow
    bool IsActive(FlowId flow) const;

    /// \param flow an active flow \return the links it crosses
    const std::vector<LinkId>& GetPath(FlowId flow) const;

    /// \param flow an active flow \return its rate from the last Solve()
    double GetRate(FlowId flow) const;

    /// \return the number of active flows
    std::size_t GetFlowCount() const;

    /**
     * \brief Re-solves max-min fair rates for every flow connected to a link touched since
     *        the last call, by progressive filling over those flows only.
     *
     * O((F + P) log L + K log K) for the F flows, their L links and P path entries in the
     * re-solved components, and the K flows reported.
     *
     * \return the flows whose rate changed, including flows added since the last call even
     *         at rate 0, sorted by id; valid until the next call
     */
    const std::vector<FlowId>& Solve();

    /// \return how many flow rates Solve() has computed in total (shows incrementality)
    uint64_t GetFlowsSolved() const;

    /// \param link an existing link \return the sum of its active flows' rates
    double GetLinkLoad(LinkId link) const;

  private:
    /// A flow's entry in a link's list, which knows where the flow keeps the link.
    struct Crossing
    {
        FlowId flow;  //!< the flow crossing the link
        uint32_t hop; //!< index of the link in the flow's path
    };

    /// A link and its progressive-filling state.
    struct Link
    {
        double capacity;                 //!< units per second
        std::vector<Crossing> crossings; //!< the active flows on it, unordered
        double remaining{0};             //!< capacity not yet given to frozen flows
        uint32_t unfrozen{0};            //!< flows on it not yet frozen in this Solve()
        uint64_t visited{0};             //!< last epoch (Solve() or path check) that saw it
        bool touched{false};             //!< changed since the last Solve()
    };

    /// A flow slot.
    struct Flow
    {
        std::vector<LinkId> path;     //!< links crossed
        std::vector<uint32_t> places; //!< per hop, its index in that link's crossings
        double rate{0};               //!< from the last Solve()
        uint64_t visited{0};          //!< epoch of the last Solve() that reached it
        uint64_t frozen{0};           //!< epoch of the last Solve() that froze it
        bool active{false};           //!< slot in use
        bool isNew{false};            //!< added since the last Solve()
    };

    /// Heap entry: the fair share a link offered when pushed, and the link.
    using ShareEntry = std::pair<double, LinkId>;

    /// \param capacity a capacity \throws std::invalid_argument if negative or not finite
    static void CheckCapacity(double capacity);
    /// \param link a link id \throws std::invalid_argument if no such link
    void CheckLink(LinkId link) const;
    /// \param flow a flow id \throws std::invalid_argument if not active
    void CheckActive(FlowId flow) const;
    /// \param path a path \throws std::invalid_argument if empty, unknown or repeated link
    void CheckPath(const std::vector<LinkId>& path);
    /// \return a free flow slot, reused if possible
    FlowId TakeSlot();
    /// \param link a link to re-solve at the next Solve()
    void Touch(LinkId link);
    /// \brief Collects the flows and links connected to touched links; clears the marks.
    void CollectComponents();
    /// \brief Resets the component links' remaining capacity and counts, seeds the heap.
    void PrepareFilling();
    /// \brief Progressive filling over the collected components.
    void Fill();
    /// \param link a link with unfrozen flows \return its current fair share
    double ShareOf(LinkId link) const;
    /// \param link the bottleneck \param share the rate its unfrozen flows get
    void FreezeAt(LinkId link, double share);
    /// \param flow a flow to freeze \param share its rate
    void SetRate(FlowId flow, double share);

    std::vector<Link> m_links;            //!< by LinkId
    std::vector<Flow> m_flows;            //!< by FlowId, active or free
    std::vector<FlowId> m_freeSlots;      //!< inactive slots, reused last-in first-out
    std::vector<LinkId> m_touched;        //!< links changed since the last Solve()
    std::size_t m_activeFlows{0};         //!< active flow count
    uint64_t m_epoch{0};                  //!< bumped per Solve() and per path check
    uint64_t m_flowsSolved{0};            //!< rates computed by Solve() so far
    std::vector<LinkId> m_componentLinks; //!< scratch: links being re-solved
    std::vector<FlowId> m_componentFlows; //!< scratch: flows being re-solved
    std::vector<ShareEntry> m_heap;       //!< scratch: min-heap of link shares
    std::vector<FlowId> m_changed;        //!< result of the last Solve()
};

} // namespace ns3

#endif /* FLOW_RATE_SOLVER_H */

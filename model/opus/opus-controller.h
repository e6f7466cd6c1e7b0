/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_CONTROLLER_H
#define OPUS_CONTROLLER_H

#include "ns3/ocs-circuit-table.h"
#include "ns3/opus-control-plane.h"
#include "ns3/opus-port-assigner.h"
#include "ns3/opus-reconfiguration-batcher.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Opus's controller (one per job): turns the shims' requests into OCS configurations.
 *
 * A request names a communication (a collective's instance, or a send/recv pair) and its
 * demand (OpusDemand: circuits per GPU pair and rail). The controller
 * - collects the request of every member (both ends of a send/recv) before acting on it;
 *   speculative requests (provisioning) act once every member has announced the
 *   communication (each after finishing its previous phase) and grant nothing; they are
 *   served 1 ns later, after every request of the same instant, wait while one of their members has
 *   asked for another communication not served yet (its real next one: the speculative setup would
 *   switch ports that request may need), and never take down a circuit that a
 *   request made by one of their own members needs (that member's real next
 *   communication contradicts the speculative setup, as when streams overlap), nor one that an
 * earlier speculative setup of one of their members has set up and its communication has not used
 * yet (that speculative setup is nearer in time); requests take down speculative setups' circuits
 * as they need;
 * - serves complete requests first come, first served: a request that cannot be served yet
 *   holds back every later request that involves one of its GPUs, so order is respected;
 * - keeps every circuit the demand already has, and for the missing ones picks NIC ports
 *   whose circuit joins no leased GPU pair (unconnected ports first), so only ports whose
 *   circuit differs go dark; a circuit carrying an active communication is never torn
 *   down: a request that would need one waits until that communication ends;
 * - leases the communication's GPU pairs from its grant until every member has released
 *   it (every circuit between a leased pair is protected: the transport spreads a message
 *   over all of them), and grants every member once the circuits are up.
 * Requests that become servable on a rail at the same instant (or within BatchWindow of the
 * first) are served by one reconfiguration of that rail: the union of their circuits, each
 * changed port dark once, as a real OCS controller sets a rail's new configuration in one
 * command. Reconfigurations on disjoint ports of a rail run in parallel (a per-port OCS orders
 * only requests that share a port); a whole-switch OCS serves them one at a time, each
 * darkening every port, and Arbitration decides whether they are batched (see
 * OpusReconfigurationBatcher), while GetWaits records the blackouts granted communications
 * suffer.
 * A request whose circuits are in place is granted as soon as its last member asks, at no
 * cost: the shim's profile tells it its demand has not changed. A request that changes
 * circuits pays ControlLatency to reach the controller and ControlLatency for the
 * acknowledgement, on top of the OCS's reconfiguration delay. Demands are computed once
 * per communication shape and cached (the per-group configuration cache of the paper).
 * The controller itself may fail (Fail): the messages that reach it are held until a standby,
 * its state replicated, or the repaired primary takes over (TakeOver), while lit circuits and
 * reconfigurations already ordered carry on; GetStall says what the outages cost requests.
 */
class OpusController : public OpusControlPlane
{
  public:
    /// How requests of several communications share a whole-switch rail (attribute
    /// Arbitration); on per-port rails both are the same.
    enum Arbitration
    {
        FCFS, //!< Each request its own reconfiguration, in arrival order (the paper's)
        BATCH //!< Requests that meet a pending or switching reconfiguration share the next
    };

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    OpusController();
    ~OpusController() override;

    /**
     * \brief Binds the controller to the fabric: it drives the circuit state of each rail's
     * OCS (the switch carrying frames, if any, follows its table). Whoever watches the
     * switches tells it of failed ports (NotifyPortFailure; OpusHelper connects the
     * switches' PortFailure traces).
     * \param tables the circuit table of every rail's OCS, indexed by rail
     * \param ocsPorts per GPU (rank), the OCS port of each of its NIC ports on its rail
     * \param gpusPerServer GPUs per server = rails
     * \param communicators every rank's communicator (for the members' plans)
     */
    void Setup(std::vector<Ptr<OcsCircuitTable>> tables,
               std::vector<std::vector<uint32_t>> ocsPorts,
               uint32_t gpusPerServer,
               std::vector<Ptr<CollectiveCommunicator>> communicators);

    /**
     * \brief A port of \p rail's OCS failed or was repaired: planning avoids it once it has
     * been down for FailureHoldDown (ConfirmFailure), until its repair.
     * \param rail the rail
     * \param port the OCS port
     * \param failed true if it failed, false if it was repaired
     */
    void NotifyPortFailure(uint32_t rail, uint32_t port, bool failed);

    /**
     * \brief A member asks for a communication's circuits.
     * \param call the call (its instance names the communication)
     * \param rank the asking member
     * \param granted called once every member asked and the circuits are up
     */
    void Request(const CollectiveCall& call, uint32_t rank, GrantCallback granted) override;

    /**
     * \brief A member finished its part: the lease ends when every member has.
     * \param instance the call's instance
     */
    void Release(const std::string& instance) override;

    /**
     * \brief A speculative request (provisioning) for a communication a member expects next.
     *
     * Once every member has announced it (speculatively, or by asking for it), its circuits
     * are set up as soon as no active communication holds their ports; a request for an
     * instance whose members have all asked already is ignored.
     * \param call the predicted call, with the instance it will have
     * \param rank the announcing member
     */
    void Provision(const CollectiveCall& call, uint32_t rank) override;

    /**
     * \brief Before the job: sets the circuits of the given demands instantly (no blackout).
     * \param demands applied in order; one that involves a GPU an earlier one set up is
     *        skipped (the first communication of every rank, or one union demand for a
     *        static split)
     * \return how many were applied
     */
    uint32_t Preset(const std::vector<std::shared_ptr<const OpusDemand>>& demands);

    /**
     * \brief A static split (ocs-static): \p demand's circuits stay for the whole job, which
     * makes no requests. A failure that leaves one of its pairs without a live circuit has
     * the pair relay (no reconfiguration ever).
     * \param demand the circuits Preset set up
     */
    void HoldStatic(std::shared_ptr<const OpusDemand> demand);

    /**
     * \brief Detoured data waits for a circuit that no communication holds or asked for
     * (RailTransport's CircuitWanted: a later reconfiguration took its path). The pair is
     * joined on free live ports (ports no active communication holds), now or when one
     * ends; never with a static split.
     * \param rail the rail
     * \param a one GPU
     * \param b the other
     */
    void WantCircuit(uint32_t rail, uint32_t a, uint32_t b);

    /// \return one line per request that waits, saying for what, and per relayed pair
    std::vector<std::string> DescribePending() const override;

    /**
     * \brief The controller fails (a controller fault): from now on every message that
     * reaches it (a request, release, provisioning announcement, wanted circuit, port failure
     * or hold-down expiry) is held in arrival order, not lost.
     *
     * The data plane survives the control plane: lit circuits keep carrying traffic, and a
     * reconfiguration already ordered (handed to the batcher, its content decided) completes
     * and grants its communication. Nothing new is decided until TakeOver. Failing a
     * controller that is down changes nothing.
     */
    void Fail();

    /**
     * \brief A controller serves again: a standby whose state was replicated from the
     * primary (leases, queue, circuits planned: nothing is rebuilt, the failover time is the
     * replication's cost), or the repaired primary. The held messages are processed now, in
     * arrival order, exactly as if they had arrived now (messages that processing causes come
     * after them); a request still counts its wait from its last member's arrival. Does
     * nothing while the controller is up.
     */
    void TakeOver();

    /// \return true while the controller is down (Fail without TakeOver)
    bool IsDown() const;

    /**
     * \return the controller stall: over every request served, the overlap of the
     * controller's outages with its wait before it was served (from its last member's request
     * to the controller ordering its circuits, or granting it if they are in place). A
     * request whose reconfiguration was ordered before an outage is not stalled by it.
     */
    Time GetStall() const;

    /// \return how many messages the controller held while down
    uint64_t GetHeldMessages() const;

    /**
     * TracedCallback signature for controller outages.
     * \param down true when the controller fails, false when a controller takes over
     * \param held at a takeover, the messages held (to be processed now); else 0
     */
    typedef void (*OutageTracedCallback)(bool down, uint32_t held);

    /**
     * TracedCallback signature for relayed pairs.
     * \param rail the rail
     * \param a one GPU
     * \param b the other
     * \param relayed true if they relay from now on, false if they have a circuit again
     */
    typedef void (*RelayTracedCallback)(uint32_t rail, uint32_t a, uint32_t b, bool relayed);

  protected:
    void DoDispose() override;

  private:
    /// \return true if messages are held: the controller is down, or processing what it held
    ///         (a message arriving meanwhile comes after those)
    bool IsHolding() const;
    /// Holds \p message (run at the takeover, in arrival order).
    void Hold(std::function<void()> message);
    /// Runs \p action, the rest of processing a message (scheduled a little later), now if a
    /// controller serves, else at the takeover: nothing is decided while down.
    void WhenServing(std::function<void()> action);
    /// Request, from a member whose request reached the controller at \p arrived.
    void DoRequest(const CollectiveCall& call, uint32_t rank, GrantCallback granted, Time arrived);
    /// Release, processed.
    void DoRelease(const std::string& instance);
    /// Provision, processed.
    void DoProvision(const CollectiveCall& call, uint32_t rank);
    /// WantCircuit, processed.
    void DoWantCircuit(uint32_t rail, uint32_t a, uint32_t b);
    /// NotifyPortFailure, processed.
    void DoNotifyPortFailure(uint32_t rail, uint32_t port, bool failed);
    /// \return the overlap of [\p from, \p to] with the controller's outages
    Time OutageOverlap(Time from, Time to) const;

    /// A request whose members have all asked (or a speculative one).
    struct CircuitRequest
    {
        std::string instance;                     //!< Communication ("" if speculative)
        std::string group;                        //!< Its group (instance without #k)
        std::shared_ptr<const OpusDemand> demand; //!< Circuits it needs
        std::vector<GrantCallback> grants;        //!< One per member
        uint32_t members{0};                      //!< Members (leases released by each)
        std::set<uint32_t> asked; //!< Members that asked for it (a real request's: so far)
        Time ready;               //!< When the last member asked
        bool speculative{false};  //!< Provisioning
    };

    /// A request still collecting its members.
    struct IncompleteRequest
    {
        CircuitRequest request;       //!< What it becomes
        uint32_t missing{0};          //!< Members yet to ask
        std::set<uint32_t> announced; //!< Members that asked or provisioned it
        bool provisioned{false};      //!< Its circuits were requested speculatively
    };

    /// The GPU pairs of an active communication: every circuit between them is protected,
    /// since RailTransport spreads a message over every circuit that reaches its peer.
    struct Lease
    {
        std::vector<OpusCircuitNeed> needs; //!< Its demand's needs
        uint32_t membersLeft{0};            //!< Members still running it
        uint64_t served{0};                 //!< Its place in the order leases were served
        bool granted{false};                //!< Its members were granted
    };

    /// A speculative setup whose communication has not asked for it yet.
    struct SpeculativeSetup
    {
        std::shared_ptr<const OpusDemand> demand; //!< Circuits it set up
        std::set<uint32_t> members;               //!< Members that announced it
        std::vector<uint64_t> records;            //!< Reconfigurations it ordered
    };

    /// \return the incomplete request of \p call's instance (created on its first member)
    IncompleteRequest& IncompleteRequestOf(const CollectiveCall& call, uint32_t rank);
    /// Sets what \p incomplete's communication needs and how many members it waits for, from \p
    /// call.
    void SetDemandAndMembers(IncompleteRequest& incomplete,
                             const CollectiveCall& call,
                             uint32_t rank);
    /// Orders a speculative setup once every member announced the communication.
    void ProvisionIfAnnounced(IncompleteRequest& incomplete);
    void Enqueue(CircuitRequest request);
    void ServeQueue();
    /// Port \p port of \p rail, failed at \p since, is still down: plans around it.
    void ConfirmFailure(uint32_t rail, uint32_t port, Time since);
    /// ConfirmFailure's body, once a controller serves
    void DoConfirmFailure(uint32_t rail, uint32_t port, Time since);
    /// Gives each active pair of \p rail that a failure left without a live circuit its
    /// share of the live ports (LiveNeeds), or as many circuits as free live ports allow;
    /// without any the pair relays.
    void Reconnect(uint32_t rail);
    /// Joins the pairs of \p rail that detoured data waits for (WantCircuit), where free
    /// live ports allow.
    void JoinWanted(uint32_t rail);
    /// \return the pairs of the active communications (whose circuits stay)
    std::set<OpusDemand::Link> LeasedPairs() const;
    /**
     * \brief Plans the \p live needs on \p rail of active communication \p instance again,
     * as when it was served: circuits of other active communications stay, its own surplus
     * ones may move. \return false if they do not fit (nothing is ordered)
     */
    bool RejoinLease(uint32_t rail,
                     const std::string& instance,
                     const std::vector<OpusCircuitNeed>& live);
    /// Rejoins each pair of \p live on \p rail without a circuit on its own, as many circuits
    /// as free live ports allow (when the whole communication does not fit: RejoinLease).
    void RejoinPairs(uint32_t rail, const std::vector<OpusCircuitNeed>& live);
    /// Orders up to \p need's circuits on free live ports, circuits of \p keep untouched.
    /// \return false if not even one fits
    bool Rejoin(OpusCircuitNeed need, const std::set<OpusDemand::Link>& keep);
    /// Marks \p pair relayed or not, and fires the Relay trace if that changes. A relayed
    /// pair gets a detour circuit (PlanDetours); one with a circuit again gives it back.
    void SetRelayed(const OpusDemand::Link& pair, bool relayed);
    /// Holds a detour circuit for every relayed pair that has none yet, where ports allow
    /// (HoldDetour), once a request, a re-plan or a release is planned; the others try
    /// again at the next.
    void PlanDetours();
    /**
     * \brief Holds, for relayed \p pair, the circuit of another rail that joins the GPUs of
     * its two servers on that rail (PXN at both ends), as an active communication holds its
     * circuits: one already lit (no reconfiguration) on the lowest such rail, else one on
     * free live ports of the lowest rail where it fits (a reconfiguration of its own, group
     * ``detour:a-b``). \return false if no rail has one
     */
    bool HoldDetour(const OpusDemand::Link& pair);
    /// Gives back the detour circuit of \p pair (it has a circuit again, or its
    /// communication ended): later requests may take its ports.
    void DropDetour(const OpusDemand::Link& pair);
    /// Assigns the ports of \p request's circuits on every rail (OpusPortAssigner), keeping
    /// PairsToKeep; false if a needed port is leased.
    bool AssignPorts(const CircuitRequest& request,
                     std::map<uint32_t, OpusRailChange>& changes) const;
    /// \return true if a member of \p provisioning has asked for another communication that is
    ///         not served yet: that is its real next one, which the speculative setup must not
    ///         delay (it waits until that request is served, whose lease then protects it)
    bool MemberAskedElsewhere(const CircuitRequest& provisioning) const;
    /// \return the GPU pairs whose circuits \p request must keep: those of active
    ///         communications, and for a speculative request those of the requests its
    ///         members have made and of their earlier speculative setups not used yet
    std::set<OpusDemand::Link> PairsToKeep(const CircuitRequest& request) const;
    void Serve(CircuitRequest request, std::map<uint32_t, OpusRailChange> changes);
    /// Marks the speculative setup for \p instance used if its circuits are in place (\p changes,
    /// what serving its request changes, connects nothing), and forgets it.
    void SettleSpeculativeSetup(const std::string& instance,
                                const std::map<uint32_t, OpusRailChange>& changes);
    /// Forgets the speculative setups whose circuits are no longer all set up (undone by a
    /// request).
    void ForgetUndoneSetups();
    /// Orders one rail's change through the batcher (OpusReconfigurationBatcher::Order),
    /// and notes a speculative setup's reconfiguration. \return the reconfiguration's id
    uint64_t Order(uint32_t rail, const OpusRailChange& change, const CircuitRequest& request);
    void Grant(const CircuitRequest& request);
    /// \param latency attribute ControlLatency (the batcher pays it)
    void SetControlLatency(Time latency);
    /// \return attribute ControlLatency
    Time GetControlLatency() const;
    /// \param window attribute BatchWindow (the batcher collects changes for it)
    void SetBatchWindow(Time window);
    /// \return attribute BatchWindow
    Time GetBatchWindow() const;
    /// \param arbitration attribute Arbitration (an OpusController::Arbitration)
    void SetArbitration(int arbitration);
    /// \return attribute Arbitration
    int GetArbitration() const;
    /**
     * \brief A reconfiguration darkens \p rail's whole-switch OCS over [\p from, \p to]: every
     * communication granted and not released with a circuit on the rail waits meanwhile.
     */
    void Darkened(uint32_t rail, Time from, Time to);

    std::vector<Ptr<OcsCircuitTable>> m_tables; //!< Per rail: the OCS circuit state
    OpusPortAssigner m_ports; //!< Ports, target circuits and ports planned around, per rail
    OpusReconfigurationBatcher m_batcher;                //!< Reconfigurations ordered and in flight
    std::vector<std::map<uint32_t, Time>> m_failedSince; //!< Per rail: failed ports, since when
    Time m_failureHoldDown;                              //!< Attribute
    std::set<OpusDemand::Link> m_relayed;                //!< Pairs without a live port
    std::set<OpusDemand::Link> m_wanted;                 //!< See WantCircuit
    bool m_static{false};                                //!< See HoldStatic
    std::map<OpusDemand::Link, uint32_t> m_pairLeases;   //!< Active communications per pair
    std::map<std::string, IncompleteRequest> m_incomplete; //!< Per instance
    std::set<std::string> m_served;        //!< Instances whose members have all asked
    std::deque<CircuitRequest> m_queue;    //!< Complete, FCFS
    std::map<std::string, Lease> m_leases; //!< Per active instance
    uint64_t m_leasesServed{0};            //!< Leases served so far
    std::map<std::string, SpeculativeSetup>
        m_setups; //!< Speculative setups not yet used, by instance
    TracedCallback<uint32_t, uint32_t, uint32_t, bool> m_relayTrace; //!< Relay
    std::vector<Time> m_darkUntil;            //!< Per rail: end of its whole-switch blackout
    bool m_down{false};                       //!< See Fail
    bool m_replaying{false};                  //!< TakeOver is processing held messages
    std::deque<std::function<void()>> m_held; //!< Messages held, in arrival order
    /// Outages [down, takeover]; the last one ends at Time::Max while down
    std::vector<std::pair<Time, Time>> m_outages;
    Time m_stall;                                           //!< See GetStall
    uint64_t m_heldMessages{0};                             //!< See GetHeldMessages
    TracedCallback<bool, uint32_t> m_outageTrace;           //!< Outage
    std::map<OpusDemand::Link, OpusDemand::Link> m_detours; //!< Relayed pair -> held circuit
    std::set<OpusDemand::Link> m_detoursWanted; //!< Relayed pairs without a held circuit yet
};

} // namespace ns3

#endif /* OPUS_CONTROLLER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_COMMUNICATOR_H
#define COLLECTIVE_COMMUNICATOR_H

#include "ns3/callback.h"
#include "ns3/collective-plan.h"
#include "ns3/collective-starter.h"
#include "ns3/message-transport.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Counters of one CollectiveCommunicator.
 */
struct CollectiveCounters
{
    uint64_t calls{0};         //!< Calls started
    uint64_t callsDone{0};     //!< Calls finished
    uint64_t messagesSent{0};  //!< Messages handed to the transport
    uint64_t bytesSent{0};     //!< Their bytes
    uint64_t bytesReceived{0}; //!< Bytes of messages received
    uint64_t bytesReduced{0};  //!< Bytes reduced
};

/**
 * \ingroup photonic-rails
 * \brief A GPU's collective engine: runs collectives and send/receive over its MessageTransport.
 *
 * Start() asks CollectivePlanner for this rank's plan (cached per shape) and executes it:
 * a task starts when its dependencies finished; a SEND becomes one transport message and
 * finishes when it is acknowledged; a RECV finishes when the matching message has arrived
 * (messages that arrive before their RECV starts are kept: eager protocol, unbounded
 * staging); a REDUCE lasts bytes / ReductionBandwidth (no time when it is 0, as when NCCL
 * fuses the reduction into the receive). A call finishes when all its tasks have.
 *
 * Messages are matched without looking at their contents: the sender tells the receiver's
 * communicator which (call instance, sender, ordinal) a transport message id carries at the
 * moment it sends it, as a posted receive buffer would tell NCCL where data belongs.
 *
 * With AggregateRings, a flat ring collective (CollectivePlanner::CanAggregate) runs with
 * its steps merged (CollectivePlanner::AggregateSteps): one message per neighbour and
 * direction. Merged steps wait for nothing, so the call's members start it together, when
 * the last of them has called Start, and finish together, when the last of them has sent
 * and received everything; both rendezvous are held by the call's lowest member. This is
 * what a pipelined ring does once its links are busy, at a cost per call rather than per
 * chunk (see the module docs for what it leaves out).
 */
class CollectiveCommunicator : public CollectiveStarter
{
  public:
    /// Called when a call finished.

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    CollectiveCommunicator();
    ~CollectiveCommunicator() override;

    /**
     * \brief Binds the communicator to its rank and transport.
     * \param rank this GPU's global rank
     * \param transport its transport (receive callback taken over)
     * \param gpusPerServer ranks per scale-up domain
     * \param optical true if the rails are optical circuits
     */
    void Setup(uint32_t rank,
               Ptr<MessageTransport> transport,
               uint32_t gpusPerServer,
               bool optical);

    /**
     * \brief Lets communicators reach each other (every rank's, indexed by rank).
     * \param communicators all communicators of the job, one list shared by all of them
     *        (a copy each would take ranks^2 pointers: 512 MiB at 8,192 GPUs)
     */
    void Connect(std::shared_ptr<const std::vector<Ptr<CollectiveCommunicator>>> communicators);

    /**
     * \brief Starts a call; every participant must start the same instance.
     * \param call the call
     * \param done called when this rank's part finished
     *
     * A request the planner rejects throws std::invalid_argument with its one-line reason
     * (the job programs plan every collective before they run).
     */
    void Start(const CollectiveCall& call, DoneCallback done);

    /// Starts the call at once (the iteration is the caller's bookkeeping)
    void StartCommunication(const CollectiveCall& call,
                            uint64_t iteration,
                            DoneCallback done) override;

    /// \return this rank
    uint32_t GetRank() const;

    /// \return the AggregateRings attribute: flat rings run with merged steps
    bool GetAggregateRings() const;

    /// \return the counters
    const CollectiveCounters& GetCounters() const;

    /// \return calls started and not finished
    std::size_t GetActiveCallCount() const;

    /// \return one line per active call saying what it waits for
    std::vector<std::string> DescribeBlocked() const;

    /**
     * \brief The plan a call runs with (planned once per shape, then cached).
     * \param call the call
     * \return its plan
     *
     * Throws std::invalid_argument with the planner's reason when the call cannot be
     * planned, so programs can check a workload before simulating it.
     */
    std::shared_ptr<const CollectivePlan> GetPlan(const CollectiveCall& call);

    /**
     * \brief A compact key of a call's shape: type, algorithm, bytes, root and members,
     *        the same for every participant (caches of plans and demands are keyed by it).
     * \param call the call
     * \return the key (binary: compare it, do not print it)
     */
    static std::string ShapeKey(const CollectiveCall& call);

    /**
     * TracedCallback signature for started calls.
     * \param instance the call's instance name
     * \param plan the plan it runs (algorithm, tasks)
     */
    typedef void (*CallTracedCallback)(const std::string& instance, const CollectivePlan& plan);

  protected:
    void DoDispose() override;

  private:
    /// (instance, sender rank, ordinal of the sender's messages to us in that instance)
    using MessageKey = std::tuple<std::string, uint32_t, uint32_t>;

    struct Execution
    {
        CollectiveCall call;                         //!< The call
        std::shared_ptr<const CollectivePlan> plan;  //!< Its plan
        std::vector<uint32_t> depsLeft;              //!< Per task: unfinished dependencies
        std::vector<std::vector<uint32_t>> children; //!< Per task: tasks depending on it
        std::vector<uint32_t> ordinal;               //!< Per SEND/RECV task: its message ordinal
        std::vector<bool> started;                   //!< Per task
        uint32_t tasksLeft{0};                       //!< Unfinished tasks
        DoneCallback done;                           //!< Completion
        bool atRendezvous{false};                    //!< Aggregated: waits for the members
    };

    /// Members of an aggregated call that reached one of its rendezvous: (rank, execution).
    using Arrivals = std::vector<std::pair<uint32_t, uint64_t>>;
    /// (call instance, true for the finish rendezvous)
    using RendezvousKey = std::pair<std::string, bool>;

    using TaskRef = std::pair<uint64_t, uint32_t>; //!< (execution id, task index)

    void SetDefaultAlgorithm(std::string name);
    std::string GetDefaultAlgorithm() const;
    void StartTasks(uint64_t exec);
    void StartTask(uint64_t exec, uint32_t task);
    void Rendezvous(uint64_t exec, bool finish);
    void Arrive(const RendezvousKey& key, std::size_t members, uint32_t rank, uint64_t exec);
    void EndExecution(uint64_t exec);
    std::string DescribeRendezvous(const Execution& exec) const;
    void FinishTask(uint64_t exec, uint32_t task);
    void Expect(uint32_t source, uint64_t messageId, const MessageKey& key, uint64_t bytes);
    void MessageSent(uint64_t messageId);
    void MessageReceived(uint32_t source, uint64_t messageId, uint64_t bytes);
    std::shared_ptr<const CollectivePlan> PointToPointPlan(const CollectiveCall& call) const;
    CollectivePlan PlanRequest(const CollectiveRequest& request) const;
    CollectiveCommunicator* Peer(uint32_t rank) const;

    /// A chunk no step fills: with it every step is one task per direction.
    static constexpr uint64_t UNCUT_CHUNK = uint64_t(1) << 62;

    uint32_t m_rank{0};                //!< This rank
    Ptr<MessageTransport> m_transport; //!< Its transport (any network model)
    uint32_t m_gpusPerServer{8};       //!< Ranks per server
    bool m_optical{false};             //!< Rails are circuits
    /// Every rank's communicator (shared by all of them)
    std::shared_ptr<const std::vector<Ptr<CollectiveCommunicator>>> m_peers;
    uint32_t m_channels;                            //!< Attribute
    uint64_t m_chunkBytes;                          //!< Attribute
    WorkloadAlgorithm m_defaultAlgorithm;           //!< Attribute
    double m_reductionBandwidth;                    //!< Attribute, bytes/s
    bool m_aggregateRings;                          //!< Attribute
    std::map<RendezvousKey, Arrivals> m_rendezvous; //!< Calls this rank is lowest member of
    uint64_t m_nextExecution{1};                    //!< Next execution id
    std::map<uint64_t, Execution> m_executions;     //!< Active calls
    std::unordered_map<std::string, std::shared_ptr<const CollectivePlan>> m_plans; //!< Cache
    std::map<uint64_t, TaskRef> m_sending; //!< Message id -> SEND task
    std::map<std::pair<uint32_t, uint64_t>, std::pair<MessageKey, uint64_t>>
        m_expected;                           //!< (source, id) -> key, bytes
    std::map<MessageKey, uint64_t> m_arrived; //!< Arrived before their RECV
    std::map<MessageKey, TaskRef> m_waiting;  //!< RECVs waiting for a message
    CollectiveCounters m_counters;            //!< Counters
    TracedCallback<const std::string&, const CollectivePlan&> m_callTrace; //!< Call started
};

} // namespace ns3

#endif /* COLLECTIVE_COMMUNICATOR_H */

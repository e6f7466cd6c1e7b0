/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_COMMUNICATOR_H
#define COLLECTIVE_COMMUNICATOR_H

#include "ns3/callback.h"
#include "ns3/collective-plan.h"
#include "ns3/object.h"
#include "ns3/message-transport.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One collective, send or receive as every participant hands it to its communicator.
 */
struct CollectiveCall
{
    WorkloadOpType type{WorkloadOpType::ALLREDUCE}; //!< A collective, SEND or RECV
    std::string instance;          //!< Names this call, the same at every participant
    std::vector<uint32_t> members; //!< Collectives: global ranks
    uint32_t root{0};              //!< Broadcast/reduce: root rank
    uint32_t peer{0};              //!< SEND/RECV: the other rank
    uint64_t bytes{0};             //!< Per-rank buffer (NCCL convention)
    WorkloadAlgorithm algorithm{WorkloadAlgorithm::UNSPECIFIED}; //!< Requested algorithm
    std::string label; //!< The op's label (for reports, and OpusShim's Ignore pattern)
};

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
 */
class CollectiveCommunicator : public Object
{
  public:
    /// Called when a call finished.
    using DoneCallback = Callback<void>;

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
    void Setup(uint32_t rank, Ptr<MessageTransport> transport, uint32_t gpusPerServer, bool optical);

    /**
     * \brief Lets communicators reach each other (every rank's, indexed by rank).
     * \param communicators all communicators of the job
     */
    void Connect(const std::vector<Ptr<CollectiveCommunicator>>& communicators);

    /**
     * \brief Starts a call; every participant must start the same instance.
     * \param call the call
     * \param done called when this rank's part finished
     *
     * A request the planner rejects aborts with its one-line reason; the caller is
     * expected to have validated the workload.
     */
    void Start(const CollectiveCall& call, DoneCallback done);

    /// \return this rank
    uint32_t GetRank() const;

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
    };

    using TaskRef = std::pair<uint64_t, uint32_t>; //!< (execution id, task index)

    void SetDefaultAlgorithm(std::string name);
    std::string GetDefaultAlgorithm() const;
    void StartTask(uint64_t exec, uint32_t task);
    void FinishTask(uint64_t exec, uint32_t task);
    void Expect(uint32_t source, uint64_t messageId, const MessageKey& key, uint64_t bytes);
    void MessageSent(uint64_t messageId);
    void MessageReceived(uint32_t source, uint64_t messageId, uint64_t bytes);
    std::shared_ptr<const CollectivePlan> PointToPointPlan(const CollectiveCall& call) const;

    uint32_t m_rank{0};                               //!< This rank
    Ptr<MessageTransport> m_transport;                //!< Its transport (any network model)
    uint32_t m_gpusPerServer{8};                      //!< Ranks per server
    bool m_optical{false};                            //!< Rails are circuits
    std::vector<Ptr<CollectiveCommunicator>> m_peers; //!< Every rank's communicator
    uint32_t m_channels;                              //!< Attribute
    uint64_t m_chunkBytes;                            //!< Attribute
    WorkloadAlgorithm m_defaultAlgorithm;             //!< Attribute
    double m_reductionBandwidth;                      //!< Attribute, bytes/s
    uint64_t m_nextExecution{1};                      //!< Next execution id
    std::map<uint64_t, Execution> m_executions;       //!< Active calls
    std::map<std::string, std::shared_ptr<const CollectivePlan>> m_plans; //!< Plan cache
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

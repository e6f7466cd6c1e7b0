/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-communicator.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulation-horizon.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveCommunicator");

NS_OBJECT_ENSURE_REGISTERED(CollectiveCommunicator);

TypeId
CollectiveCommunicator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveCommunicator")
            .SetParent<CollectiveStarter>()
            .SetGroupName("PhotonicRails")
            .AddConstructor<CollectiveCommunicator>()
            .AddAttribute("Channels",
                          "Independent rings/trees a collective's data is split over (NCCL "
                          "channels).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CollectiveCommunicator::m_channels),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("ChunkBytes",
                          "Pipelining unit inside a channel: a block travels as chunks of at "
                          "most this many bytes, each forwarded as soon as it arrives.",
                          UintegerValue(1 << 19),
                          MakeUintegerAccessor(&CollectiveCommunicator::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("DefaultAlgorithm",
                          "Algorithm of calls that do not name one: auto (chosen per type, "
                          "size and fabric by CollectivePlanner::Choose), " +
                              CollectiveAlgorithmRegistry::Names(", ", " or ") +
                              "; where it does not apply (e.g. tree for an allgather), auto.",
                          StringValue("auto"),
                          MakeStringAccessor(&CollectiveCommunicator::SetDefaultAlgorithm,
                                             &CollectiveCommunicator::GetDefaultAlgorithm),
                          MakeStringChecker())
            .AddAttribute("ReductionBandwidth",
                          "Bytes per second a GPU reduces; 0 makes reductions free (NCCL "
                          "fuses them into the receive, off the critical path).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&CollectiveCommunicator::m_reductionBandwidth),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("AggregateRings",
                          "Run flat ring collectives with their steps merged: one message per "
                          "neighbour and direction, the members starting together and finishing "
                          "together (a cost per call instead of per chunk; needs "
                          "ReductionBandwidth 0).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveCommunicator::m_aggregateRings),
                          MakeBooleanChecker())
            .AddTraceSource("CallStart",
                            "A call started, with the plan it runs.",
                            MakeTraceSourceAccessor(&CollectiveCommunicator::m_callTrace),
                            "ns3::CollectiveCommunicator::CallTracedCallback");
    return tid;
}

CollectiveCommunicator::CollectiveCommunicator()
    : m_channels(2),
      m_chunkBytes(1 << 19),
      m_defaultAlgorithm(WorkloadAlgorithm::AUTO),
      m_reductionBandwidth(0.0),
      m_aggregateRings(false)
{
    NS_LOG_FUNCTION(this);
}

CollectiveCommunicator::~CollectiveCommunicator()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveCommunicator::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_transport)
    {
        m_transport->SetReceiveCallback(MessageTransport::ReceiveCallback());
    }
    m_transport = nullptr;
    m_peers.reset(); // the last one breaks the reference cycle between communicators
    m_executions.clear();
    m_rendezvous.clear();
    Object::DoDispose();
}

void
CollectiveCommunicator::Setup(uint32_t rank,
                              Ptr<MessageTransport> transport,
                              uint32_t gpusPerServer,
                              bool optical)
{
    NS_LOG_FUNCTION(this << rank << transport << gpusPerServer << optical);
    NS_ABORT_MSG_IF(gpusPerServer == 0, "CollectiveCommunicator: gpusPerServer must be >= 1");
    if (m_aggregateRings && m_reductionBandwidth > 0.0)
    {
        throw std::invalid_argument("ns3::CollectiveCommunicator: AggregateRings needs "
                                    "ReductionBandwidth 0 (merged steps cannot pipeline their "
                                    "reductions)");
    }
    m_rank = rank;
    m_transport = transport;
    m_gpusPerServer = gpusPerServer;
    m_optical = optical;
    m_transport->SetReceiveCallback(MakeCallback(&CollectiveCommunicator::MessageReceived, this));
}

void
CollectiveCommunicator::Connect(
    std::shared_ptr<const std::vector<Ptr<CollectiveCommunicator>>> communicators)
{
    NS_LOG_FUNCTION(this << communicators);
    NS_ABORT_MSG_IF(!communicators || m_rank >= communicators->size() ||
                        (*communicators)[m_rank] != this,
                    "CollectiveCommunicator::Connect: rank " << m_rank << " is not at its index");
    m_peers = communicators;
}

void
CollectiveCommunicator::SetDefaultAlgorithm(std::string name)
{
    // Thrown, not aborted: a value from the command line (--ns3::...::DefaultAlgorithm)
    // reaches here, and the programs turn the exception into their one-line error.
    if (!ParseWorkloadAlgorithm(name, m_defaultAlgorithm))
    {
        throw std::invalid_argument("ns3::CollectiveCommunicator::DefaultAlgorithm: unknown "
                                    "algorithm '" +
                                    name + "'");
    }
}

std::string
CollectiveCommunicator::GetDefaultAlgorithm() const
{
    return WorkloadAlgorithmName(m_defaultAlgorithm);
}

CollectiveCommunicator*
CollectiveCommunicator::Peer(uint32_t rank) const
{
    return PeekPointer((*m_peers)[rank]);
}

bool
CollectiveCommunicator::GetAggregateRings() const
{
    NS_LOG_FUNCTION(this);
    return m_aggregateRings;
}

uint32_t
CollectiveCommunicator::GetRank() const
{
    NS_LOG_FUNCTION(this);
    return m_rank;
}

const CollectiveCounters&
CollectiveCommunicator::GetCounters() const
{
    NS_LOG_FUNCTION(this);
    return m_counters;
}

std::size_t
CollectiveCommunicator::GetActiveCallCount() const
{
    NS_LOG_FUNCTION(this);
    return m_executions.size();
}

std::shared_ptr<const CollectivePlan>
CollectiveCommunicator::PointToPointPlan(const CollectiveCall& call) const
{
    auto plan = std::make_shared<CollectivePlan>();
    plan->algorithm = WorkloadAlgorithm::DIRECT;
    plan->name = "p2p";
    CollectiveTask task;
    task.kind = call.type == WorkloadOpType::SEND ? CollectiveTask::SEND : CollectiveTask::RECV;
    task.peer = call.peer;
    task.bytes = call.bytes;
    plan->tasks.push_back(task);
    return plan;
}

std::string
CollectiveCommunicator::ShapeKey(const CollectiveCall& call)
{
    NS_LOG_FUNCTION(call.instance);
    std::string key;
    key.reserve(2 + sizeof(call.bytes) + sizeof(call.root) +
                sizeof(uint32_t) * call.members.size());
    auto append = [&key](const auto& value) {
        key.append(reinterpret_cast<const char*>(&value), sizeof(value));
    };
    append(uint8_t(call.type));
    append(uint8_t(call.algorithm));
    append(call.bytes);
    append(call.root);
    for (uint32_t member : call.members)
    {
        append(member);
    }
    return key;
}

std::shared_ptr<const CollectivePlan>
CollectiveCommunicator::GetPlan(const CollectiveCall& call)
{
    NS_LOG_FUNCTION(this << call.instance);
    if (call.type == WorkloadOpType::SEND || call.type == WorkloadOpType::RECV)
    {
        return PointToPointPlan(call);
    }
    CollectiveRequest request;
    request.type = call.type;
    request.members = call.members;
    request.rank = m_rank;
    request.root = call.root;
    request.bytes = call.bytes;
    // The default applies where it can: a call that names no algorithm falls back to auto
    // when the default does not fit its type or group (an explicit algorithm never does).
    bool byDefault = call.algorithm == WorkloadAlgorithm::UNSPECIFIED &&
                     m_defaultAlgorithm != WorkloadAlgorithm::AUTO;
    request.algorithm = byDefault ? m_defaultAlgorithm : call.algorithm;
    request.gpusPerServer = m_gpusPerServer;
    request.optical = m_optical;
    request.channels = m_channels;
    request.chunkBytes = m_chunkBytes;

    // Collectives of one shape repeat (every layer, every micro-batch): plan each once.
    std::string key = ShapeKey(call);
    key += char(request.algorithm);
    key += char(m_aggregateRings);
    auto& cached = m_plans[key];
    if (!cached)
    {
        try
        {
            cached = std::make_shared<const CollectivePlan>(PlanRequest(request));
        }
        catch (const std::invalid_argument&)
        {
            if (!byDefault)
            {
                m_plans.erase(key);
                throw;
            }
            request.algorithm = WorkloadAlgorithm::AUTO;
            cached = std::make_shared<const CollectivePlan>(PlanRequest(request));
        }
    }
    return cached;
}

CollectivePlan
CollectiveCommunicator::PlanRequest(const CollectiveRequest& request) const
{
    if (!m_aggregateRings)
    {
        return CollectivePlanner::Plan(request);
    }
    // Merged steps carry per peer what the chunks would (channels and chunks only cut the
    // same bytes finer), so plan the steps uncut: (n-1) tasks a way rather than thousands.
    CollectiveRequest uncut = request;
    uncut.channels = 1;
    uncut.chunkBytes = UNCUT_CHUNK;
    CollectivePlan plan = CollectivePlanner::Plan(uncut);
    if (!CollectivePlanner::CanAggregate(plan) || plan.tasks.empty())
    {
        return CollectivePlanner::Plan(request);
    }
    NS_ASSERT_MSG(m_reductionBandwidth == 0.0, "Setup refuses AggregateRings with reductions");
    CollectivePlan merged = CollectivePlanner::AggregateSteps(plan);
    merged.channels = request.channels;
    merged.chunkBytes = request.chunkBytes;
    return merged;
}

void
CollectiveCommunicator::StartCommunication(const CollectiveCall& call,
                                           uint64_t /* iteration */,
                                           DoneCallback done)
{
    Start(call, done);
}

void
CollectiveCommunicator::Start(const CollectiveCall& call, DoneCallback done)
{
    NS_LOG_FUNCTION(this << call.instance);
    NS_ABORT_MSG_IF(!m_transport, "CollectiveCommunicator::Start before Setup");
    NS_ABORT_MSG_IF(!m_peers, "CollectiveCommunicator::Start before Connect");
    uint64_t id = m_nextExecution++;
    Execution& exec = m_executions[id];
    exec.call = call;
    try
    {
        exec.plan = GetPlan(call);
    }
    catch (const std::invalid_argument& e)
    {
        // Thrown, not aborted: attributes from the command line (ChunkBytes, Channels)
        // reach here, and the programs turn the exception into their one-line error.
        m_executions.erase(id);
        throw std::invalid_argument("rank " + std::to_string(m_rank) + ", " + call.instance + ": " +
                                    e.what());
    }
    exec.done = done;
    ++m_counters.calls;
    m_callTrace(call.instance, *exec.plan);

    // Starting a task can finish the whole execution (a RECV whose message already arrived)
    // and erase it: keep the plan alive here rather than reading it through the execution.
    std::shared_ptr<const CollectivePlan> plan = exec.plan;
    const auto& tasks = plan->tasks;
    exec.depsLeft.resize(tasks.size());
    exec.children.resize(tasks.size());
    exec.ordinal.resize(tasks.size(), 0);
    exec.started.resize(tasks.size(), false);
    exec.tasksLeft = tasks.size();
    // The k-th SEND to a peer is the peer's k-th RECV from us (CollectiveTask's rule).
    std::map<std::pair<CollectiveTask::Kind, uint32_t>, uint32_t> count;
    for (uint32_t i = 0; i < tasks.size(); ++i)
    {
        exec.depsLeft[i] = tasks[i].deps.size();
        for (uint32_t dep : tasks[i].deps)
        {
            exec.children[dep].push_back(i);
        }
        if (tasks[i].kind != CollectiveTask::REDUCE)
        {
            exec.ordinal[i] = count[{tasks[i].kind, tasks[i].peer}]++;
        }
    }
    if (tasks.empty())
    {
        EndExecution(id);
        return;
    }
    if (plan->aggregated)
    {
        Rendezvous(id, false);
        return;
    }
    StartTasks(id);
}

void
CollectiveCommunicator::StartTasks(uint64_t id)
{
    std::shared_ptr<const CollectivePlan> plan = m_executions.at(id).plan;
    for (uint32_t i = 0; i < plan->tasks.size(); ++i)
    {
        // Starting one task may finish others (an arrived message): recheck the execution.
        auto it = m_executions.find(id);
        if (it == m_executions.end())
        {
            break;
        }
        if (it->second.depsLeft[i] == 0 && !it->second.started[i])
        {
            StartTask(id, i);
        }
    }
}

void
CollectiveCommunicator::StartTask(uint64_t id, uint32_t index)
{
    Execution& exec = m_executions.at(id);
    exec.started[index] = true;
    // The task outlives the execution if finishing it ends the call (see Start()).
    std::shared_ptr<const CollectivePlan> plan = exec.plan;
    const CollectiveTask& task = plan->tasks[index];
    MessageKey key{exec.call.instance, task.peer, exec.ordinal[index]};
    switch (task.kind)
    {
    case CollectiveTask::SEND: {
        NS_ABORT_MSG_IF(task.peer >= m_peers->size() || !Peer(task.peer),
                        "rank " << m_rank << ", " << exec.call.instance << ": no rank "
                                << task.peer);
        uint64_t messageId =
            m_transport->Send(task.peer,
                              task.bytes,
                              MakeCallback(&CollectiveCommunicator::MessageSent, this));
        m_sending[messageId] = {id, index};
        ++m_counters.messagesSent;
        m_counters.bytesSent += task.bytes;
        std::get<1>(key) = m_rank;
        Peer(task.peer)->Expect(m_rank, messageId, key, task.bytes);
        break;
    }
    case CollectiveTask::RECV: {
        auto arrived = m_arrived.find(key);
        if (arrived == m_arrived.end())
        {
            m_waiting[key] = {id, index};
            break;
        }
        NS_ABORT_MSG_IF(arrived->second != task.bytes,
                        "rank " << m_rank << ", " << exec.call.instance << ": received "
                                << arrived->second << " bytes from rank " << task.peer << " where "
                                << task.bytes << " were expected");
        m_arrived.erase(arrived);
        FinishTask(id, index);
        break;
    }
    case CollectiveTask::REDUCE:
        m_counters.bytesReduced += task.bytes;
        if (m_reductionBandwidth <= 0.0)
        {
            FinishTask(id, index);
        }
        else
        {
            Time duration;
            if (EventDelayWithinHorizon(
                    task.bytes / m_reductionBandwidth * 1e9,
                    [this, &exec, &task]() {
                        return "rank " + std::to_string(m_rank) + ", " + exec.call.instance +
                               ": reduction of " + std::to_string(task.bytes) + " bytes";
                    },
                    duration))
            {
                Simulator::Schedule(duration, &CollectiveCommunicator::FinishTask, this, id, index);
            }
        }
        break;
    }
}

void
CollectiveCommunicator::FinishTask(uint64_t id, uint32_t index)
{
    auto it = m_executions.find(id);
    NS_ASSERT(it != m_executions.end());
    Execution& exec = it->second;
    for (uint32_t child : exec.children[index])
    {
        if (--exec.depsLeft[child] == 0 && !exec.started[child])
        {
            StartTask(id, child);
        }
    }
    // Children started above cannot have finished the execution: this task still counts.
    it = m_executions.find(id);
    NS_ASSERT(it != m_executions.end());
    if (--it->second.tasksLeft > 0)
    {
        return;
    }
    if (it->second.plan->aggregated)
    {
        Rendezvous(id, true);
        return;
    }
    EndExecution(id);
}

void
CollectiveCommunicator::EndExecution(uint64_t id)
{
    auto it = m_executions.find(id);
    NS_ASSERT(it != m_executions.end());
    DoneCallback done = it->second.done;
    m_executions.erase(it);
    ++m_counters.callsDone;
    // Always completes from its own event, so the caller never re-enters Start().
    Simulator::ScheduleNow([done]() { done(); });
}

void
CollectiveCommunicator::Rendezvous(uint64_t id, bool finish)
{
    Execution& exec = m_executions.at(id);
    exec.atRendezvous = true;
    const std::vector<uint32_t>& members = exec.call.members;
    uint32_t lowest = *std::min_element(members.begin(), members.end());
    Peer(lowest)->Arrive({exec.call.instance, finish}, members.size(), m_rank, id);
}

void
CollectiveCommunicator::Arrive(const RendezvousKey& key,
                               std::size_t members,
                               uint32_t rank,
                               uint64_t exec)
{
    auto it = m_rendezvous.find(key);
    if (it == m_rendezvous.end())
    {
        it = m_rendezvous.emplace(key, Arrivals()).first;
    }
    it->second.emplace_back(rank, exec);
    if (it->second.size() < members)
    {
        return;
    }
    // Taken out first: a member started here may finish, and reach the other rendezvous.
    Arrivals arrivals = std::move(it->second);
    m_rendezvous.erase(it);
    for (const auto& [member, memberExec] : arrivals)
    {
        CollectiveCommunicator* communicator = Peer(member);
        communicator->m_executions.at(memberExec).atRendezvous = false;
        if (key.second)
        {
            communicator->EndExecution(memberExec);
        }
        else
        {
            communicator->StartTasks(memberExec);
        }
    }
}

void
CollectiveCommunicator::Expect(uint32_t source,
                               uint64_t messageId,
                               const MessageKey& key,
                               uint64_t bytes)
{
    m_expected[{source, messageId}] = {key, bytes};
}

void
CollectiveCommunicator::MessageSent(uint64_t messageId)
{
    auto it = m_sending.find(messageId);
    NS_ASSERT_MSG(it != m_sending.end(), "acknowledgement of unknown message " << messageId);
    TaskRef task = it->second;
    m_sending.erase(it);
    FinishTask(task.first, task.second);
}

void
CollectiveCommunicator::MessageReceived(uint32_t source, uint64_t messageId, uint64_t bytes)
{
    auto it = m_expected.find({source, messageId});
    NS_ABORT_MSG_IF(it == m_expected.end(),
                    "rank " << m_rank << ": message " << messageId << " from rank " << source
                            << " belongs to no collective");
    MessageKey key = it->second.first;
    NS_ABORT_MSG_IF(it->second.second != bytes,
                    "rank " << m_rank << ": message from rank " << source << " has " << bytes
                            << " bytes, " << it->second.second << " announced");
    m_expected.erase(it);
    m_counters.bytesReceived += bytes;
    auto waiting = m_waiting.find(key);
    if (waiting == m_waiting.end())
    {
        m_arrived[key] = bytes;
        return;
    }
    TaskRef task = waiting->second;
    m_waiting.erase(waiting);
    const CollectiveTask& recv = m_executions.at(task.first).plan->tasks[task.second];
    NS_ABORT_MSG_IF(recv.bytes != bytes,
                    "rank " << m_rank << ", " << std::get<0>(key) << ": received " << bytes
                            << " bytes from rank " << source << " where " << recv.bytes
                            << " were expected");
    FinishTask(task.first, task.second);
}

std::string
CollectiveCommunicator::DescribeRendezvous(const Execution& exec) const
{
    const std::vector<uint32_t>& members = exec.call.members;
    uint32_t lowest = *std::min_element(members.begin(), members.end());
    bool finish = exec.tasksLeft == 0;
    const auto& held = Peer(lowest)->m_rendezvous;
    auto it = held.find({exec.call.instance, finish});
    std::set<uint32_t> missing(members.begin(), members.end());
    if (it != held.end())
    {
        for (const auto& arrival : it->second)
        {
            missing.erase(arrival.first);
        }
    }
    // Name a few of the missing members: the report is one line per call.
    const std::size_t named = 4;
    std::ostringstream os;
    os << "waits for " << missing.size() << " of " << members.size() << " members to "
       << (finish ? "finish it" : "start it") << " (rank";
    std::size_t count = 0;
    for (uint32_t rank : missing)
    {
        if (count == named)
        {
            os << " and " << missing.size() - named << " more";
            break;
        }
        os << (count++ == 0 ? (missing.size() > 1 ? "s " : " ") : ", ") << rank;
    }
    os << ")";
    return os.str();
}

std::vector<std::string>
CollectiveCommunicator::DescribeBlocked() const
{
    NS_LOG_FUNCTION(this);
    std::vector<std::string> lines;
    for (const auto& [id, exec] : m_executions)
    {
        std::map<uint32_t, uint32_t> receives;
        std::map<uint32_t, uint32_t> sends;
        for (const auto& [key, task] : m_waiting)
        {
            if (task.first == id)
            {
                ++receives[std::get<1>(key)];
            }
        }
        for (const auto& [messageId, task] : m_sending)
        {
            if (task.first == id)
            {
                ++sends[exec.plan->tasks[task.second].peer];
            }
        }
        std::ostringstream os;
        os << exec.call.instance << " (" << WorkloadOpTypeName(exec.call.type) << ", "
           << exec.plan->name << (exec.plan->aggregated ? ", steps aggregated" : "")
           << "): " << exec.tasksLeft << " of " << exec.plan->tasks.size() << " steps left";
        if (exec.atRendezvous)
        {
            os << "; " << DescribeRendezvous(exec);
        }
        for (const auto& [peer, n] : receives)
        {
            os << "; waits for " << n << " message(s) from rank " << peer;
        }
        for (const auto& [peer, n] : sends)
        {
            os << "; " << n << " message(s) to rank " << peer << " not delivered";
        }
        lines.push_back(os.str());
    }
    return lines;
}

} // namespace ns3

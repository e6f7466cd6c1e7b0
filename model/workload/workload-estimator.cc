/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-estimator.h"

#include "ns3/log.h"
#include "ns3/rail-topology.h"

#include <algorithm>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadEstimator");

namespace
{

/**
 * \brief The DAG's static structure, computed once and shared by every replay: successors,
 *        pending counts and which rendezvous (collective or send/recv pair) each op joins.
 */
struct Plan
{
    std::vector<std::vector<uint32_t>> succs;      //!< successors by op index
    std::vector<uint32_t> pending;                 //!< deps + stream predecessor, by op index
    std::vector<int64_t> rendezvous;               //!< rendezvous of each comm op (-1: compute)
    std::vector<uint32_t> expected;                //!< participants of each rendezvous
    std::vector<bool> scaleUp;                     //!< rendezvous inside one server
    std::vector<std::vector<std::size_t>> rankOps; //!< op indices [first, last) by rank

    Plan(const WorkloadDag& dag, uint32_t gpusPerServer)
    {
        const auto& ops = dag.GetAllOps();
        succs.resize(ops.size());
        pending.assign(ops.size(), 0);
        rendezvous.assign(ops.size(), -1);
        for (uint32_t rank = 0; rank < dag.GetRankCount(); ++rank)
        {
            WorkloadOpRange range = dag.GetOps(rank);
            std::size_t first = range.begin() - ops.data();
            rankOps.push_back({first, first + range.size()});
            Link(dag, range, first);
        }
        Match(dag, gpusPerServer);
    }

    void Link(const WorkloadDag& dag, WorkloadOpRange range, std::size_t first)
    {
        std::map<std::string, std::size_t> lastOfStream;
        for (std::size_t i = 0; i < range.size(); ++i)
        {
            std::size_t index = first + i;
            for (uint32_t dep : range[i].deps)
            {
                const WorkloadOp* target = dag.FindOp(range[i].rank, dep);
                succs[target - dag.GetAllOps().data()].push_back(index);
                ++pending[index];
            }
            auto it = lastOfStream.find(range[i].stream);
            if (it != lastOfStream.end())
            {
                succs[it->second].push_back(index);
                ++pending[index];
            }
            lastOfStream[range[i].stream] = index;
        }
    }

    void Match(const WorkloadDag& dag, uint32_t gpusPerServer)
    {
        std::map<std::pair<std::string, uint32_t>, int64_t> collectives;
        std::map<std::tuple<uint32_t, uint32_t, int64_t, uint32_t>, int64_t> pairs;
        std::map<std::pair<uint32_t, std::string>, uint32_t> groupCount;
        std::map<std::tuple<uint32_t, uint32_t, uint32_t, int64_t>, uint32_t> pairCount;
        const auto& ops = dag.GetAllOps();
        for (std::size_t i = 0; i < ops.size(); ++i)
        {
            const WorkloadOp& op = ops[i];
            if (IsWorkloadCollective(op.type))
            {
                uint32_t k = groupCount[{op.rank, op.group}]++;
                auto [it, fresh] = collectives.try_emplace({op.group, k}, expected.size());
                if (fresh)
                {
                    const auto& members = *dag.FindGroup(op.group);
                    expected.push_back(members.size());
                    scaleUp.push_back(SameServer(members, gpusPerServer));
                }
                rendezvous[i] = it->second;
            }
            else if (IsWorkloadPointToPoint(op.type))
            {
                bool send = op.type == WorkloadOpType::SEND;
                uint32_t src = send ? op.rank : uint32_t(op.peer);
                uint32_t dst = send ? uint32_t(op.peer) : op.rank;
                uint32_t k = pairCount[{src, dst, send ? 0u : 1u, op.tag}]++;
                auto [it, fresh] = pairs.try_emplace({src, dst, op.tag, k}, expected.size());
                if (fresh)
                {
                    expected.push_back(2);
                    scaleUp.push_back(SameServer({src, dst}, gpusPerServer));
                }
                rendezvous[i] = it->second;
            }
        }
    }

    static bool SameServer(const std::vector<uint32_t>& members, uint32_t gpusPerServer)
    {
        RailTopology topology(gpusPerServer);
        return std::all_of(members.begin(), members.end(), [&](uint32_t member) {
            return topology.SameServer(member, members.front());
        });
    }
};

/**
 * \brief One replay run: event queue of op completions, rendezvous bookkeeping, records.
 */
class Replay
{
  public:
    Replay(const WorkloadEstimator& estimator,
           const WorkloadDag& dag,
           const Plan& plan,
           uint32_t repetitions,
           const std::function<void(double)>& progress)
        : m_estimator(estimator),
          m_dag(dag),
          m_ops(dag.GetAllOps()),
          m_plan(plan),
          m_reps(repetitions),
          m_progress(progress)
    {
        std::size_t m = m_ops.size();
        m_pending.resize(m * m_reps);
        m_ready.assign(m * m_reps, 0.0);
        m_finish.assign(m * m_reps, -1.0);
        m_remaining.assign(m_reps, std::vector<std::size_t>(dag.GetRankCount()));
        for (uint32_t r = 0; r < m_reps; ++r)
        {
            for (std::size_t i = 0; i < m; ++i)
            {
                // Replays after the first also wait for their rank's previous replay.
                m_pending[r * m + i] = plan.pending[i] + (r > 0 ? 1 : 0);
            }
            for (uint32_t rank = 0; rank < dag.GetRankCount(); ++rank)
            {
                m_remaining[r][rank] = plan.rankOps[rank][1] - plan.rankOps[rank][0];
            }
        }
        m_joined.resize(plan.expected.size() * m_reps);
    }

    WorkloadEstimate Run()
    {
        for (std::size_t i = 0; i < m_ops.size(); ++i)
        {
            if (m_pending[i] == 0)
            {
                MakeReady(i, 0.0);
            }
        }
        for (uint32_t r = 0; r + 1 < m_reps; ++r)
        {
            for (uint32_t rank = 0; rank < m_dag.GetRankCount(); ++rank)
            {
                if (m_remaining[r][rank] == 0) // a rank without ops releases at once
                {
                    ReleaseRank(r + 1, rank, 0.0);
                }
            }
        }
        while (!m_events.empty())
        {
            auto [time, seq, instance] = m_events.top();
            m_events.pop();
            Finish(instance, time);
        }
        if (m_done < m_finish.size())
        {
            ReportDeadlock();
        }
        return Result();
    }

  private:
    using Event = std::tuple<double, uint64_t, std::size_t>;

    void MakeReady(std::size_t instance, double time)
    {
        std::size_t m = m_ops.size();
        std::size_t index = instance % m;
        const WorkloadOp& op = m_ops[index];
        if (op.type == WorkloadOpType::COMPUTE)
        {
            Push(time + op.durationUs * 1e-6, instance);
            return;
        }
        std::size_t rv = (instance / m) * m_plan.expected.size() + m_plan.rendezvous[index];
        auto& joined = m_joined[rv];
        std::size_t id = m_plan.rendezvous[index];
        if (IsWorkloadPointToPoint(op.type) && !m_estimator.GetConfig().rendezvousPointToPoint)
        {
            MakeReadyPointToPoint(instance, time, joined, m_plan.scaleUp[id]);
            return;
        }
        joined.emplace_back(instance, time);
        if (joined.size() < m_plan.expected[id])
        {
            return;
        }
        double start = 0.0;
        for (const auto& entry : joined)
        {
            start = std::max(start, entry.second); // starts when the slowest member joins
        }
        double end =
            start +
            m_estimator.CommSeconds(op.type, m_plan.expected[id], op.bytes, m_plan.scaleUp[id]);
        for (const auto& entry : joined)
        {
            Record(entry.first, entry.second, end);
            Push(end, entry.first);
        }
        joined.clear();
        joined.shrink_to_fit();
    }

    /**
     * Eager, as the communicator delivers: a send leaves when it is ready and ends when its
     * data has arrived; a receive ends when it is posted and the data is there. \p joined
     * holds the partner that came first: a posted receive, or a send's arrival time.
     */
    void MakeReadyPointToPoint(std::size_t instance,
                               double time,
                               std::vector<std::pair<std::size_t, double>>& joined,
                               bool scaleUp)
    {
        const WorkloadOp& op = m_ops[instance % m_ops.size()];
        if (op.type == WorkloadOpType::SEND)
        {
            double arrival = time + m_estimator.CommSeconds(op.type, 2, op.bytes, scaleUp);
            Record(instance, time, arrival);
            Push(arrival, instance);
            if (joined.empty())
            {
                joined.emplace_back(instance, arrival); // for the receive to come
                return;
            }
            auto [recv, posted] = joined.front();
            Record(recv, posted, arrival);
            Push(arrival, recv);
        }
        else if (joined.empty())
        {
            joined.emplace_back(instance, time); // posted before its send
            return;
        }
        else
        {
            double end = std::max(time, joined.front().second);
            Record(instance, time, end);
            Push(end, instance);
        }
        joined.clear();
        joined.shrink_to_fit();
    }

    void Record(std::size_t instance, double start, double end)
    {
        const WorkloadOp& op = m_ops[instance % m_ops.size()];
        m_records.push_back(WorkloadCommRecord::Of(op, start, end, Iteration(instance)));
    }

    uint32_t Iteration(std::size_t instance) const
    {
        uint32_t perReplay = std::max<uint32_t>(1, m_dag.GetIterationCount());
        return uint32_t(instance / m_ops.size()) * perReplay +
               m_ops[instance % m_ops.size()].iteration;
    }

    void Push(double time, std::size_t instance)
    {
        m_events.emplace(time, m_seq++, instance);
    }

    void Finish(std::size_t instance, double time)
    {
        std::size_t m = m_ops.size();
        std::size_t rep = instance / m;
        std::size_t index = instance % m;
        m_finish[instance] = time;
        ++m_done;
        if (m_progress && m_done % std::max<std::size_t>(1, m_finish.size() / 100) == 0)
        {
            m_progress(double(m_done) / m_finish.size());
        }
        for (uint32_t succ : m_plan.succs[index])
        {
            Decrement(rep * m + succ, time);
        }
        uint32_t rank = m_ops[index].rank;
        if (--m_remaining[rep][rank] == 0 && rep + 1 < m_reps)
        {
            ReleaseRank(rep + 1, rank, time);
        }
    }

    void ReleaseRank(std::size_t rep, uint32_t rank, double time)
    {
        for (std::size_t i = m_plan.rankOps[rank][0]; i < m_plan.rankOps[rank][1]; ++i)
        {
            Decrement(rep * m_ops.size() + i, time);
        }
    }

    void Decrement(std::size_t instance, double time)
    {
        m_ready[instance] = std::max(m_ready[instance], time);
        if (--m_pending[instance] == 0)
        {
            MakeReady(instance, m_ready[instance]);
        }
    }

    [[noreturn]] void ReportDeadlock() const
    {
        std::string text = "deadlock: " + std::to_string(m_finish.size() - m_done) + " of " +
                           std::to_string(m_finish.size()) + " ops never complete" +
                           (m_reps > 1 ? " (the DAG replayed " + std::to_string(m_reps) + " times)"
                                       : std::string());
        std::size_t shown = 0;
        for (std::size_t i = 0; i < m_finish.size() && shown < 3; ++i)
        {
            const WorkloadOp& op = m_ops[i % m_ops.size()];
            if (m_finish[i] >= 0 || m_pending[i] != 0)
            {
                continue; // show ops that are ready but wait for their partners
            }
            text += std::string(shown++ ? "; " : "; e.g. ") + "rank " + std::to_string(op.rank) +
                    " op " + std::to_string(op.id) + " (" + WorkloadOpTypeName(op.type) +
                    (op.label.empty() ? "" : " " + op.label) + ") waits for its " +
                    (IsWorkloadPointToPoint(op.type) ? "peer" : "group");
        }
        throw std::runtime_error(text);
    }

    WorkloadEstimate Result()
    {
        WorkloadEstimate estimate;
        std::vector<double> ends;
        for (std::size_t i = 0; i < m_finish.size(); ++i)
        {
            uint32_t it = Iteration(i);
            if (ends.size() <= it)
            {
                ends.resize(it + 1, 0.0);
            }
            ends[it] = std::max(ends[it], m_finish[i]);
            estimate.makespanS = std::max(estimate.makespanS, m_finish[i]);
        }
        double previous = 0.0;
        for (double end : ends)
        {
            estimate.iterationTimesS.push_back(end - previous);
            previous = end;
        }
        std::stable_sort(m_records.begin(),
                         m_records.end(),
                         [](const WorkloadCommRecord& a, const WorkloadCommRecord& b) {
                             return std::tie(a.startS, a.rank, a.iteration, a.id) <
                                    std::tie(b.startS, b.rank, b.iteration, b.id);
                         });
        estimate.timeline = WorkloadTimeline(std::move(m_records));
        return estimate;
    }

    const WorkloadEstimator& m_estimator;
    const WorkloadDag& m_dag;
    const std::vector<WorkloadOp>& m_ops;
    const Plan& m_plan;
    uint32_t m_reps;
    const std::function<void(double)>& m_progress;
    std::vector<uint32_t> m_pending;
    std::vector<double> m_ready;
    std::vector<double> m_finish;
    std::vector<std::vector<std::size_t>> m_remaining;
    std::vector<std::vector<std::pair<std::size_t, double>>> m_joined;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> m_events;
    uint64_t m_seq{0};
    std::size_t m_done{0};
    std::vector<WorkloadCommRecord> m_records;
};

} // namespace

WorkloadEstimator::WorkloadEstimator(const WorkloadEstimatorConfig& config)
    : m_config(config)
{
    if (config.gpusPerServer == 0 || config.repetitions == 0 || !(config.scaleUpGBps > 0) ||
        !(config.scaleOutGbps > 0) || !(config.latencyUs >= 0))
    {
        throw std::invalid_argument(
            "estimator: gpusPerServer, repetitions and bandwidths must be > 0, latency >= 0");
    }
}

void
WorkloadEstimator::SetProgressCallback(std::function<void(double)> callback)
{
    m_progress = std::move(callback);
}

double
WorkloadEstimator::CommSeconds(WorkloadOpType type,
                               uint32_t members,
                               uint64_t bytes,
                               bool scaleUp) const
{
    double n = std::max<uint32_t>(members, 1);
    double bandwidth = scaleUp ? m_config.scaleUpGBps * 1e9 : m_config.scaleOutGbps * 1e9 / 8;
    double alpha = m_config.latencyUs * 1e-6;
    double b = double(bytes);
    if (members <= 1)
    {
        return 0.0;
    }
    switch (type)
    {
    case WorkloadOpType::ALLREDUCE: // ring: reduce-scatter then all-gather
        return 2 * (n - 1) / n * b / bandwidth + 2 * (n - 1) * alpha;
    case WorkloadOpType::ALLGATHER: // bytes is the input shard; output n x bytes
        return (n - 1) * b / bandwidth + (n - 1) * alpha;
    case WorkloadOpType::REDUCESCATTER:
    case WorkloadOpType::ALLTOALL:
        return (n - 1) / n * b / bandwidth + (n - 1) * alpha;
    case WorkloadOpType::BROADCAST:
    case WorkloadOpType::REDUCE: // pipelined ring
        return b / bandwidth + (n - 1) * alpha;
    case WorkloadOpType::BARRIER:
        return 2 * (n - 1) * alpha;
    default: // send / recv
        return b / bandwidth + alpha;
    }
}

const WorkloadEstimatorConfig&
WorkloadEstimator::GetConfig() const
{
    return m_config;
}

WorkloadEstimate
WorkloadEstimator::Run(const WorkloadDag& dag) const
{
    Plan plan(dag, m_config.gpusPerServer);
    return Replay(*this, dag, plan, m_config.repetitions, m_progress).Run();
}

} // namespace ns3

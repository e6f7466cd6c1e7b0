/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-validator.h"

#include "ns3/collective-plan.h"
#include "ns3/input-text.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadValidator");

namespace
{

/**
 * \brief Shared state of one validation run: the DAG, the file name and the error list.
 */
class Checker
{
  public:
    Checker(const WorkloadDag& dag, const std::string& file, WorkloadErrorList& errors)
        : m_dag(dag),
          m_file(file),
          m_errors(errors)
    {
    }

    void Run()
    {
        CheckGroups();
        CheckRanksInRange();
        for (uint32_t rank = 0; rank < m_dag.GetRankCount(); ++rank)
        {
            bool uniqueIds = CheckUniqueIds(rank);
            for (const auto& op : m_dag.GetOps(rank))
            {
                CheckOpFields(op);
            }
            if (uniqueIds && CheckDepsExist(rank))
            {
                CheckCycles(rank);
                CheckIterationOrder(rank);
            }
        }
        CheckCollectiveAgreement();
        CheckPointToPointMatching();
        CheckIterationsDense();
    }

  private:
    /// Records an error located at an op.
    void OpError(const WorkloadOp& op, const std::string& field, const std::string& message)
    {
        WorkloadError error;
        error.file = m_file;
        error.rank = op.rank;
        error.id = op.id;
        error.field = field;
        error.message = message;
        m_errors.Add(std::move(error));
    }

    /// Records an error located at a group (and optionally a rank).
    void GroupError(const std::string& group, int64_t rank, const std::string& message)
    {
        WorkloadError error;
        error.file = m_file;
        error.rank = rank;
        error.group = group;
        error.message = message;
        m_errors.Add(std::move(error));
    }

    bool InRange(int64_t rank) const
    {
        return rank >= 0 && rank < int64_t(m_dag.GetRankCount());
    }

    /// \return true if the op names an existing group that contains its rank
    bool InGroup(const WorkloadOp& op, int64_t rank) const
    {
        auto members = m_sortedGroups.find(op.group);
        return members != m_sortedGroups.end() &&
               std::binary_search(members->second.begin(), members->second.end(), rank);
    }

    void CheckGroups()
    {
        for (const auto& [name, members] : m_dag.GetGroups())
        {
            if (members.empty())
            {
                GroupError(name, -1, "a group needs at least one member");
            }
            // Sorted once: every op looks its rank up (a linear search made a group of n
            // ranks cost n^2).
            std::vector<int64_t>& sorted = m_sortedGroups[name];
            sorted.assign(members.begin(), members.end());
            std::sort(sorted.begin(), sorted.end());
            std::set<uint32_t> seen;
            for (uint32_t member : members)
            {
                if (!InRange(member))
                {
                    GroupError(name,
                               -1,
                               "member " + std::to_string(member) + " is outside [0, " +
                                   std::to_string(m_dag.GetRankCount()) + ")");
                }
                if (!seen.insert(member).second)
                {
                    GroupError(name, -1, "member " + std::to_string(member) + " is listed twice");
                }
            }
        }
    }

    void CheckRanksInRange()
    {
        for (const auto& op : m_dag.GetAllOps())
        {
            if (!InRange(op.rank))
            {
                OpError(op,
                        "rank",
                        "rank is outside [0, " + std::to_string(m_dag.GetRankCount()) + ")");
            }
        }
    }

    bool CheckUniqueIds(uint32_t rank)
    {
        WorkloadOpRange ops = m_dag.GetOps(rank);
        bool unique = true;
        for (std::size_t i = 1; i < ops.size(); ++i)
        {
            if (ops[i].id == ops[i - 1].id)
            {
                OpError(ops[i], "id", "duplicate op id on this rank");
                unique = false;
            }
        }
        return unique;
    }

    void CheckOpFields(const WorkloadOp& op)
    {
        if (op.iteration > WorkloadValidator::MAX_ITERATION)
        {
            OpError(op,
                    "iteration",
                    "must be an integer in [0, " +
                        std::to_string(WorkloadValidator::MAX_ITERATION) + "], got " +
                        std::to_string(op.iteration));
        }
        if (op.type == WorkloadOpType::COMPUTE)
        {
            CheckDuration(op);
            return;
        }
        if (op.type != WorkloadOpType::BARRIER)
        {
            CheckBytes(op);
        }
        if (IsWorkloadPointToPoint(op.type))
        {
            CheckPeer(op);
        }
        else
        {
            CheckGroupMembership(op);
        }
    }

    void CheckDuration(const WorkloadOp& op)
    {
        // Written so that NaN fails too.
        if (!(op.durationUs >= 0.0 && op.durationUs <= WorkloadValidator::MAX_DURATION_US))
        {
            std::ostringstream got;
            got << op.durationUs;
            OpError(op,
                    "duration_us",
                    "must be a number in [0, 1e12] (microseconds: 11.6 days, so that simulated "
                    "time cannot overflow), got " +
                        got.str());
        }
    }

    void CheckBytes(const WorkloadOp& op)
    {
        if (op.bytes == 0)
        {
            OpError(op, "bytes", "size must be positive, got 0");
        }
        else if (op.bytes > WorkloadValidator::MAX_BYTES)
        {
            OpError(op,
                    "bytes",
                    "size must be at most " + std::to_string(WorkloadValidator::MAX_BYTES) +
                        " (2^40, 1 TiB per op), got " + std::to_string(op.bytes));
        }
    }

    void CheckPeer(const WorkloadOp& op)
    {
        if (!InRange(op.peer))
        {
            OpError(op,
                    "peer",
                    "peer " + std::to_string(op.peer) + " is outside [0, " +
                        std::to_string(m_dag.GetRankCount()) + ")");
        }
        else if (op.peer == int64_t(op.rank))
        {
            // "recv to itself" reads wrong: a rank receives from its peer.
            std::string way = op.type == WorkloadOpType::RECV ? " from" : " to";
            OpError(op, "peer", "a rank cannot " + WorkloadOpTypeName(op.type) + way + " itself");
        }
    }

    void CheckGroupMembership(const WorkloadOp& op)
    {
        if (m_dag.FindGroup(op.group) == nullptr)
        {
            OpError(op, "group", "unknown group " + InputText::Quote(op.group));
            return;
        }
        if (!InGroup(op, op.rank))
        {
            OpError(op,
                    "group",
                    "group " + InputText::Quote(op.group) + " does not contain this rank");
        }
        bool rooted = op.type == WorkloadOpType::BROADCAST || op.type == WorkloadOpType::REDUCE;
        if (rooted && !InGroup(op, op.root))
        {
            OpError(op,
                    "root",
                    "root " + std::to_string(op.root) + " is not a member of group " +
                        InputText::Quote(op.group));
        }
        // The planner's own rule, so that a DAG accepted here is never refused at run time.
        auto members = static_cast<uint32_t>(m_dag.FindGroup(op.group)->size());
        std::string refused = CollectivePlanner::CheckAlgorithm(op.type, op.algorithm, members);
        if (!refused.empty())
        {
            OpError(op, "algorithm", refused + " (group " + InputText::Quote(op.group) + ")");
        }
    }

    bool CheckDepsExist(uint32_t rank)
    {
        bool ok = true;
        for (const auto& op : m_dag.GetOps(rank))
        {
            for (uint32_t dep : op.deps)
            {
                if (dep == op.id)
                {
                    OpError(op, "deps", "an op cannot depend on itself");
                    ok = false;
                }
                else if (m_dag.FindOp(rank, dep) == nullptr)
                {
                    OpError(op,
                            "deps",
                            "depends on unknown op id " + std::to_string(dep) + " of rank " +
                                std::to_string(rank));
                    ok = false;
                }
            }
        }
        return ok;
    }

    /// Predecessors of each op (by index in the rank's range): its deps and the previous
    /// op of its stream.
    std::vector<std::vector<std::size_t>> Predecessors(WorkloadOpRange ops) const
    {
        std::vector<std::vector<std::size_t>> preds(ops.size());
        std::unordered_map<std::string, std::size_t> lastOfStream;
        for (std::size_t i = 0; i < ops.size(); ++i)
        {
            for (uint32_t dep : ops[i].deps)
            {
                const WorkloadOp* target = m_dag.FindOp(ops[i].rank, dep);
                preds[i].push_back(static_cast<std::size_t>(target - ops.begin()));
            }
            auto it = lastOfStream.find(ops[i].stream);
            if (it != lastOfStream.end())
            {
                preds[i].push_back(it->second);
            }
            lastOfStream[ops[i].stream] = i;
        }
        return preds;
    }

    void CheckCycles(uint32_t rank)
    {
        WorkloadOpRange ops = m_dag.GetOps(rank);
        std::vector<std::vector<std::size_t>> preds = Predecessors(ops);
        // Kahn's algorithm: what cannot be ordered lies on or behind a cycle.
        std::vector<std::vector<std::size_t>> succs(ops.size());
        std::vector<std::size_t> indegree(ops.size(), 0);
        for (std::size_t i = 0; i < ops.size(); ++i)
        {
            for (std::size_t p : preds[i])
            {
                succs[p].push_back(i);
                ++indegree[i];
            }
        }
        std::vector<std::size_t> ready;
        for (std::size_t i = 0; i < ops.size(); ++i)
        {
            if (indegree[i] == 0)
            {
                ready.push_back(i);
            }
        }
        std::size_t ordered = 0;
        while (!ready.empty())
        {
            std::size_t i = ready.back();
            ready.pop_back();
            ++ordered;
            for (std::size_t s : succs[i])
            {
                if (--indegree[s] == 0)
                {
                    ready.push_back(s);
                }
            }
        }
        if (ordered < ops.size())
        {
            ReportCycle(ops, preds, indegree);
        }
    }

    /// Walks back from a leftover op through leftover predecessors until one repeats: the
    /// repeated stretch is a cycle (every leftover op has a leftover predecessor).
    void ReportCycle(WorkloadOpRange ops,
                     const std::vector<std::vector<std::size_t>>& preds,
                     const std::vector<std::size_t>& indegree)
    {
        std::size_t start = 0;
        while (indegree[start] == 0)
        {
            ++start;
        }
        std::vector<std::size_t> path;
        std::vector<int64_t> position(ops.size(), -1);
        std::size_t node = start;
        while (position[node] < 0)
        {
            position[node] = static_cast<int64_t>(path.size());
            path.push_back(node);
            for (std::size_t p : preds[node])
            {
                if (indegree[p] > 0)
                {
                    node = p;
                    break;
                }
            }
        }
        std::vector<std::size_t> cycle(path.begin() + position[node], path.end());
        std::reverse(cycle.begin(), cycle.end()); // predecessor order -> execution order
        std::string text;
        for (std::size_t i : cycle)
        {
            text += std::to_string(ops[i].id) + " -> ";
        }
        text += std::to_string(ops[cycle.front()].id);
        OpError(ops[cycle.front()],
                "deps",
                "dependency cycle through ops " + text +
                    " (ops of one stream also run in id order)");
    }

    /// An op cannot wait for an op of a later iteration: its deps and the previous op of
    /// its stream carry the same or an earlier iteration (else iteration times would be
    /// measured against ends that come later, e.g. 0 s).
    void CheckIterationOrder(uint32_t rank)
    {
        std::unordered_map<std::string, const WorkloadOp*> lastOfStream;
        for (const auto& op : m_dag.GetOps(rank))
        {
            const WorkloadOp* later = nullptr;
            std::string how;
            for (uint32_t dep : op.deps)
            {
                const WorkloadOp* target = m_dag.FindOp(rank, dep);
                if (later == nullptr && target->iteration > op.iteration)
                {
                    later = target;
                    how = "it is in deps";
                }
            }
            auto it = lastOfStream.find(op.stream);
            if (later == nullptr && it != lastOfStream.end() &&
                it->second->iteration > op.iteration)
            {
                later = it->second;
                how = "it precedes this op on stream " + InputText::Quote(op.stream);
            }
            lastOfStream[op.stream] = &op;
            if (later != nullptr)
            {
                OpError(op,
                        "iteration",
                        "iteration " + std::to_string(op.iteration) + " waits for op " +
                            std::to_string(later->id) + " of iteration " +
                            std::to_string(later->iteration) + " (" + how +
                            "): an op cannot wait for an op of a later iteration");
            }
        }
    }

    /// The iterations used are 0 .. K-1, K = GetIterationCount(): each is used by an op, so
    /// that every reported iteration has ops and its time is that of real work.
    void CheckIterationsDense()
    {
        uint32_t count = m_dag.GetIterationCount();
        if (count == 0 || count - 1 > WorkloadValidator::MAX_ITERATION)
        {
            return; // no op, or an out-of-range label already reported
        }
        std::vector<const WorkloadOp*> firstOf(count, nullptr);
        for (const auto& op : m_dag.GetAllOps())
        {
            if (firstOf[op.iteration] == nullptr)
            {
                firstOf[op.iteration] = &op;
            }
        }
        uint32_t missing =
            static_cast<uint32_t>(std::count(firstOf.begin(), firstOf.end(), nullptr));
        if (missing == 0)
        {
            return;
        }
        // Locate the first gap at the first op after it (the largest label is always used).
        uint32_t gap = static_cast<uint32_t>(std::find(firstOf.begin(), firstOf.end(), nullptr) -
                                             firstOf.begin());
        uint32_t next = gap;
        while (firstOf[next] == nullptr)
        {
            ++next;
        }
        std::string unused = next - gap == 1 ? "iteration " + std::to_string(gap)
                                             : "iterations " + std::to_string(gap) + " to " +
                                                   std::to_string(next - 1);
        std::string others = missing > next - gap ? " (" + std::to_string(missing - (next - gap)) +
                                                        " more unused after it)"
                                                  : "";
        OpError(*firstOf[next],
                "iteration",
                "iteration " + std::to_string(next) + " is used but no op is in " + unused +
                    others + ": iterations must be numbered 0 to K-1 (here K = " +
                    std::to_string(count) + ") with every number used");
    }

    void CheckCollectiveAgreement()
    {
        // group -> rank -> its collectives on the group, in id order
        std::map<std::string, std::map<uint32_t, std::vector<const WorkloadOp*>>> issued;
        for (uint32_t rank = 0; rank < m_dag.GetRankCount(); ++rank)
        {
            for (const auto& op : m_dag.GetOps(rank))
            {
                if (IsWorkloadCollective(op.type) && InGroup(op, op.rank))
                {
                    issued[op.group][rank].push_back(&op);
                }
            }
        }
        for (const auto& [name, members] : m_dag.GetGroups())
        {
            auto it = issued.find(name);
            if (it != issued.end())
            {
                CompareMembers(name, members, it->second);
            }
        }
    }

    void CompareMembers(const std::string& name,
                        const std::vector<uint32_t>& members,
                        const std::map<uint32_t, std::vector<const WorkloadOp*>>& byRank)
    {
        static const std::vector<const WorkloadOp*> none;
        // The first member is the reference every other member is compared with.
        auto find = [&byRank](uint32_t rank) -> const std::vector<const WorkloadOp*>& {
            auto it = byRank.find(rank);
            return it == byRank.end() ? none : it->second;
        };
        uint32_t reference = members.front();
        const auto& expected = find(reference);
        for (uint32_t member : members)
        {
            if (member == reference || !InRange(member))
            {
                continue;
            }
            const auto& actual = find(member);
            if (!CompareSequences(name, expected, actual) || actual.size() == expected.size())
            {
                continue;
            }
            GroupError(name,
                       member,
                       "count disagrees: this rank issues " + std::to_string(actual.size()) +
                           " collectives on the group, rank " + std::to_string(reference) +
                           " issues " + std::to_string(expected.size()));
        }
    }

    /// Compares the common prefix; reports the first disagreement. \return true if none
    bool CompareSequences(const std::string& name,
                          const std::vector<const WorkloadOp*>& expected,
                          const std::vector<const WorkloadOp*>& actual)
    {
        std::size_t common = std::min(expected.size(), actual.size());
        for (std::size_t k = 0; k < common; ++k)
        {
            const WorkloadOp& a = *actual[k];
            const WorkloadOp& e = *expected[k];
            // Members must also agree on the algorithm: different ones exchange different
            // messages and could never match.
            std::string field = a.type != e.type             ? "type"
                                : a.bytes != e.bytes         ? "bytes"
                                : a.root != e.root           ? "root"
                                : a.algorithm != e.algorithm ? "algorithm"
                                : a.iteration != e.iteration ? "iteration"
                                                             : "";
            if (field.empty())
            {
                continue;
            }
            std::string where =
                "collective #" + std::to_string(k) + " on group " + InputText::Quote(name);
            std::string other =
                "on rank " + std::to_string(e.rank) + " (op " + std::to_string(e.id) + ")";
            if (field == "iteration")
            {
                OpError(a,
                        field,
                        where + " is in iteration " + std::to_string(a.iteration) + " but " +
                            other + " it is in iteration " + std::to_string(e.iteration) +
                            ": every member of a collective carries the same iteration");
                return false;
            }
            auto describe = [](const WorkloadOp& op) {
                std::string algorithm = op.algorithm == WorkloadAlgorithm::UNSPECIFIED
                                            ? "no algorithm"
                                            : "algorithm " + WorkloadAlgorithmName(op.algorithm);
                return WorkloadOpTypeName(op.type) + " of " + std::to_string(op.bytes) + " bytes" +
                       (op.root >= 0 ? " root " + std::to_string(op.root) : "") + " (" + algorithm +
                       ")";
            };
            OpError(a,
                    field,
                    where + " is " + describe(a) + " but " + other + " it is " + describe(e));
            return false;
        }
        return true;
    }

    void CheckPointToPointMatching()
    {
        using Key = std::tuple<uint32_t, uint32_t, int64_t>; // (sender, receiver, tag)
        std::map<Key, std::vector<const WorkloadOp*>> sends;
        std::map<Key, std::vector<const WorkloadOp*>> recvs;
        for (uint32_t rank = 0; rank < m_dag.GetRankCount(); ++rank)
        {
            for (const auto& op : m_dag.GetOps(rank))
            {
                if (!IsWorkloadPointToPoint(op.type) || !InRange(op.peer) ||
                    op.peer == int64_t(rank))
                {
                    continue;
                }
                auto peer = static_cast<uint32_t>(op.peer);
                if (op.type == WorkloadOpType::SEND)
                {
                    sends[Key(rank, peer, op.tag)].push_back(&op);
                }
                else
                {
                    recvs[Key(peer, rank, op.tag)].push_back(&op);
                }
            }
        }
        MatchPairs(sends, recvs);
        MatchPairs(recvs, sends);
    }

    /// Reports the ops of `from` left without a partner in `to`, and (once, from the recv
    /// side) partners whose bytes or iterations differ.
    template <typename Map>
    void MatchPairs(const Map& from, const Map& to)
    {
        static const std::vector<const WorkloadOp*> none;
        for (const auto& [key, ops] : from)
        {
            auto it = to.find(key);
            const auto& partners = it == to.end() ? none : it->second;
            for (std::size_t k = 0; k < ops.size(); ++k)
            {
                const WorkloadOp& op = *ops[k];
                bool isSend = op.type == WorkloadOpType::SEND;
                if (k >= partners.size())
                {
                    OpError(op,
                            "peer",
                            WorkloadOpTypeName(op.type) + (isSend ? " to" : " from") + " rank " +
                                std::to_string(op.peer) + " (tag " + std::to_string(op.tag) + ", " +
                                std::to_string(op.bytes) + " bytes) has no matching " +
                                (isSend ? "recv" : "send") + " on rank " + std::to_string(op.peer));
                }
                else if (!isSend)
                {
                    ComparePartners(op, *partners[k]);
                }
            }
        }
    }

    /// Compares a recv with the send it matches.
    void ComparePartners(const WorkloadOp& recv, const WorkloadOp& send)
    {
        std::string matched = "recv from rank " + std::to_string(recv.peer) + " (tag " +
                              std::to_string(recv.tag) + ") is matched by send op " +
                              std::to_string(send.id);
        if (send.bytes != recv.bytes)
        {
            OpError(recv,
                    "bytes",
                    "recv of " + std::to_string(recv.bytes) + " bytes from rank " +
                        std::to_string(recv.peer) + " (tag " + std::to_string(recv.tag) +
                        ") is matched by send op " + std::to_string(send.id) + " of " +
                        std::to_string(send.bytes) + " bytes");
        }
        if (send.iteration != recv.iteration)
        {
            OpError(recv,
                    "iteration",
                    matched + " of iteration " + std::to_string(send.iteration) +
                        " but is in iteration " + std::to_string(recv.iteration) +
                        ": a send and its recv carry the same iteration");
        }
    }

    const WorkloadDag& m_dag;
    const std::string& m_file;
    WorkloadErrorList& m_errors;
    std::unordered_map<std::string, std::vector<int64_t>> m_sortedGroups; //!< For InGroup
};

} // namespace

std::vector<WorkloadError>
WorkloadValidator::Validate(const WorkloadDag& dag, const std::string& fileName)
{
    NS_LOG_FUNCTION(fileName);
    WorkloadErrorList errors;
    Run(dag, fileName, errors);
    return errors.GetErrors();
}

void
WorkloadValidator::Check(const WorkloadDag& dag, const std::string& fileName)
{
    NS_LOG_FUNCTION(fileName);
    WorkloadErrorList errors;
    Run(dag, fileName, errors);
    errors.ThrowIfAny();
}

void
WorkloadValidator::Run(const WorkloadDag& dag,
                       const std::string& fileName,
                       WorkloadErrorList& errors)
{
    Checker(dag, fileName, errors).Run();
}

} // namespace ns3

#include "workload-validator.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace ns3
{

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
            }
        }
        CheckCollectiveAgreement();
        CheckPointToPointMatching();
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
        const std::vector<uint32_t>* members = m_dag.FindGroup(op.group);
        return members != nullptr &&
               std::find(members->begin(), members->end(), rank) != members->end();
    }

    void CheckGroups()
    {
        for (const auto& [name, members] : m_dag.GetGroups())
        {
            if (members.empty())
            {
                GroupError(name, -1, "a group needs at least one member");
            }
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
        if (op.type == WorkloadOpType::COMPUTE)
        {
            if (!(op.durationUs >= 0.0)) // also catches NaN
            {
                OpError(op, "duration_us", "must be a finite number >= 0");
            }
            return;
        }
        if (op.type != WorkloadOpType::BARRIER && op.bytes == 0)
        {
            OpError(op, "bytes", "size must be positive, got 0");
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
            OpError(op, "peer", "a rank cannot " + WorkloadOpTypeName(op.type) + " to itself");
        }
    }

    void CheckGroupMembership(const WorkloadOp& op)
    {
        if (m_dag.FindGroup(op.group) == nullptr)
        {
            OpError(op, "group", "unknown group '" + op.group + "'");
            return;
        }
        if (!InGroup(op, op.rank))
        {
            OpError(op, "group", "group '" + op.group + "' does not contain this rank");
        }
        bool rooted = op.type == WorkloadOpType::BROADCAST || op.type == WorkloadOpType::REDUCE;
        if (rooted && !InGroup(op, op.root))
        {
            OpError(op,
                    "root",
                    "root " + std::to_string(op.root) + " is not a member of group '" + op.group +
                        "'");
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
                                                             : "";
            if (field.empty())
            {
                continue;
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
                    "collective #" + std::to_string(k) + " on group '" + name + "' is " +
                        describe(a) + " but on rank " + std::to_string(e.rank) + " (op " +
                        std::to_string(e.id) + ") it is " + describe(e));
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

    /// Reports the ops of `from` left without a partner in `to`, and (once, from the send
    /// side) partners whose bytes differ.
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
                else if (!isSend && partners[k]->bytes != op.bytes)
                {
                    OpError(op,
                            "bytes",
                            "recv of " + std::to_string(op.bytes) + " bytes from rank " +
                                std::to_string(op.peer) + " (tag " + std::to_string(op.tag) +
                                ") is matched by send op " + std::to_string(partners[k]->id) +
                                " of " + std::to_string(partners[k]->bytes) + " bytes");
                }
            }
        }
    }

    const WorkloadDag& m_dag;
    const std::string& m_file;
    WorkloadErrorList& m_errors;
};

} // namespace

std::vector<WorkloadError>
WorkloadValidator::Validate(const WorkloadDag& dag, const std::string& fileName)
{
    WorkloadErrorList errors;
    Run(dag, fileName, errors);
    return errors.GetErrors();
}

void
WorkloadValidator::Check(const WorkloadDag& dag, const std::string& fileName)
{
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

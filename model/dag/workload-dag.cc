/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-dag.h"

#include "ns3/log.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadDag");

namespace
{

/// JSON names, indexed by WorkloadOpType.
const std::array<const char*, 10> g_opTypeNames = {"compute",
                                                   "allreduce",
                                                   "allgather",
                                                   "reducescatter",
                                                   "alltoall",
                                                   "broadcast",
                                                   "reduce",
                                                   "barrier",
                                                   "send",
                                                   "recv"};

/// JSON names, indexed by WorkloadAlgorithm.
const std::array<const char*, 6> g_algorithmNames =
    {"", "ring", "direct", "halving-doubling", "tree", "auto"};

} // namespace

std::string
WorkloadOpTypeName(WorkloadOpType type)
{
    NS_LOG_FUNCTION(static_cast<int>(type));
    return g_opTypeNames.at(static_cast<std::size_t>(type));
}

bool
ParseWorkloadOpType(const std::string& name, WorkloadOpType& type)
{
    NS_LOG_FUNCTION(name);
    for (std::size_t i = 0; i < g_opTypeNames.size(); ++i)
    {
        if (name == g_opTypeNames[i])
        {
            type = static_cast<WorkloadOpType>(i);
            return true;
        }
    }
    return false;
}

bool
IsWorkloadCollective(WorkloadOpType type)
{
    NS_LOG_FUNCTION(static_cast<int>(type));
    return type != WorkloadOpType::COMPUTE && !IsWorkloadPointToPoint(type);
}

bool
IsWorkloadPointToPoint(WorkloadOpType type)
{
    NS_LOG_FUNCTION(static_cast<int>(type));
    return type == WorkloadOpType::SEND || type == WorkloadOpType::RECV;
}

std::string
WorkloadDefaultStream(WorkloadOpType type)
{
    NS_LOG_FUNCTION(static_cast<int>(type));
    return type == WorkloadOpType::COMPUTE ? "compute" : "comm";
}

std::string
WorkloadAlgorithmName(WorkloadAlgorithm algorithm)
{
    NS_LOG_FUNCTION(static_cast<int>(algorithm));
    return g_algorithmNames.at(static_cast<std::size_t>(algorithm));
}

bool
ParseWorkloadAlgorithm(const std::string& name, WorkloadAlgorithm& algorithm)
{
    NS_LOG_FUNCTION(name);
    // Index 0 (UNSPECIFIED) has no JSON name: an absent field means it.
    for (std::size_t i = 1; i < g_algorithmNames.size(); ++i)
    {
        if (name == g_algorithmNames[i])
        {
            algorithm = static_cast<WorkloadAlgorithm>(i);
            return true;
        }
    }
    return false;
}

bool
WorkloadOp::operator==(const WorkloadOp& other) const
{
    return rank == other.rank && id == other.id && type == other.type &&
           durationUs == other.durationUs && group == other.group && bytes == other.bytes &&
           root == other.root && peer == other.peer && tag == other.tag && deps == other.deps &&
           stream == other.stream && iteration == other.iteration && algorithm == other.algorithm &&
           label == other.label;
}

bool
WorkloadOp::operator!=(const WorkloadOp& other) const
{
    return !(*this == other);
}

WorkloadOpRange::WorkloadOpRange(const WorkloadOp* first, const WorkloadOp* last)
    : m_first(first),
      m_last(last)
{
}

const WorkloadOp*
WorkloadOpRange::begin() const
{
    return m_first;
}

const WorkloadOp*
WorkloadOpRange::end() const
{
    return m_last;
}

std::size_t
WorkloadOpRange::size() const
{
    return static_cast<std::size_t>(m_last - m_first);
}

bool
WorkloadOpRange::empty() const
{
    return m_first == m_last;
}

const WorkloadOp&
WorkloadOpRange::operator[](std::size_t i) const
{
    return m_first[i];
}

WorkloadDag::WorkloadDag()
    : m_ranks(0),
      m_iterations(0),
      m_first(1, 0)
{
}

WorkloadDag::WorkloadDag(uint32_t ranks, GroupMap groups, std::vector<WorkloadOp> ops)
    : m_ranks(ranks),
      m_iterations(0),
      m_groups(std::move(groups)),
      m_ops(std::move(ops))
{
    for (const auto& op : m_ops)
    {
        m_iterations = std::max(m_iterations, op.iteration + 1);
    }
    // Stable, so that duplicate ids stay in file order for the validator's messages; readers
    // and the generator give sorted ops, which a check leaves in place (a sort moves them all).
    auto byRankAndId = [](const WorkloadOp& a, const WorkloadOp& b) {
        return std::make_pair(a.rank, a.id) < std::make_pair(b.rank, b.id);
    };
    if (!std::is_sorted(m_ops.begin(), m_ops.end(), byRankAndId))
    {
        std::stable_sort(m_ops.begin(), m_ops.end(), byRankAndId);
    }
    m_first.assign(static_cast<std::size_t>(ranks) + 1, m_ops.size());
    std::size_t index = 0;
    for (uint32_t rank = 0; rank < ranks; ++rank)
    {
        while (index < m_ops.size() && m_ops[index].rank < rank)
        {
            ++index;
        }
        m_first[rank] = index;
    }
    // Ops of ranks >= ranks sit after m_first[ranks]; GetOps never reaches them.
    while (index < m_ops.size() && m_ops[index].rank < ranks)
    {
        ++index;
    }
    m_first[ranks] = index;
}

uint32_t
WorkloadDag::GetRankCount() const
{
    return m_ranks;
}

const WorkloadDag::GroupMap&
WorkloadDag::GetGroups() const
{
    return m_groups;
}

const std::vector<uint32_t>*
WorkloadDag::FindGroup(const std::string& name) const
{
    auto it = m_groups.find(name);
    return it == m_groups.end() ? nullptr : &it->second;
}

std::size_t
WorkloadDag::GetOpCount() const
{
    return m_ops.size();
}

const std::vector<WorkloadOp>&
WorkloadDag::GetAllOps() const
{
    return m_ops;
}

WorkloadOpRange
WorkloadDag::GetOps(uint32_t rank) const
{
    if (rank >= m_ranks)
    {
        return WorkloadOpRange(nullptr, nullptr);
    }
    const WorkloadOp* base = m_ops.data();
    return WorkloadOpRange(base + m_first[rank], base + m_first[rank + 1]);
}

const WorkloadOp*
WorkloadDag::FindOp(uint32_t rank, uint32_t id) const
{
    WorkloadOpRange ops = GetOps(rank);
    auto it = std::lower_bound(ops.begin(), ops.end(), id, [](const WorkloadOp& op, uint32_t v) {
        return op.id < v;
    });
    return (it != ops.end() && it->id == id) ? it : nullptr;
}

uint32_t
WorkloadDag::GetIterationCount() const
{
    return m_iterations;
}

bool
WorkloadDag::operator==(const WorkloadDag& other) const
{
    return m_ranks == other.m_ranks && m_groups == other.m_groups && m_ops == other.m_ops;
}

} // namespace ns3

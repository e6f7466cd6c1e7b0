/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-pairing.h"

#include "ns3/input-text.h"
#include "ns3/log.h"
#include "ns3/workload-error.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraPairing");

namespace
{

/// "node 17"
std::string
NodeOf(const ChakraTraceOps& trace, std::size_t op)
{
    return "node " + std::to_string(trace.nodeIds[op]);
}

/// The file of an op's rank.
const std::string&
FileOf(const ChakraTraceOps& trace, std::size_t op)
{
    return trace.files[trace.ops[op].rank];
}

std::string
Describe(const WorkloadOp& op)
{
    std::string text = WorkloadOpTypeName(op.type) + " of " + std::to_string(op.bytes) + " B";
    return op.root >= 0 ? text + " rooted at " + std::to_string(op.root) : text;
}

} // namespace

void
ChakraPairing::CheckCollectives(const ChakraTraceOps& trace)
{
    NS_LOG_FUNCTION_NOARGS();
    // group -> rank -> ops in issue order
    std::map<std::string, std::map<uint32_t, std::vector<std::size_t>>> issued;
    for (std::size_t i = 0; i < trace.ops.size(); ++i)
    {
        if (IsWorkloadCollective(trace.ops[i].type))
        {
            issued[trace.ops[i].group][trace.ops[i].rank].push_back(i);
        }
    }
    for (const auto& [group, byRank] : issued)
    {
        const std::vector<uint32_t>& members = trace.groups.at(group);
        uint32_t first = members.front();
        static const std::vector<std::size_t> none;
        auto of = [&byRank = byRank](uint32_t rank) -> const std::vector<std::size_t>& {
            auto it = byRank.find(rank);
            return it == byRank.end() ? none : it->second;
        };
        const auto& reference = of(first);
        for (uint32_t member : members)
        {
            const auto& mine = of(member);
            for (std::size_t k = 0; k < std::min(mine.size(), reference.size()); ++k)
            {
                const WorkloadOp& a = trace.ops[reference[k]];
                const WorkloadOp& b = trace.ops[mine[k]];
                if (a.type != b.type || a.bytes != b.bytes || a.root != b.root)
                {
                    ThrowWorkloadError(
                        FileOf(trace, mine[k]),
                        NodeOf(trace, mine[k]) + ": collective " + std::to_string(k + 1) +
                            " of group " + InputText::Quote(group) + " on rank " +
                            std::to_string(member) + " is " + Describe(b) + ", but on rank " +
                            std::to_string(first) + " (" + FileOf(trace, reference[k]) + ": " +
                            NodeOf(trace, reference[k]) + ") it is " + Describe(a));
                }
            }
            if (mine.size() != reference.size())
            {
                ThrowWorkloadError(trace.files[member],
                                   "rank " + std::to_string(member) + " issues " +
                                       std::to_string(mine.size()) + " collectives on group " +
                                       InputText::Quote(group) + ", rank " + std::to_string(first) +
                                       " issues " + std::to_string(reference.size()));
            }
        }
    }
}

uint64_t
ChakraPairing::PairPointToPoint(ChakraTraceOps& trace)
{
    NS_LOG_FUNCTION_NOARGS();
    using Key = std::tuple<int64_t, int64_t, int64_t>; // src, dst, tag
    std::map<Key, std::vector<uint64_t>> sizes;        // in order of first send
    std::map<std::tuple<int64_t, int64_t, int64_t, uint64_t>, std::vector<std::size_t>> sends;
    std::map<std::tuple<int64_t, int64_t, int64_t, uint64_t>, std::vector<std::size_t>> recvs;
    for (std::size_t i = 0; i < trace.ops.size(); ++i)
    {
        const WorkloadOp& op = trace.ops[i];
        if (!IsWorkloadPointToPoint(op.type))
        {
            continue;
        }
        bool send = op.type == WorkloadOpType::SEND;
        int64_t src = send ? op.rank : op.peer;
        int64_t dst = send ? op.peer : op.rank;
        (send ? sends : recvs)[{src, dst, op.tag, op.bytes}].push_back(i);
        auto& list = sizes[{src, dst, op.tag}];
        if (send && std::find(list.begin(), list.end(), op.bytes) == list.end())
        {
            list.push_back(op.bytes);
        }
    }
    uint64_t split = 0;
    auto unmatched = [&](std::size_t i, std::size_t theirs, std::size_t mine, bool send) {
        const WorkloadOp& op = trace.ops[i];
        ThrowWorkloadError(FileOf(trace, i),
                           NodeOf(trace, i) + ": rank " + std::to_string(op.rank) +
                               (send ? " sends " : " receives ") + std::to_string(mine) +
                               " message(s) of " + std::to_string(op.bytes) + " B " +
                               (send ? "to " : "from ") + std::to_string(op.peer) + " with tag " +
                               std::to_string(op.tag) + ", and rank " + std::to_string(op.peer) +
                               (send ? " receives " : " sends ") + std::to_string(theirs) +
                               " (pairs match by source, destination, tag and size)");
    };
    for (const auto& [key, list] : sends)
    {
        auto other = recvs.find(key);
        std::size_t theirs = other == recvs.end() ? 0 : other->second.size();
        if (theirs != list.size())
        {
            unmatched(list.front(), theirs, list.size(), true);
        }
    }
    for (const auto& [key, list] : recvs)
    {
        if (sends.count(key) == 0)
        {
            unmatched(list.front(), 0, list.size(), false);
        }
    }
    for (const auto& [key, list] : sizes)
    {
        if (list.size() < 2)
        {
            continue;
        }
        ++split;
        for (std::size_t k = 1; k < list.size(); ++k)
        {
            auto [src, dst, tag] = key;
            for (const auto* side : {&sends, &recvs})
            {
                for (std::size_t i : side->at({src, dst, tag, list[k]}))
                {
                    trace.ops[i].tag = tag + int64_t(k) * (int64_t(1) << 32);
                }
            }
        }
    }
    return split;
}

} // namespace ns3

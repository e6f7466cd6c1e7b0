/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-writer.h"

#include "chakra-comm-groups.h"
#ifdef PR_HAVE_CHAKRA
#include "chakra-et.pb.h"
#endif
#include "chakra-reader.h"
#include "chakra-trace-file.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraWriter");

#ifdef PR_HAVE_CHAKRA
namespace
{

using ChakraProtoMsg::Node;

void
AddInt(Node& node, const char* name, int64_t value)
{
    auto* a = node.add_attr();
    a->set_name(name);
    a->set_int64_val(value);
}

void
AddString(Node& node, const char* name, const std::string& value)
{
    auto* a = node.add_attr();
    a->set_name(name);
    a->set_string_val(value);
}

void
AddBool(Node& node, const char* name, bool value)
{
    auto* a = node.add_attr();
    a->set_name(name);
    a->set_bool_val(value);
}

/// Chakra's CollectiveCommType of a collective op.
int64_t
CommType(WorkloadOpType type)
{
    switch (type)
    {
    case WorkloadOpType::ALLREDUCE:
        return 0;
    case WorkloadOpType::REDUCE:
        return 1;
    case WorkloadOpType::ALLGATHER:
        return 2;
    case WorkloadOpType::BROADCAST:
        return 5;
    case WorkloadOpType::ALLTOALL:
        return 6;
    case WorkloadOpType::REDUCESCATTER:
        return 7;
    default:
        return 9; // BARRIER
    }
}

/// Fills the node's type and the attributes of its kind.
void
Describe(const WorkloadOp& op, const std::map<std::string, std::string>& groupNumbers, Node& node)
{
    if (op.type == WorkloadOpType::COMPUTE)
    {
        node.set_type(ChakraProtoMsg::COMP_NODE);
        node.set_duration_micros(uint64_t(std::llround(op.durationUs)));
        if (double(node.duration_micros()) != op.durationUs)
        {
            auto* a = node.add_attr();
            a->set_name("pr_duration_us");
            a->set_double_val(op.durationUs);
        }
        AddBool(node, "is_cpu_op", false);
        return;
    }
    AddBool(node, "is_cpu_op", false);
    AddInt(node, "comm_size", int64_t(op.bytes));
    if (IsWorkloadPointToPoint(op.type))
    {
        bool send = op.type == WorkloadOpType::SEND;
        node.set_type(send ? ChakraProtoMsg::COMM_SEND_NODE : ChakraProtoMsg::COMM_RECV_NODE);
        AddInt(node, "comm_src", send ? op.rank : op.peer);
        AddInt(node, "comm_dst", send ? op.peer : op.rank);
        AddInt(node, "comm_tag", op.tag);
        return;
    }
    node.set_type(ChakraProtoMsg::COMM_COLL_NODE);
    AddInt(node, "comm_type", CommType(op.type));
    AddString(node, "pg_name", groupNumbers.at(op.group));
    AddString(node, "pr_group", op.group);
    if (op.root >= 0)
    {
        AddInt(node, "pr_root", op.root);
    }
}

} // namespace
#endif // PR_HAVE_CHAKRA

std::string
ChakraWriter::CommGroupsFile(const std::string& prefix)
{
    NS_LOG_FUNCTION(prefix);
    return prefix + ".comm_group.json";
}

std::vector<std::string>
ChakraWriter::Write(const WorkloadDag& dag,
                    const std::string& prefix,
                    bool gzip,
                    std::vector<std::string>* removed)
{
    NS_LOG_FUNCTION(prefix << gzip);
#ifndef PR_HAVE_CHAKRA
    throw std::invalid_argument(prefix + ": " + ChakraReader::NEEDS_PROTOBUF);
#endif
    RemoveEarlierRanks(prefix, dag.GetRankCount(), removed);
    // ASTRA-sim names groups by number: the DAG's groups in name order.
    std::map<std::string, std::string> groupNumbers;
    ChakraCommGroups::Map numbered;
    for (const auto& [name, members] : dag.GetGroups())
    {
        std::string number = std::to_string(groupNumbers.size());
        groupNumbers[name] = number;
        numbered[number] = members;
    }
    std::vector<std::string> files;
    for (uint32_t rank = 0; rank < dag.GetRankCount(); ++rank)
    {
        files.push_back(prefix + "." + std::to_string(rank) + ".et");
        WriteRank(dag.GetOps(rank), groupNumbers, files.back(), gzip);
    }
    files.push_back(CommGroupsFile(prefix));
    std::ofstream json(files.back(), std::ios::trunc);
    json << ChakraCommGroups::ToJson(numbered);
    json.close();
    if (!json)
    {
        throw std::runtime_error(files.back() + ": cannot write the file");
    }
    return files;
}

void
ChakraWriter::RemoveEarlierRanks(const std::string& prefix,
                                 uint32_t ranks,
                                 std::vector<std::string>* removed)
{
    std::vector<std::string> odd;
    std::map<uint64_t, std::string> earlier = ChakraReader::ListRankFiles(prefix, &odd);
    if (!odd.empty())
    {
        throw std::runtime_error(odd.front() + ": named like a rank file of " + prefix +
                                 ", it would make the trace unreadable: remove it or write "
                                 "to another prefix");
    }
    for (const auto& [rank, file] : earlier)
    {
        std::error_code error;
        if (rank >= ranks && std::filesystem::remove(file, error) && removed)
        {
            removed->push_back(file);
        }
        if (error)
        {
            throw std::runtime_error(file +
                                     ": cannot remove this rank file of an earlier "
                                     "trace (" +
                                     error.message() + ")");
        }
    }
}

void
ChakraWriter::WriteRank(WorkloadOpRange ops,
                        const std::map<std::string, std::string>& groupNumbers,
                        const std::string& file,
                        bool gzip)
{
#ifndef PR_HAVE_CHAKRA
    throw std::invalid_argument(file + ": " + ChakraReader::NEEDS_PROTOBUF);
#else
    ChakraTraceOutput out(file, gzip);
    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version("0.0.4");
    out.Write(metadata);
    std::map<std::string, uint32_t> lastOfStream;
    Node node;
    for (const WorkloadOp& op : ops)
    {
        node.Clear();
        node.set_id(op.id);
        node.set_name(op.label);
        for (uint32_t dep : op.deps)
        {
            node.add_data_deps(dep);
        }
        // The stream's order, which Chakra cannot say, as a dependency ASTRA-sim honours.
        auto previous = lastOfStream.find(op.stream);
        if (previous != lastOfStream.end() &&
            std::find(op.deps.begin(), op.deps.end(), previous->second) == op.deps.end())
        {
            node.add_data_deps(previous->second);
            AddInt(node, "pr_stream_dep", previous->second);
        }
        lastOfStream[op.stream] = op.id;
        Describe(op, groupNumbers, node);
        AddString(node, "pr_stream", op.stream);
        if (op.iteration > 0)
        {
            AddInt(node, "pr_iteration", op.iteration);
        }
        if (op.algorithm != WorkloadAlgorithm::UNSPECIFIED)
        {
            AddString(node, "pr_algorithm", WorkloadAlgorithmName(op.algorithm));
        }
        out.Write(node);
    }
    out.Close();
#endif
}

} // namespace ns3

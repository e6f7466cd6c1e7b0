/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-reader.h"

#include "chakra-comm-groups.h"
#ifdef PR_HAVE_CHAKRA
#include "chakra-et.pb.h"
#endif
#include "chakra-node.h"
#include "chakra-pairing.h"
#include "chakra-trace-file.h"

#include "ns3/input-text.h"
#include "ns3/log.h"
#include "ns3/workload-error.h"
#include "ns3/workload-json.h"
#include "ns3/workload-model-spec.h"
#include "ns3/workload-validator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <queue>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraReader");

namespace
{

using Raw = ChakraNodeFields;

[[noreturn]] void
Fail(const std::string& file, const std::string& message)
{
    ThrowWorkloadError(file, message);
}

#ifdef PR_HAVE_CHAKRA
// The trace's conversion, which needs protobuf (the file handling below does not).

/// Fail() with a message that may start with "FILE: " already (file readers say so).
[[noreturn]] void
FailWithPath(const std::string& file, const std::string& message)
{
    bool named = message.compare(0, file.size() + 2, file + ": ") == 0;
    Fail(file, named ? message.substr(file.size() + 2) : message);
}

/// "node 17"
std::string
NodeName(uint64_t id)
{
    return "node " + std::to_string(id);
}

/// Everything shared by the ranks of one trace while it is read.
struct TraceContext
{
    const ChakraReadOptions& options; //!< What the trace does not say
    ChakraReadReport& report;         //!< What reading did
    uint32_t ranks;                   //!< Rank files found
    ChakraCommGroups::Map pgGroups;   //!< pg_name -> ranks (file and METADATA nodes)
    bool pgFromFile;                  //!< pgGroups came from --commGroups
    bool pgFromMetadata;              //!< Some came from METADATA nodes
    ChakraTraceOps read;              //!< The ops so far, their nodes, files and groups
};

/**
 * \brief Reads one rank's file and appends its ops, in the order they are issued.
 */
class RankConverter
{
  public:
    RankConverter(TraceContext& trace, uint32_t rank)
        : m_trace(trace),
          m_rank(rank),
          m_file(trace.read.files[rank])
    {
    }

    void Run()
    {
        ReadNodes();
        LinkNodes();
        FindCollectiveStubs();
        Order();
        Emit();
    }

  private:
    void ReadNodes()
    {
        ChakraProtoMsg::GlobalMetadata metadata;
        ChakraProtoMsg::Node node;
        try
        {
            ChakraTraceInput input(m_file);
            m_trace.report.gzipFiles += input.IsGzip() ? 1 : 0;
            input.ReadMetadata(metadata);
            while (input.ReadNode(node))
            {
                if (++m_trace.report.nodes > ChakraReader::MAX_NODES)
                {
                    Fail(m_file,
                         "more than " + std::to_string(ChakraReader::MAX_NODES) +
                             " nodes in the trace, more than a workload may hold");
                }
                Add(node);
            }
        }
        catch (const WorkloadFormatError&)
        {
            throw;
        }
        catch (const std::exception& e)
        {
            FailWithPath(m_file, e.what()); // ChakraTraceInput's "FILE: byte N: reason"
        }
    }

    void Add(const ChakraProtoMsg::Node& node)
    {
        Raw raw = Raw::Decode(node, m_file);
        if (!raw.metadata.empty())
        {
            auto declared =
                ChakraCommGroups::ParseMetadata(raw.metadata, m_file + ": " + NodeName(raw.id));
            m_trace.pgFromMetadata = m_trace.pgFromMetadata || !declared.empty();
            for (auto& [name, members] : declared)
            {
                auto [it, added] = m_trace.pgGroups.emplace(name, members);
                if (!added && it->second != members && !m_trace.pgFromFile) // the file's win
                {
                    Fail(m_file,
                         NodeName(raw.id) + ": process group " + InputText::Quote(name) +
                             " has other ranks than an earlier METADATA node declared");
                }
            }
        }
        if (!m_index.emplace(raw.id, uint32_t(m_nodes.size())).second)
        {
            Fail(m_file, NodeName(raw.id) + ": the id is used twice in the file");
        }
        m_nodes.push_back(std::move(raw));
    }

    /// Resolves deps to indices: data_deps must exist; ctrl_deps are kept when they can be.
    /// Duplicates are dropped with a mark per node (a search per dep was quadratic in a
    /// node's deps).
    void LinkNodes()
    {
        std::size_t n = m_nodes.size();
        m_dataPred.assign(n, {});
        m_ctrlPred.assign(n, {});
        std::vector<uint32_t> listedBy(n, UINT32_MAX); // the node whose deps list it
        for (uint32_t i = 0; i < n; ++i)
        {
            const Raw& raw = m_nodes[i];
            for (uint64_t dep : raw.dataDeps)
            {
                auto it = m_index.find(dep);
                if (it == m_index.end())
                {
                    Fail(m_file,
                         NodeName(raw.id) + ": data_deps names node " + std::to_string(dep) +
                             ", which is not in the file");
                }
                if (it->second == i)
                {
                    Fail(m_file, NodeName(raw.id) + ": data_deps names the node itself");
                }
                if (listedBy[it->second] != i)
                {
                    listedBy[it->second] = i;
                    m_dataPred[i].push_back(it->second);
                }
            }
            for (uint64_t dep : raw.ctrlDeps)
            {
                auto it = m_index.find(dep);
                if (it == m_index.end())
                {
                    ++m_trace.report.ctrlDepsDangling;
                }
                else if (it->second == i)
                {
                    ++m_trace.report.ctrlDepsSelf;
                }
                else if (listedBy[it->second] != i) // not already a data dependency
                {
                    listedBy[it->second] = i;
                    m_ctrlPred[i].push_back(it->second);
                }
            }
        }
    }

    /**
     * Marks the CPU-side launches of collectives in traces converted from PyTorch: a CPU
     * COMM_COLL node without comm_type (c10d::allreduce_ and the like) that the GPU kernel
     * carrying the collective (a COMM_COLL node with comm_type, not a CPU op) depends on, or
     * that depends on such a launch (PyTorch records a c10d op twice, the second after the
     * first). The kernel is the collective; a launch is a zero-time step on the CPU. A
     * COMM_COLL without comm_type and no such kernel is still refused (ConvertCollective).
     */
    void FindCollectiveStubs()
    {
        std::size_t n = m_nodes.size();
        m_stub.assign(n, false);
        auto candidate = [this](uint32_t i) {
            const Raw& raw = m_nodes[i];
            return raw.type == Raw::COMM_COLL_NODE && raw.cpu && raw.commType == Raw::ABSENT;
        };
        std::vector<uint32_t> found;
        for (uint32_t j = 0; j < n; ++j)
        {
            const Raw& kernel = m_nodes[j];
            if (kernel.type != Raw::COMM_COLL_NODE || kernel.cpu || kernel.commType == Raw::ABSENT)
            {
                continue;
            }
            for (const auto* preds : {&m_dataPred[j], &m_ctrlPred[j]})
            {
                for (uint32_t p : *preds)
                {
                    if (candidate(p) && !m_stub[p])
                    {
                        m_stub[p] = true;
                        found.push_back(p);
                    }
                }
            }
        }
        // The launches recorded after a marked one, through data_deps, until none is left.
        std::vector<std::vector<uint32_t>> dataSucc(n);
        for (uint32_t i = 0; i < n && !found.empty(); ++i)
        {
            for (uint32_t p : m_dataPred[i])
            {
                dataSucc[p].push_back(i);
            }
        }
        while (!found.empty())
        {
            uint32_t p = found.back();
            found.pop_back();
            for (uint32_t i : dataSucc[p])
            {
                if (candidate(i) && !m_stub[i])
                {
                    m_stub[i] = true;
                    found.push_back(i);
                }
            }
        }
    }

    /**
     * Kahn's algorithm, smallest id first. When only ctrl_deps hold every node back, the
     * smallest-id node free of data_deps drops its unmet ctrl_deps (they leave no order).
     */
    void Order()
    {
        std::size_t n = m_nodes.size();
        std::vector<std::vector<uint32_t>> dataSucc(n);
        std::vector<std::vector<uint32_t>> ctrlSucc(n);
        std::vector<uint32_t> pendingData(n);
        std::vector<uint32_t> pendingCtrl(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t p : m_dataPred[i])
            {
                dataSucc[p].push_back(i);
            }
            for (uint32_t p : m_ctrlPred[i])
            {
                ctrlSucc[p].push_back(i);
            }
            pendingData[i] = uint32_t(m_dataPred[i].size());
            pendingCtrl[i] = uint32_t(m_ctrlPred[i].size());
        }
        using Entry = std::pair<uint64_t, uint32_t>; // (id, index)
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> dataReady;
        auto release = [&](uint32_t i) {
            if (pendingData[i] == 0)
            {
                (pendingCtrl[i] == 0 ? ready : dataReady).push({m_nodes[i].id, i});
            }
        };
        for (uint32_t i = 0; i < n; ++i)
        {
            release(i);
        }
        m_position.assign(n, UINT32_MAX);
        m_order.clear();
        m_order.reserve(n);
        while (m_order.size() < n)
        {
            if (ready.empty())
            {
                BreakCtrlCycle(dataReady, ready, pendingCtrl);
            }
            uint32_t i = ready.top().second;
            ready.pop();
            m_position[i] = uint32_t(m_order.size());
            m_order.push_back(i);
            for (uint32_t s : dataSucc[i])
            {
                --pendingData[s];
                release(s);
            }
            for (uint32_t s : ctrlSucc[i])
            {
                if (m_position[s] == UINT32_MAX && pendingCtrl[s] > 0 && --pendingCtrl[s] == 0)
                {
                    release(s);
                }
            }
        }
    }

    template <typename Heap>
    void BreakCtrlCycle(Heap& dataReady, Heap& ready, std::vector<uint32_t>& pendingCtrl)
    {
        while (!dataReady.empty() && m_position[dataReady.top().second] != UINT32_MAX)
        {
            dataReady.pop();
        }
        if (dataReady.empty())
        {
            uint64_t smallest = UINT64_MAX;
            for (uint32_t i = 0; i < m_nodes.size(); ++i)
            {
                if (m_position[i] == UINT32_MAX)
                {
                    smallest = std::min(smallest, m_nodes[i].id);
                }
            }
            Fail(m_file, NodeName(smallest) + ": its data_deps lead back to it (a cycle)");
        }
        uint32_t i = dataReady.top().second;
        dataReady.pop();
        auto& preds = m_ctrlPred[i];
        auto unmet = [this](uint32_t p) { return m_position[p] == UINT32_MAX; };
        m_trace.report.ctrlDepsCycle += std::count_if(preds.begin(), preds.end(), unmet);
        preds.erase(std::remove_if(preds.begin(), preds.end(), unmet), preds.end());
        pendingCtrl[i] = 0;
        ready.push({m_nodes[i].id, i});
    }

    /// Our id of node index i: its own when ids are kept, else its place in the order.
    uint32_t IdOf(uint32_t i) const
    {
        return m_keepIds ? uint32_t(m_nodes[i].id) : m_position[i];
    }

    void Emit()
    {
        m_keepIds = std::all_of(m_nodes.begin(), m_nodes.end(), [](const Raw& raw) {
            return raw.id <= UINT32_MAX;
        });
        for (std::size_t k = 1; k < m_order.size() && m_keepIds; ++k)
        {
            m_keepIds = m_nodes[m_order[k - 1]].id < m_nodes[m_order[k]].id;
        }
        m_trace.report.renumberedRanks += m_keepIds ? 0 : 1;
        for (uint32_t i : m_order)
        {
            m_trace.read.ops.push_back(Convert(i));
            m_trace.read.nodeIds.push_back(m_nodes[i].id);
        }
        m_nodes.clear();
    }

    WorkloadOp Convert(uint32_t i)
    {
        const Raw& raw = m_nodes[i];
        WorkloadOp op;
        op.rank = m_rank;
        op.id = IdOf(i);
        op.label = raw.name;
        if (raw.iteration > int64_t(WorkloadValidator::MAX_ITERATION))
        {
            Fail(m_file,
                 NodeName(raw.id) + ": attribute 'pr_iteration' " + std::to_string(raw.iteration) +
                     " is more than " + std::to_string(WorkloadValidator::MAX_ITERATION));
        }
        op.iteration = uint32_t(raw.iteration);
        op.stream = StreamOf(raw);
        for (uint32_t p : m_dataPred[i])
        {
            // Our writer's dependency for the stream's order: implied by the stream itself,
            // so dropped, but only when the two nodes do share a stream.
            bool streamOrder = raw.streamDep >= 0 && m_nodes[p].id == uint64_t(raw.streamDep) &&
                               StreamOf(m_nodes[p]) == op.stream;
            if (!streamOrder)
            {
                op.deps.push_back(IdOf(p));
            }
        }
        for (uint32_t p : m_ctrlPred[i])
        {
            op.deps.push_back(IdOf(p));
            ++m_trace.report.ctrlDepsHonoured;
        }
        if (!raw.algorithm.empty() && !ParseWorkloadAlgorithm(raw.algorithm, op.algorithm))
        {
            Fail(m_file,
                 NodeName(raw.id) + ": attribute \"pr_algorithm\": unknown algorithm " +
                     InputText::Quote(raw.algorithm));
        }
        switch (raw.type)
        {
        case Raw::COMP_NODE:
            ConvertCompute(raw, op);
            break;
        case Raw::COMM_COLL_NODE:
            if (m_stub[i])
            {
                ++m_trace.report.collectiveStubs;
                op.type = WorkloadOpType::COMPUTE; // a launch: its kernel is the collective
                op.stream = "cpu";
                break;
            }
            ConvertCollective(raw, op);
            break;
        case Raw::COMM_SEND_NODE:
        case Raw::COMM_RECV_NODE:
            ConvertPointToPoint(raw, op);
            break;
        case Raw::INVALID_NODE:
        case Raw::METADATA_NODE:
        case Raw::MEM_LOAD_NODE:
        case Raw::MEM_STORE_NODE:
            ++m_trace.report.zeroTimeNodes;
            op.type = WorkloadOpType::COMPUTE;
            break;
        default:
            Fail(m_file, NodeName(raw.id) + ": unknown node type " + std::to_string(raw.type));
        }
        return op;
    }

    /// A node's stream: its pr_stream, else compute or cpu for COMP nodes, else its own.
    static std::string StreamOf(const Raw& raw)
    {
        return !raw.stream.empty()          ? raw.stream
               : raw.type == Raw::COMP_NODE ? (raw.cpu ? "cpu" : "compute")
                                            : "c" + std::to_string(raw.id);
    }

    void ConvertCompute(const Raw& raw, WorkloadOp& op)
    {
        op.type = WorkloadOpType::COMPUTE;
        op.durationUs = raw.exactUs >= 0 ? raw.exactUs : double(raw.durationUs);
        if (raw.durationUs == 0 && raw.exactUs < 0 && raw.numOps > 0)
        {
            if (m_trace.options.computeTflops <= 0)
            {
                Fail(m_file,
                     NodeName(raw.id) + ": COMP node with num_ops and no "
                                        "duration_micros, and no GPU to time it");
            }
            op.durationUs = raw.numOps / (m_trace.options.computeTflops * 1e6);
            ++m_trace.report.computeFromNumOps;
        }
        if (!(op.durationUs <= WorkloadValidator::MAX_DURATION_US))
        {
            Fail(m_file,
                 NodeName(raw.id) + ": a compute of " + std::to_string(op.durationUs) +
                     " us, more than " +
                     std::to_string(int64_t(WorkloadValidator::MAX_DURATION_US)));
        }
    }

    uint64_t Bytes(const Raw& raw, bool required) const
    {
        if (raw.commSize < 0 && required)
        {
            Fail(m_file, NodeName(raw.id) + ": no comm_size");
        }
        if (required &&
            (raw.commSize == 0 || uint64_t(raw.commSize) > WorkloadValidator::MAX_BYTES))
        {
            Fail(m_file,
                 NodeName(raw.id) + ": comm_size " + std::to_string(raw.commSize) +
                     " is outside [1, 2^40] bytes");
        }
        return raw.commSize < 0 ? 0 : uint64_t(raw.commSize);
    }

    void ConvertCollective(const Raw& raw, WorkloadOp& op)
    {
        static const std::map<int64_t, WorkloadOpType> types = {
            {0, WorkloadOpType::ALLREDUCE},
            {1, WorkloadOpType::REDUCE},
            {2, WorkloadOpType::ALLGATHER},
            {5, WorkloadOpType::BROADCAST},
            {6, WorkloadOpType::ALLTOALL},
            {7, WorkloadOpType::REDUCESCATTER},
            {8, WorkloadOpType::REDUCESCATTER}, // REDUCE_SCATTER_BLOCK: comm_size is the input
            {9, WorkloadOpType::BARRIER}};
        if (raw.commType == Raw::ABSENT)
        {
            Fail(m_file, NodeName(raw.id) + ": COMM_COLL node without comm_type");
        }
        if (raw.commType < 0 || raw.commType >= Raw::COLLECTIVE_TYPES)
        {
            Fail(m_file,
                 NodeName(raw.id) + ": COMM_COLL node with an invalid comm_type " +
                     std::to_string(raw.commType) + " (Chakra's CollectiveCommType is 0 to " +
                     std::to_string(Raw::COLLECTIVE_TYPES - 1) + ")");
        }
        auto type = types.find(raw.commType);
        if (type == types.end())
        {
            Fail(m_file,
                 NodeName(raw.id) + ": COMM_COLL " + Raw::CollectiveName(raw.commType) +
                     ": the collective engine cannot run it (it runs ALL_REDUCE, "
                     "REDUCE, ALL_GATHER, BROADCAST, ALL_TO_ALL, REDUCE_SCATTER, "
                     "REDUCE_SCATTER_BLOCK and BARRIER)");
        }
        op.type = type->second;
        op.bytes = Bytes(raw, op.type != WorkloadOpType::BARRIER);
        if (op.type == WorkloadOpType::BARRIER)
        {
            op.bytes = 0;
        }
        const std::vector<uint32_t>& members = ResolveGroup(raw, op.group);
        if (op.type == WorkloadOpType::BROADCAST || op.type == WorkloadOpType::REDUCE)
        {
            op.root = raw.root >= 0 ? raw.root : int64_t(members.front());
            if (std::find(members.begin(), members.end(), op.root) == members.end())
            {
                Fail(m_file,
                     NodeName(raw.id) + ": attribute 'pr_root' " + std::to_string(op.root) +
                         " is not a member of group " + InputText::Quote(op.group));
            }
        }
    }

    void ConvertPointToPoint(const Raw& raw, WorkloadOp& op)
    {
        bool send = raw.type == Raw::COMM_SEND_NODE;
        op.type = send ? WorkloadOpType::SEND : WorkloadOpType::RECV;
        op.peer = send ? raw.dst : raw.src;
        const char* field = send ? "comm_dst" : "comm_src";
        if (op.peer == Raw::ABSENT)
        {
            Fail(m_file, NodeName(raw.id) + ": no " + field);
        }
        if (op.peer < 0 || op.peer >= int64_t(m_trace.ranks))
        {
            Fail(m_file,
                 NodeName(raw.id) + ": " + field + " " + std::to_string(op.peer) +
                     " is not a rank of the trace (0-" + std::to_string(m_trace.ranks - 1) + ")");
        }
        if (op.peer == int64_t(m_rank))
        {
            Fail(m_file, NodeName(raw.id) + ": " + field + " is the rank itself");
        }
        op.tag = raw.tag;
        op.bytes = Bytes(raw, true);
    }

    /// The group of a collective (named into \p name); registered in the DAG's groups.
    const std::vector<uint32_t>& ResolveGroup(const Raw& raw, std::string& name)
    {
        std::vector<uint32_t> members;
        if (!raw.pgName.empty())
        {
            auto it = FindPg(raw.pgName);
            if (it == m_trace.pgGroups.end())
            {
                Fail(m_file,
                     NodeName(raw.id) + ": pg_name " + InputText::Quote(raw.pgName) +
                         " names no group" +
                         (m_trace.pgFromFile
                              ? " of " + m_trace.options.commGroupsFile
                              : std::string(": give the comm-group JSON (--commGroups)")));
            }
            members = it->second;
            name = "pg" + it->first;
        }
        else if (!raw.involvedDim.empty())
        {
            members = GroupOfDims(raw.involvedDim, name);
        }
        if (members.empty())
        {
            for (uint32_t r = 0; r < m_trace.ranks; ++r)
            {
                members.push_back(r);
            }
            name = name.empty() ? "all" : name;
        }
        name = raw.group.empty() ? name : raw.group;
        CheckMembers(raw, name, members);
        auto [it, added] = m_trace.read.groups.emplace(name, members);
        if (!added && it->second != members)
        {
            Fail(m_file,
                 NodeName(raw.id) + ": group " + InputText::Quote(name) +
                     " has other members on another node");
        }
        return it->second;
    }

    /**
     * The group a pg_name names: the same name, else, for an integer written another way
     * ("1.0", "01": some producers write floats), the integer's name.
     */
    ChakraCommGroups::Map::const_iterator FindPg(const std::string& pgName) const
    {
        auto it = m_trace.pgGroups.find(pgName);
        if (it != m_trace.pgGroups.end())
        {
            return it;
        }
        // Decimal digits, then at most a point and zeros: "1.0", "01"; not "1.9" or "0x1".
        static const std::regex integral("0*([0-9]{1,9})(\\.0*)?");
        std::smatch match;
        if (!std::regex_match(pgName, match, integral))
        {
            return m_trace.pgGroups.end();
        }
        return m_trace.pgGroups.find(std::to_string(std::stoull(match[1].str())));
    }

    void CheckMembers(const Raw& raw,
                      const std::string& name,
                      const std::vector<uint32_t>& members) const
    {
        for (uint32_t member : members)
        {
            if (member >= m_trace.ranks)
            {
                Fail(m_file,
                     NodeName(raw.id) + ": group " + InputText::Quote(name) +
                         (raw.pgName.empty() ? std::string()
                                             : " (pg_name " + InputText::Quote(raw.pgName) + ")") +
                         " names rank " + std::to_string(member) + ", but the trace has ranks 0-" +
                         std::to_string(m_trace.ranks - 1));
            }
        }
        if (std::find(members.begin(), members.end(), m_rank) == members.end())
        {
            Fail(m_file,
                 NodeName(raw.id) + ": rank " + std::to_string(m_rank) +
                     " is not a member of its group " + InputText::Quote(name) +
                     (raw.pgName.empty() ? std::string()
                                         : " (pg_name " + InputText::Quote(raw.pgName) + ")"));
        }
    }

    /**
     * involved_dim onto our fabric: dimension 0 is the server (scale-up), the others are
     * scale-out. [true, false...] is the rank's server, [false, true...] its rail; any
     * other shape (or an unknown server size) is every rank, counted in the report.
     */
    std::vector<uint32_t> GroupOfDims(const std::vector<bool>& dims, std::string& name)
    {
        uint32_t g = m_trace.options.gpusPerServer;
        auto on = [](bool d) { return d; };
        std::vector<uint32_t> members; // empty: every rank
        if (std::all_of(dims.begin(), dims.end(), on))
        {
            return members; // every dimension: every rank, as said
        }
        bool outAll = std::all_of(dims.begin() + 1, dims.end(), on);
        bool outNone = std::none_of(dims.begin() + 1, dims.end(), on);
        bool server = dims.size() >= 2 && dims[0] && outNone;
        bool rail = dims.size() >= 2 && !dims[0] && outAll;
        if (g == 0 || m_trace.ranks % g != 0 || !(server || rail))
        {
            ++m_trace.report.involvedDimAllRanks;
            return members;
        }
        uint32_t first = m_rank / g * g;
        if (server)
        {
            name = "server" + std::to_string(m_rank / g);
            for (uint32_t r = first; r < first + g; ++r)
            {
                members.push_back(r);
            }
            return members;
        }
        name = "rail" + std::to_string(m_rank % g);
        for (uint32_t r = m_rank % g; r < m_trace.ranks; r += g)
        {
            members.push_back(r);
        }
        return members;
    }

    TraceContext& m_trace;
    uint32_t m_rank;
    const std::string& m_file;
    std::vector<Raw> m_nodes;                       //!< In file order
    std::unordered_map<uint64_t, uint32_t> m_index; //!< id -> index in m_nodes
    std::vector<std::vector<uint32_t>> m_dataPred;  //!< Per node: data_deps, as indices
    std::vector<std::vector<uint32_t>> m_ctrlPred;  //!< Per node: ctrl_deps kept
    std::vector<bool> m_stub;                       //!< Per node: a collective's CPU launch
    std::vector<uint32_t> m_order;                  //!< Indices in issue order
    std::vector<uint32_t> m_position;               //!< Per index: place in m_order
    bool m_keepIds{true};                           //!< Ids kept (else renumbered)
};
#endif // PR_HAVE_CHAKRA

} // namespace

ChakraReadOptions
ChakraReadOptions::ForGpu(const std::string& gpu,
                          double mfu,
                          uint32_t gpusPerServer,
                          const std::string& commGroupsFile)
{
    WorkloadGpuSpec spec = WorkloadGpuSpec::Preset(gpu);
    ChakraReadOptions options;
    options.commGroupsFile = commGroupsFile;
    options.gpusPerServer = gpusPerServer;
    options.computeTflops = spec.peakTflops * mfu;
    std::ostringstream source;
    source << spec.name << " x MFU " << mfu << " (--gpu, --mfu)";
    options.computeSource = source.str();
    return options;
}

std::vector<std::string>
ChakraReadReport::Lines() const
{
    std::vector<std::string> lines;
    lines.push_back("chakra trace " + prefix + ": " + std::to_string(ranks) + " ranks, " +
                    std::to_string(nodes) + " nodes" +
                    (gzipFiles > 0 ? " (" + std::to_string(gzipFiles) + " files gzip)" : "") +
                    ", groups from " + groupsFrom);
    if (computeFromNumOps > 0)
    {
        lines.push_back(std::to_string(computeFromNumOps) +
                        " COMP nodes without a duration timed from num_ops at " + computeSource);
    }
    if (collectiveStubs > 0)
    {
        lines.push_back(std::to_string(collectiveStubs) +
                        " CPU-side collective launches (COMM_COLL without comm_type, e.g. "
                        "c10d::allreduce_) kept as zero-time CPU steps: their GPU kernels "
                        "carry the collectives");
    }
    if (zeroTimeNodes > 0)
    {
        lines.push_back(std::to_string(zeroTimeNodes) +
                        " METADATA, MEM_LOAD, MEM_STORE or INVALID nodes kept as zero-time steps");
    }
    uint64_t ignored = ctrlDepsDangling + ctrlDepsSelf + ctrlDepsCycle;
    if (ctrlDepsHonoured + ignored > 0)
    {
        lines.push_back("ctrl_deps: " + std::to_string(ctrlDepsHonoured) + " honoured, " +
                        std::to_string(ignored) + " ignored (" + std::to_string(ctrlDepsDangling) +
                        " naming no node of the file, " + std::to_string(ctrlDepsSelf) +
                        " naming the node itself, " + std::to_string(ctrlDepsCycle) +
                        " closing a cycle)");
    }
    if (involvedDimAllRanks > 0)
    {
        lines.push_back(std::to_string(involvedDimAllRanks) +
                        " collectives whose involved_dim is not the server or the rail span "
                        "every rank");
    }
    if (renumberedRanks > 0)
    {
        lines.push_back("node ids renumbered in dependency order on " +
                        std::to_string(renumberedRanks) + " ranks");
    }
    if (sizeSplitTags > 0)
    {
        lines.push_back(std::to_string(sizeSplitTags) +
                        " send/recv (src, dst, tag) keys carry several sizes: paired by size");
    }
    return lines;
}

std::map<uint64_t, std::string>
ChakraReader::ListRankFiles(const std::string& prefix, std::vector<std::string>* odd)
{
    NS_LOG_FUNCTION(prefix);
    namespace fs = std::filesystem;
    fs::path path(prefix);
    std::string base = path.filename().string();
    fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    std::map<uint64_t, std::string> found;
    std::error_code error;
    fs::directory_iterator it(dir, error);
    for (; !error && !base.empty() && it != fs::directory_iterator(); it.increment(error))
    {
        std::string name = it->path().filename().string();
        if (name.size() <= base.size() + 4 || name.compare(0, base.size() + 1, base + ".") != 0 ||
            name.compare(name.size() - 3, 3, ".et") != 0)
        {
            continue;
        }
        std::string digits = name.substr(base.size() + 1, name.size() - base.size() - 4);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        {
            continue; // another trace's file (prefix.x.3.et)
        }
        std::string file = (path.parent_path().empty() ? fs::path(name) : dir / name).string();
        if ((digits.size() > 1 && digits[0] == '0') || digits.size() > 9)
        {
            if (odd)
            {
                odd->push_back(file);
            }
            continue;
        }
        found[std::stoull(digits)] = file;
    }
    return found;
}

std::vector<std::string>
ChakraReader::FindRankFiles(const std::string& prefix)
{
    NS_LOG_FUNCTION(prefix);
    std::vector<std::string> odd;
    std::map<uint64_t, std::string> found = ListRankFiles(prefix, &odd);
    if (!odd.empty())
    {
        Fail(odd.front(), "not a rank file name (a rank has no leading zero)");
    }
    if (found.empty())
    {
        Fail(prefix, "no Chakra trace here (files " + prefix + ".<rank>.et)");
    }
    std::vector<std::string> files;
    for (const auto& [rank, file] : found)
    {
        if (rank != files.size())
        {
            Fail(prefix,
                 "rank " + std::to_string(files.size()) + " is missing (" + prefix + "." +
                     std::to_string(files.size()) + ".et), rank " + std::to_string(rank) +
                     " is there");
        }
        if (files.size() == WorkloadJson::MAX_RANKS)
        {
            Fail(prefix, "more than " + std::to_string(WorkloadJson::MAX_RANKS) + " ranks");
        }
        files.push_back(file);
    }
    return files;
}

bool
ChakraReader::IsTracePrefix(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::error_code error;
    return std::filesystem::exists(path + ".0.et", error);
}

WorkloadDag
ChakraReader::Read(const std::string& prefix,
                   const ChakraReadOptions& options,
                   ChakraReadReport* report)
{
    NS_LOG_FUNCTION(prefix);
#ifndef PR_HAVE_CHAKRA
    throw std::invalid_argument(prefix + ": " + NEEDS_PROTOBUF);
#else
    ChakraReadReport local;
    ChakraReadReport& r = report ? *report : local;
    r = ChakraReadReport();
    r.prefix = prefix;
    r.computeSource = options.computeSource;
    TraceContext trace{options, r, 0, {}, false, false, {}};
    trace.read.files = FindRankFiles(prefix);
    trace.ranks = uint32_t(trace.read.files.size());
    r.ranks = trace.ranks;
    if (!options.commGroupsFile.empty())
    {
        try
        {
            trace.pgGroups = ChakraCommGroups::ReadFile(options.commGroupsFile);
        }
        catch (const std::runtime_error& e)
        {
            FailWithPath(options.commGroupsFile, e.what());
        }
        trace.pgFromFile = true;
    }
    for (uint32_t rank = 0; rank < trace.ranks; ++rank)
    {
        RankConverter(trace, rank).Run();
    }
    const WorkloadDag::GroupMap& groups = trace.read.groups;
    bool synthesized = std::any_of(groups.begin(), groups.end(), [](const auto& g) {
        return g.first.compare(0, 6, "server") == 0 || g.first.compare(0, 4, "rail") == 0;
    });
    r.groupsFrom = trace.pgFromFile       ? options.commGroupsFile
                   : trace.pgFromMetadata ? std::string("METADATA nodes")
                   : synthesized          ? std::string("involved_dim")
                                          : std::string("none (every rank)");
    ChakraPairing::CheckCollectives(trace.read);
    r.sizeSplitTags = ChakraPairing::PairPointToPoint(trace.read);
    WorkloadDag dag(trace.ranks, std::move(trace.read.groups), std::move(trace.read.ops));
    WorkloadValidator::Check(dag, prefix);
    return dag;
#endif
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_READER_H
#define CHAKRA_READER_H

#include "ns3/workload-dag.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief How to read a Chakra trace: what the trace itself does not say.
 */
struct ChakraReadOptions
{
    /// ASTRA-sim's comm-group JSON naming the groups of `pg_name` ("" = none)
    std::string commGroupsFile;
    /// GPUs per server = scale-up domain, to map `involved_dim` (0: unknown, all ranks)
    uint32_t gpusPerServer{0};
    /// Effective TFLOP/s (peak x MFU) timing COMP nodes that give num_ops but no duration
    double computeTflops{0};
    /// What computeTflops is, for the summary ("a100 x MFU 0.4 (--gpu, --mfu)")
    std::string computeSource;

    /**
     * \brief The options the programs read with: COMP nodes without a duration timed at a
     *        GPU preset's peak times an MFU (their --gpu and --mfu).
     * \param gpu a WorkloadGpuSpec preset name (std::invalid_argument if unknown)
     * \param mfu model FLOPs utilization
     * \param gpusPerServer GPUs per server
     * \param commGroupsFile ASTRA-sim's comm-group JSON, or ""
     * \return the options
     */
    static ChakraReadOptions ForGpu(const std::string& gpu,
                                    double mfu,
                                    uint32_t gpusPerServer,
                                    const std::string& commGroupsFile);
};

/**
 * \ingroup photonic-rails
 * \brief What reading a Chakra trace did beyond the obvious, for the one-line summaries.
 */
struct ChakraReadReport
{
    std::string prefix;            //!< The trace
    uint32_t ranks{0};             //!< Files found
    uint64_t nodes{0};             //!< Nodes read, every rank
    uint64_t gzipFiles{0};         //!< Files that were gzip-compressed
    uint64_t computeFromNumOps{0}; //!< COMP nodes timed from num_ops
    uint64_t zeroTimeNodes{0};     //!< METADATA, MEM_* and INVALID nodes: zero-time steps
    /// CPU-side COMM_COLL launch stubs (no comm_type) whose GPU kernel carries the
    /// collective: zero-time CPU steps
    uint64_t collectiveStubs{0};
    uint64_t ctrlDepsHonoured{0};    //!< ctrl_deps kept as dependencies
    uint64_t ctrlDepsDangling{0};    //!< ctrl_deps naming a node not in the file
    uint64_t ctrlDepsSelf{0};        //!< ctrl_deps naming the node itself
    uint64_t ctrlDepsCycle{0};       //!< ctrl_deps dropped because they left no order
    uint64_t involvedDimAllRanks{0}; //!< Collectives whose involved_dim became all ranks
    uint64_t renumberedRanks{0};     //!< Ranks whose node ids were renumbered
    uint64_t sizeSplitTags{0};       //!< Send/recv keys whose sizes got tags of their own
    std::string groupsFrom;          //!< Where process groups came from
    std::string computeSource;       //!< ChakraReadOptions::computeSource

    /// \return one line per fact worth saying (the first always: ranks and nodes)
    std::vector<std::string> Lines() const;
};

/**
 * \ingroup photonic-rails
 * \brief Reads a Chakra execution trace (`<prefix>.<rank>.et` for every rank, plain or
 *        gzip) into the workload DAG the JSON format gives, validated.
 *
 * Mapping (doc/photonic-rails-design.rst has the full table):
 * - COMP -> compute of duration_micros (num_ops at ChakraReadOptions::computeTflops when
 *   there is no duration), on stream "compute", or "cpu" when is_cpu_op is true (one op
 *   at a time on each, as ASTRA-sim runs them);
 * - COMM_COLL -> the collective of comm_type (GATHER and SCATTER are refused: the engine has
 *   none; REDUCE_SCATTER_BLOCK is a reduce-scatter), comm_size bytes as the JSON format
 *   counts them; COMM_SEND/COMM_RECV -> send/recv to comm_dst/from comm_src with comm_tag;
 *   each communication node on a stream of its own ("c<node id>"): only data_deps order
 *   them;
 * - METADATA, MEM_LOAD, MEM_STORE, INVALID -> zero-time steps that keep the dependencies;
 * - groups: pg_name through the comm-group file or METADATA nodes; else involved_dim
 *   ([true, false...] the server, [false, true...] the rail); else every rank;
 * - ids: kept when they fit 32 bits and every dependency points at a smaller id, else the
 *   nodes are renumbered in dependency order (ties by id), the order collectives pair in;
 * - attributes of our own writer (pr_stream, pr_iteration, pr_algorithm, pr_root, pr_group,
 *   pr_stream_dep) restore what Chakra cannot say, so a written DAG reads back equal.
 *
 * Errors are WorkloadFormatError naming the file, node id and what is wrong.
 */
class ChakraReader
{
  public:
    /// Most nodes of a trace, every rank: the generator's largest DAG
    static constexpr uint64_t MAX_NODES = 20000000;

    /// What reading or writing a trace says in a build without protobuf (PR_HAVE_CHAKRA
    /// unset: CMakeLists.txt leaves Chakra out rather than failing the whole configure)
    static constexpr const char* NEEDS_PROTOBUF =
        "Chakra traces: built without protobuf: apt-get install libprotobuf-dev "
        "protobuf-compiler";

    /**
     * \param prefix the trace: files `<prefix>.<rank>.et`
     * \param options what the trace does not say
     * \param report receives what reading did (may be null)
     * \return the validated DAG
     * \throws WorkloadFormatError (one error: the first problem found); std::invalid_argument
     *         (NEEDS_PROTOBUF) in a build without protobuf
     */
    static WorkloadDag Read(const std::string& prefix,
                            const ChakraReadOptions& options,
                            ChakraReadReport* report = nullptr);

    /**
     * \param prefix a trace prefix
     * \return the files of ranks 0 .. n-1
     * \throws WorkloadFormatError when there is none, a rank is missing or a name is odd
     */
    static std::vector<std::string> FindRankFiles(const std::string& prefix);

    /**
     * \param prefix a trace prefix
     * \param odd receives files named like a rank with a leading zero or 10+ digits
     * \return every file `<prefix>.<rank>.et` there is, by rank (none if the folder cannot
     *         be read)
     */
    static std::map<uint64_t, std::string> ListRankFiles(const std::string& prefix,
                                                         std::vector<std::string>* odd = nullptr);

    /**
     * \param path a path a program was given
     * \return true if it names a Chakra trace prefix (`<path>.0.et` exists) rather than a file
     */
    static bool IsTracePrefix(const std::string& path);
};

} // namespace ns3

#endif /* CHAKRA_READER_H */

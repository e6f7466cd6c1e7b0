/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_NODE_H
#define CHAKRA_NODE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ChakraProtoMsg
{
class Node;
} // namespace ChakraProtoMsg

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What one Chakra node says, in the terms the reader needs: its fields and the
 *        attributes that carry meaning (any integer kind accepted for sizes, ranks and tags),
 *        and those our writer adds (pr_*). The protobuf message itself is reused per node.
 */
struct ChakraNodeFields
{
    /// Chakra's NodeType numbers
    enum Type : int64_t
    {
        INVALID_NODE = 0,
        METADATA_NODE = 1,
        MEM_LOAD_NODE = 2,
        MEM_STORE_NODE = 3,
        COMP_NODE = 4,
        COMM_SEND_NODE = 5,
        COMM_RECV_NODE = 6,
        COMM_COLL_NODE = 7,
    };

    /// comm_type, comm_src or comm_dst not given
    static constexpr int64_t ABSENT = INT64_MIN;
    /// Chakra's CollectiveCommType numbers collectives from 0 (ALL_REDUCE) to 9 (BARRIER)
    static constexpr int64_t COLLECTIVE_TYPES = 10;

    uint64_t id{0};                 //!< id
    int64_t type{INVALID_NODE};     //!< NodeType
    std::string name;               //!< name
    std::vector<uint64_t> dataDeps; //!< data_deps
    std::vector<uint64_t> ctrlDeps; //!< ctrl_deps
    uint64_t durationUs{0};         //!< duration_micros
    double numOps{0};               //!< num_ops
    bool cpu{false};                //!< is_cpu_op
    int64_t commType{ABSENT};       //!< comm_type
    int64_t commSize{-1};           //!< comm_size, -1 if absent
    int64_t src{ABSENT};            //!< comm_src
    int64_t dst{ABSENT};            //!< comm_dst
    int64_t tag{0};                 //!< comm_tag
    std::string pgName;             //!< pg_name
    std::vector<bool> involvedDim;  //!< involved_dim
    std::string stream;             //!< pr_stream
    std::string algorithm;          //!< pr_algorithm
    std::string group;              //!< pr_group
    int64_t root{-1};               //!< pr_root, -1 if absent
    int64_t iteration{0};           //!< pr_iteration
    int64_t streamDep{-1};          //!< pr_stream_dep, -1 if absent
    double exactUs{-1};             //!< pr_duration_us, -1 if absent
    std::string metadata;           //!< inputs.values of a METADATA node

    /**
     * \param node a node as parsed
     * \param file its file, for messages
     * \return its fields
     * \throws WorkloadFormatError naming the file, node and attribute of a value of the
     *         wrong kind
     */
    static ChakraNodeFields Decode(const ChakraProtoMsg::Node& node, const std::string& file);

    /// \return "node 17"
    std::string Name() const;

    /**
     * \param commType a CollectiveCommType number
     * \return its name ("ALL_REDUCE"), or the number
     */
    static std::string CollectiveName(int64_t commType);
};

} // namespace ns3

#endif /* CHAKRA_NODE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-node.h"

#include "chakra-et.pb.h"

#include "ns3/input-text.h"
#include "ns3/log.h"
#include "ns3/workload-error.h"

#include <cmath>
#include <iterator>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraNode");

namespace
{

using ChakraProtoMsg::AttributeProto;

const char* const COLLECTIVE_NAMES[] = {"ALL_REDUCE",
                                        "REDUCE",
                                        "ALL_GATHER",
                                        "GATHER",
                                        "SCATTER",
                                        "BROADCAST",
                                        "ALL_TO_ALL",
                                        "REDUCE_SCATTER",
                                        "REDUCE_SCATTER_BLOCK",
                                        "BARRIER"};
static_assert(std::size(COLLECTIVE_NAMES) == ChakraNodeFields::COLLECTIVE_TYPES,
              "one name per CollectiveCommType");

/// Reads the integer of an attribute of any integer kind (producers disagree on kinds).
class AttributeReader
{
  public:
    AttributeReader(const std::string& file, uint64_t node)
        : m_file(file),
          m_node(node)
    {
    }

    int64_t Integer(const AttributeProto& a) const
    {
        switch (a.value_case())
        {
        case AttributeProto::kInt32Val:
            return a.int32_val();
        case AttributeProto::kInt64Val:
            return a.int64_val();
        case AttributeProto::kUint32Val:
            return a.uint32_val();
        case AttributeProto::kUint64Val:
            return Unsigned(a, a.uint64_val());
        case AttributeProto::kSint32Val:
            return a.sint32_val();
        case AttributeProto::kSint64Val:
            return a.sint64_val();
        case AttributeProto::kFixed32Val:
            return a.fixed32_val();
        case AttributeProto::kFixed64Val:
            return Unsigned(a, a.fixed64_val());
        case AttributeProto::kSfixed32Val:
            return a.sfixed32_val();
        case AttributeProto::kSfixed64Val:
            return a.sfixed64_val();
        default:
            ThrowWorkloadError(m_file, Where(a) + ": expected an integer");
        }
    }

    /// Integer() that must not be negative.
    int64_t Count(const AttributeProto& a) const
    {
        int64_t value = Integer(a);
        if (value < 0)
        {
            ThrowWorkloadError(m_file,
                               Where(a) + ": must not be negative, got " + std::to_string(value));
        }
        return value;
    }

    double Number(const AttributeProto& a) const
    {
        switch (a.value_case())
        {
        case AttributeProto::kDoubleVal:
            return a.double_val();
        case AttributeProto::kFloatVal:
            return a.float_val();
        default:
            return double(Integer(a));
        }
    }

    /// Number() that must be finite and not negative (FLOPs, durations).
    double Amount(const AttributeProto& a) const
    {
        double value = Number(a);
        if (!(value >= 0) || !std::isfinite(value))
        {
            ThrowWorkloadError(m_file,
                               Where(a) + ": must be a finite number >= 0, got " +
                                   std::to_string(value));
        }
        return value;
    }

    std::string String(const AttributeProto& a) const
    {
        if (a.value_case() == AttributeProto::kStringVal)
        {
            return a.string_val();
        }
        if (a.value_case() == AttributeProto::kBytesVal)
        {
            return a.bytes_val();
        }
        return std::to_string(Integer(a)); // some tools write pg_name as a number
    }

    bool Bool(const AttributeProto& a) const
    {
        return a.value_case() == AttributeProto::kBoolVal ? a.bool_val() : Integer(a) != 0;
    }

    std::vector<bool> BoolList(const AttributeProto& a) const
    {
        if (a.value_case() == AttributeProto::kBoolList)
        {
            return {a.bool_list().values().begin(), a.bool_list().values().end()};
        }
        ThrowWorkloadError(m_file, Where(a) + ": expected a list of booleans");
    }

    /// Refuses attribute \p a of this node, saying \p why.
    [[noreturn]] void Refuse(const AttributeProto& a, const std::string& why) const
    {
        ThrowWorkloadError(m_file, Where(a) + ": " + why);
    }

  private:
    int64_t Unsigned(const AttributeProto& a, uint64_t value) const
    {
        if (value > uint64_t(INT64_MAX))
        {
            ThrowWorkloadError(m_file,
                               Where(a) + ": " + std::to_string(value) + " is out of range");
        }
        return int64_t(value);
    }

    std::string Where(const AttributeProto& a) const
    {
        return ("node " + std::to_string(m_node)) + ": attribute " + InputText::Quote(a.name());
    }

    const std::string& m_file;
    uint64_t m_node;
};

/// The attributes the reader uses (the rest are skipped).
enum class Attribute
{
    COMM_TYPE,
    COMM_SIZE,
    COMM_SRC,
    COMM_DST,
    COMM_TAG,
    PG_NAME,
    INVOLVED_DIM,
    IS_CPU_OP,
    NUM_OPS,
    PR_STREAM,
    PR_ALGORITHM,
    PR_GROUP,
    PR_ROOT,
    PR_ITERATION,
    PR_STREAM_DEP,
    PR_DURATION_US,
};

/// \return the attribute of a name, or nullptr for one the reader skips (one hash lookup:
///         a chain of string compares was a tenth of the reading time)
const Attribute*
FindAttribute(const std::string& name)
{
    static const std::unordered_map<std::string, Attribute> attributes = {
        {"comm_type", Attribute::COMM_TYPE},
        {"comm_size", Attribute::COMM_SIZE},
        {"comm_src", Attribute::COMM_SRC},
        {"comm_dst", Attribute::COMM_DST},
        {"comm_tag", Attribute::COMM_TAG},
        {"pg_name", Attribute::PG_NAME},
        {"involved_dim", Attribute::INVOLVED_DIM},
        {"is_cpu_op", Attribute::IS_CPU_OP},
        {"num_ops", Attribute::NUM_OPS},
        {"pr_stream", Attribute::PR_STREAM},
        {"pr_algorithm", Attribute::PR_ALGORITHM},
        {"pr_group", Attribute::PR_GROUP},
        {"pr_root", Attribute::PR_ROOT},
        {"pr_iteration", Attribute::PR_ITERATION},
        {"pr_stream_dep", Attribute::PR_STREAM_DEP},
        {"pr_duration_us", Attribute::PR_DURATION_US}};
    auto it = attributes.find(name);
    return it == attributes.end() ? nullptr : &it->second;
}

void
ReadAttributes(const ChakraProtoMsg::Node& node, const std::string& file, ChakraNodeFields& raw)
{
    AttributeReader read(file, raw.id);
    for (const auto& a : node.attr())
    {
        const Attribute* attribute = FindAttribute(a.name());
        if (attribute == nullptr)
        {
            continue;
        }
        switch (*attribute)
        {
        case Attribute::COMM_TYPE:
            raw.commType = read.Integer(a);
            if (raw.commType == ChakraNodeFields::ABSENT)
            {
                // The one value that would read as "not given".
                read.Refuse(a,
                            std::to_string(raw.commType) + " names no CollectiveCommType (0 to " +
                                std::to_string(ChakraNodeFields::COLLECTIVE_TYPES - 1) + ")");
            }
            break;
        case Attribute::COMM_SIZE:
            raw.commSize = read.Count(a);
            break;
        case Attribute::COMM_SRC:
            raw.src = read.Integer(a);
            break;
        case Attribute::COMM_DST:
            raw.dst = read.Integer(a);
            break;
        case Attribute::COMM_TAG:
            raw.tag = read.Integer(a);
            break;
        case Attribute::PG_NAME:
            raw.pgName = read.String(a);
            break;
        case Attribute::INVOLVED_DIM:
            raw.involvedDim = read.BoolList(a);
            break;
        case Attribute::IS_CPU_OP:
            raw.cpu = read.Bool(a);
            break;
        case Attribute::NUM_OPS:
            raw.numOps = read.Amount(a);
            break;
        case Attribute::PR_STREAM:
            raw.stream = read.String(a);
            break;
        case Attribute::PR_ALGORITHM:
            raw.algorithm = read.String(a);
            break;
        case Attribute::PR_GROUP:
            raw.group = read.String(a);
            break;
        case Attribute::PR_ROOT:
            raw.root = read.Count(a);
            break;
        case Attribute::PR_ITERATION:
            raw.iteration = read.Count(a);
            break;
        case Attribute::PR_STREAM_DEP:
            raw.streamDep = read.Count(a);
            break;
        case Attribute::PR_DURATION_US:
            raw.exactUs = read.Amount(a);
            break;
        }
    }
}

/// Everything shared by the ranks of one trace while it is read.
} // namespace

ChakraNodeFields
ChakraNodeFields::Decode(const ChakraProtoMsg::Node& node, const std::string& file)
{
    ChakraNodeFields raw;
    raw.id = node.id();
    raw.type = int64_t(node.type());
    raw.name = node.name();
    raw.dataDeps.assign(node.data_deps().begin(), node.data_deps().end());
    raw.ctrlDeps.assign(node.ctrl_deps().begin(), node.ctrl_deps().end());
    raw.durationUs = node.duration_micros();
    if (raw.type == METADATA_NODE && node.has_inputs())
    {
        raw.metadata = node.inputs().values();
    }
    ReadAttributes(node, file, raw);
    return raw;
}

std::string
ChakraNodeFields::Name() const
{
    return "node " + std::to_string(id);
}

std::string
ChakraNodeFields::CollectiveName(int64_t commType)
{
    return commType >= 0 && commType < COLLECTIVE_TYPES ? COLLECTIVE_NAMES[commType]
                                                        : std::to_string(commType);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-json.h"

#include "workload-validator.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/input-text.h"
#include "ns3/json-input.h"
#include "ns3/log.h"
#include "ns3/workload-error.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadJson");

namespace
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

const char* const FORMAT_NAME = "photonic-rails-dag";
const uint64_t FORMAT_VERSION = 1;
const uint64_t MAX_U32 = std::numeric_limits<uint32_t>::max();
/// Largest iteration number (the validator's bound; also keeps 1 + iteration in 32 bits).
const uint64_t MAX_ITERATION = WorkloadValidator::MAX_ITERATION;
/// Longest compute op, microseconds (the validator's bound).
const double MAX_DURATION_US = WorkloadValidator::MAX_DURATION_US;

/// Fields every op may carry, whatever its type.
const std::set<std::string> g_commonFields =
    {"rank", "id", "type", "deps", "stream", "iteration", "label"};

/**
 * \brief Fields an op of the given type may carry besides the common ones.
 * \param type op type
 * \return field names
 */
std::set<std::string>
TypeFields(WorkloadOpType type)
{
    switch (type)
    {
    case WorkloadOpType::COMPUTE:
        return {"duration_us"};
    case WorkloadOpType::SEND:
    case WorkloadOpType::RECV:
        return {"peer", "bytes", "tag"};
    case WorkloadOpType::BROADCAST:
    case WorkloadOpType::REDUCE:
        return {"group", "bytes", "root", "algorithm"};
    case WorkloadOpType::BARRIER:
        return {"group", "algorithm"};
    default:
        return {"group", "bytes", "algorithm"};
    }
}

/**
 * \brief Fields an op of the given type must carry besides rank, id and type.
 * \param type op type
 * \return field names
 */
std::set<std::string>
RequiredFields(WorkloadOpType type)
{
    switch (type)
    {
    case WorkloadOpType::COMPUTE:
        return {"duration_us"};
    case WorkloadOpType::SEND:
    case WorkloadOpType::RECV:
        return {"peer", "bytes"};
    case WorkloadOpType::BROADCAST:
    case WorkloadOpType::REDUCE:
        return {"group", "bytes", "root"};
    case WorkloadOpType::BARRIER:
        return {"group"};
    default:
        return {"group", "bytes"};
    }
}

/// A value in plain words, for "expected X, got Y" messages: numbers as written (an
/// integer out of range, e.g. "iteration": 1000001, said only "got a number").
std::string
Describe(const Json& value)
{
    if (value.is_number_float())
    {
        return "the number " + value.dump();
    }
    if (value.is_number_unsigned())
    {
        return value.dump();
    }
    if (value.is_number_integer())
    {
        return "the negative number " + value.dump();
    }
    return std::string("a ") + value.type_name();
}

/**
 * \brief Reads the fields of one JSON op object, recording every problem.
 */
class OpReader
{
  public:
    OpReader(const std::string& file, std::size_t index, WorkloadErrorList& errors)
        : m_file(file),
          m_index(index),
          m_errors(errors)
    {
    }

    /**
     * \param value the JSON value of the op
     * \param op receives the op
     * \return true if the op was read without error
     */
    bool Read(const Json& value, WorkloadOp& op)
    {
        if (!value.is_object())
        {
            Fail("", "an op must be a JSON object, got " + Describe(value));
            return false;
        }
        std::size_t before = m_errors.GetTotal();
        if (!ReadIdentity(value, op))
        {
            return false;
        }
        CheckFieldNames(value, op.type);
        ReadTypeFields(value, op);
        ReadCommonOptions(value, op);
        return m_errors.GetTotal() == before;
    }

  private:
    /// Reads rank, id and type, which every later message refers to.
    bool ReadIdentity(const Json& value, WorkloadOp& op)
    {
        uint64_t rank = 0;
        uint64_t id = 0;
        bool ok = ReadUnsigned(value, "rank", MAX_U32, true, rank);
        ok = ReadUnsigned(value, "id", MAX_U32, true, id) && ok;
        if (!ok)
        {
            return false;
        }
        op.rank = static_cast<uint32_t>(rank);
        op.id = static_cast<uint32_t>(id);
        m_known = true;
        m_rank = op.rank;
        m_id = op.id;
        auto it = value.find("type");
        if (it == value.end())
        {
            Fail("type", "missing required field");
            return false;
        }
        if (!it->is_string())
        {
            Fail("type", "must be a string, got " + Describe(*it));
            return false;
        }
        if (!ParseWorkloadOpType(it->get<std::string>(), op.type))
        {
            Fail("type",
                 "unknown op type " + InputText::Quote(it->get<std::string>()) +
                     " (expected compute, allreduce, allgather, reducescatter, alltoall, "
                     "broadcast, reduce, barrier, send or recv)");
            return false;
        }
        return true;
    }

    /// Reports unknown fields and fields that do not apply to the type (typos would
    /// otherwise be silently ignored, e.g. "dep" for "deps").
    void CheckFieldNames(const Json& value, WorkloadOpType type)
    {
        std::set<std::string> allowed = TypeFields(type);
        for (const auto& item : value.items())
        {
            if (g_commonFields.count(item.key()) == 0 && allowed.count(item.key()) == 0)
            {
                Fail(item.key(), "field not valid for an op of type " + WorkloadOpTypeName(type));
            }
        }
        for (const auto& name : RequiredFields(type))
        {
            if (!value.contains(name))
            {
                Fail(name, "missing required field for type " + WorkloadOpTypeName(type));
            }
        }
    }

    void ReadTypeFields(const Json& value, WorkloadOp& op)
    {
        uint64_t number = 0;
        if (value.contains("duration_us"))
        {
            ReadDuration(value.at("duration_us"), op);
        }
        if (value.contains("group"))
        {
            ReadString(value, "group", op.group);
        }
        if (value.contains("bytes") && ReadBytes(value.at("bytes"), number))
        {
            op.bytes = number;
        }
        if (value.contains("root") && ReadUnsigned(value, "root", MAX_U32, false, number))
        {
            op.root = static_cast<int64_t>(number);
        }
        if (value.contains("peer") && ReadUnsigned(value, "peer", MAX_U32, false, number))
        {
            op.peer = static_cast<int64_t>(number);
        }
        if (value.contains("tag"))
        {
            ReadTag(value.at("tag"), op);
        }
        std::string algorithm;
        if (value.contains("algorithm") && ReadString(value, "algorithm", algorithm) &&
            !ParseWorkloadAlgorithm(algorithm, op.algorithm))
        {
            Fail("algorithm",
                 "unknown algorithm " + InputText::Quote(algorithm) + " (expected " +
                     CollectiveAlgorithmRegistry::Names(", ", ", ") + " or auto)");
        }
    }

    void ReadCommonOptions(const Json& value, WorkloadOp& op)
    {
        op.stream = WorkloadDefaultStream(op.type);
        if (value.contains("stream") && ReadString(value, "stream", op.stream) && op.stream.empty())
        {
            Fail("stream", "must not be empty");
        }
        uint64_t number = 0;
        if (value.contains("iteration") &&
            ReadUnsigned(value, "iteration", MAX_ITERATION, false, number))
        {
            op.iteration = static_cast<uint32_t>(number);
        }
        if (value.contains("label"))
        {
            ReadString(value, "label", op.label);
        }
        if (value.contains("deps"))
        {
            ReadDeps(value.at("deps"), op);
        }
    }

    void ReadDuration(const Json& value, WorkloadOp& op)
    {
        if (!value.is_number())
        {
            Fail("duration_us", "must be a number, got " + Describe(value));
            return;
        }
        double duration = value.get<double>();
        if (!std::isfinite(duration) || duration < 0.0 || duration > MAX_DURATION_US)
        {
            Fail("duration_us", "must be a number in [0, 1e12], got " + value.dump());
            return;
        }
        op.durationUs = duration;
    }

    bool ReadBytes(const Json& value, uint64_t& bytes)
    {
        if (value.is_number_unsigned())
        {
            bytes = value.get<uint64_t>();
            return true;
        }
        if (value.is_number_integer())
        {
            Fail("bytes", "size must be positive, got " + value.dump());
        }
        else
        {
            Fail("bytes", "must be a positive integer, got " + Describe(value));
        }
        return false;
    }

    void ReadTag(const Json& value, WorkloadOp& op)
    {
        if (!value.is_number_integer() ||
            (value.is_number_unsigned() &&
             value.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max())))
        {
            Fail("tag",
                 "must be an integer in [" + std::to_string(std::numeric_limits<int64_t>::min()) +
                     ", " + std::to_string(std::numeric_limits<int64_t>::max()) + "], got " +
                     Describe(value));
            return;
        }
        op.tag = value.get<int64_t>();
    }

    void ReadDeps(const Json& value, WorkloadOp& op)
    {
        if (!value.is_array())
        {
            Fail("deps", "must be an array of op ids, got " + Describe(value));
            return;
        }
        for (const auto& dep : value)
        {
            if (!dep.is_number_unsigned() || dep.get<uint64_t>() > MAX_U32)
            {
                Fail("deps",
                     "must hold op ids (integers in [0, " + std::to_string(MAX_U32) + "]), got " +
                         Describe(dep));
                return;
            }
            op.deps.push_back(dep.get<uint32_t>());
        }
    }

    bool ReadString(const Json& object, const std::string& name, std::string& out)
    {
        const Json& value = object.at(name);
        if (!value.is_string())
        {
            Fail(name, "must be a string, got " + Describe(value));
            return false;
        }
        out = value.get<std::string>();
        return true;
    }

    bool ReadUnsigned(const Json& object,
                      const std::string& name,
                      uint64_t max,
                      bool required,
                      uint64_t& out)
    {
        auto it = object.find(name);
        if (it == object.end())
        {
            if (required)
            {
                Fail(name, "missing required field");
            }
            return false;
        }
        if (!it->is_number_unsigned() || it->get<uint64_t>() > max)
        {
            Fail(name,
                 "must be an integer in [0, " + std::to_string(max) + "], got " + Describe(*it));
            return false;
        }
        out = it->get<uint64_t>();
        return true;
    }

    void Fail(const std::string& field, const std::string& message)
    {
        WorkloadError error;
        error.file = m_file;
        if (m_known)
        {
            error.rank = m_rank;
            error.id = m_id;
            error.field = field;
        }
        else
        {
            // Without a usable rank and id, the position in the array locates the op.
            error.field = "ops[" + std::to_string(m_index) + "]" +
                          (field.empty() ? std::string() : "." + field);
        }
        error.message = message;
        m_errors.Add(std::move(error));
    }

    const std::string& m_file;
    std::size_t m_index;
    WorkloadErrorList& m_errors;
    bool m_known{false};
    uint32_t m_rank{0};
    uint32_t m_id{0};
};

/// Records a top-level (file-wide) error.
void
AddFileError(WorkloadErrorList& errors,
             const std::string& file,
             const std::string& field,
             const std::string& message)
{
    WorkloadError error;
    error.file = file;
    error.field = field;
    error.message = message;
    errors.Add(std::move(error));
}

void
ReadHeader(const Json& root, const std::string& file, WorkloadErrorList& errors, uint32_t& ranks)
{
    static const std::set<std::string> known = {"format", "version", "ranks", "groups", "ops"};
    for (const auto& item : root.items())
    {
        if (known.count(item.key()) == 0)
        {
            AddFileError(errors, file, item.key(), "unknown top-level field");
        }
    }
    auto format = root.find("format");
    if (format == root.end() || !format->is_string() || *format != FORMAT_NAME)
    {
        AddFileError(errors,
                     file,
                     "format",
                     std::string("must be \"") + FORMAT_NAME + "\" (not a photonic-rails DAG?)");
    }
    auto version = root.find("version");
    if (version == root.end() || !version->is_number_unsigned() || *version != FORMAT_VERSION)
    {
        AddFileError(errors,
                     file,
                     "version",
                     version == root.end() ? "missing required field"
                                           : "unsupported version " + version->dump() +
                                                 " (this reader knows version 1)");
    }
    auto count = root.find("ranks");
    if (count == root.end() || !count->is_number_unsigned() || *count == 0 ||
        count->get<uint64_t>() > WorkloadJson::MAX_RANKS)
    {
        AddFileError(errors,
                     file,
                     "ranks",
                     "must be an integer in [1, " + std::to_string(WorkloadJson::MAX_RANKS) + "]" +
                         (count == root.end() ? " (missing)" : ", got " + count->dump()));
        ranks = 0;
        return;
    }
    ranks = count->get<uint32_t>();
}

WorkloadDag::GroupMap
ReadGroups(const Json& root, const std::string& file, WorkloadErrorList& errors)
{
    WorkloadDag::GroupMap groups;
    auto it = root.find("groups");
    if (it == root.end())
    {
        return groups; // a DAG without collectives needs no group
    }
    if (!it->is_object())
    {
        AddFileError(errors, file, "groups", "must be an object of name: [ranks]");
        return groups;
    }
    for (const auto& item : it->items())
    {
        std::vector<uint32_t> members;
        bool ok = item.value().is_array();
        if (ok)
        {
            for (const auto& member : item.value())
            {
                ok = ok && member.is_number_unsigned() && member.get<uint64_t>() <= MAX_U32;
                if (ok)
                {
                    members.push_back(member.get<uint32_t>());
                }
            }
        }
        if (!ok)
        {
            WorkloadError error;
            error.file = file;
            error.group = item.key();
            error.field = "groups";
            error.message = "members must be an array of ranks (integers >= 0)";
            errors.Add(std::move(error));
            continue;
        }
        groups[item.key()] = std::move(members);
    }
    return groups;
}

std::vector<WorkloadOp>
ReadOps(const Json& root, const std::string& file, WorkloadErrorList& errors)
{
    std::vector<WorkloadOp> ops;
    auto it = root.find("ops");
    if (it == root.end() || !it->is_array())
    {
        AddFileError(errors, file, "ops", "missing or not an array of ops");
        return ops;
    }
    ops.reserve(it->size());
    std::size_t index = 0;
    for (const auto& value : *it)
    {
        WorkloadOp op;
        OpReader reader(file, index++, errors);
        if (reader.Read(value, op))
        {
            ops.push_back(std::move(op));
        }
    }
    return ops;
}

/**
 * \param root the parsed document
 * \param index an index into its "ops"
 * \return that op, or nullptr when "ops" holds none there (an "ops" given twice keeps the
 *         later list, which a duplicate found in the earlier one may index past)
 */
const Json*
OpAt(const Json& root, std::size_t index)
{
    auto ops = root.find("ops");
    bool found = ops != root.end() && ops->is_array() && index < ops->size();
    return found ? &(*ops)[index] : nullptr;
}

/**
 * \brief Records an error per duplicate key, located at the op (rank, id) when the object
 *        is an op with a readable rank and id.
 * \param duplicates the keys given twice
 * \param root the parsed document
 * \param file file name
 * \param errors receives the errors
 */
void
ReportDuplicateKeys(const std::vector<JsonInput::DuplicateKey>& duplicates,
                    const Json& root,
                    const std::string& file,
                    WorkloadErrorList& errors)
{
    for (const auto& d : duplicates)
    {
        WorkloadError error;
        error.file = file;
        error.field = d.Field();
        error.message = d.Message();
        std::size_t index = 0;
        if (d.path == "groups")
        {
            error.group = d.key;
            error.field = "groups";
            error.message = "group " + InputText::Quote(d.key) + " is defined twice";
        }
        else if (std::sscanf(d.path.c_str(), "ops[%zu]", &index) == 1 &&
                 d.path == "ops[" + std::to_string(index) + "]" && OpAt(root, index))
        {
            const Json& op = *OpAt(root, index);
            auto rank = op.find("rank");
            auto id = op.find("id");
            if (rank != op.end() && id != op.end() && rank->is_number_unsigned() &&
                id->is_number_unsigned() && rank->get<uint64_t>() <= MAX_U32 &&
                id->get<uint64_t>() <= MAX_U32)
            {
                error.rank = rank->get<int64_t>();
                error.id = id->get<int64_t>();
                error.field = d.key;
            }
        }
        errors.Add(std::move(error));
    }
}

/**
 * \param value a JSON value
 * \return its compact text; invalid UTF-8 in strings is replaced rather than thrown on
 */
std::string
Dump(const OrderedJson& value)
{
    return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

/**
 * \param op an op
 * \return its JSON object, fields in a fixed order, defaults left out
 */
OrderedJson
OpToJson(const WorkloadOp& op)
{
    OrderedJson j;
    j["rank"] = op.rank;
    j["id"] = op.id;
    j["type"] = WorkloadOpTypeName(op.type);
    if (op.type == WorkloadOpType::COMPUTE)
    {
        j["duration_us"] = op.durationUs;
    }
    if (IsWorkloadCollective(op.type))
    {
        j["group"] = op.group;
    }
    if (op.type == WorkloadOpType::BROADCAST || op.type == WorkloadOpType::REDUCE)
    {
        j["root"] = op.root;
    }
    if (IsWorkloadPointToPoint(op.type))
    {
        j["peer"] = op.peer;
    }
    if (op.type != WorkloadOpType::COMPUTE && op.type != WorkloadOpType::BARRIER)
    {
        j["bytes"] = op.bytes;
    }
    if (IsWorkloadPointToPoint(op.type))
    {
        j["tag"] = op.tag;
    }
    if (!op.deps.empty())
    {
        j["deps"] = op.deps;
    }
    if (op.stream != WorkloadDefaultStream(op.type))
    {
        j["stream"] = op.stream;
    }
    if (op.iteration != 0)
    {
        j["iteration"] = op.iteration;
    }
    if (op.algorithm != WorkloadAlgorithm::UNSPECIFIED)
    {
        j["algorithm"] = WorkloadAlgorithmName(op.algorithm);
    }
    if (!op.label.empty())
    {
        j["label"] = op.label;
    }
    return j;
}

} // namespace

WorkloadDag
WorkloadJson::Parse(const std::string& text, const std::string& fileName)
{
    NS_LOG_FUNCTION(text.size() << fileName);
    WorkloadErrorList errors;
    JsonInput::Document document;
    try
    {
        document = JsonInput::ParseDocument(text, fileName, "DAG");
    }
    catch (const InputFileError& e)
    {
        AddFileError(errors, fileName, "", e.GetReason());
        errors.ThrowIfAny();
    }
    const Json& root = document.root;
    if (!root.is_object())
    {
        AddFileError(errors, fileName, "", "the top level must be a JSON object");
        errors.ThrowIfAny();
    }
    ReportDuplicateKeys(document.duplicates, root, fileName, errors);
    uint32_t ranks = 0;
    ReadHeader(root, fileName, errors, ranks);
    WorkloadDag::GroupMap groups = ReadGroups(root, fileName, errors);
    std::vector<WorkloadOp> ops = ReadOps(root, fileName, errors);
    errors.ThrowIfAny();
    return WorkloadDag(ranks, std::move(groups), std::move(ops));
}

WorkloadDag
WorkloadJson::ReadFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::string text;
    try
    {
        text = InputText::ReadFile(path, "DAG file");
    }
    catch (const InputFileError& e)
    {
        // One of the file's errors, like those of its content.
        WorkloadErrorList errors;
        AddFileError(errors, path, "", e.GetReason());
        errors.ThrowIfAny();
    }
    return Parse(text, path);
}

WorkloadDag
WorkloadJson::Load(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    WorkloadDag dag = ReadFile(path);
    WorkloadValidator::Check(dag, path);
    return dag;
}

std::string
WorkloadJson::Serialize(const WorkloadDag& dag)
{
    NS_LOG_FUNCTION_NOARGS();
    std::ostringstream os;
    Write(dag, os);
    return os.str();
}

void
WorkloadJson::Write(const WorkloadDag& dag, std::ostream& os)
{
    NS_LOG_FUNCTION_NOARGS();
    // Hand-laid outer structure (one op per line) so that big files stay diff- and
    // grep-friendly; every value is still produced by the JSON library.
    os << "{\n  \"format\": \"" << FORMAT_NAME << "\", \"version\": " << FORMAT_VERSION
       << ",\n  \"ranks\": " << dag.GetRankCount() << ",\n  \"groups\": {";
    bool first = true;
    for (const auto& group : dag.GetGroups())
    {
        os << (first ? "\n    " : ",\n    ") << Dump(OrderedJson(group.first)) << ": "
           << Dump(OrderedJson(group.second));
        first = false;
    }
    os << (first ? "},\n" : "\n  },\n") << "  \"ops\": [";
    first = true;
    for (const auto& op : dag.GetAllOps())
    {
        os << (first ? "\n    " : ",\n    ") << Dump(OpToJson(op));
        first = false;
    }
    os << (first ? "]\n" : "\n  ]\n") << "}\n";
}

void
WorkloadJson::WriteFile(const WorkloadDag& dag, const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
    {
        throw std::runtime_error(path + ": cannot open the file for writing");
    }
    Write(dag, out);
    out.flush();
    if (!out)
    {
        throw std::runtime_error(path + ": write failed");
    }
}

} // namespace ns3

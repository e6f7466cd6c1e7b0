// The JSON DAG format: parsing, writing, round trips, determinism and every validation
// error, plus fuzz-style tests that feed truncated and corrupted files.
#include "ns3/collective-plan.h"
#include "ns3/workload-dag.h"
#include "ns3/workload-error.h"
#include "ns3/workload-generator.h"
#include "ns3/workload-json.h"
#include "ns3/workload-validator.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A DAG file with the given ranks, groups (JSON object text) and ops (JSON object texts).
std::string
Dag(uint32_t ranks, const std::string& groups, const std::vector<std::string>& ops)
{
    std::string text =
        "{\"format\": \"photonic-rails-dag\", \"version\": 1, \"ranks\": " + std::to_string(ranks) +
        ", \"groups\": " + groups + ", \"ops\": [";
    for (std::size_t i = 0; i < ops.size(); ++i)
    {
        text += (i ? ",\n" : "\n") + ops[i];
    }
    return text + "]}";
}

/// A valid two-rank DAG: compute, a matched allreduce, a matched send/recv.
std::vector<std::string>
ValidOps()
{
    return {
        R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 10.5})",
        R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g", "bytes": 64, "deps": [0]})",
        R"({"rank": 0, "id": 2, "type": "send", "peer": 1, "bytes": 32, "tag": 7, "deps": [1]})",
        R"({"rank": 1, "id": 0, "type": "allreduce", "group": "g", "bytes": 64})",
        R"({"rank": 1, "id": 1, "type": "recv", "peer": 0, "bytes": 32, "tag": 7})",
    };
}

const std::string GROUPS = R"({"g": [0, 1]})";

/// Parses and validates; returns every error as text (empty when valid).
std::vector<std::string>
Errors(const std::string& text)
{
    std::vector<std::string> out;
    try
    {
        WorkloadDag dag = WorkloadJson::Parse(text, "t.json");
        for (const auto& e : WorkloadValidator::Validate(dag, "t.json"))
        {
            out.push_back(e.ToString());
        }
    }
    catch (const WorkloadFormatError& e)
    {
        for (const auto& error : e.GetErrors())
        {
            out.push_back(error.ToString());
        }
    }
    return out;
}

/// Replaces op `index` of the valid DAG and returns the errors.
std::vector<std::string>
ErrorsWithOp(std::size_t index, const std::string& op)
{
    std::vector<std::string> ops = ValidOps();
    ops[index] = op;
    return Errors(Dag(2, GROUPS, ops));
}

/// Expects exactly one error, mentioning every given fragment.
void
ExpectOneError(const std::vector<std::string>& errors, const std::vector<std::string>& fragments)
{
    std::string all;
    for (const auto& e : errors)
    {
        all += "\n  " + e;
    }
    ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? "no error" : all);
    for (const auto& fragment : fragments)
    {
        EXPECT_NE(errors.front().find(fragment), std::string::npos)
            << "'" << fragment << "' not in: " << errors.front();
    }
}

/// Expects at least one error, the first mentioning every given fragment (later ones are
/// consequences, e.g. a recv whose send was removed).
void
ExpectFirstError(const std::vector<std::string>& errors, const std::vector<std::string>& fragments)
{
    ASSERT_FALSE(errors.empty());
    for (const auto& fragment : fragments)
    {
        EXPECT_NE(errors.front().find(fragment), std::string::npos)
            << "'" << fragment << "' not in: " << errors.front();
    }
}

WorkloadDag
SmallGeneratedDag()
{
    WorkloadGeneratorConfig c;
    c.model.name = "tiny";
    c.model.layers = 4;
    c.model.hidden = 64;
    c.model.heads = 4;
    c.model.kvHeads = 2;
    c.model.ffn = 128;
    c.model.vocab = 100;
    c.seqLen = 16;
    c.tp = 2;
    c.pp = 2;
    c.dp = 2;
    c.microBatches = 2;
    c.gpusPerServer = 2;
    return WorkloadGenerator(c).Generate();
}

} // namespace

TEST(WorkloadFormat, ValidFileParsesWithDefaults)
{
    WorkloadDag dag = WorkloadJson::Parse(Dag(2, GROUPS, ValidOps()), "t.json");
    EXPECT_TRUE(WorkloadValidator::Validate(dag, "t.json").empty());
    EXPECT_EQ(dag.GetRankCount(), 2u);
    EXPECT_EQ(dag.GetOpCount(), 5u);
    ASSERT_EQ(dag.GetOps(0).size(), 3u);
    const WorkloadOp* compute = dag.FindOp(0, 0);
    ASSERT_NE(compute, nullptr);
    EXPECT_EQ(compute->stream, "compute"); // default stream of compute ops
    EXPECT_DOUBLE_EQ(compute->durationUs, 10.5);
    const WorkloadOp* send = dag.FindOp(0, 2);
    EXPECT_EQ(send->stream, "comm"); // default stream of everything else
    EXPECT_EQ(send->peer, 1);
    EXPECT_EQ(send->tag, 7);
    EXPECT_EQ(send->deps, std::vector<uint32_t>{1});
    EXPECT_EQ(dag.FindOp(1, 5), nullptr);
    EXPECT_EQ(dag.GetIterationCount(), 1u);
}

TEST(WorkloadFormat, OptionalFieldsRoundTrip)
{
    std::vector<std::string> ops = ValidOps();
    ops[1] = R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g", "bytes": 64,
                 "deps": [0], "stream": "dp", "iteration": 3, "algorithm": "halving-doubling",
                 "label": "fsdp.allgather.block3"})";
    ops[3] = R"({"rank": 1, "id": 0, "type": "allreduce", "group": "g", "bytes": 64,
                 "iteration": 3, "algorithm": "ring"})";
    WorkloadDag dag = WorkloadJson::Parse(Dag(2, GROUPS, ops), "t.json");
    const WorkloadOp* op = dag.FindOp(0, 1);
    EXPECT_EQ(op->stream, "dp");
    EXPECT_EQ(op->iteration, 3u);
    EXPECT_EQ(op->algorithm, WorkloadAlgorithm::HALVING_DOUBLING);
    EXPECT_EQ(op->label, "fsdp.allgather.block3");
    EXPECT_EQ(dag.GetIterationCount(), 4u);
    // Serialize -> parse gives the same DAG; serialize again gives the same bytes.
    std::string text = WorkloadJson::Serialize(dag);
    WorkloadDag again = WorkloadJson::Parse(text, "again.json");
    EXPECT_TRUE(again == dag);
    EXPECT_EQ(WorkloadJson::Serialize(again), text);
}

TEST(WorkloadFormat, ContractExampleParsesAndItsUnmatchedAllGatherIsReported)
{
    // The CONTRACT's illustrative file: rank 0 all-gathers on dp0 = [0, 2] but rank 2 has
    // no op, so a replay would hang: the validator must say so.
    const std::string text = R"({
      "format": "photonic-rails-dag", "version": 1,
      "ranks": 4,
      "groups": { "dp0": [0, 2], "dp1": [1, 3], "pp0": [0, 1], "pp1": [2, 3] },
      "ops": [
        {"rank": 0, "id": 0, "type": "compute", "duration_us": 1500.0},
        {"rank": 0, "id": 1, "type": "allgather", "group": "dp0", "bytes": 1048576, "deps": [0]},
        {"rank": 0, "id": 2, "type": "send", "peer": 1, "bytes": 65536, "tag": 7, "deps": [1]},
        {"rank": 1, "id": 0, "type": "recv", "peer": 0, "bytes": 65536, "tag": 7}
      ]
    })";
    WorkloadDag dag = WorkloadJson::Parse(text, "contract.json");
    EXPECT_EQ(dag.GetOpCount(), 4u);
    ExpectOneError(Errors(text), {"t.json", "rank 2", "group 'dp0'", "count disagrees"});
}

TEST(WorkloadFormat, WritingIsDeterministicAndRoundTrips)
{
    WorkloadDag a = SmallGeneratedDag();
    WorkloadDag b = SmallGeneratedDag();
    std::string textA = WorkloadJson::Serialize(a);
    EXPECT_EQ(textA, WorkloadJson::Serialize(b)); // byte-identical
    WorkloadDag parsed = WorkloadJson::Parse(textA, "gen.json");
    EXPECT_TRUE(parsed == a);
    EXPECT_EQ(WorkloadJson::Serialize(parsed), textA);
    // Through a file, too.
    std::string path = ::testing::TempDir() + "workload-format-roundtrip.json";
    WorkloadJson::WriteFile(a, path);
    EXPECT_TRUE(WorkloadJson::Load(path) == a);
    std::remove(path.c_str());
}

// ---- one test per error kind ------------------------------------------------------------

TEST(WorkloadValidation, InvalidJsonSyntax)
{
    ExpectOneError(Errors("{\"format\": \"photonic-rails-dag\", "), {"t.json", "invalid JSON"});
}

TEST(WorkloadValidation, WrongFormatOrVersion)
{
    std::string text = Dag(2, GROUPS, ValidOps());
    std::string other = text;
    other.replace(other.find("photonic-rails-dag"), 18, "chakra");
    ExpectOneError(Errors(other), {"t.json", "field 'format'"});
    std::string v2 = text;
    v2.replace(v2.find("\"version\": 1"), 12, "\"version\": 2");
    ExpectOneError(Errors(v2), {"field 'version'", "unsupported version 2"});
}

TEST(WorkloadValidation, UnknownType)
{
    ExpectOneError(ErrorsWithOp(0, R"({"rank": 0, "id": 0, "type": "matmul", "duration_us": 1})"),
                   {"t.json", "rank 0 op 0", "field 'type'", "unknown op type 'matmul'"});
}

TEST(WorkloadValidation, MissingFields)
{
    ExpectOneError(ErrorsWithOp(1, R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g"})"),
                   {"rank 0 op 1", "field 'bytes'", "missing required field"});
    ExpectOneError(ErrorsWithOp(0, R"({"rank": 0, "id": 0, "type": "compute"})"),
                   {"rank 0 op 0", "field 'duration_us'", "missing"});
    // Without rank or id, the position in the array locates the op.
    ExpectOneError(ErrorsWithOp(0, R"({"id": 0, "type": "compute", "duration_us": 1})"),
                   {"field 'ops[0].rank'", "missing"});
    ExpectOneError(Errors(R"({"format": "photonic-rails-dag", "version": 1, "ops": []})"),
                   {"field 'ranks'"});
}

TEST(WorkloadValidation, NegativeOrZeroSizes)
{
    ExpectOneError(ErrorsWithOp(1,
                                R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g",
                                    "bytes": -64, "deps": [0]})"),
                   {"rank 0 op 1", "field 'bytes'", "size must be positive, got -64"});
    // Zero: the file is well-formed, the validator rejects it (and the partner disagrees).
    std::vector<std::string> ops = ValidOps();
    ops[1] = R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g", "bytes": 0})";
    ops[3] = R"({"rank": 1, "id": 0, "type": "allreduce", "group": "g", "bytes": 0})";
    std::vector<std::string> errors = Errors(Dag(2, GROUPS, ops));
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_NE(errors[0].find("rank 0 op 1, field 'bytes': size must be positive"),
              std::string::npos);
    ExpectOneError(ErrorsWithOp(0, R"({"rank": 0, "id": 0, "type": "compute", "duration_us": -1})"),
                   {"rank 0 op 0", "field 'duration_us'", "in [0, 1e12]"});
    // Longer than 1e12 us would overflow the simulator's nanosecond clock.
    ExpectOneError(
        ErrorsWithOp(0, R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 1e13})"),
        {"rank 0 op 0", "field 'duration_us'", "in [0, 1e12]"});
}

TEST(WorkloadValidation, WrongJsonTypesAndUnknownFields)
{
    ExpectOneError(
        ErrorsWithOp(0, R"({"rank": 0, "id": 0, "type": "compute", "duration_us": "1"})"),
        {"rank 0 op 0", "field 'duration_us'", "must be a number"});
    ExpectOneError(ErrorsWithOp(0, R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 1,
                                       "dep": [1]})"),
                   {"rank 0 op 0", "field 'dep'", "not valid"});
    ExpectOneError(ErrorsWithOp(0, R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 1,
                                       "peer": 1})"),
                   {"field 'peer'", "not valid for an op of type compute"});
    ExpectOneError(ErrorsWithOp(1, R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g",
                                       "bytes": 64, "algorithm": "magic"})"),
                   {"rank 0 op 1", "field 'algorithm'", "unknown algorithm 'magic'"});
}

TEST(WorkloadValidation, DepsOnUnknownIds)
{
    ExpectOneError(ErrorsWithOp(1,
                                R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g",
                                    "bytes": 64, "deps": [9]})"),
                   {"rank 0 op 1", "field 'deps'", "unknown op id 9"});
    ExpectOneError(ErrorsWithOp(1,
                                R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g",
                                    "bytes": 64, "deps": [1]})"),
                   {"rank 0 op 1", "field 'deps'", "itself"});
}

TEST(WorkloadValidation, Cycles)
{
    // 0 -> 1 -> 0 through deps.
    ExpectOneError(ErrorsWithOp(0,
                                R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 1,
                                    "deps": [1]})"),
                   {"rank 0 op", "field 'deps'", "dependency cycle through ops"});
    // Stream order: ops 1 and 2 share the "comm" stream, so op 1 waiting for op 2 is a cycle.
    ExpectOneError(ErrorsWithOp(1,
                                R"({"rank": 0, "id": 1, "type": "allreduce", "group": "g",
                                    "bytes": 64, "deps": [2]})"),
                   {"rank 0 op", "dependency cycle through ops", "stream"});
}

TEST(WorkloadValidation, RanksOutsideRange)
{
    std::vector<std::string> extra = ValidOps();
    extra.push_back(R"({"rank": 5, "id": 0, "type": "compute", "duration_us": 1})");
    ExpectOneError(Errors(Dag(2, GROUPS, extra)),
                   {"rank 5 op 0", "field 'rank'", "outside [0, 2)"});
    std::vector<std::string> errors = Errors(Dag(2, R"({"g": [0, 1], "h": [0, 7]})", ValidOps()));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("group 'h'"), std::string::npos);
    EXPECT_NE(errors[0].find("member 7 is outside"), std::string::npos);
    // (the recv on rank 1 then has no partner either)
    ExpectFirstError(ErrorsWithOp(2, R"({"rank": 0, "id": 2, "type": "send", "peer": 4,
                                         "bytes": 32, "tag": 7})"),
                     {"rank 0 op 2", "field 'peer'", "outside"});
}

TEST(WorkloadValidation, GroupsThatDoNotContainTheRank)
{
    std::vector<std::string> errors = Errors(Dag(2, R"({"g": [0, 1], "solo": [1]})", [] {
        std::vector<std::string> o = ValidOps();
        o.push_back(R"({"rank": 0, "id": 3, "type": "barrier", "group": "solo"})");
        return o;
    }()));
    ASSERT_GE(errors.size(), 1u);
    EXPECT_NE(errors[0].find("rank 0 op 3, field 'group': group 'solo' does not contain"),
              std::string::npos)
        << errors[0];
    ExpectFirstError(ErrorsWithOp(1, R"({"rank": 0, "id": 1, "type": "allreduce",
                                         "group": "nope", "bytes": 64})"),
                     {"rank 0 op 1", "field 'group'", "unknown group 'nope'"});
}

TEST(WorkloadValidation, SendRecvWithoutMatchingPeer)
{
    // Tag differs: both the send and the recv are left alone.
    std::vector<std::string> errors = ErrorsWithOp(4, R"({"rank": 1, "id": 1, "type": "recv",
                                                          "peer": 0, "bytes": 32, "tag": 8})");
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_NE(errors[0].find("rank 0 op 2, field 'peer': send to rank 1 (tag 7, 32 bytes) has "
                             "no matching recv"),
              std::string::npos)
        << errors[0];
    EXPECT_NE(errors[1].find("rank 1 op 1, field 'peer': recv from rank 0 (tag 8"),
              std::string::npos)
        << errors[1];
    // Bytes differ.
    ExpectOneError(ErrorsWithOp(4, R"({"rank": 1, "id": 1, "type": "recv", "peer": 0,
                                       "bytes": 33, "tag": 7})"),
                   {"rank 1 op 1", "field 'bytes'", "matched by send op 2 of 32 bytes"});
    // To itself, and from itself (issue 11, review fix11, F: it said "recv to itself").
    ExpectFirstError(ErrorsWithOp(2, R"({"rank": 0, "id": 2, "type": "send", "peer": 0,
                                         "bytes": 32, "tag": 7})"),
                     {"rank 0 op 2", "field 'peer'", "a rank cannot send to itself"});
    ExpectFirstError(ErrorsWithOp(4, R"({"rank": 1, "id": 1, "type": "recv", "peer": 1,
                                         "bytes": 32, "tag": 7})"),
                     {"rank 1 op 1", "field 'peer'", "a rank cannot recv from itself"});
}

TEST(WorkloadValidation, GroupMembersDisagreeOnTypeSizeCountOrRoot)
{
    ExpectOneError(ErrorsWithOp(3, R"({"rank": 1, "id": 0, "type": "allgather", "group": "g",
                                       "bytes": 64})"),
                   {"rank 1 op 0",
                    "field 'type'",
                    "collective #0 on group 'g' is allgather",
                    "on rank 0 (op 1) it is allreduce"});
    ExpectOneError(ErrorsWithOp(3, R"({"rank": 1, "id": 0, "type": "allreduce", "group": "g",
                                       "bytes": 128})"),
                   {"rank 1 op 0", "field 'bytes'", "128 bytes"});
    std::vector<std::string> ops = ValidOps();
    ops.push_back(R"({"rank": 1, "id": 2, "type": "allreduce", "group": "g", "bytes": 64})");
    ExpectOneError(Errors(Dag(2, GROUPS, ops)),
                   {"rank 1", "group 'g'", "count disagrees", "issues 2", "issues 1"});
    ops = ValidOps();
    ops[1] = R"({"rank": 0, "id": 1, "type": "broadcast", "group": "g", "bytes": 64, "root": 0})";
    ops[3] = R"({"rank": 1, "id": 0, "type": "broadcast", "group": "g", "bytes": 64, "root": 1})";
    ExpectOneError(Errors(Dag(2, GROUPS, ops)), {"rank 1 op 0", "field 'root'"});
    ops[3] = R"({"rank": 1, "id": 0, "type": "broadcast", "group": "g", "bytes": 64, "root": 3})";
    std::vector<std::string> errors = Errors(Dag(4, GROUPS, ops));
    ASSERT_FALSE(errors.empty());
    EXPECT_NE(errors[0].find("rank 1 op 0, field 'root': root 3 is not a member"),
              std::string::npos)
        << errors[0];
}

TEST(WorkloadValidation, DuplicateIds)
{
    std::vector<std::string> ops = ValidOps();
    ops.push_back(R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 1})");
    ExpectOneError(Errors(Dag(2, GROUPS, ops)), {"rank 0 op 0", "field 'id'", "duplicate"});
}

TEST(WorkloadValidation, LoadNamesTheFileAndCapsTheErrorList)
{
    std::vector<std::string> ops;
    for (int i = 0; i < 150; ++i)
    {
        ops.push_back(R"({"rank": 0, "id": )" + std::to_string(i) +
                      R"(, "type": "compute", "duration_us": -1})");
    }
    std::string path = ::testing::TempDir() + "workload-many-errors.json";
    {
        std::ofstream out(path);
        out << Dag(1, "{}", ops);
    }
    try
    {
        WorkloadJson::Load(path);
        FAIL() << "no error";
    }
    catch (const WorkloadFormatError& e)
    {
        EXPECT_EQ(e.GetTotal(), 150u);
        EXPECT_EQ(e.GetErrors().size(), WorkloadFormatError::MAX_ERRORS);
        EXPECT_NE(std::string(e.what()).find(path + ": rank 0 op 0"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("(and 149 more errors)"), std::string::npos);
    }
    std::remove(path.c_str());
    EXPECT_THROW(WorkloadJson::Load(path), WorkloadFormatError); // missing file
}

// ---- fuzz-style robustness ---------------------------------------------------------------

namespace
{

/// Parses and validates; returns true if it was accepted. Any exception other than
/// WorkloadFormatError fails the test (a crash would end the test binary).
bool
Accepts(const std::string& text)
{
    try
    {
        WorkloadDag dag = WorkloadJson::Parse(text, "fuzz.json");
        WorkloadValidator::Check(dag, "fuzz.json");
        return true;
    }
    catch (const WorkloadFormatError& e)
    {
        EXPECT_FALSE(e.GetErrors().empty());
        return false;
    }
}

} // namespace

TEST(WorkloadFuzz, EveryTruncationIsAnError)
{
    std::string text = Dag(2, GROUPS, ValidOps());
    ASSERT_TRUE(Accepts(text));
    for (std::size_t n = 0; n < text.size(); ++n)
    {
        EXPECT_FALSE(Accepts(text.substr(0, n))) << "prefix of " << n << " bytes accepted";
    }
}

TEST(WorkloadFuzz, EveryTruncationOfAGeneratedFileIsAnError)
{
    std::string text = WorkloadJson::Serialize(SmallGeneratedDag());
    ASSERT_TRUE(Accepts(text));
    // Every prefix up to the last closing brace (the trailing newline is optional).
    std::size_t last = text.find_last_of('}');
    for (std::size_t n = 0; n < last; n += 7)
    {
        EXPECT_FALSE(Accepts(text.substr(0, n))) << "prefix of " << n << " bytes accepted";
    }
}

TEST(WorkloadFuzz, RandomByteFlipsNeverCrash)
{
    const std::string text = Dag(2, GROUPS, ValidOps());
    std::mt19937 random(20250704); // fixed seed: reproducible
    std::uniform_int_distribution<std::size_t> position(0, text.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    std::size_t rejected = 0;
    for (int trial = 0; trial < 3000; ++trial)
    {
        std::string corrupted = text;
        int flips = 1 + trial % 4;
        for (int f = 0; f < flips; ++f)
        {
            corrupted[position(random)] = static_cast<char>(byte(random));
        }
        rejected += Accepts(corrupted) ? 0 : 1;
    }
    EXPECT_GT(rejected, 2000u); // most corruptions must be caught
}

TEST(WorkloadFuzz, HostileShapesAreErrors)
{
    EXPECT_FALSE(Accepts(""));
    EXPECT_FALSE(Accepts("[]"));
    EXPECT_FALSE(Accepts("null"));
    EXPECT_FALSE(Accepts(std::string(100000, '[') + std::string(100000, ']')));
    // A huge rank count must be refused before anything is allocated for it.
    EXPECT_FALSE(Accepts(R"({"format": "photonic-rails-dag", "version": 1,
                             "ranks": 99999999999, "groups": {}, "ops": []})"));
    EXPECT_FALSE(Accepts(R"({"format": "photonic-rails-dag", "version": 1, "ranks": 1,
                             "groups": {"g": "x"}, "ops": [1, "a", null]})"));
    EXPECT_FALSE(Accepts(R"({"format": "photonic-rails-dag", "version": 1, "ranks": 1,
                             "ops": [{"rank": 0, "id": 4294967296, "type": "compute"}]})"));
    EXPECT_FALSE(Accepts(R"({"format": "photonic-rails-dag", "version": 1, "ranks": 1,
                             "ops": [{"rank": 0, "id": 0, "type": "compute",
                                      "duration_us": 1e999}]})"));
}

// ---- issue 11: iteration labels (item 6) ------------------------------------------------

namespace
{

/// ValidOps() with an "iteration" field added to op i (absent where labels[i] < 0).
std::vector<std::string>
LabelledOps(const std::vector<int>& labels)
{
    std::vector<std::string> ops = ValidOps();
    for (std::size_t i = 0; i < ops.size(); ++i)
    {
        if (labels[i] >= 0)
        {
            ops[i].insert(ops[i].size() - 1, ", \"iteration\": " + std::to_string(labels[i]));
        }
    }
    return ops;
}

/// A compute op of rank 0 with the given id, iteration and extra fields.
std::string
ComputeOp(uint32_t id, uint32_t iteration, const std::string& extra = "")
{
    return R"({"rank": 0, "id": )" + std::to_string(id) +
           R"(, "type": "compute", "duration_us": 1, "iteration": )" + std::to_string(iteration) +
           extra + "}";
}

} // namespace

TEST(WorkloadIterations, ValidMultiIterationDagsPass)
{
    // Ops of rank 0: compute (0), allreduce (0), send (1); rank 1: allreduce (0), recv (1).
    EXPECT_TRUE(Errors(Dag(2, GROUPS, LabelledOps({0, 0, 1, 0, 1}))).empty());
    // Iterations may overlap on independent streams (no edge between them).
    EXPECT_TRUE(
        Errors(Dag(1,
                   "{}",
                   {ComputeOp(0, 0, R"(, "stream": "a")"), ComputeOp(1, 1, R"(, "stream": "b")")}))
            .empty());
    // The generator's --iterations=2 output, also after a round trip through the format.
    WorkloadGeneratorConfig c;
    c.model.name = "tiny";
    c.model.layers = 4;
    c.model.hidden = 64;
    c.model.heads = 4;
    c.model.kvHeads = 2;
    c.model.ffn = 128;
    c.model.vocab = 100;
    c.seqLen = 16;
    c.tp = 2;
    c.pp = 2;
    c.dp = 2;
    c.microBatches = 2;
    c.gpusPerServer = 2;
    c.iterations = 2;
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    EXPECT_EQ(dag.GetIterationCount(), 2u);
    EXPECT_TRUE(WorkloadValidator::Validate(dag, "gen").empty());
    EXPECT_TRUE(Errors(WorkloadJson::Serialize(dag)).empty());
}

TEST(WorkloadIterations, LabelsMustBeDense)
{
    // Every op in iteration 5: iterations 0-4 would be reported as 0 s each.
    ExpectOneError(Errors(Dag(2, GROUPS, LabelledOps({5, 5, 5, 5, 5}))),
                   {"t.json: rank 0 op 0, field 'iteration'",
                    "iteration 5 is used but no op is in iterations 0 to 4",
                    "K = 6"});
    // A gap in the middle, located at the first op after it (rank 0 op 1).
    ExpectOneError(Errors(Dag(2, GROUPS, LabelledOps({0, 2, 2, 2, 2}))),
                   {"rank 0 op 1, field 'iteration'",
                    "iteration 2 is used but no op is in iteration 1:",
                    "K = 3"});
    // Two gaps: the first is named, the other counted.
    ExpectOneError(Errors(Dag(2, GROUPS, LabelledOps({0, 2, 4, 2, 4}))),
                   {"rank 0 op 1", "no op is in iteration 1 (1 more unused after it)", "K = 5"});
}

TEST(WorkloadIterations, CollectiveMembersCarryTheSameIteration)
{
    // Rank 0's allreduce (and its send, which waits for it) in iteration 1, rank 1's in 0.
    ExpectOneError(Errors(Dag(2, GROUPS, LabelledOps({0, 1, 1, 0, 1}))),
                   {"rank 1 op 0, field 'iteration'",
                    "collective #0 on group 'g' is in iteration 0 but on rank 0 (op 1) it is in "
                    "iteration 1"});
}

TEST(WorkloadIterations, SendAndRecvCarryTheSameIteration)
{
    ExpectOneError(Errors(Dag(2, GROUPS, LabelledOps({0, 0, 1, 0, 0}))),
                   {"rank 1 op 1, field 'iteration'",
                    "recv from rank 0 (tag 7) is matched by send op 2 of iteration 1 but is in "
                    "iteration 0"});
}

TEST(WorkloadIterations, NoOpWaitsForALaterIteration)
{
    // Through deps: rank 0's allreduce (iteration 0) depends on the compute of iteration 1.
    ExpectOneError(Errors(Dag(2, GROUPS, LabelledOps({1, 0, 1, 0, 1}))),
                   {"rank 0 op 1, field 'iteration'",
                    "iteration 0 waits for op 0 of iteration 1 (it is in deps)"});
    // Through the stream order: decreasing labels on one stream.
    ExpectOneError(Errors(Dag(1, "{}", {ComputeOp(0, 1), ComputeOp(1, 0)})),
                   {"rank 0 op 1, field 'iteration'",
                    "iteration 0 waits for op 0 of iteration 1 (it precedes this op on stream "
                    "'compute')"});
}

TEST(WorkloadIterations, LabelsAboveTheMaximumAreRefused)
{
    // A programmatic DAG (the parser refuses such labels already).
    WorkloadOp op;
    op.stream = "compute";
    op.iteration = WorkloadValidator::MAX_ITERATION + 1;
    std::vector<WorkloadError> errors =
        WorkloadValidator::Validate(WorkloadDag(1, {}, {op}), "x.json");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].ToString(),
              "x.json: rank 0 op 0, field 'iteration': must be an integer in [0, 1000000], got "
              "1000001");
}

// ---- issue 11: sizes and durations a simulation can take (item 5) -----------------------

namespace
{

/// Errors of a one-rank DAG with one op (JSON object text) on a one-member group.
std::vector<std::string>
ErrorsOfOneOp(const std::string& op)
{
    return Errors(Dag(1, R"({"solo": [0]})", {op}));
}

std::string
AllReduceOf(const std::string& bytes)
{
    return R"({"rank": 0, "id": 0, "type": "allreduce", "group": "solo", "bytes": )" + bytes + "}";
}

} // namespace

TEST(WorkloadLimits, BytesAreAtMostOneTebibyte)
{
    EXPECT_EQ(WorkloadValidator::MAX_BYTES, 1099511627776u); // 2^40
    EXPECT_TRUE(ErrorsOfOneOp(AllReduceOf("1099511627776")).empty());
    ExpectOneError(ErrorsOfOneOp(AllReduceOf("1099511627777")),
                   {"t.json: rank 0 op 0, field 'bytes'",
                    "size must be at most 1099511627776 (2^40, 1 TiB per op), got 1099511627777"});
    // The issue's 200-byte file that exhausted memory: 2^62 bytes.
    ExpectOneError(ErrorsOfOneOp(AllReduceOf("4611686018427387904")),
                   {"field 'bytes'", "got 4611686018427387904"});
    // Send and recv alike, up to the largest integer a file can hold.
    std::vector<std::string> errors = Errors(Dag(2,
                                                 "{}",
                                                 {R"({"rank": 0, "id": 0, "type": "send", "peer": 1,
                        "bytes": 18446744073709551615})",
                                                  R"({"rank": 1, "id": 0, "type": "recv", "peer": 0,
                        "bytes": 18446744073709551615})"}));
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_NE(errors[0].find("rank 0 op 0, field 'bytes'"), std::string::npos) << errors[0];
    EXPECT_NE(errors[1].find("rank 1 op 0, field 'bytes': size must be at most"), std::string::npos)
        << errors[1];
}

TEST(WorkloadLimits, DurationsCannotOverflowSimulatedTime)
{
    EXPECT_TRUE(
        ErrorsOfOneOp(R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 1e12})").empty());
    // 1e12 us = 1e15 ns: 9,223 such ops in a row before int64 nanoseconds overflow.
    EXPECT_EQ(int64_t(9.223372036854775807e18 / (WorkloadValidator::MAX_DURATION_US * 1e3)), 9223);
    // Programmatic DAGs (the generator's) are checked too: infinity, NaN, just above 1e12.
    for (double bad : {std::numeric_limits<double>::infinity(),
                       std::numeric_limits<double>::quiet_NaN(),
                       1.0000001e12,
                       -1e-9})
    {
        WorkloadOp op;
        op.stream = "compute";
        op.durationUs = bad;
        std::vector<WorkloadError> errors =
            WorkloadValidator::Validate(WorkloadDag(1, {}, {op}), "x.json");
        ASSERT_EQ(errors.size(), 1u) << bad;
        EXPECT_EQ(errors[0].field, "duration_us");
        EXPECT_NE(errors[0].message.find("must be a number in [0, 1e12]"), std::string::npos);
    }
}

// ---- issue 11: what the simulator refuses, --validate refuses (item 7) ------------------

TEST(WorkloadAlgorithms, ThePlannersRuleIsOneFunction)
{
    EXPECT_EQ(
        CollectivePlanner::CheckAlgorithm(WorkloadOpType::ALLREDUCE, WorkloadAlgorithm::TREE, 5),
        "");
    EXPECT_EQ(
        CollectivePlanner::CheckAlgorithm(WorkloadOpType::ALLGATHER, WorkloadAlgorithm::TREE, 4),
        "tree does not apply to allgather");
    EXPECT_EQ(CollectivePlanner::CheckAlgorithm(WorkloadOpType::REDUCESCATTER,
                                                WorkloadAlgorithm::HALVING_DOUBLING,
                                                6),
              "halving-doubling needs a power-of-two group, not 6 members");
    EXPECT_EQ(
        CollectivePlanner::CheckAlgorithm(WorkloadOpType::BARRIER, WorkloadAlgorithm::DIRECT, 3),
        "barrier takes no algorithm (got direct): it always uses dissemination");
    EXPECT_EQ(
        CollectivePlanner::CheckAlgorithm(WorkloadOpType::BARRIER, WorkloadAlgorithm::AUTO, 3),
        "");
}

TEST(WorkloadAlgorithms, ValidatorRefusesWhatThePlannerRefuses)
{
    // 3 ranks, one group: every member issues the same collective.
    auto errors = [](const std::string& fields) {
        std::vector<std::string> ops;
        for (int rank = 0; rank < 3; ++rank)
        {
            ops.push_back(R"({"rank": )" + std::to_string(rank) + R"(, "id": 0, "group": "all", )" +
                          fields + "}");
        }
        return Errors(Dag(3, R"({"all": [0, 1, 2]})", ops));
    };
    std::vector<std::string> e =
        errors(R"("type": "allreduce", "bytes": 64, "algorithm": "halving-doubling")");
    ASSERT_EQ(e.size(), 3u); // one per member
    EXPECT_EQ(e[0],
              "t.json: rank 0 op 0, field 'algorithm': halving-doubling needs a power-of-two "
              "group, not 3 members (group 'all')");
    e = errors(R"("type": "allgather", "bytes": 64, "algorithm": "tree")");
    ASSERT_EQ(e.size(), 3u);
    EXPECT_NE(e[2].find("rank 2 op 0, field 'algorithm': tree does not apply to allgather"),
              std::string::npos)
        << e[2];
    e = errors(R"("type": "barrier", "algorithm": "ring")");
    ASSERT_EQ(e.size(), 3u);
    EXPECT_NE(e[0].find("field 'algorithm': barrier takes no algorithm (got ring)"),
              std::string::npos)
        << e[0];
    EXPECT_TRUE(errors(R"("type": "alltoall", "bytes": 64, "algorithm": "direct")").empty());
}

TEST(WorkloadAlgorithms, ValidatorAcceptsExactlyWhatThePlannerPlans)
{
    // Invariant over every collective type, algorithm and group size 1..9: a DAG holding
    // that collective validates if and only if the planner plans it.
    const WorkloadOpType types[] = {WorkloadOpType::ALLREDUCE,
                                    WorkloadOpType::ALLGATHER,
                                    WorkloadOpType::REDUCESCATTER,
                                    WorkloadOpType::ALLTOALL,
                                    WorkloadOpType::BROADCAST,
                                    WorkloadOpType::REDUCE,
                                    WorkloadOpType::BARRIER};
    const WorkloadAlgorithm algorithms[] = {WorkloadAlgorithm::UNSPECIFIED,
                                            WorkloadAlgorithm::RING,
                                            WorkloadAlgorithm::DIRECT,
                                            WorkloadAlgorithm::HALVING_DOUBLING,
                                            WorkloadAlgorithm::TREE,
                                            WorkloadAlgorithm::AUTO};
    for (WorkloadOpType type : types)
    {
        for (WorkloadAlgorithm algorithm : algorithms)
        {
            for (uint32_t n = 1; n <= 9; ++n)
            {
                std::vector<uint32_t> members;
                std::vector<WorkloadOp> ops;
                for (uint32_t rank = 0; rank < n; ++rank)
                {
                    members.push_back(rank);
                    WorkloadOp op;
                    op.rank = rank;
                    op.type = type;
                    op.group = "g";
                    op.bytes = type == WorkloadOpType::BARRIER ? 0 : 4096;
                    op.root = 0;
                    op.stream = "comm";
                    op.algorithm = algorithm;
                    ops.push_back(op);
                }
                bool valid =
                    WorkloadValidator::Validate(WorkloadDag(n, {{"g", members}}, ops), "x").empty();
                CollectiveRequest request;
                request.type = type;
                request.members = members;
                request.bytes = ops[0].bytes;
                request.algorithm = algorithm;
                bool planned = true;
                for (bool optical : {false, true})
                {
                    request.optical = optical;
                    try
                    {
                        CollectivePlanner::Plan(request);
                    }
                    catch (const std::invalid_argument&)
                    {
                        planned = false;
                    }
                }
                EXPECT_EQ(valid, planned) << WorkloadOpTypeName(type) << " "
                                          << WorkloadAlgorithmName(algorithm) << " n " << n;
            }
        }
    }
}

// ---- issue 11: the generator never writes what its validator refuses (item 7) ------------

TEST(WorkloadGeneratorOutput, TinyMfuIsRefusedNamingTheFlag)
{
    WorkloadGeneratorConfig c = [] {
        WorkloadGeneratorConfig t;
        t.model.name = "tiny";
        t.model.layers = 2;
        t.model.hidden = 64;
        t.model.heads = 4;
        t.model.kvHeads = 2;
        t.model.ffn = 128;
        t.model.vocab = 100;
        t.seqLen = 16;
        t.gpusPerServer = 1;
        return t;
    }();
    c.mfu = 1e-300;
    // Its compute ops last about 1e297 us (FLOPs / (312e12 x 1e-300)), far beyond 1e12 us:
    // the validator must see it, or the file written would not read back (op 0, the
    // embedding lookup, takes 0 us; op 1 is the first attention).
    WorkloadDag dag = WorkloadGenerator(c).Generate();
    EXPECT_FALSE(WorkloadValidator::Validate(dag, "gen").empty());
    EXPECT_FALSE(Accepts(WorkloadJson::Serialize(dag)));
    try
    {
        WorkloadGenerator(c).GenerateValid();
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what; // one line
        EXPECT_EQ(what.rfind("the generated job: rank 0 op 1, field 'duration_us': must be a "
                             "number in [0, 1e12]",
                             0),
                  0u)
            << what;
        EXPECT_NE(what.find("(op 'compute.block0.attn.fwd.mb0')"), std::string::npos) << what;
        EXPECT_NE(what.find("raise --mfu (1e-300)"), std::string::npos) << what;
    }
    c.mfu = 0.4;
    EXPECT_NO_THROW(WorkloadGenerator(c).GenerateValid());
}

TEST(WorkloadGeneratorOutput, HugeActivationsAreRefusedNamingTheFlags)
{
    WorkloadGeneratorConfig c;
    c.model.name = "wide";
    c.model.layers = 2;
    c.model.hidden = 1u << 20;
    c.model.heads = 4;
    c.model.kvHeads = 2;
    c.model.ffn = 128;
    c.model.vocab = 100;
    c.seqLen = 1u << 20;
    c.pp = 2;
    c.gpusPerServer = 1;
    // A pipeline send of 2^20 tokens x 2^20 hidden x 2 bytes = 2^41 bytes > 2^40.
    try
    {
        WorkloadGenerator(c).GenerateValid();
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        std::string what = e.what();
        EXPECT_NE(what.find("field 'bytes': size must be at most 1099511627776"), std::string::npos)
            << what;
        EXPECT_NE(what.find("--seqLen=1048576, --microBatchSize=1"), std::string::npos) << what;
    }
}

// ---- issue 11: duplicate keys (item 11) --------------------------------------------------

TEST(WorkloadDuplicateKeys, AreRefusedWhereTheyAre)
{
    // In an op: located at the op, even after ops holding arrays (deps).
    std::vector<std::string> ops = ValidOps();
    ops[4] = R"({"rank": 1, "id": 1, "type": "recv", "peer": 0, "bytes": 32, "tag": 7,
                 "bytes": 32})";
    ExpectOneError(Errors(Dag(2, GROUPS, ops)),
                   {"t.json: rank 1 op 1, field 'bytes': duplicate key 'bytes'"});
    // At the top level.
    std::string text = Dag(2, GROUPS, ValidOps());
    text.insert(text.find("\"ranks\""), "\"ranks\": 3, ");
    ExpectOneError(Errors(text), {"t.json: field 'ranks': duplicate key 'ranks'"});
    // A group defined twice.
    ExpectOneError(Errors(Dag(2, R"({"g": [0], "g": [0, 1]})", ValidOps())),
                   {"t.json: group 'g', field 'groups': group 'g' is defined twice"});
    // In an op without a usable rank: located by its place in the array.
    ops = ValidOps();
    ops[0] = R"({"id": 0, "id": 0, "type": "compute", "duration_us": 1})";
    ExpectFirstError(Errors(Dag(2, GROUPS, ops)), {"field 'ops[0].id': duplicate key 'id'"});
    // The same key in different objects is fine.
    EXPECT_TRUE(Errors(Dag(2, GROUPS, ValidOps())).empty());
    // "ops" given twice, the later list shorter than the index of a duplicate in the
    // earlier one: located by its place (this threw the JSON library's out_of_range, whose
    // message the programs printed: "[json.exception.out_of_range.401] array index 1 ...").
    text = R"({"format": "photonic-rails-dag", "version": 1, "ranks": 1,
               "ops": [{"rank": 0, "id": 0, "type": "compute", "duration_us": 1},
                       {"rank": 0, "id": 1, "type": "compute", "duration_us": 1, "id": 2}],
               "ops": []})";
    ExpectFirstError(Errors(text), {"t.json: field 'ops[1].id': duplicate key 'id'"});
}

// ---- issue 15: files that are not DAGs ------------------------------------------------

namespace
{

/// The one-line message of loading path.
std::string
LoadError(const std::string& path)
{
    try
    {
        WorkloadJson::Load(path);
    }
    catch (const WorkloadFormatError& e)
    {
        return e.what();
    }
    return "no error";
}

/// Writes bytes to a temporary file; returns its path.
std::string
TempFile(const std::string& name, const std::string& bytes)
{
    std::string path = ::testing::TempDir() + name;
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    return path;
}

} // namespace

TEST(WorkloadFiles, DirectoryBinaryAndEmptyFilesSayWhatTheyAre)
{
    std::string dir = ::testing::TempDir();
    EXPECT_EQ(LoadError(dir), dir + ": is a directory, not a DAG file");
    // An ELF header: 0x7f 'E' 'L' 'F' 0x02 (64-bit) ...
    std::string elf("\x7f"
                    "ELF\x02\x01\x01\x00\x00\x00",
                    10);
    std::string path = TempFile("workload-binary.json", elf);
    EXPECT_EQ(LoadError(path),
              path + ": not a JSON text (binary data: byte 0x02 at offset 4; a DAG is UTF-8 JSON)");
    // A NUL inside an otherwise plausible file.
    path = TempFile("workload-nul.json", std::string("{\"format\": \"\0\"}", 15));
    EXPECT_NE(LoadError(path).find("byte 0x00 at offset 12"), std::string::npos) << LoadError(path);
    path = TempFile("workload-empty.json", " \n");
    EXPECT_EQ(LoadError(path), path + ": the file is empty (expected a JSON DAG)");
    // A text with a syntax error keeps the parser's line and column.
    path = TempFile("workload-typo.json", "{\n  \"format\" \"photonic-rails-dag\"\n}");
    EXPECT_NE(LoadError(path).find(": invalid JSON: parse error at line 2, column 31: syntax "
                                   "error while parsing object separator"),
              std::string::npos)
        << LoadError(path);
    std::remove(path.c_str());
}

// ---- Issue 11, review: flags (messages quote numbers; one bound on ranks) -----------------

TEST(WorkloadReviewMessages, BytesThatAreNotUtf8AreEscaped)
{
    // Issue 11 (review fix11, E): the parser's "last read" echoed a label's byte 0xff as
    // is. The label "a<ff>b" of op 0 fails at the 0xff; what was read of the string is
    // '"a' and the byte, written \xff.
    std::vector<std::string> ops = ValidOps();
    ops[0].insert(ops[0].rfind('}'),
                  R"(, "label": "a)"
                  "\xff"
                  R"(b")");
    std::string error;
    try
    {
        WorkloadJson::Parse(Dag(2, GROUPS, ops), "t.json");
    }
    catch (const WorkloadFormatError& e)
    {
        error = e.what();
    }
    EXPECT_NE(error.find("ill-formed UTF-8 byte; last read: '\"a\\xff'"), std::string::npos)
        << error;
    EXPECT_EQ(error.find('\xff'), std::string::npos) << error;
    // A name from the file is quoted escaped too: op 1 names group "\u0001", a control
    // character once parsed, which the file does not define.
    ops = ValidOps();
    ops[1].replace(ops[1].find(R"("group": "g")"), 12, R"("group": "\u0001")");
    std::string all;
    for (const std::string& e : Errors(Dag(2, GROUPS, ops)))
    {
        all += e + "\n";
    }
    EXPECT_NE(all.find("rank 0 op 1, field 'group': unknown group '\\x01'\n"), std::string::npos)
        << all;
}

TEST(WorkloadReviewMessages, IntegersOutOfRangeAreQuotedAsWritten)
{
    // They said "got a number".
    ExpectOneError(Errors(Dag(1, "{}", {ComputeOp(0, 1000001)})),
                   {"rank 0 op 0, field 'iteration': must be an integer in [0, 1000000], got "
                    "1000001"});
    ExpectOneError(
        Errors(Dag(1, "{}", {R"({"rank": 0, "id": 4611686018427387904, "type": "compute",
                        "duration_us": 1})"})),
        {"field 'ops[0].id': must be an integer in [0, 4294967295], got 4611686018427387904"});
    ExpectOneError(
        Errors(Dag(1, "{}", {R"({"rank": 0, "id": 0, "type": "compute", "duration_us": 1,
                                 "deps": [4294967296]})"})),
        {"field 'deps': must hold op ids (integers in [0, 4294967295]), got 4294967296"});
    ExpectOneError(
        ErrorsWithOp(2,
                     R"({"rank": 0, "id": 2, "type": "send", "peer": 1, "bytes": 32,
                         "tag": 9223372036854775808, "deps": [1]})"),
        {"field 'tag': must be an integer in [-9223372036854775808, 9223372036854775807], got "
         "9223372036854775808"});
    // Types other than numbers are still named by type.
    ExpectOneError(Errors(Dag(1, "{}", {R"({"rank": 0, "id": "x", "type": "compute"})"})),
                   {"must be an integer in [0, 4294967295], got a string"});
}

TEST(WorkloadReviewMessages, RanksUpToTheLargestFabric)
{
    // --validate took 2^20 ranks while the simulator refused more than 10^6 GPUs.
    auto ranks = [](uint64_t count) {
        return Errors(R"({"format": "photonic-rails-dag", "version": 1, "ranks": )" +
                      std::to_string(count) +
                      R"(, "ops": [{"rank": 0, "id": 0, "type": "compute", "duration_us": 1}]})");
    };
    EXPECT_TRUE(ranks(1048576).empty());
    ExpectOneError(ranks(1048577),
                   {"field 'ranks': must be an integer in [1, 1048576], got 1048577"});
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The workload formats' registry: the names and flags the programs list, the lookups, the
// refusals' wording (the programs print them as they are) and what each reader gives back.
#include "ns3/chakra-reader.h"
#include "ns3/workload-format-registry.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace ns3;

namespace
{

const std::string SAMPLE = PR_SOURCE_DIR "/test/data/chakra-samples/process-groups-2d-16npus/";

/// A two-rank DAG built by hand: a compute, then an allreduce both ranks join.
WorkloadDag
SmallDag()
{
    WorkloadOp compute;
    compute.rank = 0;
    compute.id = 0;
    compute.durationUs = 12.5;
    compute.stream = "compute";
    WorkloadOp reduce;
    reduce.rank = 0;
    reduce.id = 1;
    reduce.type = WorkloadOpType::ALLREDUCE;
    reduce.group = "g";
    reduce.bytes = 4096;
    reduce.deps = {0};
    reduce.stream = "comm";
    WorkloadOp peer = reduce;
    peer.rank = 1;
    peer.id = 0;
    peer.deps = {};
    return WorkloadDag(2, {{"g", {0, 1}}}, {compute, reduce, peer});
}

} // namespace

TEST(WorkloadFormatRegistry, NamesAndFlagsAreUniqueInAFixedOrder)
{
    // The order of --help and of every message that lists the formats.
    EXPECT_EQ(WorkloadFormatRegistry::Names(", "), "json, chakra");
    EXPECT_EQ(WorkloadFormatRegistry::Names(" or ", true), "json or chakra");
    EXPECT_EQ(WorkloadFormatRegistry::InputFlags(" or "), "--dag or --chakra");
    std::set<std::string> names;
    std::set<std::string> flags;
    for (const WorkloadFormatEntry& format : WorkloadFormatRegistry::All())
    {
        EXPECT_TRUE(names.insert(format.name).second) << format.name;
        EXPECT_TRUE(flags.insert(format.input.name).second) << format.input.name;
        for (const WorkloadFormatFlag& companion : format.companions)
        {
            EXPECT_TRUE(flags.insert(companion.name).second) << companion.name;
        }
        EXPECT_TRUE(format.read) << format.name;
        EXPECT_FALSE(format.input.runHelp.empty()) << format.name;
        EXPECT_FALSE(format.input.convertHelp.empty()) << format.name;
    }
}

TEST(WorkloadFormatRegistry, FindsAFormatByItsFlag)
{
    ASSERT_NE(WorkloadFormatRegistry::FindByFlag("dag"), nullptr);
    ASSERT_NE(WorkloadFormatRegistry::FindByFlag("chakra"), nullptr);
    EXPECT_EQ(WorkloadFormatRegistry::FindByFlag("dag")->name, "json");
    EXPECT_EQ(WorkloadFormatRegistry::FindByFlag("chakra")->name, "chakra");
    // A companion names no input of its own.
    EXPECT_EQ(WorkloadFormatRegistry::FindByFlag("commGroups"), nullptr);
    EXPECT_EQ(WorkloadFormatRegistry::FindByFlag("json"), nullptr);
    EXPECT_EQ(WorkloadFormatRegistry::Find("chakra"), WorkloadFormatRegistry::FindByFlag("chakra"));
    EXPECT_EQ(WorkloadFormatRegistry::Find("xml"), nullptr);
}

TEST(WorkloadFormatRegistry, AnUnknownOutputFormatIsOneLineListingTheKnownOnes)
{
    EXPECT_EQ(WorkloadFormatRegistry::ForOutput("chakra").name, "chakra");
    try
    {
        WorkloadFormatRegistry::ForOutput("xml");
        ADD_FAILURE() << "no refusal";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(), "--format must be json or chakra, got 'xml'");
    }
}

TEST(WorkloadFormatRegistry, GeneratorFlagsAreRefusedAsTheProgramsSay)
{
    const WorkloadFormatEntry& json = *WorkloadFormatRegistry::Find("json");
    const WorkloadFormatEntry& chakra = *WorkloadFormatRegistry::Find("chakra");
    EXPECT_EQ(json.RefuseGeneratorFlag("tp", "the generator's flags"),
              "--tp is a generator flag: give either --dag or the generator's flags, not both");
    EXPECT_EQ(chakra.RefuseGeneratorFlag("gpu", "the generator's flags"), "");
    EXPECT_EQ(chakra.RefuseGeneratorFlag("mfu", "the generator's flags"), "");
    EXPECT_EQ(chakra.RefuseGeneratorFlag("tp", "the generator's flags"),
              "--tp is a generator flag: a Chakra trace takes only --gpu and --mfu (they time "
              "COMP nodes that give num_ops and no duration)");
}

TEST(WorkloadFormatRegistry, JsonRoundTripsAHandBuiltDag)
{
    const WorkloadFormatEntry& json = *WorkloadFormatRegistry::Find("json");
    std::string path =
        testing::TempDir() + "pr-format-registry-" + std::to_string(getpid()) + ".json";
    WorkloadWriteOptions options;
    options.summary = "2 ranks, 3 ops";
    std::vector<std::string> lines = json.write(SmallDag(), path, options);
    EXPECT_EQ(lines, std::vector<std::string>{"wrote " + path + ": 2 ranks, 3 ops"});
    WorkloadRead read = json.read(path, WorkloadReadContext());
    std::remove(path.c_str());
    EXPECT_EQ(read.dag.GetRankCount(), 2u);
    EXPECT_EQ(read.dag.GetOpCount(), 3u);
    EXPECT_EQ(read.dag.GetOps(0).size(), 2u);
    EXPECT_TRUE(read.dag == SmallDag());
    EXPECT_TRUE(read.notes.empty()); // a DAG file reads silently
    EXPECT_EQ(read.records, 0u);
}

TEST(WorkloadFormatRegistry, RecognizesATracePrefixElseReadsJson)
{
    EXPECT_EQ(WorkloadFormatRegistry::Recognize(SAMPLE + "trace").name, "chakra");
    EXPECT_EQ(WorkloadFormatRegistry::Recognize(SAMPLE + "comm_group.json").name, "json");
    EXPECT_EQ(WorkloadFormatRegistry::Recognize("no-such-file.json").name, "json");
}

TEST(WorkloadFormatRegistry, ChakraIsUnavailableExactlyWithoutProtobuf)
{
    // Without protobuf (PR_HAVE_CHAKRA unset) reading says NEEDS_PROTOBUF; the entry must
    // say the same ahead of any read.
    const WorkloadFormatEntry& chakra = *WorkloadFormatRegistry::Find("chakra");
    WorkloadReadContext context;
    context.gpusPerServer = 4;
    context.gpu = "a100";
    context.mfu = 0.4;
    context.companions["commGroups"] = SAMPLE + "comm_group.json";
    bool reads = true;
    try
    {
        WorkloadRead read = chakra.read(SAMPLE + "trace", context);
        EXPECT_EQ(read.dag.GetRankCount(), 16u);
        EXPECT_EQ(read.records, 48u);
        ASSERT_FALSE(read.notes.empty());
        EXPECT_EQ(read.notes.front().find("chakra trace "), 0u) << read.notes.front();
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(ChakraReader::NEEDS_PROTOBUF), std::string::npos)
            << e.what();
        reads = false;
    }
    EXPECT_EQ(chakra.available, reads);
    EXPECT_TRUE(WorkloadFormatRegistry::Find("json")->available);
}

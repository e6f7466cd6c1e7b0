// Several jobs on one fabric (photonic-rails-sim --jobs): the jobs file, placement, the
// merged DAG and what belongs to which job (issue 29).
#include "ns3/input-text.h"
#include "ns3/job-attribution.h"
#include "ns3/job-mix.h"
#include "ns3/job-placement.h"
#include "ns3/jobs-file.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

using namespace ns3;

namespace
{

/// The message \p f throws, or "accepted".
template <typename F>
std::string
Refusal(F f)
{
    try
    {
        f();
    }
    catch (const std::exception& e)
    {
        return e.what();
    }
    return "accepted";
}

/// A jobs file holding \p text, removed at the end of the test.
class JobsText
{
  public:
    explicit JobsText(const std::string& text)
        : m_path("job-mix-test-" + std::to_string(getpid()) + ".json")
    {
        std::ofstream(m_path) << text;
    }

    ~JobsText()
    {
        std::remove(m_path.c_str());
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

/// \return the one-line refusal of a jobs file holding \p text, without "PATH: "
std::string
FileRefusal(const std::string& text)
{
    JobsText file(text);
    std::string message = Refusal([&file] { JobsFile::Read(file.Path()); });
    return message.rfind(file.Path() + ": ", 0) == 0 ? message.substr(file.Path().size() + 2)
                                                     : message;
}

/// A job asking for \p count servers by \p policy.
JobEntry
Counted(const std::string& name, uint32_t count, JobPlacementPolicy policy)
{
    JobEntry job;
    job.name = name;
    job.serverCount = count;
    job.placement = policy;
    return job;
}

/// A job naming its \p servers.
JobEntry
Listed(const std::string& name, std::vector<uint32_t> servers)
{
    JobEntry job;
    job.name = name;
    job.servers = servers;
    job.serverCount = servers.size();
    return job;
}

} // namespace

TEST(JobsFile, ReadsEveryField)
{
    JobsText file(R"({"placement": "spread", "jobs": [
        {"name": "a", "workload": "--job=b16 --iterations=x", "servers": 4, "start": "5ms",
         "iterations": 3},
        {"name": "b.2", "workload": ["--dag=a b.json"], "servers": [7, 3]}]})");
    std::vector<JobEntry> jobs = JobsFile::Read(file.Path());
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].name, "a");
    EXPECT_EQ(jobs[0].workload, (std::vector<std::string>{"--job=b16", "--iterations=x"}));
    EXPECT_EQ(jobs[0].serverCount, 4u);
    EXPECT_TRUE(jobs[0].servers.empty());
    EXPECT_EQ(jobs[0].placement, JobPlacementPolicy::SPREAD); // the file's default
    EXPECT_EQ(jobs[0].start, MilliSeconds(5));
    EXPECT_EQ(jobs[0].iterations, 3u);
    EXPECT_EQ(jobs[1].workload, (std::vector<std::string>{"--dag=a b.json"}));
    EXPECT_EQ(jobs[1].servers, (std::vector<uint32_t>{7, 3})); // rank order kept
    EXPECT_EQ(jobs[1].serverCount, 2u);
    EXPECT_EQ(jobs[1].start, Time(0));
    EXPECT_EQ(jobs[1].iterations, 1u);
}

TEST(JobsFile, RefusesInOneLine)
{
    EXPECT_EQ(FileRefusal(R"([])"), "must hold an object with a \"jobs\" array");
    EXPECT_EQ(FileRefusal(R"({"jobs": []})"), "\"jobs\" must be an array of 1 to 4096 jobs");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a"}], "seed": 1})"),
              "unknown field \"seed\" (the file holds \"jobs\" and an optional \"placement\")");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "servers": 1}]})"),
              "jobs[0] (\"a\"): \"workload\" is missing");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a/b", "workload": "--tp=2", "servers": 1}]})"),
              "jobs[0] (\"a/b\"): \"name\" must be 1 to 64 letters, digits, '_', '.' or '-', "
              "the first a letter or digit");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "..", "workload": "--tp=2", "servers": 1}]})"),
              "jobs[0] (\"..\"): \"name\" must be 1 to 64 letters, digits, '_', '.' or '-', "
              "the first a letter or digit");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": " ", "servers": 1}]})"),
              "jobs[0] (\"a\"): \"workload\" is empty (e.g. \"--job=b16\", \"--dag=job.json\")");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": 0}]})"),
              "jobs[0] (\"a\"): \"servers\" must be a count (1 to 1048576) or a non-empty list "
              "of server indices");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": [1, 1]}]})"),
              "jobs[0] (\"a\"): \"servers\" lists server 1 twice");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": [1],
                                        "placement": "random"}]})"),
              "jobs[0] (\"a\"): \"placement\" places a count of servers: this job lists its "
              "servers");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": 1,
                                        "placement": "best"}]})"),
              "jobs[0] (\"a\"): \"placement\" 'best' is not a policy (packed, spread or "
              "random)");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": 1,
                                        "start": "5"}]})"),
              "jobs[0] (\"a\"): \"start\": '5' has no unit (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": 1,
                                        "iterations": 0}]})"),
              "jobs[0] (\"a\"): \"iterations\" must be an integer from 1 to 1000000");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": 1},
                                       {"name": "a", "workload": "--tp=2", "servers": 1}]})"),
              "jobs[1] (\"a\"): the name is given to another job too (names differ in more "
              "than case)");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": 1},
                                       {"name": "A", "workload": "--tp=2", "servers": 1}]})"),
              "jobs[1] (\"A\"): the name is given to another job too (names differ in more "
              "than case)");
    EXPECT_EQ(FileRefusal(R"({"jobs": [{"name": "a", "workload": "--tp=2", "servers": 1,
                                        "gpus": 8}]})"),
              "jobs[0] (\"a\"): unknown field \"gpus\" (name, workload, servers, placement, "
              "start, iterations)");
}

TEST(JobPlacement, PackedSpreadAndListed)
{
    // Server 2 is listed by c: packed a takes 0, 1, 3; spread b then takes free servers
    // 4, 5, 6, 7, 8, 9 at floor(i * 6 / 3) = 0, 2, 4: 4, 6, 8.
    std::vector<JobEntry> jobs = {Counted("a", 3, JobPlacementPolicy::PACKED),
                                  Counted("b", 3, JobPlacementPolicy::SPREAD),
                                  Listed("c", {2})};
    auto placed = JobPlacement::Place(jobs, 10, 1);
    EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 1, 3}));
    EXPECT_EQ(placed[1], (std::vector<uint32_t>{4, 6, 8}));
    EXPECT_EQ(placed[2], (std::vector<uint32_t>{2}));
    EXPECT_EQ(JobPlacement::ServersNeeded(jobs), 7u);
    EXPECT_EQ(JobPlacement::ServersNeeded({Listed("x", {9}), Counted("y", 2, {})}), 10u);
}

TEST(JobPlacement, RandomIsTheSeedsAndDistinct)
{
    std::vector<JobEntry> jobs = {Counted("a", 4, JobPlacementPolicy::RANDOM),
                                  Counted("b", 4, JobPlacementPolicy::RANDOM)};
    auto first = JobPlacement::Place(jobs, 16, 7);
    EXPECT_EQ(first, JobPlacement::Place(jobs, 16, 7)); // same seed, same placement
    std::set<uint32_t> all;
    for (const auto& servers : first)
    {
        all.insert(servers.begin(), servers.end());
    }
    EXPECT_EQ(all.size(), 8u); // no server twice
    EXPECT_LT(*all.rbegin(), 16u);
    bool differs = false;
    for (uint32_t seed = 1; seed <= 5 && !differs; ++seed)
    {
        differs = JobPlacement::Place(jobs, 16, seed) != first;
    }
    EXPECT_TRUE(differs);
}

TEST(JobPlacement, RefusesOverlapsAndJobsThatDoNotFit)
{
    EXPECT_EQ(Refusal([] {
                  JobPlacement::Place({Listed("a", {0, 1}), Listed("b", {1})}, 4, 1);
              }),
              "jobs \"a\" and \"b\" both name server 1 (a job holds its servers for the whole "
              "run)");
    EXPECT_EQ(Refusal([] { JobPlacement::Place({Listed("a", {4})}, 4, 1); }),
              "job \"a\" names server 4, beyond the fabric's 4 (--servers)");
    EXPECT_EQ(Refusal([] {
                  JobPlacement::Place({Listed("a", {0}), Counted("b", 4, {})}, 4, 1);
              }),
              "job \"b\" needs 4 servers and 3 of the fabric's 4 are left (--servers, or fewer "
              "servers per job)");
}

TEST(JobAttribution, NamesOfCommunicationsAndRepairs)
{
    JobSlice a;
    a.name = "a";
    a.gpus = {0, 1};
    JobSlice b;
    b.name = "ab";
    b.gpus = {4, 5};
    std::vector<JobSlice> jobs = {a, b};
    JobAttribution attribution(jobs, 6, 2);
    EXPECT_EQ(attribution.OfName("g:a/tp0#3"), 0);
    EXPECT_EQ(attribution.OfName("g:ab/tp0#3"), 1); // not a prefix match on "a"
    EXPECT_EQ(attribution.OfName("ab/dp"), 1);
    EXPECT_EQ(attribution.OfName("p:5>4:0#0"), 1);
    EXPECT_EQ(attribution.OfName("reconnect:p:1>0:2#1"), 0);
    EXPECT_EQ(attribution.OfName("reconnect:4-5"), 1);
    EXPECT_EQ(attribution.OfName("detour:0-1"), 0);
    EXPECT_EQ(attribution.OfName("p:2>3:0#0"), JobAttribution::NONE); // idle GPUs
    EXPECT_EQ(attribution.OfName("g:c/x#0"), JobAttribution::NONE);
    EXPECT_EQ(attribution.JobsOf({"g:ab/x", "g:a/y", "g:a/z"}), "a ab");
    EXPECT_EQ(attribution.ServerJobs(), (std::vector<std::string>{"a", "", "ab"}));
}

namespace
{

/// A file of the module's test/data/jobs.
std::string
JobsData(const std::string& name)
{
    return std::string(PR_SOURCE_DIR) + "/test/data/jobs/" + name;
}

/// Options of one GPU per server.
JobOptions
OneGpuPerServer()
{
    JobOptions o;
    o.gpusPerServer = 1;
    return o;
}

} // namespace

TEST(JobMix, MergesJobsOntoTheirGpus)
{
    // Job a on servers 0 and 2, b on 1 and 3, each a 2-rank send of 64 MiB.
    std::string path = JobsData("clos-pairs.json");
    JobMix mix(path, JobsFile::Read(path), OneGpuPerServer());
    EXPECT_EQ(mix.GetServers(), 4u);
    EXPECT_EQ(mix.GetJobs()[0].gpus, (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(mix.GetJobs()[1].gpus, (std::vector<uint32_t>{1, 3}));
    auto dag = mix.GetDag();
    EXPECT_EQ(dag->GetRankCount(), 4u);
    EXPECT_EQ(dag->GetOpCount(), 4u);
    EXPECT_EQ(dag->GetOps(1)[0].type, WorkloadOpType::SEND);
    EXPECT_EQ(dag->GetOps(1)[0].peer, 3);
    EXPECT_EQ(dag->GetOps(2)[0].type, WorkloadOpType::RECV);
    EXPECT_EQ(dag->GetOps(2)[0].peer, 0);
    auto alone = mix.GetAloneDag(1);
    EXPECT_EQ(alone->GetRankCount(), 4u); // the same fabric
    EXPECT_EQ(alone->GetOpCount(), 2u);
    EXPECT_TRUE(alone->GetOps(0).empty());
    EXPECT_EQ(alone->GetOps(3)[0].peer, 1);
}

TEST(JobMix, PrefixesGroupsWithSeveralJobsOnly)
{
    std::string two = JobsData("two-rings.json");
    JobMix mix(two, JobsFile::Read(two), OneGpuPerServer());
    auto dag = mix.GetDag();
    ASSERT_NE(dag->FindGroup("b/all"), nullptr);
    EXPECT_EQ(*dag->FindGroup("b/all"), (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(dag->GetOps(5)[0].group, "b/all");
    EXPECT_EQ(mix.GetMaxIterations(), 2u);
    std::string one = JobsData("one-ring.json");
    JobMix solo(one, JobsFile::Read(one), OneGpuPerServer());
    EXPECT_NE(solo.GetDag()->FindGroup("all"), nullptr); // as the job's own run names it
}

TEST(JobMix, RefusesWorkloadsThatDoNotFit)
{
    std::string path = JobsData("two-rings.json");
    JobOptions o = OneGpuPerServer();
    o.servers = 6;
    EXPECT_EQ(Refusal([&] { JobMix(path, JobsFile::Read(path), o); }),
              path + ": job \"b\" needs 4 servers and 2 of the fabric's 6 are left (--servers, "
                     "or fewer servers per job)");
    std::vector<JobEntry> jobs = JobsFile::Read(path);
    jobs[1].serverCount = 2;
    EXPECT_EQ(Refusal([&] { JobMix(path, jobs, OneGpuPerServer()); }),
              path + ": job \"b\": its workload has 4 ranks and its 2 servers hold 2 GPUs (1 "
                     "per server)");
    jobs[0].serverCount = jobs[1].serverCount = 600000; // 1,200,000 GPUs: beyond 2^20
    EXPECT_EQ(Refusal([&] { JobMix(path, jobs, OneGpuPerServer()); }),
              path + ": the jobs need 1200000 servers of 1 GPUs, beyond the 1048576 GPUs a "
                     "fabric may have");
    jobs[0].serverCount = 4;
    jobs[1].serverCount = 2;
    jobs[1].workload = {"--gpusPerServer=2"};
    EXPECT_EQ(Refusal([&] { JobMix(path, jobs, OneGpuPerServer()); }),
              path + ": job \"b\": '--gpusPerServer=2' is not a workload flag (a job's "
                     "workload takes --dag, --chakra with --commGroups, --job or the "
                     "generator's flags; hardware, fabric and attributes go on the command "
                     "line)");
    jobs[1].workload = {"--job=b16"};
    EXPECT_EQ(Refusal([&] { JobMix(path, jobs, OneGpuPerServer()); }),
              path + ": job \"b\": its --job runs 4 GPUs per server and the fabric has 1 "
                     "(--gpusPerServer, --preset)");
}

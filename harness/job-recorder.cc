/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-recorder.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/rail-topology.h"
#include "ns3/simulator.h"

#include <iomanip>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobRecorder");

void
JobRecorder::Attach(const ApplicationContainer& runtimes, uint32_t dagIterations, uint32_t replays)
{
    m_dagIterations = std::max<uint32_t>(1, dagIterations);
    m_iterations = m_dagIterations * std::max<uint32_t>(1, replays);
    for (uint32_t i = 0; i < runtimes.GetN(); ++i)
    {
        Ptr<Application> app = runtimes.Get(i);
        app->TraceConnectWithoutContext("OpStart", MakeCallback(&JobRecorder::OpStarted, this));
        app->TraceConnectWithoutContext("OpEnd", MakeCallback(&JobRecorder::OpEnded, this));
    }
}

void
JobRecorder::AttachPlans(std::shared_ptr<const WorkloadDag> dag,
                         std::vector<Ptr<CollectiveCommunicator>> communicators)
{
    m_dag = std::move(dag);
    m_communicators = std::move(communicators);
}

JobRecorder::AlgorithmCounts
JobRecorder::GetAlgorithmCounts() const
{
    AlgorithmCounts counts;
    for (const WorkloadCommRecord& record : m_timeline.GetRecords())
    {
        if (!record.algorithm.empty())
        {
            ++counts[WorkloadOpTypeName(record.type)][record.algorithm];
        }
    }
    return counts;
}

void
JobRecorder::OpStarted(const WorkloadOp& op, uint32_t replay)
{
    m_lastActivity = Simulator::Now().GetSeconds();
    m_started[{op.rank, op.id, replay}] = m_lastActivity;
}

void
JobRecorder::OpEnded(const WorkloadOp& op, uint32_t replay)
{
    auto it = m_started.find({op.rank, op.id, replay});
    double start = it->second;
    m_started.erase(it);
    double end = Simulator::Now().GetSeconds();
    m_lastActivity = end;
    m_makespan = std::max(m_makespan, end);
    uint64_t iteration = replay * m_dagIterations + op.iteration;
    m_spans.push_back({&op, iteration, start, end});
    double& iterationEnd = m_iterationEnd[iteration];
    iterationEnd = std::max(iterationEnd, end);
    if (op.type == WorkloadOpType::COMPUTE)
    {
        return;
    }
    // Programs bound replays x DAG iterations to 32 bits (photonic-rails-sim checks it).
    WorkloadCommRecord record = WorkloadCommRecord::Of(op, start, end, uint32_t(iteration));
    if (m_dag && IsWorkloadCollective(op.type))
    {
        auto plan = m_communicators.at(op.rank)->GetPlan(RankRuntime::CallOf(*m_dag, op));
        record.algorithm = plan->name;
        record.channels = plan->channels;
        record.chunkBytes = plan->chunkBytes;
    }
    m_timeline.Add(std::move(record));
}

namespace
{

/// \return per iteration 0 .. count - 1, its end (the latest of it and every earlier one)
///         minus the previous one's (\p startS for the first)
std::vector<double>
Durations(const std::map<uint64_t, double>& ends, uint64_t count, double startS)
{
    std::vector<double> times;
    double previous = startS;
    for (uint64_t k = 0; k < count; ++k)
    {
        auto it = ends.find(k);
        double end = it == ends.end() ? previous : std::max(previous, it->second);
        times.push_back(end - previous);
        previous = end;
    }
    return times;
}

} // namespace

void
JobRecorder::SetStart(double startS)
{
    m_start = startS;
}

std::vector<double>
JobRecorder::GetIterationTimes() const
{
    return Durations(m_iterationEnd, m_iterations, m_start);
}

std::vector<double>
JobRecorder::GetIterationTimes(const std::vector<uint32_t>& ranks,
                               uint32_t replays,
                               double startS) const
{
    std::set<uint32_t> members(ranks.begin(), ranks.end());
    std::map<uint64_t, double> ends;
    for (const Span& span : m_spans)
    {
        if (members.count(span.op->rank) > 0)
        {
            double& end = ends[span.iteration];
            end = std::max(end, span.endS);
        }
    }
    return Durations(ends, m_dagIterations * std::max<uint32_t>(1, replays), startS);
}

double
JobRecorder::GetMakespan() const
{
    return m_makespan;
}

double
JobRecorder::GetMakespan(const std::vector<uint32_t>& ranks) const
{
    std::set<uint32_t> members(ranks.begin(), ranks.end());
    double end = 0;
    for (const Span& span : m_spans)
    {
        end = members.count(span.op->rank) > 0 ? std::max(end, span.endS) : end;
    }
    return end;
}

double
JobRecorder::GetLastActivity() const
{
    return m_lastActivity;
}

uint64_t
JobRecorder::GetOpsDone() const
{
    return m_spans.size();
}

const WorkloadTimeline&
JobRecorder::GetTimeline() const
{
    return m_timeline;
}

namespace
{
/// Writes s as a JSON string literal.
void
JsonString(std::ostream& os, const std::string& s)
{
    os << '"';
    for (char c : s)
    {
        if (c == '"' || c == '\\')
        {
            os << '\\' << c;
        }
        else if (static_cast<unsigned char>(c) < 0x20)
        {
            os << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec
               << std::setfill(' ');
        }
        else
        {
            os << c;
        }
    }
    os << '"';
}

/// Names each server's trace process after its job and sorts the processes job by job.
template <typename Comma>
void
WriteJobProcesses(std::ostream& os, Comma& comma, const std::vector<std::string>& serverJobs)
{
    std::map<std::string, uint32_t> order;
    for (uint32_t server = 0; server < serverJobs.size(); ++server)
    {
        const std::string& job = serverJobs[server];
        if (job.empty())
        {
            continue;
        }
        uint32_t index = order.emplace(job, order.size()).first->second;
        comma();
        os << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << server
           << ",\"args\":{\"name\":";
        JsonString(os, "job " + job + ": server " + std::to_string(server));
        os << "}}";
        comma();
        os << "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << server
           << ",\"args\":{\"sort_index\":" << uint64_t(index) * serverJobs.size() + server << "}}";
    }
}

} // namespace

void
JobRecorder::WriteChromeTrace(std::ostream& os,
                              uint32_t gpusPerServer,
                              const std::vector<FabricSpan>& fabricSpans,
                              const std::vector<std::string>& serverJobs) const
{
    RailTopology topology(gpusPerServer); // a trace process per server
    // Thread ids: one per (rank, stream), named by metadata events.
    std::map<std::pair<uint32_t, std::string>, uint32_t> threads;
    for (const Span& span : m_spans)
    {
        const WorkloadOp& op = *span.op;
        std::string stream = op.stream.empty() ? WorkloadDefaultStream(op.type) : op.stream;
        threads.emplace(std::make_pair(op.rank, stream), 0);
    }
    uint32_t next = 0;
    for (auto& [key, tid] : threads)
    {
        tid = next++;
    }
    os << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
    bool first = true;
    auto comma = [&]() {
        os << (first ? "" : ",\n");
        first = false;
    };
    for (const auto& [key, tid] : threads)
    {
        comma();
        os << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << topology.ServerOf(key.first)
           << ",\"tid\":" << tid << ",\"args\":{\"name\":";
        JsonString(os, "rank " + std::to_string(key.first) + " " + key.second);
        os << "}}";
    }
    WriteJobProcesses(os, comma, serverJobs);
    os << std::setprecision(15);
    for (const Span& span : m_spans)
    {
        const WorkloadOp& op = *span.op;
        std::string stream = op.stream.empty() ? WorkloadDefaultStream(op.type) : op.stream;
        std::string name = op.label.empty() ? WorkloadOpTypeName(op.type) : op.label;
        comma();
        os << "{\"ph\":\"X\",\"name\":";
        JsonString(os, name);
        os << ",\"cat\":\"" << WorkloadOpTypeName(op.type)
           << "\",\"pid\":" << topology.ServerOf(op.rank)
           << ",\"tid\":" << threads.at({op.rank, stream}) << ",\"ts\":" << span.startS * 1e6
           << ",\"dur\":" << (span.endS - span.startS) * 1e6 << ",\"args\":{\"id\":" << op.id
           << ",\"iteration\":" << span.iteration << ",\"bytes\":" << op.bytes << ",\"group\":";
        JsonString(os, op.group);
        os << "}}";
    }
    // The fabric's process comes after every server's.
    uint32_t fabricPid = 0;
    for (const Span& span : m_spans)
    {
        fabricPid = std::max(fabricPid, topology.ServerOf(span.op->rank) + 1);
    }
    if (!fabricSpans.empty())
    {
        comma();
        os << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << fabricPid
           << ",\"args\":{\"name\":\"fabric faults\"}}";
    }
    for (std::size_t i = 0; i < fabricSpans.size(); ++i)
    {
        const FabricSpan& span = fabricSpans[i];
        comma();
        os << "{\"ph\":\"X\",\"name\":";
        JsonString(os, span.name);
        os << ",\"cat\":\"fault\",\"pid\":" << fabricPid << ",\"tid\":" << i
           << ",\"ts\":" << span.startS * 1e6 << ",\"dur\":" << (span.endS - span.startS) * 1e6
           << "}";
    }
    os << "\n]}\n";
}

} // namespace ns3

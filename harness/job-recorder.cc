/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-recorder.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/rail-topology.h"
#include "ns3/simulator.h"

#include <iomanip>

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

std::vector<double>
JobRecorder::GetIterationTimes() const
{
    std::vector<double> times;
    double previous = 0;
    for (uint64_t k = 0; k < m_iterations; ++k)
    {
        auto it = m_iterationEnd.find(k);
        double end = it == m_iterationEnd.end() ? previous : std::max(previous, it->second);
        times.push_back(end - previous);
        previous = end;
    }
    return times;
}

double
JobRecorder::GetMakespan() const
{
    return m_makespan;
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
} // namespace

void
JobRecorder::WriteChromeTrace(std::ostream& os,
                              uint32_t gpusPerServer,
                              const std::vector<FabricSpan>& fabricSpans) const
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

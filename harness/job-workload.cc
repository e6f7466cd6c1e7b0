/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-workload.h"

#include "ns3/log.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/workload-error.h"
#include "ns3/workload-estimator.h"
#include "ns3/workload-generator.h"

#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobWorkload");

namespace
{

/// A workload's errors as the programs' one error line: the first, and how many more.
std::invalid_argument
OneLine(const WorkloadFormatError& e)
{
    if (e.GetErrors().empty())
    {
        return std::invalid_argument(e.what());
    }
    std::string more =
        e.GetTotal() > 1 ? " (and " + std::to_string(e.GetTotal() - 1) + " more)" : "";
    return std::invalid_argument(e.GetErrors().front().ToString() + more);
}

} // namespace

void
JobWorkload::AddFlags(StrictCommandLine& cmd)
{
    for (const WorkloadFormatEntry& format : WorkloadFormatRegistry::All())
    {
        cmd.Add(format.input.name, format.input.runHelp, m_files[format.input.name]);
        for (const WorkloadFormatFlag& companion : format.companions)
        {
            cmd.Add(companion.name, companion.runHelp, m_files[companion.name]);
        }
    }
    m_gen.Add(cmd);
}

bool
JobWorkload::ApplyDefault(const StrictCommandLine& cmd, JobOptions& o)
{
    bool paper = m_gen.Given(cmd).empty();
    for (const auto& [flag, value] : m_files)
    {
        paper = paper && !cmd.IsGiven(flag);
    }
    if (paper)
    {
        m_gen.job = "b16";
    }
    // --job sets the generator's defaults and the server size; explicit flags win.
    uint32_t jobGpusPerServer = m_gen.ApplyJob(cmd);
    if (jobGpusPerServer > 0 && !cmd.IsGiven("gpusPerServer"))
    {
        o.gpusPerServer = jobGpusPerServer;
    }
    if (!paper)
    {
        m_measured = MeasuredJob(cmd, o);
        return false;
    }
    // The paper's job as it ran: on the testbed as measured, two iterations (provisioning
    // profiles the first), coalesced rail frames (within 0.1% of 4 KiB frames, ~15x fewer
    // events), Opus at 100 ms (the delay of the paper's and the testbed's headline).
    auto take = [&cmd](const char* name, auto& field, const auto& value) {
        if (!cmd.IsGiven(name))
        {
            field = value;
        }
    };
    take("preset", o.preset, std::string("perlmutter-testbed"));
    take("frameBytes", o.frameBytes, uint32_t(61440));
    take("iterations", o.iterations, uint32_t(2));
    take("reconfigDelay", o.reconfigDelay, std::string("100ms"));
    m_measured = MeasuredJob(cmd, o);
    return true;
}

std::string
JobWorkload::Describe(const WorkloadGenerator& generator) const
{
    // Everything that makes two generated jobs differ, so that summary.json tells them apart.
    const WorkloadGeneratorConfig& c = generator.GetConfig();
    std::ostringstream text;
    text << c.model.name << (m_gen.job.empty() ? "" : " (--job=" + m_gen.job + ")") << ", "
         << c.model.layers << " layers, " << c.gpu.name << ", tp " << c.tp << ", cp " << c.cp
         << ", pp " << c.pp << " " << WorkloadPipelineSchedule::KindName(c.schedule)
         << (c.virtualStages > 1 ? " x " + std::to_string(c.virtualStages) + " chunks" : "") << ", "
         << (c.dpMode == WorkloadGeneratorConfig::FSDP ? "fsdp " : "dp ") << c.dp << ", ep " << c.ep
         << ", " << generator.GetMicroBatches() << " micro-batches of " << c.microBatchSize << " x "
         << c.seqLen << " tokens, mfu " << c.mfu << " / "
         << (c.mfuBackward > 0 ? c.mfuBackward : c.mfu) << (c.recompute ? ", recomputation" : "")
         << (c.foldTp ? ", TP folded" : "");
    if (c.dpMode == WorkloadGeneratorConfig::FSDP && c.dp > 1)
    {
        text << ", reshard " << WorkloadGenerator::ReshardName(c.reshard) << ", gather prefetch "
             << c.gatherPrefetch;
    }
    return text.str();
}

std::string
JobWorkload::MeasuredJob(const StrictCommandLine& cmd, const JobOptions& o) const
{
    // The testbed measured its job on its hardware: any other generator flag, or other
    // hardware, makes another job whose measurements nobody has.
    std::vector<std::string> given = m_gen.Given(cmd);
    bool jobOnly = given.empty() || (given.size() == 1 && given.front() == "job");
    bool hardware = o.preset == "perlmutter-testbed";
    for (const char* flag : {"servers", "gpusPerServer", "nicPorts", "nicRate"})
    {
        hardware = hardware && !cmd.IsGiven(flag);
    }
    return jobOnly && hardware ? m_gen.job : std::string();
}

std::vector<std::string>
JobWorkload::GetFlagNames() const
{
    std::vector<std::string> names = m_gen.names;
    for (const std::string& flag : GetFileFlagNames())
    {
        names.push_back(flag);
    }
    return names;
}

std::vector<std::string>
JobWorkload::GetFileFlagNames() const
{
    std::vector<std::string> names;
    for (const auto& [flag, value] : m_files)
    {
        names.push_back(flag);
    }
    return names;
}

const std::string&
JobWorkload::GetMeasuredJob() const
{
    return m_measured;
}

std::shared_ptr<const WorkloadDag>
JobWorkload::Load(const StrictCommandLine& cmd, JobOptions& o) const
{
    std::vector<std::string> generatorFlags = m_gen.Given(cmd);
    std::vector<const WorkloadFormatEntry*> files;
    std::vector<std::string> fileFlags;
    for (const WorkloadFormatEntry& format : WorkloadFormatRegistry::All())
    {
        if (cmd.IsGiven(format.input.name))
        {
            files.push_back(&format);
            fileFlags.push_back("--" + format.input.name);
        }
    }
    // A format that reads none of the generator's flags refuses them before anything else;
    // one that reads some (Chakra's --gpu, --mfu) refuses the others when it is read.
    for (const WorkloadFormatEntry* format : files)
    {
        if (format->generatorFlags.empty() && !generatorFlags.empty())
        {
            throw std::invalid_argument(
                format->RefuseGeneratorFlag(generatorFlags.front(),
                                            "the generator's flags (--model, --tp, ...)"));
        }
    }
    if (files.size() > 1)
    {
        throw std::invalid_argument("give either " + fileFlags[0] + " or " + fileFlags[1] +
                                    ", not both");
    }
    for (const WorkloadFormatEntry& format : WorkloadFormatRegistry::All())
    {
        for (const WorkloadFormatFlag& companion : format.companions)
        {
            if (cmd.IsGiven(companion.name) && !cmd.IsGiven(format.input.name))
            {
                throw std::invalid_argument("--" + companion.name + " " + companion.needs +
                                            ": it needs --" + format.input.name + "=" +
                                            format.metavar);
            }
        }
    }
    std::shared_ptr<const WorkloadDag> dag;
    uint32_t gpusPerServer = o.GpusPerServer();
    if (!files.empty())
    {
        dag = LoadFile(*files.front(), cmd, o, gpusPerServer);
    }
    else
    {
        // Validated like a file, so that a bad flag never starts a simulation.
        WorkloadGenerator generator(m_gen.ToConfig(gpusPerServer));
        dag = std::make_shared<const WorkloadDag>(generator.GenerateValid());
        o.workload = "generated: " + Describe(generator);
    }
    if (uint64_t(o.iterations) * dag->GetIterationCount() > UINT32_MAX)
    {
        throw std::invalid_argument("--iterations x the DAG's iterations exceeds 2^32");
    }
    return dag;
}

std::shared_ptr<const WorkloadDag>
JobWorkload::LoadFile(const WorkloadFormatEntry& format,
                      const StrictCommandLine& cmd,
                      JobOptions& o,
                      uint32_t gpusPerServer) const
{
    for (const std::string& flag : m_gen.Given(cmd))
    {
        std::string refusal = format.RefuseGeneratorFlag(flag, "the generator's flags");
        if (!refusal.empty())
        {
            throw std::invalid_argument(refusal);
        }
    }
    const std::string& path = m_files.at(format.input.name);
    WorkloadReadContext context;
    context.gpusPerServer = gpusPerServer;
    context.gpu = m_gen.gpu;
    context.mfu = m_gen.mfu;
    for (const WorkloadFormatFlag& companion : format.companions)
    {
        context.companions[companion.name] = m_files.at(companion.name);
    }
    WorkloadRead read;
    std::shared_ptr<const WorkloadDag> dag;
    try
    {
        read = format.read(path, context);
        dag = std::make_shared<const WorkloadDag>(std::move(read.dag));
    }
    catch (const WorkloadFormatError& e)
    {
        throw OneLine(e);
    }
    if (!format.replayRefusal.empty())
    {
        try
        {
            WorkloadEstimatorConfig replay;
            replay.gpusPerServer = gpusPerServer;
            WorkloadEstimator(replay).Run(*dag);
        }
        catch (const std::runtime_error& e)
        {
            throw std::invalid_argument(path + ": " + format.replayRefusal + ": " + e.what());
        }
    }
    // What the summary calls the workload: what reading said, or else the file.
    m_notes = read.notes;
    o.workload = m_notes.empty() ? path : "";
    for (const std::string& line : m_notes)
    {
        o.workload += (o.workload.empty() ? "" : "; ") + line;
    }
    return dag;
}

const std::vector<std::string>&
JobWorkload::GetNotes() const
{
    return m_notes;
}

} // namespace ns3

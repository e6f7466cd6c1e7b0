/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-format-registry.h"

#include "ns3/chakra-reader.h"
#include "ns3/chakra-writer.h"
#include "ns3/strict-command-line.h"
#include "ns3/workload-json.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{

/// "--a and --b" with the conjunction given, e.g. "--gpu and --mfu".
std::string
JoinFlags(const std::vector<std::string>& flags, const std::string& separator)
{
    std::string text;
    for (const std::string& flag : flags)
    {
        text += (text.empty() ? "" : separator) + "--" + flag;
    }
    return text;
}

/// An entry with its names and input flag; the rest is filled in by its builder below.
WorkloadFormatEntry
Format(const std::string& name,
       const std::string& what,
       const std::string& metavar,
       const WorkloadFormatFlag& input)
{
    WorkloadFormatEntry f;
    f.name = name;
    f.what = what;
    f.metavar = metavar;
    f.input = input;
    return f;
}

WorkloadFormatEntry
DagJson()
{
    WorkloadFormatEntry f =
        Format("json",
               "DAG file",
               "FILE",
               {"dag",
                "workload DAG file (JSON format v1); else --model and the generator flags",
                "--out: convert this DAG JSON file (e.g. to --format=chakra)",
                ""});
    f.read = [](const std::string& path, const WorkloadReadContext&) {
        WorkloadRead read;
        read.dag = WorkloadJson::Load(path); // silent: no notes, no speed line
        return read;
    };
    f.write = [](const WorkloadDag& dag, const std::string& out, const WorkloadWriteOptions& o) {
        WorkloadJson::WriteFile(dag, out);
        return std::vector<std::string>{"wrote " + out + ": " + o.summary};
    };
    f.formatHelp = "our DAG format";
    return f;
}

WorkloadFormatEntry
ChakraTrace()
{
    WorkloadFormatEntry f =
        Format("chakra",
               "Chakra trace",
               "PREFIX",
               {"chakra",
                "Chakra execution trace: the files PREFIX.<rank>.et of every rank (plain or gzip)",
                "--out: convert this Chakra trace (the files PREFIX.<rank>.et); --validate and "
                "--windows take a prefix too",
                ""});
    f.companions = {{"commGroups",
                     "with --chakra: ASTRA-sim's comm-group JSON naming the groups of pg_name",
                     "Chakra traces: ASTRA-sim's comm-group JSON naming pg_name's groups",
                     "names the groups of a Chakra trace"}};
    f.read = [](const std::string& prefix, const WorkloadReadContext& c) {
        ChakraReadOptions options =
            ChakraReadOptions::ForGpu(c.gpu, c.mfu, c.gpusPerServer, c.companions.at("commGroups"));
        ChakraReadReport report;
        WorkloadRead read;
        read.dag = ChakraReader::Read(prefix, options, &report);
        read.notes = report.Lines();
        read.records = report.nodes;
        read.recordName = "nodes";
        return read;
    };
    // COMP nodes that give num_ops and no duration are timed at a GPU's peak x MFU.
    f.generatorFlags = {"gpu", "mfu"};
    f.generatorFlagsUse = "they time COMP nodes that give num_ops and no duration";
    // A trace whose ranks wait for each other would only end in the simulator's multi-line
    // stuck report: the estimator, which delivers as the communicator does, says it in one.
    f.replayRefusal = "the trace cannot finish";
    f.write = [](const WorkloadDag& dag, const std::string& out, const WorkloadWriteOptions& o) {
        std::vector<std::string> removed;
        std::vector<std::string> files = ChakraWriter::Write(dag, out, o.gzip, &removed);
        std::vector<std::string> lines;
        if (!removed.empty())
        {
            lines.push_back("removed " + std::to_string(removed.size()) +
                            " rank files of an earlier trace at " + out + " (from " +
                            removed.front() + ")");
        }
        lines.push_back("wrote " + std::to_string(files.size() - 1) + " Chakra trace files " + out +
                        ".<rank>.et" + (o.gzip ? " (gzip)" : "") + " and " + files.back() + ": " +
                        o.summary);
        lines.push_back("run it: photonic-rails-sim --chakra=" + out +
                        " --commGroups=" + files.back());
        return lines;
    };
    f.formatHelp = "Chakra ET, as ASTRA-sim reads";
    f.outHelp = "the files OUT.<rank>.et and OUT.comm_group.json";
    f.gzipHelp = "gzip every rank's file";
    f.probe = &ChakraReader::IsTracePrefix;
#ifndef PR_HAVE_CHAKRA
    f.available = false; // built without protobuf: reading says ChakraReader::NEEDS_PROTOBUF
#endif
    return f;
}

} // namespace

std::string
WorkloadFormatEntry::RefuseGeneratorFlag(const std::string& flag,
                                         const std::string& generator) const
{
    if (std::find(generatorFlags.begin(), generatorFlags.end(), flag) != generatorFlags.end())
    {
        return "";
    }
    if (generatorFlags.empty())
    {
        return "--" + flag + " is a generator flag: give either --" + input.name + " or " +
               generator + ", not both";
    }
    return "--" + flag + " is a generator flag: a " + what + " takes only " +
           JoinFlags(generatorFlags, " and ") + " (" + generatorFlagsUse + ")";
}

const std::vector<WorkloadFormatEntry>&
WorkloadFormatRegistry::All()
{
    // The order of the help texts and of the names in messages ("json or chakra").
    static const std::vector<WorkloadFormatEntry> formats = {
        DagJson(),
        ChakraTrace(),
    };
    return formats;
}

const WorkloadFormatEntry*
WorkloadFormatRegistry::Find(const std::string& name)
{
    const auto& all = All();
    auto found = std::find_if(all.begin(), all.end(), [&name](const WorkloadFormatEntry& f) {
        return f.name == name;
    });
    return found == all.end() ? nullptr : &*found;
}

const WorkloadFormatEntry*
WorkloadFormatRegistry::FindByFlag(const std::string& flag)
{
    const auto& all = All();
    auto found = std::find_if(all.begin(), all.end(), [&flag](const WorkloadFormatEntry& f) {
        return f.input.name == flag;
    });
    return found == all.end() ? nullptr : &*found;
}

const WorkloadFormatEntry&
WorkloadFormatRegistry::ForOutput(const std::string& name)
{
    const WorkloadFormatEntry* format = Find(name);
    if (!format || !format->write)
    {
        throw std::invalid_argument("--format must be " + Names(" or ", true) + ", got " +
                                    StrictCommandLine::Quote(name));
    }
    return *format;
}

const WorkloadFormatEntry&
WorkloadFormatRegistry::Recognize(const std::string& path)
{
    const WorkloadFormatEntry* fallback = nullptr;
    for (const WorkloadFormatEntry& format : All())
    {
        if (!format.probe)
        {
            fallback = fallback ? fallback : &format;
        }
        else if (format.probe(path))
        {
            return format;
        }
    }
    return *fallback;
}

std::string
WorkloadFormatRegistry::Names(const std::string& separator, bool writable)
{
    std::string names;
    for (const WorkloadFormatEntry& format : All())
    {
        if (!writable || format.write)
        {
            names += (names.empty() ? "" : separator) + format.name;
        }
    }
    return names;
}

std::string
WorkloadFormatRegistry::InputFlags(const std::string& separator)
{
    std::vector<std::string> flags;
    for (const WorkloadFormatEntry& format : All())
    {
        flags.push_back(format.input.name);
    }
    return JoinFlags(flags, separator);
}

} // namespace ns3

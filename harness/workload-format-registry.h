/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_FORMAT_REGISTRY_H
#define WORKLOAD_FORMAT_REGISTRY_H

#include "ns3/workload-dag.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What a workload format's reader is given: what the file itself does not say.
 */
struct WorkloadReadContext
{
    uint32_t gpusPerServer{0}; //!< GPUs per server (0: unknown)
    std::string gpu;           //!< --gpu: the GPU preset timing compute the file leaves open
    double mfu{0};             //!< --mfu: its model FLOPs utilization
    /// The format's companion flags by name ("commGroups"), "" where not given
    std::map<std::string, std::string> companions;
};

/**
 * \ingroup photonic-rails
 * \brief What a workload format's reader gives back.
 */
struct WorkloadRead
{
    WorkloadDag dag;                //!< The workload, validated
    std::vector<std::string> notes; //!< What reading did, one line each (none: nothing to say)
    uint64_t records{0};            //!< Records parsed, for the programs' speed line (0: no line)
    std::string recordName;         //!< What a record is ("nodes")
};

/**
 * \ingroup photonic-rails
 * \brief What a workload format's writer is given beside the DAG and where to write it.
 */
struct WorkloadWriteOptions
{
    bool gzip{false};    //!< --gzip (only to a format whose entry has a gzipHelp)
    std::string summary; //!< "3 ranks, 6 ops": what is written, for the writer's lines
};

/**
 * \ingroup photonic-rails
 * \brief A command-line flag of a workload format, with its help in the two kinds of
 *        programs that take it.
 */
struct WorkloadFormatFlag
{
    std::string name;        //!< The flag ("dag" for --dag)
    std::string runHelp;     //!< Help in the programs that simulate it (sim, sweeps)
    std::string convertHelp; //!< Help in photonic-rails-workload (convert, validate, windows)
    std::string needs;       //!< A companion's reason to need the input: "names the groups of ..."
};

/**
 * \ingroup photonic-rails
 * \brief One workload format the programs read (and maybe write): its flags, reader,
 *        writer and how a path of it is recognized.
 */
struct WorkloadFormatEntry
{
    /// Reads a workload (WorkloadFormatError with the file's errors; std::invalid_argument
    /// or std::runtime_error with a one-line reason)
    using Reader =
        std::function<WorkloadRead(const std::string& path, const WorkloadReadContext& context)>;
    /// Writes a workload; returns the lines to say about it (without the program's prefix)
    using Writer = std::function<std::vector<std::string>(const WorkloadDag& dag,
                                                          const std::string& out,
                                                          const WorkloadWriteOptions& options)>;
    /// \return true if a path names a workload of this format
    using Probe = std::function<bool(const std::string& path)>;

    std::string name;         //!< --format's value ("json")
    std::string what;         //!< What an input is, for messages ("Chakra trace")
    std::string metavar;      //!< What the input flag's value is ("FILE", "PREFIX")
    WorkloadFormatFlag input; //!< The flag naming an input (--dag)
    std::vector<WorkloadFormatFlag> companions; //!< Flags that only go with it (--commGroups)
    Reader read;                                //!< Reads an input
    std::vector<std::string> generatorFlags;    //!< Generator flags it reads (--gpu, --mfu)
    std::string generatorFlagsUse;              //!< Why it reads them, for the refusal
    std::string replayRefusal; //!< Non-empty: a simulation replays the input first and refuses
                               //!< one that cannot finish, "PATH: <this>: <why>"
    Writer write;              //!< Writes a DAG (empty: an input format only)
    std::string formatHelp;    //!< --format's help of it ("our DAG format")
    std::string outHelp;       //!< What --out is then, if not one file ("the files ...")
    std::string gzipHelp;      //!< --gzip's help for it ("": the writer cannot gzip)
    Probe probe;               //!< Recognizes a path (empty: the default, any other path)
    bool available{true};      //!< Built in (false: reading or writing says what to install)

    /**
     * \param flag a generator flag given with an input of this format
     * \param generator what to call the generator's flags ("the generator's flags")
     * \return "" if the format reads the flag, else the one-line refusal
     */
    std::string RefuseGeneratorFlag(const std::string& flag, const std::string& generator) const;
};

/**
 * \ingroup photonic-rails
 * \brief The workload file formats, in one list: the programs' flags, help texts, checks
 *        and refusals read it.
 *
 * "json" is the project's DAG JSON (version 1), the default any path is read as; "chakra"
 * is a Chakra execution trace (the files PREFIX.<rank>.et), optional: without protobuf it is
 * listed but unavailable, and reading or writing one says what to install. A new format is
 * its reader (and writer) in a folder under model/ and one entry here. The generated
 * workloads (--model ...) and the paper's default job are not file formats: JobWorkload
 * keeps them.
 */
class WorkloadFormatRegistry
{
  public:
    /// \return every format, the DAG JSON first
    static const std::vector<WorkloadFormatEntry>& All();

    /**
     * \param name a format's name
     * \return its entry, or nullptr if there is none
     */
    static const WorkloadFormatEntry* Find(const std::string& name);

    /**
     * \param flag a flag's name ("chakra")
     * \return the format whose input it names, or nullptr if none does
     */
    static const WorkloadFormatEntry* FindByFlag(const std::string& flag);

    /**
     * \param name --format's value
     * \return the format that writes it
     * \throws std::invalid_argument naming the formats that can be written
     */
    static const WorkloadFormatEntry& ForOutput(const std::string& name);

    /**
     * \param path a path given to read
     * \return the first format whose probe recognizes it, else the default (no probe)
     */
    static const WorkloadFormatEntry& Recognize(const std::string& path);

    /**
     * \param separator between two names
     * \param writable only the formats that can be written
     * \return the formats' names, e.g. "json or chakra"
     */
    static std::string Names(const std::string& separator, bool writable = false);

    /**
     * \param separator between two flags
     * \return the input flags, e.g. "--dag or --chakra"
     */
    static std::string InputFlags(const std::string& separator);
};

} // namespace ns3

#endif /* WORKLOAD_FORMAT_REGISTRY_H */

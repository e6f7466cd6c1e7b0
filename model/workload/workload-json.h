/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_JSON_H
#define WORKLOAD_JSON_H

#include "ns3/rail-fabric-spec.h"
#include "ns3/workload-dag.h"

#include <iosfwd>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Reads and writes the JSON DAG format ("photonic-rails-dag", version 1).
 *
 * Reading checks the syntax and the shape of every field (types, required and unknown
 * fields, enumerations, signs) and throws WorkloadFormatError listing every problem with
 * file, rank, op id and field. Cross-op checks (deps, cycles, groups, matching peers) are
 * WorkloadValidator's; Load() does both, which is what a simulation should call.
 *
 * Writing is deterministic: the same DAG always gives byte-identical text (groups by name,
 * ops by (rank, id), fields in a fixed order, one op per line, defaults left out).
 */
class WorkloadJson
{
  public:
    /// Largest "ranks" value accepted (guards allocations against corrupted files): the
    /// largest fabric's GPUs, so that a valid DAG is never too large to simulate.
    static constexpr uint32_t MAX_RANKS = RailFabricSpec::MAX_GPUS;

    /**
     * \brief Parses a DAG from JSON text.
     * \param text the JSON text
     * \param fileName name used in error messages
     * \return the DAG (not yet validated across ops)
     * \throws WorkloadFormatError on any syntax or field error
     */
    static WorkloadDag Parse(const std::string& text, const std::string& fileName);

    /**
     * \brief Parses a DAG from a file.
     * \param path file to read
     * \return the DAG (not yet validated across ops)
     * \throws WorkloadFormatError if the file cannot be read or is malformed
     */
    static WorkloadDag ReadFile(const std::string& path);

    /**
     * \brief Reads a file and runs every WorkloadValidator check: what a simulation calls.
     * \param path file to read
     * \return a valid DAG
     * \throws WorkloadFormatError listing every problem
     */
    static WorkloadDag Load(const std::string& path);

    /**
     * \param dag a DAG
     * \return its JSON text
     */
    static std::string Serialize(const WorkloadDag& dag);

    /**
     * \brief Writes the JSON text of a DAG.
     * \param dag a DAG
     * \param os output stream
     */
    static void Write(const WorkloadDag& dag, std::ostream& os);

    /**
     * \brief Writes the JSON text of a DAG to a file.
     * \param dag a DAG
     * \param path file to (over)write
     * \throws std::runtime_error if the file cannot be written
     */
    static void WriteFile(const WorkloadDag& dag, const std::string& path);
};

} // namespace ns3

#endif /* WORKLOAD_JSON_H */

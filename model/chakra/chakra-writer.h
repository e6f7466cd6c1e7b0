/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_WRITER_H
#define CHAKRA_WRITER_H

#include "ns3/workload-dag.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Writes a workload DAG as a Chakra execution trace that ASTRA-sim runs: one file
 *        `<prefix>.<rank>.et` per rank and the comm-group JSON `<prefix>.comm_group.json`.
 *
 * Nodes keep the op ids; COMP nodes carry duration_micros (whole microseconds, rounded),
 * collectives comm_type, comm_size and pg_name (a group number of the comm-group JSON),
 * sends and receives comm_src, comm_dst, comm_tag and comm_size. A stream's order, which
 * Chakra cannot say, becomes a data dependency on the stream's previous op. What only we
 * read rides in attributes ASTRA-sim ignores, so ChakraReader gives back the same DAG:
 * pr_stream, pr_stream_dep (the dependency added for the stream), pr_duration_us (exact),
 * pr_iteration, pr_algorithm, pr_root and pr_group (the group's name).
 */
class ChakraWriter
{
  public:
    /// The comm-group JSON written beside a trace
    static std::string CommGroupsFile(const std::string& prefix);

    /**
     * \param dag a valid DAG
     * \param prefix where to write
     * \param gzip compress every rank's file
     * \param removed receives the rank files of an earlier, larger trace at \p prefix that
     *        were removed (left, they would be read as ranks of this one)
     * \return the files written, ranks first, the comm-group JSON last
     * \throws std::runtime_error if a file cannot be written or removed
     */
    static std::vector<std::string> Write(const WorkloadDag& dag,
                                          const std::string& prefix,
                                          bool gzip = false,
                                          std::vector<std::string>* removed = nullptr);

  private:
    /// Removes rank files of \p prefix from \p ranks on; refuses odd rank-like names.
    static void RemoveEarlierRanks(const std::string& prefix,
                                   uint32_t ranks,
                                   std::vector<std::string>* removed);
    /// Writes one rank's ops to \p file.
    static void WriteRank(WorkloadOpRange ops,
                          const std::map<std::string, std::string>& groupNumbers,
                          const std::string& file,
                          bool gzip);
};

} // namespace ns3

#endif /* CHAKRA_WRITER_H */

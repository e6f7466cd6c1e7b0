/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_VALIDATOR_H
#define WORKLOAD_VALIDATOR_H

#include "ns3/workload-dag.h"
#include "ns3/workload-error.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Every consistency check of a WorkloadDag, so that a bad file never starts a
 *        simulation.
 *
 * Checks (each error names file, rank, op id and field):
 * - ranks of ops and group members inside [0, ranks); groups non-empty, without duplicates;
 * - op ids unique per rank; sizes (bytes) in [1, MAX_BYTES]; compute durations in
 *   [0, MAX_DURATION_US]; iterations in [0, MAX_ITERATION];
 * - collectives name an existing group that contains the rank; broadcast/reduce roots are
 *   members; an explicit algorithm is one the collective planner accepts for the type and
 *   the group size (CollectivePlanner::CheckAlgorithm); send/recv peers are other ranks in
 *   range;
 * - deps name existing ops of the same rank; no cycle, counting the implicit stream order
 *   (ops of one rank and stream run in id order);
 * - the k-th collective a rank issues on a group (in id order) agrees with the k-th of every
 *   other member on type, bytes, root, algorithm and iteration, and all members issue the
 *   same number;
 * - the k-th send from rank a to rank b with tag t matches the k-th recv on b from a with
 *   tag t, with the same bytes and iteration; none is left without a partner;
 * - iterations: the labels used are exactly 0 .. GetIterationCount() - 1, and no op waits
 *   (through deps or its stream's order) for an op of a later iteration.
 */
class WorkloadValidator
{
  public:
    /// Largest bytes of one op: 1 TiB, above the memory of any GPU, whose buffers a
    /// collective or send moves (a larger one would also make the planner allocate
    /// billions of chunks); at 1 Gb/s it lasts 2.4 hours of simulated time.
    static constexpr uint64_t MAX_BYTES = uint64_t(1) << 40;
    /// Longest compute op in microseconds (11.6 days, 1e15 ns): one op cannot push a
    /// simulator Time (int64 ns, 292 years) past its range; 9,223 of them in a row would.
    static constexpr double MAX_DURATION_US = 1e12;
    /// Largest iteration label: replays multiply iteration counts, which must fit 32 bits.
    static constexpr uint32_t MAX_ITERATION = 1000000;

    /**
     * \param dag the DAG to check
     * \param fileName name used in messages
     * \return every error found (capped at WorkloadFormatError::MAX_ERRORS) - empty if valid
     */
    static std::vector<WorkloadError> Validate(const WorkloadDag& dag, const std::string& fileName);

    /**
     * \brief Validates and throws if anything is wrong.
     * \param dag the DAG to check
     * \param fileName name used in messages
     * \throws WorkloadFormatError listing the errors
     */
    static void Check(const WorkloadDag& dag, const std::string& fileName);

  private:
    /**
     * \brief Runs every check, recording into errors.
     * \param dag the DAG
     * \param fileName name used in messages
     * \param errors receives the errors
     */
    static void Run(const WorkloadDag& dag, const std::string& fileName, WorkloadErrorList& errors);
};

} // namespace ns3

#endif /* WORKLOAD_VALIDATOR_H */

#ifndef WORKLOAD_VALIDATOR_H
#define WORKLOAD_VALIDATOR_H

#include "workload-dag.h"
#include "workload-error.h"

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
 * - op ids unique per rank; sizes (bytes) positive; compute durations >= 0;
 * - collectives name an existing group that contains the rank; broadcast/reduce roots are
 *   members; send/recv peers are other ranks in range;
 * - deps name existing ops of the same rank; no cycle, counting the implicit stream order
 *   (ops of one rank and stream run in id order);
 * - the k-th collective a rank issues on a group (in id order) agrees with the k-th of every
 *   other member on type, bytes and root, and all members issue the same number;
 * - the k-th send from rank a to rank b with tag t matches the k-th recv on b from a with
 *   tag t, with the same bytes; none is left without a partner.
 */
class WorkloadValidator
{
  public:
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

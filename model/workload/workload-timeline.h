/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_TIMELINE_H
#define WORKLOAD_TIMELINE_H

#include "ns3/workload-dag.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief When one rank ran one collective or send/recv (one row of collectives.csv).
 */
struct WorkloadCommRecord
{
    uint32_t rank{0};                               //!< rank
    int64_t id{-1};                                 //!< op id, -1 if unknown
    WorkloadOpType type{WorkloadOpType::ALLREDUCE}; //!< collective or send/recv
    std::string group;                              //!< group (empty for send/recv)
    int64_t peer{-1};                               //!< send/recv peer, -1 if unknown
    uint64_t bytes{0};                              //!< per-rank buffer
    double startS{0};                               //!< when this rank joined, seconds
    double endS{0};                                 //!< when it ended, seconds
    std::string label;                              //!< op label
    uint32_t iteration{0};                          //!< iteration
    std::string algorithm;  //!< The plan that ran ("" for send/recv and estimates)
    uint32_t channels{0};   //!< Its channels (0 when no plan is known)
    uint64_t chunkBytes{0}; //!< Its pipelining chunk (0 when no plan is known)

    /**
     * \brief The record of one run of a communication op.
     * \param op the op
     * \param startS when this rank joined
     * \param endS when it ended
     * \param iteration the iteration it is reported in
     * \return the record
     */
    static WorkloadCommRecord Of(const WorkloadOp& op,
                                 double startS,
                                 double endS,
                                 uint32_t iteration);
};

/**
 * \ingroup photonic-rails
 * \brief A list of WorkloadCommRecord: a simulated or estimated run's communication.
 *
 * Reads and writes the CSV of the CONTRACT's collectives.csv: a header naming the columns,
 * of which rank, type, start_s and end_s are required and id, group, bytes, label,
 * iteration, peer, algorithm, channels and chunk_bytes optional (any order; unknown columns
 * are ignored). Fields holding a comma, a quote or a line break are quoted (RFC 4180), so
 * any label reads back as it was written.
 */
class WorkloadTimeline
{
  public:
    WorkloadTimeline() = default;
    /**
     * \param records the records
     */
    explicit WorkloadTimeline(std::vector<WorkloadCommRecord> records);

    /**
     * \param record a record to append
     */
    void Add(WorkloadCommRecord record);
    /// \return the records
    const std::vector<WorkloadCommRecord>& GetRecords() const;

    /**
     * \param text CSV text
     * \param fileName name used in error messages
     * \return the timeline
     * \throws std::runtime_error "FILE:LINE: reason" on malformed input
     */
    static WorkloadTimeline ParseCsv(const std::string& text, const std::string& fileName);
    /**
     * \param path CSV file
     * \return the timeline
     * \throws std::runtime_error if it cannot be read or is malformed
     */
    static WorkloadTimeline ReadCsv(const std::string& path);
    /**
     * \brief Writes rank,id,type,group,bytes,start_s,end_s,label,iteration,peer,algorithm,
     *        channels,chunk_bytes.
     * \param os output stream
     * \param jobOfRank several jobs on one fabric: per rank, its job's name, written in a
     *        first column "job" (empty: no such column)
     */
    void WriteCsv(std::ostream& os, const std::vector<std::string>& jobOfRank = {}) const;

    /**
     * \param text a cell
     * \return it as a CSV field: quoted (quotes doubled) if it holds a comma, a quote or a
     *         line break, else unchanged
     */
    static std::string QuoteCsv(const std::string& text);

  private:
    std::vector<WorkloadCommRecord> m_records; //!< records
};

} // namespace ns3

#endif /* WORKLOAD_TIMELINE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_ERROR_H
#define WORKLOAD_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One problem found in a workload file: where it is (file, rank, op id, field) and why.
 *
 * Rank and op id are -1 when the problem is not tied to an op (e.g. a group or a top-level
 * field); the group name is set for group-level problems.
 */
struct WorkloadError
{
    std::string file;    //!< file name as given by the caller (may be empty)
    int64_t rank{-1};    //!< rank of the op, or -1
    int64_t id{-1};      //!< id of the op, or -1
    std::string group;   //!< group name for group-level problems, or empty
    std::string field;   //!< JSON field concerned, or empty
    std::string message; //!< what is wrong, in plain words

    /**
     * \brief One line: "FILE: rank R op I: field 'F': MESSAGE" (absent parts left out).
     * \return the formatted message
     */
    std::string ToString() const;
};

/**
 * \ingroup photonic-rails
 * \brief Exception carrying every WorkloadError found while reading or checking a workload.
 *
 * what() is the first error plus a count of the others, so a one-line report is always
 * available; GetErrors() gives all of them (capped, see WorkloadFormatError::MAX_ERRORS).
 */
class WorkloadFormatError : public std::runtime_error
{
  public:
    static constexpr std::size_t MAX_ERRORS = 100; //!< errors kept; the rest are only counted

    /**
     * \brief Builds the exception.
     * \param errors the errors (at least one)
     * \param total how many were found in all (>= errors.size())
     */
    WorkloadFormatError(std::vector<WorkloadError> errors, std::size_t total);

    /// \return the errors kept
    const std::vector<WorkloadError>& GetErrors() const;
    /// \return the number of errors found, including those not kept
    std::size_t GetTotal() const;

  private:
    static std::string Summarize(const std::vector<WorkloadError>& errors, std::size_t total);

    std::vector<WorkloadError> m_errors; //!< errors kept
    std::size_t m_total;                 //!< errors found
};

/**
 * \brief Throws a WorkloadFormatError of one error not tied to an op (rank and id -1).
 * \param file the file
 * \param message what is wrong
 */
[[noreturn]] void ThrowWorkloadError(const std::string& file, const std::string& message);

/**
 * \ingroup photonic-rails
 * \brief Collects errors up to WorkloadFormatError::MAX_ERRORS and counts the rest.
 */
class WorkloadErrorList
{
  public:
    /**
     * \brief Records one error.
     * \param error the error
     */
    void Add(WorkloadError error);
    /// \return true if no error was recorded
    bool IsEmpty() const;
    /// \return the number of errors recorded (including those not kept)
    std::size_t GetTotal() const;
    /// \return the errors kept
    const std::vector<WorkloadError>& GetErrors() const;
    /// \brief Throws WorkloadFormatError if any error was recorded.
    void ThrowIfAny() const;

  private:
    std::vector<WorkloadError> m_errors; //!< errors kept
    std::size_t m_total{0};              //!< errors recorded
};

} // namespace ns3

#endif /* WORKLOAD_ERROR_H */

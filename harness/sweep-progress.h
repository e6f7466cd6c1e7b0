/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWEEP_PROGRESS_H
#define SWEEP_PROGRESS_H

#include <cstddef>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The progress line of a sweep: points done of all, failures, and the time left,
 *        estimated from the pace of this session (points ended per second, however many
 *        run at once, here or on a cluster).
 */
class SweepProgress
{
  public:
    /**
     * \param total the sweep's points
     * \param done those finished before (resumed), not timed
     */
    SweepProgress(std::size_t total, std::size_t done);

    /**
     * \brief Counts a point that ended.
     * \param failed it did not finish
     * \param elapsed the wall time since this session's points started, s
     * \return "D/T[ (F failed)]" and, while points remain, "; about X left"
     */
    std::string Ended(bool failed, double elapsed);

    /// \return \p seconds as "42 s", "3 min 5 s" or "2 h 10 min"
    static std::string Duration(double seconds);

  private:
    std::size_t m_total;  //!< Points of the sweep
    std::size_t m_done;   //!< Points ended (finished or failed), resumed ones included
    std::size_t m_failed; //!< Points failed
    std::size_t m_timed;  //!< Points this session ran
};

} // namespace ns3

#endif /* SWEEP_PROGRESS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DELAY_SWEEP_PRESET_H
#define DELAY_SWEEP_PRESET_H

#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The delay sweep (the paper's Fig. 8): iteration time against the OCS
 *        reconfiguration delay, for Opus on demand and with provisioning, normalized to
 *        electrical rails, the job run packet by packet (or on the flow model) once per
 *        point, beside the testbed's measured steps where the job has them.
 *
 * A preset of photonic-rails-sweep (--preset=delay), also the program
 * photonic-rails-delay-sweep. Its points (the baseline, then every mode at every delay) run
 * through SweepDriver, here (--workers) or on Slurm, each in DIR/runs/<fabric>-<delay>ms/ as
 * this program again with --point. Writes DIR/delay-sweep.csv, delay-sweep-slopes.csv and
 * delay-sweep.plt/.png, and prints the tables.
 */
class DelaySweepPreset
{
  public:
    /**
     * \brief The program's main().
     * \param argc argument count
     * \param argv arguments (--preset removed)
     * \param program the name its messages start with
     * \param preset the argument that selected the preset ("" for its own program), given
     *        again to the points' runs
     * \return the exit status
     */
    static int Main(int argc, char* argv[], const std::string& program, const std::string& preset);
};

} // namespace ns3

#endif /* DELAY_SWEEP_PRESET_H */

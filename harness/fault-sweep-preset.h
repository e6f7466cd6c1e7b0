/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAULT_SWEEP_PRESET_H
#define FAULT_SWEEP_PRESET_H

#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The fault sweep: what one failure costs a training job on electrical and optical
 *        rails. The job runs once without faults and once per kind of failure (a NIC port, a
 *        leaf-spine cable, a switch, an OCS port, a whole OCS, a failed OCS reconfiguration)
 *        at --at, repaired --duration later, on each fabric of --fabrics.
 *
 * A preset of photonic-rails-sweep (--preset=fault), also the program
 * photonic-rails-fault-sweep. Its points run through SweepDriver, here (--workers) or on
 * Slurm, each in DIR/runs/<fabric>-<kind>/ as this program again with --point; a run that
 * cannot finish is reported as such and the sweep goes on. Prints the penalty (makespan
 * minus the fault-free run's) and the recovery of each, and writes DIR/fault-sweep.csv and
 * fault-sweep.plt/.png.
 */
class FaultSweepPreset
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

#endif /* FAULT_SWEEP_PRESET_H */

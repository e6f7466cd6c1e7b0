/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-fault-sweep: what one failure costs a training job on electrical and
 * optical rails. The job runs packet by packet once without faults and once per kind of
 * failure (a NIC port, a leaf-spine cable, a switch, an OCS port, a whole OCS, a failed
 * OCS reconfiguration) at --at, repaired --duration later, on eps, eps-clos and ocs (Opus).
 * The same as photonic-rails-sweep --preset=fault (FaultSweepPreset).
 *
 *   photonic-rails-fault-sweep                          # the paper's job (b16)
 *   photonic-rails-fault-sweep --at=2s --duration=1s --fabrics=eps,ocs --out=faults
 *
 * Writes DIR/fault-sweep.csv, DIR/fault-sweep.plt and (gnuplot installed)
 * DIR/fault-sweep.png, and every run's outputs in DIR/runs/<fabric>-<fault>/.
 */

#include "ns3/fault-sweep-preset.h"

int
main(int argc, char* argv[])
{
    return ns3::FaultSweepPreset::Main(argc, argv, "photonic-rails-fault-sweep", "");
}

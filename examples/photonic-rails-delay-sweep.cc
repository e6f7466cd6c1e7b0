/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-delay-sweep: iteration time against the OCS reconfiguration delay, for Opus
 * on demand and with provisioning, normalized to electrical rails (the paper's Fig. 8), by
 * running the job packet by packet once per point. The same as photonic-rails-sweep
 * --preset=delay (DelaySweepPreset).
 *
 *   photonic-rails-delay-sweep                               # the paper's Llama3-8B job
 *   photonic-rails-delay-sweep --delays=0,25,100 --workers=2 --out=sweep
 *   photonic-rails-delay-sweep --model=llama3-8b --tp=4 --fsdp=2 --pp=2 --preset=perlmutter
 *   photonic-rails-delay-sweep --slurm --partition=cpu --time=60  # one Slurm task per run
 *
 * Writes DIR/delay-sweep.csv, DIR/delay-sweep-slopes.csv, DIR/delay-sweep.plt and (gnuplot
 * installed) DIR/delay-sweep.png, and every run's CONTRACT outputs in
 * DIR/runs/<fabric>-<delay>ms/. The same command again reuses the runs that finished.
 */

#include "ns3/delay-sweep-preset.h"

int
main(int argc, char* argv[])
{
    return ns3::DelaySweepPreset::Main(argc, argv, "photonic-rails-delay-sweep", "");
}

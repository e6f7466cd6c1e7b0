/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-fault-sweep: photonic-rails-sweep --preset=fault (see FaultSweepPreset).
 */

#include "ns3/fault-sweep-preset.h"

int
main(int argc, char* argv[])
{
    return ns3::FaultSweepPreset::Main(argc, argv, "photonic-rails-fault-sweep", "");
}

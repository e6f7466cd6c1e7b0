/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * photonic-rails-delay-sweep: photonic-rails-sweep --preset=delay (see DelaySweepPreset).
 */

#include "ns3/delay-sweep-preset.h"

int
main(int argc, char* argv[])
{
    return ns3::DelaySweepPreset::Main(argc, argv, "photonic-rails-delay-sweep", "");
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Debian ships no ns-3 test-runner binary; this is ours. It links the module's TestSuites
 * (static registrations) and hands the command line to ns-3's TestRunner.
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}

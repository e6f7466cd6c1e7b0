/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SPLITMIX_HASH_H
#define SPLITMIX_HASH_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief splitmix64's finalizer: a fast, well-mixing, platform-independent 64-bit hash
 *        step. The ECMP choices of the packet switches (EpsSwitch) and of the flow model
 *        (FlowFabric) hash with it.
 * \param x the value
 * \return its hash
 */
inline uint64_t
SplitMix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

} // namespace ns3

#endif /* SPLITMIX_HASH_H */

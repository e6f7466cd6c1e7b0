/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DELAY_MS_LIST_H
#define DELAY_MS_LIST_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The programs' --delays flag: reconfiguration delays as plain numbers of ms.
 *
 * One set of rules for every program that sweeps delays (opus-phase-replay and
 * photonic-rails-delay-sweep): an item is
 * a number of ms without sign or unit ("25", "2.5", "1e3"), at most MAX_MS; a positive item
 * is at least 1e-6 ms (1 ns, the simulator's tick: 1e-400 must not read as no delay); each
 * delay appears once. Errors are one line quoting the item as typed (StrictCommandLine::Quote).
 */
class DelayMsList
{
  public:
    /// Longest delay: 10^9 ms = 10^6 s, StrictCommandLine::ParseTime's bound on durations.
    static constexpr double MAX_MS = 1e9;

    /**
     * \param item one item of --delays, as typed
     * \return the delay in ms, rounded to whole ns as the simulation's clock (throws
     *         std::invalid_argument if it is not a plain number, longer than MAX_MS or
     *         positive but below 1 ns)
     */
    static double ParseItem(const std::string& item);

    /**
     * \param text the value of --delays: comma-separated items
     * \return the delays in ms, in the order given (throws std::invalid_argument on a bad
     *         item, an empty item or a delay named twice, e.g. "0,0" or "1,1.0")
     */
    static std::vector<double> Parse(const std::string& text);
};

} // namespace ns3

#endif /* DELAY_MS_LIST_H */

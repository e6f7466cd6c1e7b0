/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "delay-ms-list.h"

#include "strict-command-line.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DelayMsList");

double
DelayMsList::ParseItem(const std::string& item)
{
    static const std::regex number("[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?");
    if (!std::regex_match(item, number))
    {
        throw std::invalid_argument("--delays: " + StrictCommandLine::Quote(item) +
                                    " is not a delay in ms (a number >= 0 without a unit, "
                                    "e.g. 25)");
    }
    double ms = std::strtod(item.c_str(), nullptr); // 1e400 is infinity: refused below
    if (!(ms <= MAX_MS))
    {
        throw std::invalid_argument("--delays: " + StrictCommandLine::Quote(item) +
                                    " ms is longer than 10^6 s");
    }
    // Below 1 ns the clock has no tick: 1e-400 underflowed to 0 ms and 5e-7 ran at 1 ns,
    // shown as 0.000 ms. Digits that are not all zero make a positive delay, whatever it
    // reads as.
    bool positive =
        item.substr(0, item.find_first_of("eE")).find_first_of("123456789") != std::string::npos;
    if (positive && !(ms * 1e6 >= 1))
    {
        throw std::invalid_argument("--delays: " + StrictCommandLine::Quote(item) +
                                    " ms is below the simulator's resolution of 1 ns (1e-6 ms; "
                                    "use 0 for none)");
    }
    return std::llround(ms * 1e6) / 1e6; // whole ns, as the simulation's clock
}

std::vector<double>
DelayMsList::Parse(const std::string& text)
{
    std::vector<double> delays;
    for (const std::string& item : StrictCommandLine::SplitList("delays", text))
    {
        double ms = ParseItem(item);
        // A repeat is a typo or a script's bug: the sweep would run it twice into one folder.
        if (std::find(delays.begin(), delays.end(), ms) != delays.end())
        {
            throw std::invalid_argument("--delays names " + item + " ms twice");
        }
        delays.push_back(ms);
    }
    return delays;
}

} // namespace ns3

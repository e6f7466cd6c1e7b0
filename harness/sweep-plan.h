/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWEEP_PLAN_H
#define SWEEP_PLAN_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One run of a sweep: photonic-rails-sim's flags, and what sets it apart from the
 *        other runs.
 */
struct SweepPoint
{
    std::string folder; //!< Its run folder, under the sweep's runs/
    /// (flag, value) of what varies, e.g. {{"fabric", "ocs"}, {"reconfigDelay", "10ms"}}
    std::vector<std::pair<std::string, std::string>> labels;
    std::vector<std::string> arguments; //!< The program's arguments
};

/**
 * \ingroup photonic-rails
 * \brief A cartesian sweep over photonic-rails-sim's flags: axes (--vary=flag=v1,v2), flags
 *        every point takes, and filters (--skip, --only) of conditions flag=value or
 *        flag!=value, all of which must hold for the filter to match.
 *
 * Points are numbered in the product's order, the first axis slowest, after the filters;
 * a point's folder is its number on four digits (0000, 0001...). A point's arguments are
 * the flags of every point, then its varied ones, then --out=RUNS/FOLDER.
 */
class SweepPlan
{
  public:
    /// A condition of a filter.
    struct Condition
    {
        std::string flag;  //!< The flag
        std::string value; //!< Its value, as given
        bool equal{true};  //!< flag=value (true) or flag!=value
    };

    using Filter = std::vector<Condition>; //!< Conditions that all hold

    /// Combinations of the axes at most (before the filters): each is looked at
    static constexpr uint64_t MAX_PRODUCT = 1000000;
    /// Points at most (after the filters): each is a folder, a process, an array task
    static constexpr std::size_t MAX_POINTS = 100000;

    /**
     * \brief Adds an axis from "flag=v1,v2,...".
     * \throws std::invalid_argument with a one-line reason (no '=', an empty value, a flag
     *         varied twice or set for every point, --out, a value given twice)
     */
    void AddAxis(const std::string& text);

    /// Adds an axis of the values given (from a sweep file), checked as AddAxis(text).
    void AddAxis(const std::string& flag, const std::vector<std::string>& values);

    /**
     * \brief Adds a flag every point takes, "--flag=value" (photonic-rails-sim's form).
     * \throws std::invalid_argument if it is not of that form, is --out or is varied
     */
    void AddFixed(const std::string& argument);

    /// Adds a filter "flag=v,flag!=w": points matching it are left out (checked by Points(),
    /// once every axis is known).
    void AddSkip(const std::string& text);

    /// Adds a filter: if any is given, only points matching one of them are kept.
    void AddOnly(const std::string& text);

    /**
     * \brief Reads a sweep file: a JSON object with "vary" (an object of flag -> list of
     *        values, in the order of the axes), optional "flags" (flag -> value, for every
     *        point), "skip" and "only" (lists of filters as on the command line). Values may
     *        be strings, numbers (a whole number as an integer, 1e1 as 10) or booleans.
     * \throws std::invalid_argument with the file's name and a one-line reason
     */
    void ReadFile(const std::string& path);

    /**
     * \param runs the folder of the points' run folders (their --out is RUNS/FOLDER)
     * \return the points, after the filters
     * \throws std::invalid_argument if there is no axis, a filter names a flag not varied or
     *         a value its axis lacks, or every point is filtered out
     */
    std::vector<SweepPoint> Points(const std::string& runs) const;

    /// \return the varied flags, in axis order
    std::vector<std::string> VariedFlags() const;

  private:
    /// \return a filter parsed from "flag=v,flag!=w" (\p what names the flag for errors)
    Filter ParseFilter(const std::string& what, const std::string& text) const;

    /// \return true if \p labels satisfies every condition of \p filter
    static bool Matches(const Filter& filter,
                        const std::vector<std::pair<std::string, std::string>>& labels);

    /// Throws if \p flag may not be \p varied (or set for every point): --out, or taken
    void CheckNewFlag(const std::string& flag, bool varied) const;

    std::vector<std::pair<std::string, std::vector<std::string>>> m_axes; //!< flag -> values
    std::vector<std::pair<std::string, std::string>> m_fixed;             //!< Flags of every point
    std::vector<std::string> m_skip;                                      //!< --skip, as given
    std::vector<std::string> m_only;                                      //!< --only, as given
};

} // namespace ns3

#endif /* SWEEP_PLAN_H */

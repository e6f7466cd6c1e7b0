/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sweep-table.h"

#include "experiment-output.h"

#include "ns3/csv-field.h"
#include "ns3/json-input.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Appends the scalars of \p value under \p name to \p out.
void
Flatten(const std::string& name,
        const nlohmann::json& value,
        std::vector<std::pair<std::string, std::string>>& out)
{
    if (value.is_object())
    {
        for (const auto& [key, item] : value.items())
        {
            Flatten(name.empty() ? key : name + "." + key, item, out);
        }
    }
    else if (value.is_string())
    {
        out.emplace_back(name, value.get<std::string>());
    }
    else if (value.is_number_float())
    {
        // The shortest text that reads back the same double (dump() may print 17 digits:
        // 0.07000573199999999 for 0.070005732).
        char text[32];
        auto end = std::to_chars(text, text + sizeof(text), value.get<double>()).ptr;
        out.emplace_back(name, std::string(text, end));
    }
    else if (value.is_number() || value.is_boolean())
    {
        out.emplace_back(name, value.dump());
    }
}

/// \return true if \p text is a whole number as strtod reads it
bool
IsNumber(const std::string& text, double& value)
{
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size();
}

const char* const STATE_NAMES[] = {"pending", "finished", "failed"};

/// \return \p text as a gnuplot string: double-quoted, with the characters gnuplot would
///         read (quotes, backslashes, backquotes: command substitution) replaced by '_'
std::string
GnuplotText(const std::string& text)
{
    std::string quoted = "\"";
    for (char c : text)
    {
        quoted += c == '"' || c == '\\' || c == '`' || c == '\'' ? '_' : c;
    }
    return quoted + "\"";
}

} // namespace

std::vector<std::pair<std::string, std::string>>
SweepTable::Scalars(const nlohmann::json& summary)
{
    std::vector<std::pair<std::string, std::string>> scalars;
    Flatten("", summary, scalars);
    return scalars;
}

SweepTable::SweepTable(const SweepRunner& runner)
    : m_runner(runner)
{
    for (std::size_t i = 0; i < runner.GetPoints().size(); ++i)
    {
        std::filesystem::path path = runner.FolderOf(i) / "summary.json";
        std::vector<std::pair<std::string, std::string>> row;
        if (runner.StateOf(i) != SweepRunner::PENDING && std::filesystem::exists(path))
        {
            try
            {
                nlohmann::json summary = JsonInput::ReadFile(path.string(), "summary");
                row = summary.is_object() ? Scalars(summary) : row;
            }
            catch (const std::exception&)
            {
                row.clear(); // not a whole summary: no values, rather than wrong ones
            }
        }
        for (const auto& [name, text] : row)
        {
            if (std::find(m_columns.begin(), m_columns.end(), name) == m_columns.end())
            {
                m_columns.push_back(name);
            }
        }
        m_rows.emplace_back(row.begin(), row.end());
    }
}

std::vector<std::size_t>
SweepTable::FinishedWithoutSummary() const
{
    std::vector<std::size_t> empty;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
    {
        if (m_rows[i].empty() && m_runner.StateOf(i) == SweepRunner::FINISHED)
        {
            empty.push_back(i);
        }
    }
    return empty;
}

std::string
SweepTable::Cell(std::size_t i, const std::string& column) const
{
    auto found = m_rows.at(i).find(column);
    return found == m_rows[i].end() ? "" : found->second;
}

void
SweepTable::WriteCsv(const std::string& path) const
{
    const std::vector<SweepPoint>& points = m_runner.GetPoints();
    // The varied flags of every point (a preset's baseline has fewer), in order.
    std::vector<std::string> flags;
    for (const SweepPoint& p : points)
    {
        for (const auto& [flag, value] : p.labels)
        {
            if (std::find(flags.begin(), flags.end(), flag) == flags.end())
            {
                flags.push_back(flag);
            }
        }
    }
    std::ostringstream csv;
    csv << "point,state";
    for (const std::string& flag : flags)
    {
        csv << ',' << CsvField(flag);
    }
    for (const std::string& column : m_columns)
    {
        csv << ',' << CsvField(column);
    }
    csv << '\n';
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        csv << CsvField(points[i].folder) << ',' << STATE_NAMES[m_runner.StateOf(i)];
        std::map<std::string, std::string> labels(points[i].labels.begin(), points[i].labels.end());
        for (const std::string& flag : flags)
        {
            csv << ',' << CsvField(labels[flag]);
        }
        for (const std::string& column : m_columns)
        {
            csv << ',' << CsvField(Cell(i, column));
        }
        csv << '\n';
    }
    ExperimentOutput::WriteAtomically(path, csv.str());
}

void
SweepTable::Plot(const std::string& metric,
                 const ExperimentOutput& out,
                 const std::string& stem,
                 bool render) const
{
    const std::vector<SweepPoint>& points = m_runner.GetPoints();
    // x: the first varied flag's values, as numbers if they all are, else in order.
    std::vector<std::string> xs;
    bool numeric = true;
    for (const SweepPoint& p : points)
    {
        const std::string& x = p.labels.front().second;
        double number = 0;
        numeric = numeric && IsNumber(x, number);
        if (std::find(xs.begin(), xs.end(), x) == xs.end())
        {
            xs.push_back(x);
        }
    }
    std::vector<std::string> series; // the other flags' values, in first-seen order
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> data;
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        double y = 0;
        std::string cell = Cell(i, metric);
        if (m_runner.StateOf(i) != SweepRunner::FINISHED || !IsNumber(cell, y))
        {
            continue;
        }
        std::string name;
        for (std::size_t l = 1; l < points[i].labels.size(); ++l)
        {
            name += (name.empty() ? "" : " ") + points[i].labels[l].first + "=" +
                    points[i].labels[l].second;
        }
        if (data.count(name) == 0)
        {
            series.push_back(name);
        }
        data[name].emplace_back(points[i].labels.front().second, cell);
    }
    if (series.empty())
    {
        throw std::invalid_argument("--metric " + metric +
                                    ": no finished point has it as a number (see the CSV's "
                                    "columns)");
    }
    const std::string& xFlag = points.front().labels.front().first;
    out.WriteFigure(
        stem,
        900,
        560,
        [&](std::ostream& plt) {
            plt << "set title " << GnuplotText(metric + " against " + xFlag) << " noenhanced\n"
                << "set xlabel " << GnuplotText(xFlag) << " noenhanced\nset ylabel "
                << GnuplotText(metric) << " noenhanced\nset grid\nset key outside right "
                << "noenhanced\n";
            if (!numeric)
            {
                plt << "set xtics (";
                for (std::size_t x = 0; x < xs.size(); ++x)
                {
                    plt << (x == 0 ? "" : ", ") << GnuplotText(xs[x]) << " " << x;
                }
                plt << ")\nset xrange [-0.5:" << xs.size() - 0.5 << "]\n";
            }
            plt << "plot ";
            for (std::size_t s = 0; s < series.size(); ++s)
            {
                plt << (s == 0 ? "" : ", ") << "'-' using 1:2 with linespoints title "
                    << GnuplotText(series[s].empty() ? metric : series[s]);
            }
            plt << "\n";
            for (const std::string& name : series)
            {
                for (const auto& [x, y] : data[name])
                {
                    // The number as read (0x10 is 16 to strtod, not to gnuplot), or the
                    // value's place on the axis.
                    double position = 0;
                    if (!numeric || !IsNumber(x, position))
                    {
                        position = double(std::find(xs.begin(), xs.end(), x) - xs.begin());
                    }
                    plt << position << ' ' << y << '\n';
                }
                plt << "e\n";
            }
        },
        render);
}

} // namespace ns3

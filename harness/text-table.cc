/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "text-table.h"

#include "ns3/log.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TextTable");

namespace
{

/// Blanks between two columns, at the least.
constexpr std::size_t GAP = 2;

} // namespace

void
TextTable::AddColumn(const std::string& header, Align align, std::size_t width)
{
    m_columns.push_back({header, align, width});
}

void
TextTable::AddRow(const std::vector<std::string>& cells)
{
    if (cells.size() != m_columns.size())
    {
        throw std::invalid_argument("TextTable: a row of " + std::to_string(cells.size()) +
                                    " cells in a table of " + std::to_string(m_columns.size()) +
                                    " columns");
    }
    m_rows.push_back(cells);
}

std::vector<std::size_t>
TextTable::Widths() const
{
    std::vector<std::size_t> widths;
    for (std::size_t c = 0; c < m_columns.size(); ++c)
    {
        // Each column but the first starts with its gap; the first needs none.
        std::size_t gap = c == 0 ? 0 : GAP;
        std::size_t widest = m_columns[c].header.size();
        for (const auto& row : m_rows)
        {
            widest = std::max(widest, row[c].size());
        }
        widths.push_back(std::max(m_columns[c].width, widest + gap));
    }
    return widths;
}

void
TextTable::PrintLine(std::ostream& os,
                     const std::vector<std::string>& cells,
                     const std::vector<std::size_t>& widths) const
{
    std::ostringstream line;
    for (std::size_t c = 0; c < cells.size(); ++c)
    {
        if (m_columns[c].align == RIGHT)
        {
            line << std::right << std::setw(widths[c]) << cells[c];
        }
        else if (c == 0)
        {
            line << std::left << std::setw(widths[c]) << cells[c];
        }
        else
        {
            // Its gap first: the cell on its left may be flush with its own right edge.
            line << std::string(GAP, ' ') << std::left << std::setw(widths[c] - GAP) << cells[c];
        }
    }
    std::string text = line.str();
    text.erase(text.find_last_not_of(' ') + 1); // no trailing blanks
    os << text << "\n";
}

void
TextTable::Print(std::ostream& os, const std::string& indent) const
{
    std::vector<std::size_t> widths = Widths();
    std::vector<std::string> headers;
    for (const auto& column : m_columns)
    {
        headers.push_back(column.header);
    }
    os << indent;
    PrintLine(os, headers, widths);
    for (const auto& row : m_rows)
    {
        os << indent;
        PrintLine(os, row, widths);
    }
}

std::string
TextTable::Fixed(double value, int precision)
{
    std::ostringstream text;
    text << std::fixed << std::setprecision(precision) << value;
    return text.str();
}

std::string
TextTable::Percent(double value, double baseline, int precision)
{
    if (!(baseline > 0))
    {
        return "-";
    }
    std::ostringstream text;
    text << std::showpos << std::fixed << std::setprecision(precision)
         << 100.0 * (value / baseline - 1.0) << "%";
    return text.str();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TEXT_TABLE_H
#define TEXT_TABLE_H

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief A table of text printed in columns that never run into each other.
 *
 * The programs print their results as aligned tables. A fixed std::setw() is right for
 * usual values but glues a cell to its neighbour as soon as one is wider (a huge delay, a
 * 300-digit price). Here each column is as wide as its usual width or as its widest cell
 * (header included) plus a gap of two blanks, whichever is more: usual values keep the
 * usual layout and every cell stays apart from the next.
 */
class TextTable
{
  public:
    /// How a column's cells are aligned.
    enum Align
    {
        LEFT, //!< Text, padded on the right
        RIGHT //!< Numbers, padded on the left
    };

    /**
     * \brief Adds a column, left of those added later.
     * \param header its header
     * \param align how its cells are aligned
     * \param width its usual width, gap included (0: as wide as needed)
     */
    void AddColumn(const std::string& header, Align align, std::size_t width = 0);

    /**
     * \brief Adds a row.
     * \param cells one per column (std::invalid_argument otherwise)
     */
    void AddRow(const std::vector<std::string>& cells);

    /// \return the width of each column as printed (gap included)
    std::vector<std::size_t> Widths() const;

    /**
     * \brief Prints the header line, then the rows, each line after \p indent.
     * \param os the stream
     * \param indent text before every line
     */
    void Print(std::ostream& os, const std::string& indent = "") const;

    /**
     * \param value a number
     * \param precision digits after the point
     * \return \p value in fixed notation ("nan" and "inf" as such)
     */
    static std::string Fixed(double value, int precision);

    /**
     * \param value a number
     * \param baseline what it is compared with
     * \param precision digits after the point
     * \return the difference in percent with its sign ("+12.50%"), or "-" if \p baseline
     *         is not positive
     */
    static std::string Percent(double value, double baseline, int precision = 2);

  private:
    /// One column.
    struct Column
    {
        std::string header; //!< Header
        Align align;        //!< Alignment
        std::size_t width;  //!< Usual width
    };

    /// Prints one line of cells.
    void PrintLine(std::ostream& os,
                   const std::vector<std::string>& cells,
                   const std::vector<std::size_t>& widths) const;

    std::vector<Column> m_columns;                //!< Columns, left to right
    std::vector<std::vector<std::string>> m_rows; //!< Rows, top to bottom
};

} // namespace ns3

#endif /* TEXT_TABLE_H */

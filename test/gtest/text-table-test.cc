// TextTable: columns keep their usual width and widen to their widest cell, so that two
// cells never run into each other (issue 11, review: programs, item 11).
#include "ns3/text-table.h"

#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

std::string
Printed(const TextTable& table, const std::string& indent = "")
{
    std::ostringstream out;
    table.Print(out, indent);
    return out.str();
}

} // namespace

TEST(TextTable, UsualValuesKeepTheUsualWidths)
{
    TextTable table;
    table.AddColumn("flow", TextTable::LEFT, 6);
    table.AddColumn("bytes", TextTable::RIGHT, 9);
    table.AddColumn("label", TextTable::LEFT, 8);
    table.AddRow({"A", "8388608", "ab"});
    EXPECT_EQ(table.Widths(), (std::vector<std::size_t>{6, 9, 8}));
    EXPECT_EQ(Printed(table, "  "),
              "  flow      bytes  label\n"
              "  A       8388608  ab\n");
}

TEST(TextTable, AWideCellWidensItsColumnAndStaysApart)
{
    // The glued cells of the review: a dark time of 120000000.000 us in a column of 11, and
    // 21000000 frames next to 500000 bytes.
    TextTable table;
    table.AddColumn("port", TextTable::RIGHT, 4);
    table.AddColumn("sent", TextTable::RIGHT, 7);
    table.AddColumn("dark (us)", TextTable::RIGHT, 11);
    table.AddRow({"0", "21000000", "120000000.000"});
    table.AddRow({"1", "5", "0.000"});
    // Widest cell + 2 blanks: 8 + 2 = 10 and 13 + 2 = 15.
    EXPECT_EQ(table.Widths(), (std::vector<std::size_t>{4, 10, 15}));
    EXPECT_EQ(Printed(table),
              "port      sent      dark (us)\n"
              "   0  21000000  120000000.000\n"
              "   1         5          0.000\n");
}

TEST(TextTable, ALeftColumnAfterARightOneKeepsItsGap)
{
    TextTable table;
    table.AddColumn("n", TextTable::RIGHT);
    table.AddColumn("name", TextTable::LEFT);
    table.AddRow({"123456", "x"});
    EXPECT_EQ(Printed(table),
              "     n  name\n"
              "123456  x\n");
}

TEST(TextTable, RowsMustMatchTheColumns)
{
    TextTable table;
    table.AddColumn("a", TextTable::RIGHT);
    EXPECT_THROW(table.AddRow({"1", "2"}), std::invalid_argument);
}

TEST(TextTable, NumbersAndPercentages)
{
    EXPECT_EQ(TextTable::Fixed(3e10, 3), "30000000000.000");
    EXPECT_EQ(TextTable::Fixed(0.0005, 3), "0.001");
    EXPECT_EQ(TextTable::Percent(1.25, 1.0), "+25.00%");
    EXPECT_EQ(TextTable::Percent(0.5, 1.0, 1), "-50.0%");
    EXPECT_EQ(TextTable::Percent(1.0, 0.0), "-");
}

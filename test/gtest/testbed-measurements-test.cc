/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The compiled-in measurements of the paper's testbed agree with the project's data file,
 * and the least-squares slope reproduces the authors' published slopes.
 */

#include "ns3/testbed-measurements.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> cells;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ','))
    {
        cells.push_back(cell);
    }
    return cells;
}

} // namespace

TEST(TestbedMeasurements, AgreeWithTheDataFile)
{
    std::ifstream file(PR_SOURCE_DIR "/data/measured-step-times.csv");
    ASSERT_TRUE(file.good());
    std::vector<TestbedStep> read;
    std::string line;
    bool header = true;
    while (std::getline(file, line))
    {
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        if (header)
        {
            EXPECT_EQ(line, "job,mode,delay_ms,min_s,mean_s,std_s");
            header = false;
            continue;
        }
        std::vector<std::string> cells = SplitCsv(line);
        ASSERT_GE(cells.size(), 5u) << line;
        read.push_back({cells[0], cells[1], std::stod(cells[2]), std::stod(cells[4])});
    }
    const std::vector<TestbedStep>& compiled = TestbedMeasurements::Steps();
    ASSERT_EQ(read.size(), compiled.size());
    for (std::size_t i = 0; i < read.size(); ++i)
    {
        EXPECT_EQ(read[i].job, compiled[i].job) << i;
        EXPECT_EQ(read[i].mode, compiled[i].mode) << i;
        EXPECT_EQ(read[i].delayMs, compiled[i].delayMs) << i;
        EXPECT_EQ(read[i].meanS, compiled[i].meanS) << i;
    }
}

TEST(TestbedMeasurements, FindsByJobModeAndDelay)
{
    EXPECT_EQ(TestbedMeasurements::Find("b16", "no-controller", 0), 10.1775);
    EXPECT_EQ(TestbedMeasurements::Find("b16", "on-demand", 100), 10.9043);
    EXPECT_EQ(TestbedMeasurements::Find("b24", "provisioning", 0), 13.97);
    EXPECT_FALSE(TestbedMeasurements::Find("b16", "on-demand", 25).has_value());
    EXPECT_FALSE(TestbedMeasurements::Find("b24", "on-demand", 0).has_value());
}

TEST(TestbedMeasurements, SlopesAreThePublishedOnes)
{
    // y = 2x + 1 exactly; a single abscissa has no slope.
    EXPECT_DOUBLE_EQ(TestbedMeasurements::LeastSquaresSlope({0, 1, 3}, {1, 3, 7}), 2.0);
    EXPECT_TRUE(std::isnan(TestbedMeasurements::LeastSquaresSlope({1, 1}, {2, 3})));
    // The authors' slopes over every b16 delay (s per s): 5.56 on demand, 5.34 provisioning.
    for (const auto& [mode, slope] :
         {std::pair<std::string, double>{"on-demand", 5.56}, {"provisioning", 5.34}})
    {
        std::vector<double> x;
        std::vector<double> y;
        for (const TestbedStep& step : TestbedMeasurements::Steps())
        {
            if (step.job == "b16" && step.mode == mode)
            {
                x.push_back(step.delayMs / 1000);
                y.push_back(step.meanS);
            }
        }
        EXPECT_NEAR(TestbedMeasurements::LeastSquaresSlope(x, y), slope, 0.005) << mode;
    }
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The module's GoogleTests (test/gtest: the pure logic) as one ns-3 suite, so that an ns-3
 * tree's ./test.py runs them with the other suites. GoogleTest runs once, when the suite
 * starts; each of its tests then becomes one ns-3 test case ("Suite.Test") that reports its
 * own failures.
 */

#include "ns3/test.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace ns3
{
namespace tests
{

/// The result of one GoogleTest, as an ns-3 test case.
class GoogleTestCase : public TestCase
{
  public:
    /// \param test a GoogleTest that has run
    explicit GoogleTestCase(const testing::TestInfo* test)
        : TestCase(std::string(test->test_suite_name()) + "." + test->name()),
          m_test(test)
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(m_test->result()->Failed(), false, Failures());
    }

    /// \return the summary of each failed assertion of the test
    std::string Failures() const
    {
        std::ostringstream os;
        os << GetName() << " failed";
        const testing::TestResult* result = m_test->result();
        for (int k = 0; k < result->total_part_count(); ++k)
        {
            const testing::TestPartResult& part = result->GetTestPartResult(k);
            if (part.failed())
            {
                os << "\n  " << (part.file_name() ? part.file_name() : "?") << ":"
                   << part.line_number() << ": " << part.summary();
            }
        }
        return os.str();
    }

    const testing::TestInfo* m_test; //!< Owned by GoogleTest's registry
};

/// Every GoogleTest of the module, run once, one test case per GoogleTest.
class GoogleTestTestSuite : public TestSuite
{
  public:
    GoogleTestTestSuite()
        : TestSuite("photonic-rails-googletest", UNIT)
    {
    }

  private:
    /// Runs GoogleTest and adds its tests as cases. Not in the constructor: the
    /// GoogleTests register themselves in other files' static initializers, whose order
    /// relative to this suite's is unspecified.
    void DoSetup() override
    {
        if (m_ran)
        {
            return;
        }
        m_ran = true;
        int argc = 1;
        char name[] = "photonic-rails-googletest";
        char* argv[] = {name, nullptr};
        // GoogleTest's environment variables (GTEST_FILTER, ...) still apply.
        testing::InitGoogleTest(&argc, argv);
        // Each test's failures are reported by its case (GoogleTest's own report would
        // repeat them, 650 lines), and the exit status adds nothing.
        testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
        // (GCC warns on a cast to void of a warn_unused_result call; a named value is fine.)
        [[maybe_unused]] int status = RUN_ALL_TESTS();
        const testing::UnitTest* unit = testing::UnitTest::GetInstance();
        for (int i = 0; i < unit->total_test_suite_count(); ++i)
        {
            const testing::TestSuite* suite = unit->GetTestSuite(i);
            for (int k = 0; k < suite->total_test_count(); ++k)
            {
                if (suite->GetTestInfo(k)->should_run())
                {
                    AddTestCase(new GoogleTestCase(suite->GetTestInfo(k)), TestCase::QUICK);
                }
            }
        }
    }

    void DoRun() override
    {
        const testing::UnitTest* unit = testing::UnitTest::GetInstance();
        NS_TEST_EXPECT_MSG_EQ(unit->ad_hoc_test_result().Failed(),
                              false,
                              "GoogleTest failed outside any test (a global set-up or tear-down)");
        const char* filter = std::getenv("GTEST_FILTER");
        NS_TEST_EXPECT_MSG_GT(
            unit->test_to_run_count(),
            0,
            (filter ? "GTEST_FILTER='" + std::string(filter) + "' selects no GoogleTest"
                    : std::string("no GoogleTest was linked into the test runner")));
    }

    bool m_ran{false}; //!< GoogleTest runs once per process
};

/// The suite's static instance
static GoogleTestTestSuite g_googleTestTestSuite;

} // namespace tests
} // namespace ns3

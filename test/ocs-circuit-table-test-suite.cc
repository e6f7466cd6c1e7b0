/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The circuit state of an OCS alone (OcsCircuitTable: no channel, no device, no frame):
 * circuits set and torn down, requests queued per port, dark time accounted, a failed port
 * and a failed reconfiguration, whole-switch reconfiguration. Expected values are computed by hand
 * in each test from the reconfiguration delay and the request times.
 */

#include "ns3/ocs-circuit-table.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <tuple>
#include <vector>

using namespace ns3;

namespace
{
constexpr uint32_t NO = OcsCircuitTable::NO_PORT;

/// A four-port table with a 10 us blackout that records what it tells its owner.
struct TableBed
{
    /// One circuit event: when, up (true) or down, input, output.
    using Event = std::tuple<Time, bool, uint32_t, uint32_t>;

    TableBed()
        : table(Create<OcsCircuitTable>())
    {
        table->SetRadix(4);
        table->SetReconfigurationDelay(MicroSeconds(10));
        OcsCircuitTable::Listener listener;
        listener.circuitUp = [this](uint32_t i, uint32_t o) {
            events.emplace_back(Simulator::Now(), true, i, o);
        };
        listener.circuitDown = [this](uint32_t i, uint32_t o) {
            events.emplace_back(Simulator::Now(), false, i, o);
        };
        listener.portFailure = [this](uint32_t port, bool failed) {
            failures.emplace_back(port, failed);
        };
        table->SetListener(listener);
        for (uint32_t port = 0; port < 4; ++port)
        {
            table->AddPort();
        }
    }

    ~TableBed()
    {
        table->Clear();
        Simulator::Destroy();
    }

    Ptr<OcsCircuitTable> table;                      //!< The table
    std::vector<Event> events;                       //!< Circuits up and down, in order
    std::vector<std::pair<uint32_t, bool>> failures; //!< Port failures, in order
};
} // namespace

/// Two requests that share ports: the second waits for the first; dark time adds up.
class OcsTableQueueTestCase : public TestCase
{
  public:
    OcsTableQueueTestCase()
        : TestCase("circuits set and torn down in request order; dark time per port")
    {
    }

  private:
    void DoRun() override
    {
        TableBed bed;
        NS_TEST_ASSERT_MSG_EQ(bed.table->Preset({{0, 1}, {1, 0}}).accepted, true, "");
        bed.events.clear();
        std::vector<OcsReconfiguration> done;
        auto record =
            MakeCallback(+[](std::vector<OcsReconfiguration>* d, const OcsReconfiguration& r) {
                d->push_back(r);
            }).Bind(&done);
        // At 5 us: 0 <-> 2 (1 loses its circuit). Changes inputs 0, 1 and 2: ports
        // {0, 1, 2} dark 5..15 us.
        Simulator::Schedule(MicroSeconds(5), [&]() {
            bed.table->Reconfigure({{0, 2}, {2, 0}, {1, NO}}, record);
        });
        // At 7 us: 0 <-> 3 (2 loses its circuit). Touches 0, 2 (the target of 0) and 3, so
        // it waits for the first until 15 us; then ports {0, 2, 3} are dark 15..25 us.
        Simulator::Schedule(MicroSeconds(7), [&]() {
            NS_TEST_EXPECT_MSG_EQ(bed.table->GetPendingRequestCount(), 1, "");
            bed.table->Reconfigure({{0, 3}, {3, 0}, {2, NO}}, record);
            NS_TEST_EXPECT_MSG_EQ(bed.table->GetPendingRequestCount(), 2, "");
        });
        Simulator::Schedule(MicroSeconds(20), [&]() {
            // Port 0: 10 us of the first blackout and 5 of the second so far.
            NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(0), MicroSeconds(15), "");
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsPortDark(0), true, "");
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsPortDark(1), false, "");
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(0), false, "switching");
        });
        Simulator::Run();

        std::vector<TableBed::Event> expected{
            {MicroSeconds(5), false, 0, 1},
            {MicroSeconds(5), false, 1, 0},
            {MicroSeconds(15), true, 0, 2},
            {MicroSeconds(15), true, 2, 0},
            {MicroSeconds(15), false, 0, 2},
            {MicroSeconds(15), false, 2, 0},
            {MicroSeconds(25), true, 0, 3},
            {MicroSeconds(25), true, 3, 0},
        };
        NS_TEST_ASSERT_MSG_EQ(bed.events.size(), expected.size(), "");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((bed.events[i] == expected[i]), true, "event " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(done.size(), 2, "");
        NS_TEST_EXPECT_MSG_EQ(done[0].startedAt, MicroSeconds(5), "");
        NS_TEST_EXPECT_MSG_EQ(done[1].requestedAt, MicroSeconds(7), "");
        NS_TEST_EXPECT_MSG_EQ(done[1].startedAt, MicroSeconds(15), "");
        NS_TEST_EXPECT_MSG_EQ(done[1].endedAt, MicroSeconds(25), "");
        NS_TEST_EXPECT_MSG_EQ((done[1].darkPorts == std::vector<uint32_t>{0, 2, 3}), true, "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(0), MicroSeconds(20), "5..25 us");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(1), MicroSeconds(10), "5..15 us");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(2), MicroSeconds(20), "5..25 us");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(3), MicroSeconds(10), "15..25 us");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetReconfigurationCount(), 2, "");
        NS_TEST_EXPECT_MSG_EQ((bed.table->GetCircuits() == OcsConnections{{0, 3}, {3, 0}}),
                              true,
                              "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPendingRequestCount(), 0, "");
    }
};

/// A failed port darkens the circuits through it (cut once) until its repair.
class OcsTablePortFailureTestCase : public TestCase
{
  public:
    OcsTablePortFailureTestCase()
        : TestCase("a failed port cuts its circuits until the repair; mirrors stay")
    {
    }

  private:
    void DoRun() override
    {
        TableBed bed;
        bed.table->Preset({{0, 1}, {1, 0}, {2, 3}, {3, 2}});
        bed.events.clear();
        Simulator::Schedule(MicroSeconds(3), [&]() { bed.table->SetPortFailed(1, true); });
        Simulator::Schedule(MicroSeconds(4), [&]() {
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(0), false, "into the failed port");
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(1), false, "from the failed port");
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitInPlace(0), true, "the mirrors stay");
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(2), true, "other circuits carry on");
        });
        Simulator::Schedule(MicroSeconds(8), [&]() { bed.table->SetPortFailed(1, false); });
        Simulator::Run();

        std::vector<TableBed::Event> expected{
            {MicroSeconds(3), false, 0, 1},
            {MicroSeconds(3), false, 1, 0},
            {MicroSeconds(8), true, 0, 1},
            {MicroSeconds(8), true, 1, 0},
        };
        NS_TEST_ASSERT_MSG_EQ(bed.events.size(), expected.size(), "");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((bed.events[i] == expected[i]), true, "event " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(bed.failures.size(), 2, "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(0), true, "back with the repair");
        // One cut each, at 3 us: a frame whose last bit passed by 3 us made it, a later one
        // did not; a frame sent after the cut (cut count 1) is not judged by it.
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetCutCount(0), 1, "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetCutCount(2), 0, "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->WasCutBefore(0, 0, MicroSeconds(3)), false, "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->WasCutBefore(0, 0, MicroSeconds(3) + NanoSeconds(1)),
                              true,
                              "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->WasCutBefore(0, 1, MicroSeconds(9)), false, "");
        // A failure darkens no port for reconfiguration: no dark time.
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(1), Time(0), "");
    }
};

/// A reconfiguration made to fail leaves its circuits dark; the same request again sets them.
class OcsTableFailedReconfigurationTestCase : public TestCase
{
  public:
    OcsTableFailedReconfigurationTestCase()
        : TestCase("a failed reconfiguration leaves its circuits dark until it is repeated")
    {
    }

  private:
    void DoRun() override
    {
        TableBed bed;
        bed.table->Preset({{0, 1}, {1, 0}});
        bed.table->FailNextReconfiguration();
        std::vector<bool> failed;
        auto record = MakeCallback(+[](std::vector<bool>* f, const OcsReconfiguration& r) {
                          f->push_back(r.failed);
                      }).Bind(&failed);
        OcsConnections swap{{0, 2}, {2, 0}, {1, NO}};
        bed.table->Reconfigure(swap, record); // 0..10 us, fails
        Simulator::Schedule(MicroSeconds(12), [&]() {
            NS_TEST_EXPECT_MSG_EQ(bed.table->GetCircuits().empty(), true, "all dark");
            NS_TEST_EXPECT_MSG_EQ(bed.table->GetConnection(0), 2, "the mirror moved");
            bed.table->Reconfigure(swap, record); // 12..22 us
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(failed.size(), 2, "");
        NS_TEST_EXPECT_MSG_EQ(failed[0], true, "");
        NS_TEST_EXPECT_MSG_EQ(failed[1], false, "");
        // The repeat changes only the circuits left dark (0 -> 2, 2 -> 0): ports 0 and 2
        // dark twice (20 us), port 1 only the first time (10 us).
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(0), MicroSeconds(20), "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(1), MicroSeconds(10), "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(2), MicroSeconds(20), "");
        NS_TEST_EXPECT_MSG_EQ((bed.table->GetCircuits() == OcsConnections{{0, 2}, {2, 0}}),
                              true,
                              "");
        // An output used twice is rejected and changes nothing.
        OcsRequestResult twice = bed.table->Reconfigure({{1, 2}});
        NS_TEST_EXPECT_MSG_EQ(twice.accepted, false, "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPendingRequestCount(), 0, "");
    }
};

/// Whole-switch: requests on disjoint ports are served one after the other, and each
/// darkens every port, the unchanged circuit 0 <-> 1 included.
class OcsTableWholeSwitchTestCase : public TestCase
{
  public:
    OcsTableWholeSwitchTestCase()
        : TestCase("whole-switch: disjoint requests serialize, unchanged circuits go dark")
    {
    }

  private:
    void DoRun() override
    {
        TableBed bed;
        bed.table->SetWholeSwitch(true);
        bed.table->Preset({{0, 1}, {1, 0}});
        bed.events.clear();
        std::vector<OcsReconfiguration> done;
        std::vector<Time> starts;
        auto record =
            MakeCallback(+[](std::vector<OcsReconfiguration>* d, const OcsReconfiguration& r) {
                d->push_back(r);
            }).Bind(&done);
        auto started = MakeCallback(+[](std::vector<Time>* s, const OcsReconfiguration&) {
                           s->push_back(Simulator::Now());
                       }).Bind(&starts);
        // d = 10 us. At 5 us 2 -> 3: every port dark 5..15 us. At 7 us 3 -> 2, on ports
        // disjoint from the first (per-port it would run 7..17 us): it waits, 15..25 us.
        Simulator::Schedule(MicroSeconds(5), [&]() {
            bed.table->Reconfigure({{2, 3}}, record, started);
        });
        Simulator::Schedule(MicroSeconds(7), [&]() {
            bed.table->Reconfigure({{3, 2}}, record, started);
        });
        Simulator::Schedule(MicroSeconds(10), [&]() {
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(0), false, "unchanged but dark");
            // Every mirror moves (a rotor steps), so no circuit is in place; the configuration
            // stays.
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitInPlace(0), false, "switching");
            NS_TEST_EXPECT_MSG_EQ(bed.table->GetConnection(0), 1, "");
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsPortDark(3), true, "");
        });
        Simulator::Schedule(MicroSeconds(20), [&]() {
            // Every port: 10 us of the first blackout and 5 of the second so far.
            for (uint32_t port = 0; port < 4; ++port)
            {
                NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(port), MicroSeconds(15), "");
            }
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(2), false, "dark for 3 -> 2");
        });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(done.size(), 2, "");
        NS_TEST_EXPECT_MSG_EQ(done[0].startedAt, MicroSeconds(5), "");
        NS_TEST_EXPECT_MSG_EQ(done[0].endedAt, MicroSeconds(15), "");
        NS_TEST_EXPECT_MSG_EQ(done[1].startedAt, MicroSeconds(15), "");
        NS_TEST_EXPECT_MSG_EQ(done[1].endedAt, MicroSeconds(25), "2d after the first start");
        NS_TEST_EXPECT_MSG_EQ(done[0].darkPorts.size(), 4, "every port");
        NS_TEST_EXPECT_MSG_EQ((starts == std::vector<Time>{MicroSeconds(5), MicroSeconds(15)}),
                              true,
                              "");
        // Two blackouts of 10 us on every port.
        for (uint32_t port = 0; port < 4; ++port)
        {
            NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(port), MicroSeconds(20), "");
        }
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetCutCount(0), 2, "cut by both blackouts");
        // At each end the changed circuit comes up, then the darkened ones.
        std::vector<TableBed::Event> expected{
            {MicroSeconds(5), false, 0, 1},
            {MicroSeconds(5), false, 1, 0},
            {MicroSeconds(15), true, 2, 3},
            {MicroSeconds(15), true, 0, 1},
            {MicroSeconds(15), true, 1, 0},
            {MicroSeconds(15), false, 0, 1},
            {MicroSeconds(15), false, 1, 0},
            {MicroSeconds(15), false, 2, 3},
            {MicroSeconds(25), true, 3, 2},
            {MicroSeconds(25), true, 0, 1},
            {MicroSeconds(25), true, 1, 0},
            {MicroSeconds(25), true, 2, 3},
        };
        NS_TEST_ASSERT_MSG_EQ(bed.events.size(), expected.size(), "");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((bed.events[i] == expected[i]), true, "event " << i);
        }
    }
};

/// Whole-switch with a failed port: the blackout does not light a circuit through it, and a
/// repair during the blackout lights it at the blackout's end.
class OcsTableWholeSwitchFailureTestCase : public TestCase
{
  public:
    OcsTableWholeSwitchFailureTestCase()
        : TestCase("whole-switch: a port repaired during a blackout comes up at its end")
    {
    }

  private:
    void DoRun() override
    {
        TableBed bed;
        bed.table->SetWholeSwitch(true);
        bed.table->Preset({{0, 1}, {1, 0}});
        bed.table->SetPortFailed(1, true);
        bed.events.clear();
        bed.table->Reconfigure({{2, 3}}); // every port dark 0..10 us
        Simulator::Schedule(MicroSeconds(5), [&]() {
            bed.table->SetPortFailed(1, false); // still dark: nothing comes up yet
            NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(0), false, "");
        });
        Simulator::Run();
        std::vector<TableBed::Event> expected{
            {MicroSeconds(10), true, 2, 3},
            {MicroSeconds(10), true, 0, 1},
            {MicroSeconds(10), true, 1, 0},
        };
        NS_TEST_ASSERT_MSG_EQ(bed.events.size(), expected.size(), "");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((bed.events[i] == expected[i]), true, "event " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(bed.table->IsCircuitUp(0), true, "");
        NS_TEST_EXPECT_MSG_EQ(bed.table->GetPortDarkTime(1), MicroSeconds(10), "");
    }
};

/// The OCS circuit-table suite.
class OcsCircuitTableTestSuite : public TestSuite
{
  public:
    OcsCircuitTableTestSuite()
        : TestSuite("photonic-rails-ocs-circuit-table", UNIT)
    {
        AddTestCase(new OcsTableQueueTestCase, TestCase::QUICK);
        AddTestCase(new OcsTablePortFailureTestCase, TestCase::QUICK);
        AddTestCase(new OcsTableFailedReconfigurationTestCase, TestCase::QUICK);
        AddTestCase(new OcsTableWholeSwitchTestCase, TestCase::QUICK);
        AddTestCase(new OcsTableWholeSwitchFailureTestCase, TestCase::QUICK);
    }
};

static OcsCircuitTableTestSuite g_ocsCircuitTableTestSuite; //!< Static instance

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FlowRateSolver on hand-solved cases (every expected rate is derived in a comment by
 * progressive filling: the link with the smallest share remaining capacity / unfrozen flows
 * freezes its flows at that share), then on random instances checked against the max-min
 * characterization and a from-scratch solve, then at the scale of a GPU fabric.
 */

#include "ns3/flow-rate-solver.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using LinkId = FlowRateSolver::LinkId;
using FlowId = FlowRateSolver::FlowId;
using Flows = std::vector<FlowId>;

/// \param a a rate \param b another \return true if equal within 1e-9 relative
bool
Close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

/**
 * \brief Checks (a) no link load above capacity, (b) every flow has a bottleneck: a
 *        saturated link on its path where no other flow gets more. (b) is the max-min
 *        characterization: the rates are max-min fair if and only if it holds.
 * \param s the solver, just solved
 * \param active its active flows
 */
void
ExpectMaxMinFair(const FlowRateSolver& s, const Flows& active)
{
    std::vector<double> load(s.GetLinkCount(), 0.0);
    std::vector<double> top(s.GetLinkCount(), 0.0);
    for (FlowId f : active)
    {
        for (LinkId l : s.GetPath(f))
        {
            load[l] += s.GetRate(f);
            top[l] = std::max(top[l], s.GetRate(f));
        }
    }
    uint32_t overloaded = 0;
    for (LinkId l = 0; l < s.GetLinkCount(); ++l)
    {
        overloaded += load[l] > s.GetLinkCapacity(l) * (1 + 1e-9) ? 1 : 0;
    }
    EXPECT_EQ(overloaded, 0u) << "links above capacity";
    uint32_t unbottlenecked = 0;
    for (FlowId f : active)
    {
        const std::vector<LinkId>& path = s.GetPath(f);
        bool bottleneck = std::any_of(path.begin(), path.end(), [&](LinkId l) {
            return load[l] >= s.GetLinkCapacity(l) * (1 - 1e-9) &&
                   s.GetRate(f) >= top[l] * (1 - 1e-9);
        });
        unbottlenecked += bottleneck ? 0 : 1;
    }
    EXPECT_EQ(unbottlenecked, 0u) << "flows without a bottleneck";
}

/**
 * \brief Checks (c): a fresh solver with the same links and flows gives the same rates.
 * \param s the solver, just solved
 * \param active its active flows
 */
void
ExpectSameAsFromScratch(const FlowRateSolver& s, const Flows& active)
{
    FlowRateSolver fresh;
    for (LinkId l = 0; l < s.GetLinkCount(); ++l)
    {
        fresh.AddLink(s.GetLinkCapacity(l));
    }
    Flows freshIds;
    for (FlowId f : active)
    {
        freshIds.push_back(fresh.AddFlow(s.GetPath(f)));
    }
    fresh.Solve();
    uint32_t different = 0;
    for (std::size_t i = 0; i < active.size(); ++i)
    {
        different += Close(s.GetRate(active[i]), fresh.GetRate(freshIds[i])) ? 0 : 1;
    }
    EXPECT_EQ(different, 0u) << "rates differing from a from-scratch solve";
}

/**
 * \param rng the random source
 * \param first the first link to pick from
 * \param count how many links to pick from
 * \return a path of 1 to 4 distinct links among them
 */
std::vector<LinkId>
RandomPath(std::mt19937& rng, LinkId first, uint32_t count)
{
    uint32_t length = std::uniform_int_distribution<uint32_t>(1, 4)(rng);
    std::uniform_int_distribution<LinkId> pick(first, first + count - 1);
    std::vector<LinkId> path;
    while (path.size() < length)
    {
        LinkId l = pick(rng);
        if (std::find(path.begin(), path.end(), l) == path.end())
        {
            path.push_back(l);
        }
    }
    return path;
}

/**
 * \param rng the random source
 * \return a capacity: often 0 or a round value (to make ties), else any in [1, 100)
 */
double
RandomCapacity(std::mt19937& rng)
{
    uint32_t kind = std::uniform_int_distribution<uint32_t>(0, 19)(rng);
    if (kind == 0)
    {
        return 0;
    }
    if (kind < 10)
    {
        return 10.0 * std::uniform_int_distribution<uint32_t>(1, 4)(rng);
    }
    return std::uniform_real_distribution<double>(1, 100)(rng);
}

/// \param active a set of flows \param rng the random source \return one, removed from it
FlowId
TakeRandom(Flows& active, std::mt19937& rng)
{
    std::size_t i = std::uniform_int_distribution<std::size_t>(0, active.size() - 1)(rng);
    FlowId f = active[i];
    active[i] = active.back();
    active.pop_back();
    return f;
}

} // namespace

TEST(FlowRateSolver, OneFlowGetsTheWholeLink)
{
    FlowRateSolver s;
    LinkId l = s.AddLink(10);
    FlowId f = s.AddFlow({l});
    EXPECT_EQ(s.GetRate(f), 0.0); // not solved yet
    EXPECT_EQ(s.Solve(), Flows({f}));
    EXPECT_EQ(s.GetRate(f), 10.0); // share 10 / 1
    EXPECT_EQ(s.GetLinkLoad(l), 10.0);
    EXPECT_EQ(s.GetFlowCount(), 1u);
    EXPECT_EQ(s.GetLinkCount(), 1u);
}

TEST(FlowRateSolver, TwoFlowsShareALinkAndTheSurvivorGetsItAll)
{
    FlowRateSolver s;
    LinkId l = s.AddLink(10);
    FlowId a = s.AddFlow({l});
    FlowId b = s.AddFlow({l});
    EXPECT_EQ(s.Solve(), Flows({a, b}));
    EXPECT_EQ(s.GetRate(a), 5.0); // share 10 / 2
    EXPECT_EQ(s.GetRate(b), 5.0);
    s.RemoveFlow(a);
    EXPECT_EQ(s.Solve(), Flows({b})); // only b changed: 10 / 1
    EXPECT_EQ(s.GetRate(b), 10.0);
    EXPECT_FALSE(s.IsActive(a));
    EXPECT_EQ(s.GetFlowCount(), 1u);
    EXPECT_EQ(s.GetFlowsSolved(), 3u); // a and b, then b
}

TEST(FlowRateSolver, ClassicTwoLinkExample)
{
    FlowRateSolver s;
    LinkId a = s.AddLink(10);
    LinkId b = s.AddLink(4);
    FlowId f1 = s.AddFlow({a});
    FlowId f2 = s.AddFlow({a, b});
    FlowId f3 = s.AddFlow({b});
    s.Solve();
    // Shares: A 10 / 2 = 5, B 4 / 2 = 2. B is the bottleneck: f2 and f3 freeze at 2, which
    // leaves A 10 - 2 = 8 for f1 alone.
    EXPECT_EQ(s.GetRate(f2), 2.0);
    EXPECT_EQ(s.GetRate(f3), 2.0);
    EXPECT_EQ(s.GetRate(f1), 8.0);
    EXPECT_EQ(s.GetLinkLoad(a), 10.0);
    EXPECT_EQ(s.GetLinkLoad(b), 4.0);
}

TEST(FlowRateSolver, SlowestLinkLimitsTheFlow)
{
    FlowRateSolver s;
    LinkId fast = s.AddLink(10);
    LinkId slow = s.AddLink(3);
    LinkId mid = s.AddLink(7);
    FlowId through = s.AddFlow({fast, slow, mid});
    FlowId local = s.AddFlow({fast});
    s.Solve();
    // Shares: fast 10 / 2 = 5, slow 3 / 1 = 3, mid 7 / 1 = 7. slow freezes `through` at 3;
    // fast then has 10 - 3 = 7 for `local`; mid keeps 4 unused.
    EXPECT_EQ(s.GetRate(through), 3.0);
    EXPECT_EQ(s.GetRate(local), 7.0);
    EXPECT_EQ(s.GetLinkLoad(mid), 3.0);
}

TEST(FlowRateSolver, ZeroCapacityLinkStopsItsFlowsUntilRestored)
{
    FlowRateSolver s;
    LinkId a = s.AddLink(10);
    LinkId z = s.AddLink(0);
    FlowId f1 = s.AddFlow({a, z});
    FlowId f2 = s.AddFlow({a});
    s.Solve();
    // z's share 0 / 1 = 0 is the smallest: f1 gets 0, f2 all of A's 10.
    EXPECT_EQ(s.GetRate(f1), 0.0);
    EXPECT_EQ(s.GetRate(f2), 10.0);
    s.SetLinkCapacity(z, 4);
    EXPECT_EQ(s.GetLinkCapacity(z), 4.0);
    EXPECT_EQ(s.Solve(), Flows({f1, f2}));
    // Shares: A 10 / 2 = 5, z 4 / 1 = 4: f1 freezes at 4, f2 gets 10 - 4 = 6.
    EXPECT_EQ(s.GetRate(f1), 4.0);
    EXPECT_EQ(s.GetRate(f2), 6.0);
}

TEST(FlowRateSolver, NewFlowIsReportedEvenAtRateZero)
{
    FlowRateSolver s;
    LinkId z = s.AddLink(0);
    FlowId f1 = s.AddFlow({z});
    EXPECT_EQ(s.Solve(), Flows({f1})); // new, at 0
    FlowId f2 = s.AddFlow({z});
    EXPECT_EQ(s.Solve(), Flows({f2})); // f1 stays at 0: not reported
    EXPECT_EQ(s.GetRate(f2), 0.0);
}

TEST(FlowRateSolver, ReSolvesOnlyTheTouchedComponent)
{
    FlowRateSolver s;
    LinkId x = s.AddLink(10);
    LinkId y = s.AddLink(6);
    FlowId a = s.AddFlow({x});
    FlowId b = s.AddFlow({x});
    FlowId c = s.AddFlow({y});
    FlowId d = s.AddFlow({y});
    FlowId e = s.AddFlow({y});
    s.Solve();
    EXPECT_EQ(s.GetFlowsSolved(), 5u);
    EXPECT_EQ(s.GetRate(a), 5.0); // 10 / 2
    EXPECT_EQ(s.GetRate(c), 2.0); // 6 / 3

    s.SetLinkCapacity(x, 20);
    EXPECT_EQ(s.Solve(), Flows({a, b})); // 20 / 2 = 10 each; y's flows are not looked at
    EXPECT_EQ(s.GetFlowsSolved(), 7u);
    EXPECT_EQ(s.GetRate(a), 10.0);
    EXPECT_EQ(s.GetRate(c), 2.0);
    EXPECT_EQ(s.GetRate(d), 2.0);
    EXPECT_EQ(s.GetRate(e), 2.0);

    FlowId f = s.AddFlow({y});
    EXPECT_EQ(s.Solve(), Flows({c, d, e, f})); // 6 / 4 = 1.5 each; x's flows untouched
    EXPECT_EQ(s.GetFlowsSolved(), 11u);
    EXPECT_EQ(s.GetRate(f), 1.5);
    EXPECT_EQ(s.GetRate(b), 10.0);
}

TEST(FlowRateSolver, ReportsOnlyRatesThatChanged)
{
    FlowRateSolver s;
    LinkId l = s.AddLink(8);
    FlowId a = s.AddFlow({l});
    s.Solve();
    EXPECT_TRUE(s.Solve().empty()); // nothing touched: nothing solved
    EXPECT_EQ(s.GetFlowsSolved(), 1u);
    s.SetLinkCapacity(l, 8);
    EXPECT_TRUE(s.Solve().empty()); // re-solved, still 8
    EXPECT_EQ(s.GetFlowsSolved(), 2u);
    EXPECT_EQ(s.GetRate(a), 8.0);
}

TEST(FlowRateSolver, ReusesIdsOfRemovedFlows)
{
    FlowRateSolver s;
    LinkId l0 = s.AddLink(6);
    LinkId l1 = s.AddLink(9);
    FlowId a = s.AddFlow({l0});
    FlowId b = s.AddFlow({l0, l1});
    s.RemoveFlow(a);
    FlowId c = s.AddFlow({l1});
    EXPECT_EQ(c, a);
    EXPECT_TRUE(s.IsActive(c));
    EXPECT_EQ(s.GetPath(c), std::vector<LinkId>({l1}));
    EXPECT_EQ(s.GetFlowCount(), 2u);
    EXPECT_EQ(s.Solve(), Flows({c, b})); // c reuses id 0
    // Shares: l0 6 / 1 = 6, l1 9 / 2 = 4.5: both freeze at 4.5 on l1.
    EXPECT_EQ(s.GetRate(b), 4.5);
    EXPECT_EQ(s.GetRate(c), 4.5);
    // b leaving l0 moves no one, but removing b swaps c within l1's list: c must stay found.
    s.RemoveFlow(b);
    EXPECT_EQ(s.Solve(), Flows({c})); // alone on l1: 9
    EXPECT_EQ(s.GetRate(c), 9.0);
    EXPECT_EQ(s.GetLinkLoad(l0), 0.0);
}

TEST(FlowRateSolver, RejectsBadInput)
{
    FlowRateSolver s;
    EXPECT_THROW(s.AddLink(-1), std::invalid_argument);
    EXPECT_THROW(s.AddLink(std::nan("")), std::invalid_argument);
    EXPECT_THROW(s.AddLink(std::numeric_limits<double>::infinity()), std::invalid_argument);
    LinkId l = s.AddLink(5);
    EXPECT_THROW(s.SetLinkCapacity(l, -0.5), std::invalid_argument);
    EXPECT_THROW(s.SetLinkCapacity(l, std::nan("")), std::invalid_argument);
    EXPECT_THROW(s.SetLinkCapacity(l + 1, 1), std::invalid_argument);
    EXPECT_THROW(s.AddFlow({}), std::invalid_argument);
    EXPECT_THROW(s.AddFlow({l + 1}), std::invalid_argument);
    EXPECT_THROW(s.AddFlow({l, l}), std::invalid_argument);
    EXPECT_THROW(s.RemoveFlow(0), std::invalid_argument);
    FlowId f = s.AddFlow({l});
    s.RemoveFlow(f);
    EXPECT_THROW(s.RemoveFlow(f), std::invalid_argument);
    EXPECT_THROW(s.GetRate(f), std::invalid_argument);
    EXPECT_EQ(s.GetLinkCapacity(l), 5.0); // the failed calls changed nothing
    EXPECT_EQ(s.GetFlowCount(), 0u);
}

TEST(FlowRateSolver, RandomInstancesStayMaxMinFair)
{
    std::mt19937 rng(20240611);
    FlowRateSolver s;
    const uint32_t links = 200;
    for (uint32_t i = 0; i < links; ++i)
    {
        s.AddLink(RandomCapacity(rng));
    }
    Flows active;
    for (uint32_t i = 0; i < 2000; ++i)
    {
        active.push_back(s.AddFlow(RandomPath(rng, 0, links)));
    }
    std::vector<double> before;
    std::vector<bool> added;
    for (uint32_t step = 0; step < 300; ++step)
    {
        // Remember the rates the solve should leave alone unless it reports them.
        before.assign(2000 + 10 * 300, -1.0);
        added.assign(before.size(), step == 0);
        for (FlowId f : active)
        {
            before[f] = s.GetRate(f);
        }
        uint32_t changes = step == 0 ? 0 : std::uniform_int_distribution<uint32_t>(1, 10)(rng);
        for (uint32_t i = 0; i < changes; ++i)
        {
            uint32_t op = std::uniform_int_distribution<uint32_t>(0, 4)(rng);
            if (op < 2)
            {
                FlowId f = s.AddFlow(RandomPath(rng, 0, links));
                active.push_back(f);
                added[f] = true;
            }
            else if (op < 4 && !active.empty())
            {
                s.RemoveFlow(TakeRandom(active, rng));
            }
            else
            {
                LinkId l = std::uniform_int_distribution<LinkId>(0, links - 1)(rng);
                s.SetLinkCapacity(l, RandomCapacity(rng));
            }
        }
        Flows reported = s.Solve();
        ASSERT_TRUE(std::is_sorted(reported.begin(), reported.end()));
        Flows expected;
        for (FlowId f : active)
        {
            if (added[f] || s.GetRate(f) != before[f])
            {
                expected.push_back(f);
            }
        }
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(reported, expected) << "step " << step;
        EXPECT_EQ(s.GetFlowCount(), active.size());
        ExpectMaxMinFair(s, active);
        ExpectSameAsFromScratch(s, active);
        if (HasFailure())
        {
            FAIL() << "at step " << step;
        }
    }
}

TEST(FlowRateSolver, ScalesToAHundredThousandFlows)
{
    // A fabric of 200 pods of 100 links; flows stay in their pod, so a change re-solves one
    // pod's ~500 flows, not all 10^5.
    std::mt19937 rng(7);
    const uint32_t pods = 200;
    const uint32_t linksPerPod = 100;
    FlowRateSolver s;
    for (uint32_t i = 0; i < pods * linksPerPod; ++i)
    {
        s.AddLink(i % 3 == 0 ? 400 : 100);
    }
    Flows active;
    std::vector<uint32_t> podOf;
    std::vector<uint32_t> podFlows(pods, 0);
    auto add = [&](uint32_t pod) {
        FlowId f = s.AddFlow(RandomPath(rng, pod * linksPerPod, linksPerPod));
        active.push_back(f);
        podOf.resize(std::max<std::size_t>(podOf.size(), f + 1));
        podOf[f] = pod;
        ++podFlows[pod];
    };
    std::uniform_int_distribution<uint32_t> anyPod(0, pods - 1);
    for (uint32_t i = 0; i < 100000; ++i)
    {
        add(anyPod(rng));
    }
    EXPECT_EQ(s.Solve().size(), 100000u); // all new
    EXPECT_EQ(s.GetFlowsSolved(), 100000u);
    for (LinkId l = 0; l < s.GetLinkCount(); l += 97)
    {
        EXPECT_LE(s.GetLinkLoad(l), s.GetLinkCapacity(l) * (1 + 1e-9));
    }
    for (uint32_t step = 0; step < 1000; ++step)
    {
        uint64_t solvedBefore = s.GetFlowsSolved();
        uint32_t pod;
        if (step % 2 == 0)
        {
            pod = anyPod(rng);
            add(pod);
        }
        else
        {
            FlowId f = TakeRandom(active, rng);
            pod = podOf[f];
            --podFlows[pod];
            s.RemoveFlow(f);
        }
        s.Solve();
        EXPECT_LE(s.GetFlowsSolved() - solvedBefore, podFlows[pod]);
        LinkId l = pod * linksPerPod + std::uniform_int_distribution<uint32_t>(0, 99)(rng);
        EXPECT_LE(s.GetLinkLoad(l), s.GetLinkCapacity(l) * (1 + 1e-9));
    }
    EXPECT_EQ(s.GetFlowCount(), active.size());
    ExpectMaxMinFair(s, active);
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "goodput-model.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Seconds in a year of 365.25 days (rates are per part per year)
constexpr double YEAR_S = 365.25 * 86400;

/// \return a uniform number in (0, 1] from \p rng (53 bits; never 0, so log() is finite)
double
Uniform(std::mt19937_64& rng)
{
    // mt19937_64's output is fixed by the standard, unlike the distributions': the same
    // seed gives the same failures with every standard library.
    return (static_cast<double>(rng() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}
} // namespace

double
FailureClass::RatePerSecond() const
{
    return perPartYear * static_cast<double>(parts) / YEAR_S;
}

double
GoodputJob::CheckpointS() const
{
    return checkpointEvery * iterationS;
}

double
GoodputRun::Goodput() const
{
    return wallS > 0 ? usefulS / wallS : 0;
}

GoodputStats
GoodputStats::Of(const std::vector<double>& samples)
{
    GoodputStats s;
    if (samples.empty())
    {
        return s;
    }
    double sum = 0;
    s.min = samples.front();
    s.max = samples.front();
    for (double x : samples)
    {
        sum += x;
        s.min = std::min(s.min, x);
        s.max = std::max(s.max, x);
    }
    s.mean = sum / samples.size();
    if (samples.size() > 1)
    {
        double squares = 0;
        for (double x : samples)
        {
            squares += (x - s.mean) * (x - s.mean);
        }
        s.stddev = std::sqrt(squares / (samples.size() - 1));
    }
    return s;
}

GoodputModel::GoodputModel(std::vector<FailureClass> classes, const GoodputJob& job)
    : m_classes(std::move(classes)),
      m_job(job)
{
}

const std::vector<FailureClass>&
GoodputModel::GetClasses() const
{
    return m_classes;
}

std::vector<GoodputFailure>
GoodputModel::Draw(double wallS, uint64_t seed) const
{
    // The superposition of the classes' Poisson processes is one Poisson process of the
    // summed rate; each arrival's class is drawn in proportion to the classes' rates.
    std::vector<double> cumulative;
    double total = 0;
    for (const FailureClass& c : m_classes)
    {
        total += c.RatePerSecond();
        cumulative.push_back(total);
    }
    std::vector<GoodputFailure> failures;
    if (total <= 0)
    {
        return failures;
    }
    std::mt19937_64 rng(seed);
    double t = 0;
    while (true)
    {
        t += -std::log(Uniform(rng)) / total;
        if (t >= wallS)
        {
            return failures;
        }
        double pick = Uniform(rng) * total;
        // pick > 0, so a class of rate 0 (its bound equal to the one before) is never found
        auto it = std::lower_bound(cumulative.begin(), cumulative.end(), pick);
        uint32_t cause =
            static_cast<uint32_t>(std::min<size_t>(it - cumulative.begin(), m_classes.size() - 1));
        failures.push_back({t, cause});
    }
}

double
GoodputModel::OrderAfter(const GoodputFailure& f, std::vector<double>& spareBack) const
{
    double detected = f.atS + m_job.detectionS;
    if (m_classes[f.cause].recovery == FailureClass::IN_PLACE)
    {
        return detected;
    }
    double repaired = f.atS + m_job.repairS;
    if (!m_job.swap || spareBack.empty())
    {
        return std::max(detected, repaired);
    }
    auto spare = std::min_element(spareBack.begin(), spareBack.end());
    if (*spare >= repaired)
    {
        // Every spare is out until after the failed server's own repair: it restarts there,
        // with no network change.
        return std::max(detected, repaired);
    }
    double order = std::max(detected, *spare) + m_job.swapS;
    *spare = repaired; // the failed server, once repaired, is a spare
    return order;
}

GoodputRun
GoodputModel::Play(const std::vector<GoodputFailure>& failures, double wallS) const
{
    GoodputRun run;
    run.wallS = wallS;
    run.count.assign(m_classes.size(), 0);
    run.lostWorkS.assign(m_classes.size(), 0);
    run.downS.assign(m_classes.size(), 0);
    std::vector<double> spareBack(m_job.swap ? m_job.spares : 0, 0.0);
    double checkpointS = m_job.CheckpointS();
    double t = 0;        // accounted up to here
    double progress = 0; // training done and not lost
    bool down = false;
    double order = 0;  // the pending restart order
    double resume = 0; // training again
    auto clip = [wallS](double x) { return std::min(x, wallS); };
    for (const GoodputFailure& f : failures)
    {
        if (f.atS >= wallS)
        {
            break;
        }
        if (down && f.atS >= resume)
        {
            down = false;
            t = resume;
        }
        uint32_t c = f.cause;
        ++run.count[c];
        if (!down)
        {
            progress += f.atS - t;
            t = f.atS;
            // Restart points are checkpoints, so checkpoints sit at multiples of the interval
            // of training; without an interval only the start is one.
            double kept = checkpointS > 0 ? std::floor(progress / checkpointS) * checkpointS : 0;
            run.lostWorkS[c] += progress - kept;
            progress = kept;
            order = OrderAfter(f, spareBack);
            resume = order + m_job.restoreS;
            run.downS[c] += clip(resume) - f.atS;
            down = true;
        }
        else
        {
            // Down already: nothing more is lost; the restart waits for this failure too.
            order = std::max(order, OrderAfter(f, spareBack));
            double later = std::max(resume, order + m_job.restoreS);
            run.downS[c] += clip(later) - clip(resume);
            resume = later;
        }
    }
    if (down && resume < wallS)
    {
        down = false;
        t = resume;
    }
    if (!down)
    {
        progress += wallS - t;
    }
    run.usefulS = progress;
    return run;
}

GoodputRun
GoodputModel::Run(double wallS, uint64_t seed) const
{
    return Play(Draw(wallS, seed), wallS);
}

double
GoodputModel::ClosedForm(double ratePerS, double recoveryS, double checkpointS)
{
    return 1.0 / (1.0 + ratePerS * (recoveryS + checkpointS / 2));
}

ClusterParts
ClusterParts::FromBill(const CostBill& bill, uint32_t gpusPerServer)
{
    ClusterParts p;
    p.gpus = bill.gpus;
    p.hosts = gpusPerServer > 0 ? bill.gpus / gpusPerServer : 0;
    p.nics = bill.gpus;
    p.transceivers = bill.transceivers;
    if (bill.network == CostNetwork::OPUS)
    {
        p.ocses = bill.switches;
    }
    else
    {
        p.switches = bill.switches;
    }
    return p;
}

ClusterParts
Llama3Rates::Parts()
{
    OpusCostModel::Config config;
    config.gpusPerServer = GPUS_PER_HOST;
    OpusCostModel model(config);
    return ClusterParts::FromBill(model.Bill(CostNetwork::RAIL_OPTIMIZED, GPUS), GPUS_PER_HOST);
}

std::vector<std::pair<std::string, double>>
Llama3Rates::PerPartYear(double switchShare)
{
    if (!(switchShare >= 0 && switchShare <= 1))
    {
        throw std::invalid_argument("switch share out of [0, 1]");
    }
    ClusterParts p = Parts();
    double years = DAYS / 365.25;
    auto per = [years](double failures, uint64_t parts) {
        return failures / static_cast<double>(parts) / years;
    };
    return {{"gpu", per(GPU, p.gpus)},
            {"host", per(HOST, p.hosts)},
            {"nic", per(NIC, p.nics)},
            {"software", per(SOFTWARE, p.gpus)},
            {"switch", per(NETWORK * switchShare, p.switches)},
            {"transceiver", per(NETWORK * (1 - switchShare), p.transceivers)}};
}

} // namespace ns3

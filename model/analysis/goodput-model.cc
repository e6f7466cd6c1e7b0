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
    // Each class draws its arrivals from its own stream, seeded by the seed and its index:
    // two models with the same class at the same index and rate (the GPUs of two fabrics)
    // see the same failures of it, so their difference is the other classes' (common
    // random numbers), not noise.
    std::vector<GoodputFailure> failures;
    for (uint32_t c = 0; c < m_classes.size(); ++c)
    {
        double rate = m_classes[c].RatePerSecond();
        if (!(rate > 0))
        {
            continue;
        }
        std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), c};
        std::mt19937_64 rng(seq);
        for (double t = -std::log(Uniform(rng)) / rate; t < wallS;
             t += -std::log(Uniform(rng)) / rate)
        {
            failures.push_back({t, c});
        }
    }
    std::stable_sort(
        failures.begin(),
        failures.end(),
        [](const GoodputFailure& a, const GoodputFailure& b) { return a.atS < b.atS; });
    return failures;
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

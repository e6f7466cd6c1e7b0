/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "opus-cost-model.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpusCostModel");

namespace
{

/// A reason if \p value is not in [0, \p most]: a larger one makes the totals infinite (and
/// their ratios nan), or too long to read.
std::string
CheckUnit(const std::string& name, double value, double most)
{
    if (!(value >= 0 && value <= most))
    {
        std::ostringstream reason;
        reason << name << " must be in [0, " << most << "] (got " << value << ")";
        return reason.str();
    }
    return "";
}

/// The nearest integer radix; the notebook rounds (never pads up) and needs k >= 2.
uint32_t
RoundRadix(double exact)
{
    return std::max<uint32_t>(2, static_cast<uint32_t>(std::lround(exact)));
}

} // namespace

std::string
CostUnitPrices::Validate() const
{
    const std::tuple<const char*, double, double> units[] = {
        {"transceiver cost", transceiverUsd, MAX_USD},
        {"transceiver power", transceiverW, MAX_W},
        {"switch port cost", switchPortUsd, MAX_USD},
        {"switch port power", switchPortW, MAX_W},
        {"OCS port cost", ocsPortUsd, MAX_USD},
        {"OCS port power", ocsPortW, MAX_W},
    };
    for (const auto& [name, value, most] : units)
    {
        std::string reason = CheckUnit(name, value, most);
        if (!reason.empty())
        {
            return reason;
        }
    }
    return "";
}

std::string
OpusCostModel::Config::Validate() const
{
    if (gpusPerServer == 0 || gpusPerServer > MAX_GPUS)
    {
        return "GPUs per server must be between 1 and " + std::to_string(MAX_GPUS);
    }
    if (ocsPortsPerGpu == 0 || ocsPortsPerGpu > MAX_PER_GPU)
    {
        return "OCS ports per GPU must be between 1 and " + std::to_string(MAX_PER_GPU);
    }
    if (ocsTransceiversPerGpu > MAX_PER_GPU)
    {
        return "transceivers per GPU must be at most " + std::to_string(MAX_PER_GPU);
    }
    return prices.Validate();
}

OpusCostModel::OpusCostModel(const Config& config)
    : m_config(config)
{
    std::string reason = config.Validate();
    if (!reason.empty())
    {
        throw std::invalid_argument(reason);
    }
}

const OpusCostModel::Config&
OpusCostModel::GetConfig() const
{
    return m_config;
}

std::string
OpusCostModel::CheckGpus(uint64_t gpus) const
{
    std::ostringstream reason;
    if (gpus == 0 || gpus > MAX_GPUS)
    {
        reason << "a network needs between 1 and " << MAX_GPUS << " GPUs (got " << gpus << ")";
    }
    else if (gpus % m_config.gpusPerServer != 0)
    {
        reason << gpus << " GPUs are not whole servers of " << m_config.gpusPerServer << " GPUs";
    }
    return reason.str();
}

CostBill
OpusCostModel::Count(CostNetwork network, uint64_t gpus) const
{
    std::string reason = CheckGpus(gpus);
    if (!reason.empty())
    {
        throw std::invalid_argument(reason);
    }
    CostBill bill;
    bill.network = network;
    bill.gpus = gpus;
    bill.servers = gpus / m_config.gpusPerServer;
    const uint64_t rails = m_config.gpusPerServer;
    switch (network)
    {
    case CostNetwork::FAT_TREE: {
        // A k-ary fat-tree holds k^3/4 hosts: the radix whose fat-tree is nearest N.
        const uint64_t k = RoundRadix(std::cbrt(4.0 * static_cast<double>(gpus)));
        bill.radix = static_cast<uint32_t>(k);
        bill.switches = k * k + (k * k) / 4; // k^2/2 edge + k^2/2 aggregation, k^2/4 core
        bill.switchPorts = k * bill.switches;
        bill.transceivers = gpus + bill.switchPorts;
        break;
    }
    case CostNetwork::RAIL_OPTIMIZED: {
        // Each rail is a pod of a fat-tree: (k/2)^2 = S GPUs under k/2-down leaves and as
        // many aggregation switches; the core joins the pods (rails) as in a fat-tree.
        const uint64_t k = RoundRadix(std::sqrt(4.0 * static_cast<double>(bill.servers)));
        const uint64_t perRail = (bill.servers / (k / 2)) * 2;
        const uint64_t core = gpus / k;
        bill.radix = static_cast<uint32_t>(k);
        bill.switches = rails * perRail + core;
        bill.switchPorts = k * bill.switches;
        bill.transceivers = gpus + bill.switchPorts;
        break;
    }
    case CostNetwork::OPUS: {
        // One OCS per rail, every NIC port of the rail on it; the OCS needs no transceiver.
        bill.radix = static_cast<uint32_t>(bill.servers * m_config.ocsPortsPerGpu);
        bill.switches = rails;
        bill.ocsPorts = gpus * m_config.ocsPortsPerGpu;
        bill.transceivers = gpus * m_config.ocsTransceiversPerGpu;
        break;
    }
    }
    return bill;
}

CostBill
OpusCostModel::Bill(CostNetwork network, uint64_t gpus) const
{
    CostBill bill = Count(network, gpus);
    const CostUnitPrices& p = m_config.prices;
    const auto switchPorts = static_cast<double>(bill.switchPorts);
    const auto ocsPorts = static_cast<double>(bill.ocsPorts);
    const auto transceivers = static_cast<double>(bill.transceivers);
    bill.costUsd =
        p.switchPortUsd * switchPorts + p.ocsPortUsd * ocsPorts + p.transceiverUsd * transceivers;
    bill.powerW =
        p.switchPortW * switchPorts + p.ocsPortW * ocsPorts + p.transceiverW * transceivers;
    return bill;
}

OpusCostModel::Saving
OpusCostModel::Compare(const CostBill& baseline, const CostBill& opus)
{
    // A free baseline (all prices zero) leaves nothing to save.
    Saving saving;
    saving.cost = baseline.costUsd > 0 ? 1.0 - opus.costUsd / baseline.costUsd : 0.0;
    saving.power = baseline.powerW > 0 ? 1.0 - opus.powerW / baseline.powerW : 0.0;
    return saving;
}

OpusCostModel::Headline
OpusCostModel::MaxSaving(CostNetwork baseline, const std::vector<uint64_t>& sizes) const
{
    if (sizes.empty())
    {
        throw std::invalid_argument("the headline needs at least one network size");
    }
    Headline headline;
    bool first = true;
    for (uint64_t gpus : sizes)
    {
        Saving saving = Compare(Bill(baseline, gpus), Bill(CostNetwork::OPUS, gpus));
        if (first || saving.cost > headline.best.cost)
        {
            headline.best.cost = saving.cost;
            headline.costGpus = gpus;
        }
        if (first || saving.power > headline.best.power)
        {
            headline.best.power = saving.power;
            headline.powerGpus = gpus;
        }
        first = false;
    }
    return headline;
}

const std::vector<CostNetwork>&
OpusCostModel::Networks()
{
    static const std::vector<CostNetwork> networks = {CostNetwork::FAT_TREE,
                                                      CostNetwork::RAIL_OPTIMIZED,
                                                      CostNetwork::OPUS};
    return networks;
}

std::string
OpusCostModel::NetworkName(CostNetwork network)
{
    switch (network)
    {
    case CostNetwork::FAT_TREE:
        return "fat-tree";
    case CostNetwork::RAIL_OPTIMIZED:
        return "rail-optimized";
    case CostNetwork::OPUS:
        return "opus";
    }
    return "unknown";
}

} // namespace ns3

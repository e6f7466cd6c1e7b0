/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The cost and power model of the paper's Fig. 7, against counts worked out by hand and the
 * paper's headline (Opus saves up to 70.5% cost and 95.84% power vs rail-optimized).
 */

#include "ns3/opus-cost-model.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{
/// The reference model: DGX H200 (8 GPUs, 8 rails), 2 OCS ports and 1 transceiver per GPU.
OpusCostModel
Reference()
{
    return OpusCostModel(OpusCostModel::Config());
}

/// A bill's counts and totals, as worked out by hand.
struct Expected
{
    uint32_t radix;
    uint64_t switches;
    uint64_t switchPorts;
    uint64_t ocsPorts;
    uint64_t transceivers;
    double costUsd;
    double powerW;
};

void
ExpectBill(const CostBill& bill, const Expected& e)
{
    const std::string name = OpusCostModel::NetworkName(bill.network);
    EXPECT_EQ(bill.radix, e.radix) << name;
    EXPECT_EQ(bill.switches, e.switches) << name;
    EXPECT_EQ(bill.switchPorts, e.switchPorts) << name;
    EXPECT_EQ(bill.ocsPorts, e.ocsPorts) << name;
    EXPECT_EQ(bill.transceivers, e.transceivers) << name;
    EXPECT_NEAR(bill.costUsd, e.costUsd, 1e-6) << name;
    EXPECT_NEAR(bill.powerW, e.powerW, 1e-6) << name;
}
} // namespace

TEST(OpusCostModel, FatTreeOf1024Gpus)
{
    // (4 x 1024)^(1/3) = 16 exactly: a 16-ary fat-tree holds 16^3/4 = 1024 hosts.
    // Switches: 16^2 + 16^2/4 = 256 + 64 = 320; ports 16 x 320 = 5,120.
    // Transceivers: 1,024 GPU ports + 5,120 switch ports = 6,144.
    // Cost: 5,120 x 582.80 + 6,144 x 219 = 2,983,936 + 1,345,536 = 4,329,472 USD.
    // Power: 5,120 x 39.44 + 6,144 x 10 = 201,932.8 + 61,440 = 263,372.8 W.
    CostBill bill = Reference().Bill(CostNetwork::FAT_TREE, 1024);
    EXPECT_EQ(bill.servers, 128u);
    ExpectBill(bill, {16, 320, 5120, 0, 6144, 4329472.0, 263372.8});
}

TEST(OpusCostModel, RailOptimizedOf1024Gpus)
{
    // 128 servers: k = round(sqrt(4 x 128)) = round(22.63) = 23, k/2 = 11 down ports.
    // Per rail: floor(128 / 11) = 11 leaves and 11 aggregation switches = 22; 8 rails = 176.
    // Core: floor(1,024 / 23) = 44. Switches 220; ports 23 x 220 = 5,060.
    // Transceivers: 1,024 + 5,060 = 6,084.
    // Cost: 5,060 x 582.80 + 6,084 x 219 = 2,948,968 + 1,332,396 = 4,281,364 USD.
    // Power: 5,060 x 39.44 + 6,084 x 10 = 199,566.4 + 60,840 = 260,406.4 W.
    ExpectBill(Reference().Bill(CostNetwork::RAIL_OPTIMIZED, 1024),
               {23, 220, 5060, 0, 6084, 4281364.0, 260406.4});
}

TEST(OpusCostModel, OpusOf1024Gpus)
{
    // 8 OCSes of 2 x 128 = 256 ports; 2,048 OCS ports; 1,024 transceivers (GPU side only).
    // Cost: 2,048 x 520 + 1,024 x 219 = 1,064,960 + 224,256 = 1,289,216 USD.
    // Power: 2,048 x 75/192 + 1,024 x 10 = 800 + 10,240 = 11,040 W.
    ExpectBill(Reference().Bill(CostNetwork::OPUS, 1024),
               {256, 8, 0, 2048, 1024, 1289216.0, 11040.0});
}

TEST(OpusCostModel, RailOptimizedOf4096GpusAndItsSaving)
{
    // 512 servers: k = round(sqrt(2,048)) = round(45.25) = 45, k/2 = 22.
    // Per rail 2 x floor(512 / 22) = 2 x 23 = 46; 8 rails = 368; core floor(4,096 / 45) = 91.
    // Switches 459; ports 45 x 459 = 20,655; transceivers 4,096 + 20,655 = 24,751.
    // Cost: 20,655 x 582.80 + 24,751 x 219 = 12,037,734 + 5,420,469 = 17,458,203 USD.
    // Power: 20,655 x 39.44 + 247,510 = 814,633.2 + 247,510 = 1,062,143.2 W.
    // Opus: 8,192 x 520 + 4,096 x 219 = 5,156,864 USD; 8,192 x 75/192 + 40,960 = 44,160 W.
    OpusCostModel model = Reference();
    CostBill rail = model.Bill(CostNetwork::RAIL_OPTIMIZED, 4096);
    CostBill opus = model.Bill(CostNetwork::OPUS, 4096);
    ExpectBill(rail, {45, 459, 20655, 0, 24751, 17458203.0, 1062143.2});
    ExpectBill(opus, {1024, 8, 0, 8192, 4096, 5156864.0, 44160.0});
    OpusCostModel::Saving saving = OpusCostModel::Compare(rail, opus);
    EXPECT_NEAR(saving.cost, 1.0 - 5156864.0 / 17458203.0, 1e-12);
    EXPECT_NEAR(saving.power, 1.0 - 44160.0 / 1062143.2, 1e-12);
}

TEST(OpusCostModel, HeadlineOfThePaper)
{
    // "Opus saves cost by up to 70.5% and power by up to 95.84%": both maxima at 4,096 GPUs
    // (70.46% and 95.842%), over 128 to 1,024 DGX H200 servers.
    OpusCostModel::Headline h =
        Reference().MaxSaving(CostNetwork::RAIL_OPTIMIZED, {1024, 2048, 4096, 8192});
    EXPECT_EQ(h.costGpus, 4096u);
    EXPECT_EQ(h.powerGpus, 4096u);
    EXPECT_NEAR(h.best.cost * 100, 70.5, 0.05);
    EXPECT_NEAR(h.best.power * 100, 95.84, 0.005);
}

TEST(OpusCostModel, FatTreeAndRailOptimizedCostTheSameAt8192Gpus)
{
    // Both are exact there, with 5 switch ports per GPU (edge down and up, aggregation down
    // and up, core): the 32-ary fat-tree has 32^2 + 32^2/4 = 1,280 switches of 32 ports;
    // the rails (1,024 servers, k = sqrt(4,096) = 64) have 8 x 2 x 1,024/32 = 512 switches
    // plus a core of 8,192/64 = 128, 640 switches of 64 ports. Both: 40,960 ports.
    // Transceivers 8,192 + 40,960 = 49,152; cost 40,960 x 582.80 + 49,152 x 219 =
    // 23,871,488 + 10,764,288 = 34,635,776 USD; power 1,615,462.4 + 491,520 = 2,106,982.4 W.
    ExpectBill(Reference().Bill(CostNetwork::FAT_TREE, 8192),
               {32, 1280, 40960, 0, 49152, 34635776.0, 2106982.4});
    ExpectBill(Reference().Bill(CostNetwork::RAIL_OPTIMIZED, 8192),
               {64, 640, 40960, 0, 49152, 34635776.0, 2106982.4});
}

TEST(OpusCostModel, PricesAndOpusPortsAreParameters)
{
    // Doubling the OCS port price adds 2,048 x 520 USD at 1,024 GPUs, and only to Opus.
    OpusCostModel::Config config;
    config.prices.ocsPortUsd = 1040.0;
    OpusCostModel dearer(config);
    OpusCostModel reference = Reference();
    EXPECT_NEAR(dearer.Bill(CostNetwork::OPUS, 1024).costUsd -
                    reference.Bill(CostNetwork::OPUS, 1024).costUsd,
                2048 * 520.0,
                1e-6);
    EXPECT_DOUBLE_EQ(dearer.Bill(CostNetwork::RAIL_OPTIMIZED, 1024).costUsd,
                     reference.Bill(CostNetwork::RAIL_OPTIMIZED, 1024).costUsd);

    // A transceiver per OCS port (2 per GPU) instead of one per GPU: 2,048 transceivers.
    config = OpusCostModel::Config();
    config.ocsTransceiversPerGpu = 2;
    CostBill twice = OpusCostModel(config).Bill(CostNetwork::OPUS, 1024);
    EXPECT_EQ(twice.transceivers, 2048u);
    EXPECT_NEAR(twice.costUsd, 1289216.0 + 1024 * 219.0, 1e-6);

    // GB200 NVL72: 72 rails; 1,152 GPUs = 16 servers, so 72 OCSes of 32 ports.
    config = OpusCostModel::Config();
    config.gpusPerServer = 72;
    CostBill nvl72 = OpusCostModel(config).Bill(CostNetwork::OPUS, 1152);
    EXPECT_EQ(nvl72.switches, 72u);
    EXPECT_EQ(nvl72.radix, 32u);
    EXPECT_EQ(nvl72.ocsPorts, 2304u);
}

TEST(OpusCostModel, RejectsWhatCannotBeCounted)
{
    OpusCostModel model = Reference();
    EXPECT_NE(model.CheckGpus(0), "");
    EXPECT_NE(model.CheckGpus(1020), ""); // not whole servers of 8
    EXPECT_NE(model.CheckGpus(OpusCostModel::MAX_GPUS + 8), "");
    EXPECT_EQ(model.CheckGpus(8), "");
    EXPECT_THROW(model.Bill(CostNetwork::OPUS, 12), std::invalid_argument);
    EXPECT_THROW(model.MaxSaving(CostNetwork::FAT_TREE, {}), std::invalid_argument);

    OpusCostModel::Config config;
    config.prices.switchPortW = -1.0;
    EXPECT_NE(config.Validate(), "");
    EXPECT_THROW(OpusCostModel{config}, std::invalid_argument);
    config = OpusCostModel::Config();
    config.gpusPerServer = 0;
    EXPECT_NE(config.Validate(), "");
    config = OpusCostModel::Config();
    config.ocsPortsPerGpu = 0;
    EXPECT_NE(config.Validate(), "");
}

// Issue 11, review (programs): a price of 1e308 made the totals infinite and the savings nan;
// every price and power is bounded so that the largest network's totals stay finite.
TEST(OpusCostModel, PricesAreBoundedSoTotalsStayFinite)
{
    OpusCostModel::Config config;
    config.gpusPerServer = 8;
    config.ocsPortsPerGpu = OpusCostModel::MAX_PER_GPU;
    config.ocsTransceiversPerGpu = OpusCostModel::MAX_PER_GPU;
    config.prices = {CostUnitPrices::MAX_USD,
                     CostUnitPrices::MAX_W,
                     CostUnitPrices::MAX_USD,
                     CostUnitPrices::MAX_W,
                     CostUnitPrices::MAX_USD,
                     CostUnitPrices::MAX_W};
    EXPECT_EQ(config.Validate(), "");
    OpusCostModel model(config);
    for (CostNetwork network : OpusCostModel::Networks())
    {
        CostBill bill = model.Bill(network, OpusCostModel::MAX_GPUS);
        // At most MAX_PER_GPU OCS ports and as many transceivers per GPU, each at the
        // highest price and power: finite, far from a double's range.
        const double units = 2.0 * OpusCostModel::MAX_PER_GPU * OpusCostModel::MAX_GPUS;
        EXPECT_LE(bill.costUsd, units * CostUnitPrices::MAX_USD)
            << OpusCostModel::NetworkName(network);
        EXPECT_LE(bill.powerW, units * CostUnitPrices::MAX_W)
            << OpusCostModel::NetworkName(network);
        EXPECT_GT(bill.costUsd, 0) << OpusCostModel::NetworkName(network);
    }
    for (double price : {CostUnitPrices::MAX_USD * 1.001, 1e308, -1e-9})
    {
        OpusCostModel::Config bad;
        bad.prices.transceiverUsd = price;
        EXPECT_EQ(bad.Validate(),
                  "transceiver cost must be in [0, 1e+06] (got " +
                      std::string(price == 1e308 ? "1e+308"
                                  : price < 0    ? "-1e-09"
                                                 : "1.001e+06") +
                      ")");
    }
    OpusCostModel::Config bad;
    bad.prices.ocsPortW = CostUnitPrices::MAX_W * 2;
    EXPECT_EQ(bad.Validate(), "OCS port power must be in [0, 10000] (got 20000)");
}

TEST(OpusCostModel, SmallestNetworksStillHaveSwitches)
{
    // One server of 8 GPUs: k is never below 2, so every design has switches and ports.
    OpusCostModel model = Reference();
    for (CostNetwork network : OpusCostModel::Networks())
    {
        CostBill bill = model.Bill(network, 8);
        EXPECT_GT(bill.switches, 0u) << OpusCostModel::NetworkName(network);
        EXPECT_GT(bill.costUsd, 0.0) << OpusCostModel::NetworkName(network);
    }
    EXPECT_EQ(OpusCostModel::NetworkName(CostNetwork::RAIL_OPTIMIZED), "rail-optimized");
}

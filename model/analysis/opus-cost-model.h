/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_COST_MODEL_H
#define OPUS_COST_MODEL_H

#include "ns3/rail-fabric-spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Unit prices and powers of the parts a GPU back-end network is priced by.
 *
 * The defaults are the values behind the paper's Fig. 7 (the authors' notebook, see
 * ../shared/notes/reference-numbers.md): a 400G transceiver; one port of a 64 x 400G
 * Tomahawk-4 switch ($37,299 and 2,524 W per switch, divided by its 64 ports); one OCS port
 * (75 W per 192-port switch). Fibers are not priced.
 */
struct CostUnitPrices
{
    double transceiverUsd{219.0};  //!< One 400G optical transceiver, USD
    double transceiverW{10.0};     //!< One 400G optical transceiver, W
    double switchPortUsd{582.80};  //!< One electrical switch port, USD
    double switchPortW{39.44};     //!< One electrical switch port, W
    double ocsPortUsd{520.0};      //!< One OCS port, USD
    double ocsPortW{75.0 / 192.0}; //!< One OCS port, W (0.39 W)

    /// Most a part may cost: the largest network (10^6 GPUs, about 6 x 10^6 ports and
    /// transceivers) then costs about 10^13 USD, a finite number that prints in a table.
    static constexpr double MAX_USD = 1e6;
    /// Most a part may draw, W (about 6 x 10^10 W for the largest network).
    static constexpr double MAX_W = 1e4;

    /// \return empty if every price is in [0, MAX_USD] and every power in [0, MAX_W], else a
    ///         one-line reason
    std::string Validate() const;
};

/**
 * \ingroup photonic-rails
 * \brief The networks Fig. 7 compares.
 */
enum class CostNetwork
{
    FAT_TREE,       //!< A three-tier fat-tree of electrical switches over all GPUs
    RAIL_OPTIMIZED, //!< Rails of electrical switches joined by a spine layer
    OPUS,           //!< One OCS per rail (photonic rails driven by Opus)
};

/**
 * \ingroup photonic-rails
 * \brief What one network is made of, and what it costs and draws.
 */
struct CostBill
{
    CostNetwork network{CostNetwork::FAT_TREE}; //!< The design
    uint64_t gpus{0};                           //!< GPUs served
    uint64_t servers{0};                        //!< Scale-up domains
    uint32_t radix{0};                          //!< Electrical switch radix k, or ports of one OCS
    uint64_t switches{0};                       //!< Electrical switches, or OCSes for Opus
    uint64_t switchPorts{0};                    //!< Electrical switch ports
    uint64_t ocsPorts{0};                       //!< OCS ports
    uint64_t transceivers{0};                   //!< 400G optical transceivers
    double costUsd{0.0};                        //!< Ports and transceivers, USD
    double powerW{0.0};                         //!< Ports and transceivers, W
};

/**
 * \ingroup photonic-rails
 * \brief Counts the switches, ports and transceivers of fat-tree, rail-optimized and Opus
 * networks and prices them: the method of the paper's Fig. 7.
 *
 * The counting is the authors' notebook's (../shared/notes/reference-numbers.md), with the
 * eight rails of a DGX H200 generalised to R = GPUs per server; N GPUs, S = N / R servers:
 *
 * - Fat-tree: a three-tier fat-tree of radix k = round((4N)^(1/3)) (k^3/4 hosts), with
 *   k^2 + floor(k^2/4) switches (the 5k^2/4 of a fat-tree) of k ports each.
 * - Rail-optimized: each rail is a two-tier pod (leaves and aggregation switches with k/2
 *   down ports each) and a core of floor(N/k) switches joins the rails;
 *   k = round(sqrt(4S)) so that one pod holds (k/2)^2 = S GPUs. Per rail
 *   2 floor(S / floor(k/2)) switches; R rails plus the core; k ports each.
 * - Opus: one OCS per rail whose radix is the rail's NIC ports (P per GPU: S x P);
 *   R OCSes, N x P OCS ports.
 * - Transceivers: the electrical designs have one on every GPU port (one per GPU) and one on
 *   every switch port; Opus has them only on the GPU side (T per GPU, default 1: one 400G
 *   transceiver split into the NIC's two 200G ports), since an OCS is transparent optics.
 * - Cost = port price x ports + transceiver price x transceivers; power likewise.
 *
 * Switch ports are counted as k x switches, whether all are cabled or not, and k is rounded
 * to the nearest integer rather than up: the notebook sizes the switches to the fabric and
 * prices them per port. So the electrical counts are those of the paper's figure, not of a
 * build from commodity 64-port switches.
 */
class OpusCostModel
{
  public:
    /// Sanity bound on the GPUs of a network: the simulator's (2^20)
    static constexpr uint64_t MAX_GPUS = RailFabricSpec::MAX_GPUS;
    static constexpr uint32_t MAX_PER_GPU = 64; //!< Sanity bound on ports per GPU

    /// What the networks are built for.
    struct Config
    {
        uint32_t gpusPerServer{8};         //!< GPUs per scale-up domain = rails (DGX H200: 8)
        uint32_t ocsPortsPerGpu{2};        //!< OCS ports per GPU in Opus (2 x 200G NIC ports)
        uint32_t ocsTransceiversPerGpu{1}; //!< Transceivers per GPU in Opus
        CostUnitPrices prices;             //!< Unit prices and powers

        /// \return empty if usable, else a one-line reason
        std::string Validate() const;
    };

    /// Savings of Opus against a baseline, as fractions (0.7 = 70%).
    struct Saving
    {
        double cost{0.0};  //!< 1 - Opus cost / baseline cost
        double power{0.0}; //!< 1 - Opus power / baseline power
    };

    /// The largest savings over a set of sizes, and where they occur.
    struct Headline
    {
        Saving best;           //!< The largest cost saving and the largest power saving
        uint64_t costGpus{0};  //!< The size with the largest cost saving
        uint64_t powerGpus{0}; //!< The size with the largest power saving
    };

    /**
     * \brief A model with a configuration.
     * \param config what the networks are built for; must pass Config::Validate()
     */
    explicit OpusCostModel(const Config& config);

    /// \return the configuration
    const Config& GetConfig() const;

    /**
     * \param gpus GPUs in the network
     * \return empty if the networks can be counted for this size, else a one-line reason
     */
    std::string CheckGpus(uint64_t gpus) const;

    /**
     * \brief Counts and prices one network.
     * \param network the design
     * \param gpus GPUs in the network; must pass CheckGpus()
     * \return its bill
     */
    CostBill Bill(CostNetwork network, uint64_t gpus) const;

    /**
     * \param baseline a network's bill
     * \param opus Opus's bill for the same GPUs
     * \return what Opus saves against the baseline
     */
    static Saving Compare(const CostBill& baseline, const CostBill& opus);

    /**
     * \brief The paper's headline: Opus's largest savings against a baseline over sizes.
     * \param baseline the network Opus is compared with
     * \param sizes GPU counts; each must pass CheckGpus(), at least one
     * \return the largest cost and power savings and their sizes
     */
    Headline MaxSaving(CostNetwork baseline, const std::vector<uint64_t>& sizes) const;

    /// \return every network, in the order of the paper's figure
    static const std::vector<CostNetwork>& Networks();

    /// \return "fat-tree", "rail-optimized" or "opus"
    static std::string NetworkName(CostNetwork network);

  private:
    /// Counts the parts of a network, without prices.
    CostBill Count(CostNetwork network, uint64_t gpus) const;

    Config m_config; //!< What the networks are built for
};

} // namespace ns3

#endif /* OPUS_COST_MODEL_H */

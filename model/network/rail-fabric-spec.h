/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RAIL_FABRIC_SPEC_H
#define RAIL_FABRIC_SPEC_H

#include "ns3/ocs-technology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief How a rail's switching is built.
 */
enum class RailKind
{
    OCS,      //!< One optical circuit switch per rail
    EPS,      //!< One non-blocking electrical packet switch per rail
    EPS_CLOS, //!< A two-tier leaf-spine Clos of packet switches per rail
};

/**
 * \ingroup photonic-rails
 * \brief Wiring of one rail's two-tier leaf-spine Clos.
 *
 * Leaves split their radix k into down ports (to NICs) and up ports in the ratio of the
 * oversubscription o (down = round(k o / (1 + o)), o in [1/(k - 1), k - 1]); a rail that
 * fits one leaf has no spine.
 * Each leaf gets the uplinks its fullest sibling needs, ceil(min(down, ports) / o), within
 * its radix. Every leaf has the same number of parallel links to every spine, so ECMP sees
 * equal-cost paths: the spine count is the smallest divisor of the uplinks per leaf that
 * leaves enough spine ports for all uplinks.
 */
struct ClosPlan
{
    uint32_t endpoints{0};      //!< NIC ports on the rail
    uint32_t leaves{0};         //!< Leaf switches
    uint32_t spines{0};         //!< Spine switches
    uint32_t downPerLeaf{0};    //!< NIC-facing ports per leaf
    uint32_t upPerLeaf{0};      //!< Spine-facing ports per leaf
    uint32_t linksPerPair{0};   //!< Parallel links between a leaf and a spine
    uint32_t spinePortsUsed{0}; //!< Ports used on each spine

    /// \return switches in the rail
    uint32_t Switches() const;
    /// \return switch ports in use (NIC-facing, plus both ends of leaf-spine links)
    uint64_t PortsUsed() const;

    /**
     * \brief Plans a rail's Clos.
     * \param endpoints NIC ports on the rail
     * \param radix ports per switch
     * \param oversubscription leaf down:up bandwidth ratio (1 = non-blocking)
     * \param[out] plan the wiring
     * \return empty on success, else why it cannot be built
     */
    static std::string Make(uint32_t endpoints,
                            uint32_t radix,
                            double oversubscription,
                            ClosPlan& plan);

    /**
     * \brief A leaf splits its radix k at most (k - 1):1 one way or the other, so an
     * oversubscription outside [1/(k - 1), k - 1] cannot be built (it used to be clamped).
     * \param radix ports per switch (at least 2)
     * \param oversubscription leaf down:up bandwidth ratio
     * \return empty if a leaf can realize it, else why
     */
    static std::string CheckOversubscription(uint32_t radix, double oversubscription);
};

/**
 * \ingroup photonic-rails
 * \brief What a rail-optimized fabric is made of: servers (scale-up domains), GPUs, NICs,
 * rails.
 *
 * Presets follow ../shared/notes/reference-numbers.md: DGX/HGX H100 and H200 (8 GPUs,
 * NVLink4 900 GB/s per GPU, one 400G NIC per GPU), GB200 NVL72 (72 GPUs per scale-up
 * domain, NVLink5 1.8 TB/s per GPU, one 400G NIC per GPU) and Perlmutter (4 A100, NVLink3
 * 600 GB/s, one 200G Slingshot NIC per GPU).
 */
struct RailFabricSpec
{
    /// Largest job, in GPUs and in ports per rail: 2^20. The one bound on a job's size:
    /// the DAG format's ranks (WorkloadJson::MAX_RANKS) and the generator's tp x cp x pp x dp
    /// are this, so that what --validate accepts the simulator builds.
    static constexpr uint64_t MAX_GPUS = uint64_t(1) << 20;
    static constexpr uint32_t MAX_NIC_PORTS = 64;  //!< Sanity bound on NIC ports per GPU
    static constexpr uint32_t MAX_RADIX = 4096;    //!< Sanity bound on the switch radix
    static constexpr double MAX_PORT_GBPS = 10000; //!< Sanity bound on a NIC port's rate
    /// Lower bound on a NIC port's rate (1 Mb/s): slower ports would turn one frame into
    /// seconds and a message into more than the simulator's time range
    static constexpr double MIN_PORT_GBPS = 0.001;
    /// Largest frame payload: a NetDevice MTU is 16 bits and a coalesced frame adds the
    /// transport header and the padding of the real frames it stands for
    static constexpr uint32_t MAX_FRAME_BYTES = 64000;
    /// Payload of a real frame (RoCE MTU); larger frames are coalesced real frames
    static constexpr uint32_t REAL_FRAME_BYTES = 4096;
    /// The paper's testbed as measured: payload bytes per second one GPU's scale-out
    /// collectives moved each way (1.0 GiB/s; ../shared/notes/measured-job.md), the
    /// "perlmutter-testbed" preset's effective bandwidth
    static constexpr double TESTBED_GOODPUT_BYTES_PER_S = 1024.0 * 1024 * 1024;

    std::string name{"custom"};         //!< Preset name
    uint32_t servers{2};                //!< Scale-up domains
    uint32_t gpusPerServer{8};          //!< GPUs per scale-up domain = rails
    uint32_t nicPorts{1};               //!< NIC ports per GPU, all on the GPU's rail
    uint64_t nicPortBps{400000000000};  //!< Rate of each NIC port
    uint64_t scaleUpBps{7200000000000}; //!< Per-GPU scale-up bandwidth (900 GB/s = 7.2 Tb/s)
    RailKind kind{RailKind::EPS};       //!< Rail switching
    std::string ocsTechnology{"piezo"}; //!< OCS technology (kind OCS)
    /// What a reconfiguration does to the other ports of an OCS: TECHNOLOGY (the default)
    /// takes ocsTechnology's OcsTechnology::switching, PER_PORT or WHOLE_SWITCH override it
    OcsSwitching ocsSwitching{OcsSwitching::TECHNOLOGY};
    uint32_t switchRadix{64};         //!< Electrical switch radix
    double oversubscription{1.0};     //!< Clos leaf down:up ratio
    uint32_t railFrameBytes{4096};    //!< Payload per simulated frame on rails (RoCE MTU;
                                      //!< above it, coalesced real frames)
    uint32_t scaleUpFrameBytes{4096}; //!< Payload per simulated frame on scale-up links

    /// \return GPUs in the fabric
    uint32_t Gpus() const;
    /// \return NIC ports on one rail
    uint32_t PortsPerRail() const;
    /// \return the rail kind actually built (EPS becomes EPS_CLOS beyond the radix)
    RailKind EffectiveKind() const;
    /**
     * \return true if the OCSs darken every port during a reconfiguration: ocsSwitching, or
     *         when it is TECHNOLOGY, ocsTechnology's switching (false for an unknown one)
     */
    bool WholeSwitch() const;

    /**
     * \return empty if the fabric can be built, else a one-line reason. Besides sizes and
     * rates it checks that every electrical switch with PFC (EpsSwitch's defaults:
     * PfcEnabled, derived PfcXoff, BufferSize, EpsChannel Delay) has the buffer for the
     * headroom of all its ports, as EpsSwitch requires.
     */
    std::string Validate() const;

    /**
     * \param framePayload transport payload per frame
     * \return the MTU of the devices that carry such frames (at least 9000, jumbo frames)
     */
    static uint32_t DeviceMtu(uint32_t framePayload);

    /**
     * \brief A preset by name.
     * \param name dgx-h100, dgx-h200, hgx-h100, hgx-h200, gb200-nvl72, perlmutter or
     *        perlmutter-testbed (Perlmutter's servers with the scale-out bandwidth the
     *        paper's testbed reached: TESTBED_GOODPUT_BYTES_PER_S per GPU)
     * \param[in,out] spec receives the preset's server hardware (GPUs per server, NIC
     *                 ports and rate, scale-up bandwidth); its servers, rail kind, OCS
     *                 technology, radix and oversubscription are kept
     * \return false if the name is unknown
     */
    static bool Preset(const std::string& name, RailFabricSpec& spec);

    /// \return the preset names, comma separated
    static std::string PresetNames();

    /**
     * \brief Sets the NIC ports from "1x400G", "2x200G", "4x100G" or "NxRATE" (RATE in G).
     * \param config the text
     * \return empty on success, else why it is not understood
     */
    std::string SetNicConfig(const std::string& config);

    /**
     * \param text "ocs", "eps" or "eps-clos"
     * \param[out] kind the kind
     * \return false if unknown
     */
    static bool ParseKind(const std::string& text, RailKind& kind);

    /// \return the kind's name
    static std::string KindName(RailKind kind);

  private:
    /// Validate() for optical rails: the OCS technology and its radix.
    std::string ValidateOptical() const;
    /// Validate() for electrical rails: the oversubscription, the Clos and PFC buffers.
    std::string ValidateElectrical() const;
};

} // namespace ns3

#endif /* RAIL_FABRIC_SPEC_H */

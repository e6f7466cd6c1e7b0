/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OCS_TECHNOLOGY_H
#define OCS_TECHNOLOGY_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief What a reconfiguration does to the ports whose circuit does not change.
 */
enum class OcsSwitching
{
    TECHNOLOGY,  //!< As the OCS technology does (RailFabricSpec's default; not a technology's)
    PER_PORT,    //!< Only the changed ports go dark; the others carry traffic meanwhile
    WHOLE_SWITCH //!< Every port goes dark; requests are served one at a time
};

/**
 * \ingroup photonic-rails
 * \param switching a value
 * \return its name: "technology", "per-port" or "whole-switch"
 */
std::string OcsSwitchingName(OcsSwitching switching);

/**
 * \ingroup photonic-rails
 * \param name "technology", "per-port" or "whole-switch"
 * \param[out] switching the value, when \p name is valid
 * \return true when \p name is valid
 */
bool ParseOcsSwitching(const std::string& name, OcsSwitching& switching);

/**
 * \ingroup photonic-rails
 * \brief Reconfiguration delay and radix of one optical circuit switching technology.
 *
 * The catalogue holds the seven technologies of Table 3 of "Photonic Rails in ML
 * Datacenters" (HotNets 2025), with the vendor or project the paper cites for each.
 */
struct OcsTechnology
{
    std::string name;          //!< Lookup key, lower case (e.g. "piezo")
    std::string example;       //!< Representative product or project
    Time reconfigurationDelay; //!< Time a changed port stays dark
    uint32_t radix;            //!< Number of duplex ports of one switch
    /// PER_PORT or WHOLE_SWITCH, as the switching element works (design doc, "Reconfiguration
    /// of the other ports", cites the source for each)
    OcsSwitching switching{OcsSwitching::PER_PORT};

    /**
     * \brief GPUs one rail of this technology can serve (the paper's Table 3).
     *
     * Each OCS has \c radix ports and each GPU's NIC uses \p portsPerNic of them on its rail,
     * so one rail reaches radix / portsPerNic scale-up domains, each contributing
     * \p gpusPerScaleUp GPUs.
     * \param gpusPerScaleUp GPUs in one scale-up domain (8 for H200, 72 for GB200 NVL72)
     * \param portsPerNic NIC ports per GPU on the rail (2 in the paper)
     * \return the number of GPUs
     */
    uint64_t MaxGpus(uint32_t gpusPerScaleUp, uint32_t portsPerNic = 2) const;
};

/**
 * \ingroup photonic-rails
 * \brief The catalogue of OCS technologies (paper Table 3), looked up by name.
 */
class OcsTechnologyCatalog
{
  public:
    /// \return every technology, in increasing order of reconfiguration delay.
    static const std::vector<OcsTechnology>& All();

    /**
     * \brief Finds a technology by name, ignoring case.
     * \param name e.g. "piezo", "3d-mems", "PLZT"
     * \param[out] technology the technology, when found
     * \return true when found
     */
    static bool Find(const std::string& name, OcsTechnology& technology);

    /**
     * \brief Like Find(), but aborts with a message listing the valid names.
     * \param name technology name
     * \return the technology
     */
    static OcsTechnology Get(const std::string& name);

    /// \return the valid names, comma separated (for error messages and --help).
    static std::string Names();
};

} // namespace ns3

#endif /* OCS_TECHNOLOGY_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAULT_SCHEDULE_H
#define FAULT_SCHEDULE_H

#include "ns3/nstime.h"
#include "ns3/rail-fabric-spec.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One scheduled failure of a fabric part, as --fault or a --faults file names it.
 *
 * Inline form: KIND:PART@DOWN[-UP], e.g. nic:gpu5.port1@1.2s or
 * link:rail0.leaf1-spine0@10ms-250ms. Kinds and parts:
 *   - nic:gpuG.portK        NIC port K of GPU G (its cable, or its OCS port on optical rails)
 *   - link:railR.leafL-spineS[.K]  leaf-spine cable K (default 0) of a Clos rail
 *   - switch:railR          the packet switch of a single-switch rail
 *   - switch:railR.leafL / switch:railR.spineS  a switch of a Clos rail
 *   - ocs-port:railR.portP  port P of rail R's OCS
 *   - ocs:railR             every port of rail R's OCS
 *   - ocs-reconfig:railR    the first reconfiguration of rail R's OCS that changes circuits
 *                           after DOWN fails (no UP: the controller retries)
 *   - gpu:gpuG              GPU G: its job stops and restarts from a checkpoint
 *   - server:S              server S: the same (--onServerFailure says on which server)
 *   - controller            the Opus controller, written without a part: controller@DOWN[-UP]
 */
struct Fault
{
    /// What fails.
    enum Kind
    {
        NIC,          //!< A GPU's NIC port
        LINK,         //!< A leaf-spine cable
        SWITCH,       //!< A packet switch, every port
        OCS_PORT,     //!< An OCS port
        OCS,          //!< A whole OCS
        OCS_RECONFIG, //!< An OCS reconfiguration
        GPU,          //!< A GPU: its server's job restarts (harness handles it, not the network)
        SERVER,       //!< A server: its job restarts (harness handles it, not the network)
        CONTROLLER,   //!< The Opus controller (the data plane keeps its circuits)
    };

    Kind kind{NIC};       //!< What fails
    std::string entry;    //!< As written (inline form), for messages
    std::string part;     //!< Canonical KIND:PART, e.g. "nic:gpu5.port1"
    uint32_t rail{0};     //!< Rail (all but NIC)
    uint32_t gpu{0};      //!< NIC, GPU: the GPU
    uint32_t server{0};   //!< SERVER: the server
    uint32_t port{0};     //!< NIC: port index at the GPU; OCS_PORT: OCS port
    uint32_t leaf{0};     //!< LINK, SWITCH (leaf): the leaf
    uint32_t spine{0};    //!< LINK, SWITCH (spine): the spine
    uint32_t cable{0};    //!< LINK: which of the parallel cables
    bool isSpine{false};  //!< SWITCH: a spine (else a leaf, or the rail's only switch)
    bool isRail{false};   //!< SWITCH: the rail's only switch (single-switch rails)
    Time down;            //!< When it fails
    Time up{Time::Max()}; //!< When it is repaired (Max: never)

    /// \return true if it is repaired during the run
    bool IsRepaired() const;
    /// \return true for a GPU or server failure: the job stops and restarts, the network
    ///         does not change
    bool StopsJob() const;
    /// \return the kind's name as written ("nic", "link", ...)
    static std::string KindName(Kind kind);

    /**
     * \brief Reads one fault in the inline form.
     * \param text e.g. "nic:gpu5.port1@1.2s-1.5s"
     * \return the fault (std::invalid_argument with a one-line reason naming \p text)
     */
    static Fault Parse(const std::string& text);

    /**
     * \brief Checks that the part exists in a fabric and suits its rails.
     * \param spec the fabric
     * \return an empty string, or why not (one line naming the entry)
     */
    std::string CheckAgainst(const RailFabricSpec& spec) const;
};

/**
 * \ingroup photonic-rails
 * \brief The faults of a run: from a JSON file (--faults) and inline (--fault), in time order.
 *
 * The file is a JSON array, or an object with a "faults" array; each element is an inline
 * string or an object {"part": "nic:gpu5.port1", "at": "1.2s", "until": "1.5s"} ("until"
 * optional). It is read as every JSON input (JsonInput::ReadFile: a regular file, no key
 * given twice).
 */
class FaultSchedule
{
  public:
    /**
     * \brief Reads the faults.
     * \param file a --faults file ("" for none)
     * \param inline_ --fault: one or more inline faults separated by commas ("" for none)
     * \return the schedule (std::invalid_argument with a one-line reason; InputFileError,
     *         "FILE: reason", for a file that is not a fault list)
     */
    static FaultSchedule Read(const std::string& file, const std::string& inline_);

    /// \return the faults, ordered by failure time (ties: as given)
    const std::vector<Fault>& GetFaults() const;
    /// \return true if there are none
    bool IsEmpty() const;

    /**
     * \brief Checks every fault against a fabric.
     * \param spec the fabric
     * \param fabricName its name, for the message
     * (std::invalid_argument naming the first bad entry)
     */
    void CheckAgainst(const RailFabricSpec& spec, const std::string& fabricName) const;

    /// \param fault one more fault (kept in time order)
    void Add(const Fault& fault);

  private:
    std::vector<Fault> m_faults; //!< In failure time order
};

} // namespace ns3

#endif /* FAULT_SCHEDULE_H */

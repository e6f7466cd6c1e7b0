/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPUS_CONTROL_PLANE_H
#define OPUS_CONTROL_PLANE_H

#include "ns3/collective-communicator.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/opus-demand.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One OCS reconfiguration Opus ordered, as reported in reconfigurations.csv.
 */
struct OpusReconfigurationRecord
{
    uint32_t rail{0};                //!< The rail (its OCS)
    std::vector<uint32_t> darkPorts; //!< OCS ports dark during it
    Time requested;                  //!< When the controller decided it
    Time started;                    //!< When its ports went dark
    Time ended;                      //!< When its circuits came up
    /// The communication groups it served, in the order they joined it: requests (and
    /// speculative setups) that became servable on the rail at the same instant (or within the
    /// controller's BatchWindow) share one reconfiguration
    std::vector<std::string> groups;
    bool speculative{false};    //!< Provisioning only (no member waited for it yet)
    uint32_t failedAttempts{0}; //!< Times the OCS failed it (a fault; retried once)
    Time failedAt;              //!< When it first failed (failedAttempts > 0)
    /// The communication it was ordered for ran on its circuits: always for a request;
    /// for a speculative one, only if that communication found its circuits in place
    /// (a wrong prediction sets up circuits that are undone, or never used)
    bool used{false};
    /// Speculative only: a request had to wait for its switching to change the same ports
    /// (the speculative setup cost that request the rest of the blackout)
    bool delayedRequest{false};
};

/**
 * \ingroup photonic-rails
 * \brief An interval in which a communication could not move its data for want of circuits.
 *
 * Either from its last member's request to its grant, or (whole-switch OCS) a blackout that
 * another request's reconfiguration caused while it was granted and not released.
 */
struct OpusWait
{
    std::string instance; //!< The communication: "g:<group>#k" or "p:<from>><to>:<tag>#k"
    Time from;            //!< Start
    Time to;              //!< End
};

/**
 * \ingroup photonic-rails
 * \brief What Opus's shims talk to (one per job): the circuits of communications.
 *
 * A shim asks for a communication's circuits (Request), is granted when it may run, and
 * releases them when its part is done (Release); with provisioning it also announces the
 * communication it expects next (Provision). The base class computes demands (the
 * circuits a communication needs, cached per shape), accounts for the time communications
 * waited and keeps the reconfiguration records; OpusController drives real OCS rails, and
 * OpusTestbedEmulator injects delays on electrical rails the way the paper's testbed did.
 */
class OpusControlPlane : public Object
{
  public:
    /// Called when the communication may run.
    using GrantCallback = Callback<void>;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    OpusControlPlane();
    ~OpusControlPlane() override;

    /**
     * \brief The circuits a communication needs (cached per shape).
     * \param call the call as \p rank hands it to its communicator
     * \param rank the calling rank
     * \return the demand (empty when it stays inside scale-up domains)
     *
     * Throws std::invalid_argument when no circuit configuration can serve it (see
     * OpusDemand::Build) or when the call cannot be planned.
     */
    std::shared_ptr<const OpusDemand> GetDemand(const CollectiveCall& call, uint32_t rank);

    /**
     * \brief A member asks for a communication's circuits.
     * \param call the call (its instance names the communication)
     * \param rank the asking member
     * \param granted called once the communication may run
     */
    virtual void Request(const CollectiveCall& call, uint32_t rank, GrantCallback granted) = 0;

    /**
     * \brief A member finished its part of a granted communication.
     * \param instance the call's instance
     */
    virtual void Release(const std::string& instance) = 0;

    /**
     * \brief A member announces the communication it expects next (provisioning).
     * \param call the predicted call, with the instance it will have
     * \param rank the announcing member
     */
    virtual void Provision(const CollectiveCall& call, uint32_t rank) = 0;

    /// \return one line per request that waits, saying for what
    virtual std::vector<std::string> DescribePending() const = 0;

    /// \return every reconfiguration ordered so far (completed ones have their end time)
    const std::vector<OpusReconfigurationRecord>& GetReconfigurations() const;

    /**
     * \return the time communications waited for circuits: the length of the union of the
     * intervals from a request's last member asking to its grant (and of the blackouts of a
     * whole-switch OCS that granted communications suffered: GetWaits)
     */
    Time GetWaitTime() const;

    /**
     * \param select the waits to count (e.g. one job's communications)
     * \return the length of the union of the selected waits
     */
    Time GetWaitTime(const std::function<bool(const OpusWait&)>& select) const;

    /**
     * \return every wait, in the order recorded: each communication's wait for its grant
     *         and, on a whole-switch OCS, each blackout it suffered while granted (per job:
     *         select by the instance's group prefix)
     */
    const std::vector<OpusWait>& GetWaits() const;

    /**
     * TracedCallback signature for grants.
     * \param instance the communication
     * \param waited from its last member's request to the grant
     */
    typedef void (*GrantTracedCallback)(const std::string& instance, Time waited);

  protected:
    void DoDispose() override;

    /**
     * \brief What demands are computed from.
     * \param gpusPerServer GPUs per server = rails
     * \param portsPerGpu NIC ports per GPU shared by a GPU's peers (OpusDemand::Build)
     * \param communicators every rank's communicator (for the members' plans)
     */
    void SetUpDemands(uint32_t gpusPerServer,
                      uint32_t portsPerGpu,
                      std::vector<Ptr<CollectiveCommunicator>> communicators);

    /**
     * \brief Grants a communication: records the wait since \p ready and fires the trace.
     * \param instance the communication
     * \param ready when its last member asked
     * \param grants one callback per member, called now
     */
    void Grant(const std::string& instance, Time ready, const std::vector<GrantCallback>& grants);

    /**
     * \brief Records that \p instance could not move data over [\p from, \p to].
     * \param instance the communication
     * \param from start
     * \param to end
     */
    void AddWait(const std::string& instance, Time from, Time to);

    /// \return the GPUs (rail, gpu) that \p demand's circuits join
    static std::set<std::pair<uint32_t, uint32_t>> GpusOf(const OpusDemand& demand);

    uint32_t m_gpusPerServer{1};                      //!< GPUs per server
    uint32_t m_portsPerGpu{1};                        //!< NIC ports per GPU
    std::vector<OpusReconfigurationRecord> m_records; //!< Reconfigurations

  private:
    std::string ShapeKey(const CollectiveCall& call, uint32_t rank) const;

    std::vector<Ptr<CollectiveCommunicator>> m_communicators;                     //!< Per rank
    std::unordered_map<std::string, std::shared_ptr<const OpusDemand>> m_demands; //!< Per shape
    std::vector<OpusWait> m_waits;                         //!< Waits, in recording order
    TracedCallback<const std::string&, Time> m_grantTrace; //!< Grants
};

} // namespace ns3

#endif /* OPUS_CONTROL_PLANE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OCS_CIRCUIT_TABLE_H
#define OCS_CIRCUIT_TABLE_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * Directed circuits: input port -> output port. In a change request an output of
 * OcsCircuitTable::NO_PORT disconnects the input.
 */
using OcsConnections = std::map<uint32_t, uint32_t>;

/**
 * \ingroup photonic-rails
 * \brief One reconfiguration request as the switch saw it (passed to traces and callbacks).
 */
struct OcsReconfiguration
{
    uint64_t id{0};                  //!< Request id, increasing in arrival order (from 1)
    OcsConnections requested;        //!< The connections as requested
    OcsConnections changed;          //!< The inputs whose circuit really changed, new outputs
    std::vector<uint32_t> darkPorts; //!< Ports dark during this reconfiguration, sorted
    Time requestedAt;                //!< When the request arrived
    Time startedAt;                  //!< When its ports went dark (after any queueing)
    Time endedAt;                    //!< When its circuits came up (or failed to)
    bool failed{false};              //!< The changed circuits did not come up (a fault)
};

/**
 * \ingroup photonic-rails
 * \brief Outcome of a reconfiguration request: accepted (with its id) or rejected.
 */
struct OcsRequestResult
{
    bool accepted{false}; //!< False when the request was invalid; nothing changed then
    uint64_t id{0};       //!< Request id when accepted
    std::string error;    //!< Why it was rejected
};

/**
 * \ingroup photonic-rails
 * \brief The circuit state of an optical circuit switch, without the frames it carries.
 *
 * It holds which input is joined to which output, the requests that change circuits (each
 * port serves them in arrival order; requests on disjoint ports run concurrently, unless the
 * switch is whole-switch: SetWholeSwitch), the
 * ports a reconfiguration darkens for ReconfigurationDelay, failed ports and requests made
 * to fail, and the accounting of dark time per port. OpticalCircuitSwitch (the channel that
 * carries frames) owns one and delegates to it; a network model without frames (FlowFabric)
 * and Opus's controller drive it directly. The owner learns of every change through the
 * Listener, called at the points where the change is made, so that traces and devices see
 * the changes in the order the table makes them.
 */
class OcsCircuitTable : public SimpleRefCount<OcsCircuitTable>
{
  public:
    /// Output value that means "not connected".
    static constexpr uint32_t NO_PORT = std::numeric_limits<uint32_t>::max();

    /// Called when a request's circuits are in place.
    using DoneCallback = Callback<void, const OcsReconfiguration&>;

    /// What the table tells its owner, at the moment it happens (any may be empty).
    struct Listener
    {
        std::function<void(uint32_t, uint32_t)> circuitUp;   //!< input -> output came up
        std::function<void(uint32_t, uint32_t)> circuitDown; //!< input -> output went down
        std::function<void(const OcsReconfiguration&)> reconfigurationStart; //!< Ports dark
        std::function<void(const OcsReconfiguration&)> reconfigurationEnd;   //!< Circuits up
        std::function<void(uint32_t, bool)> portFailure; //!< A port failed or was repaired
        std::function<void(uint32_t)> portChanged;       //!< A port's circuit state changed
    };

    OcsCircuitTable();

    /// \param listener what to tell of every change
    void SetListener(Listener listener);

    /// \param radix the number of duplex ports (settable until the ports are used)
    void SetRadix(uint32_t radix);
    /// \return the number of duplex ports
    uint32_t GetRadix() const;
    /// \param delay the time a changed port stays dark
    void SetReconfigurationDelay(Time delay);
    /// \return the time a changed port stays dark
    Time GetReconfigurationDelay() const;
    /**
     * \brief Whole-switch reconfiguration (a rotor switch): a request that changes circuits
     * darkens every port for ReconfigurationDelay, not only the changed ones; unchanged
     * circuits keep their configuration but carry nothing meanwhile (IsCircuitUp false, their
     * frames in flight are lost, as on a cut), and requests are served one at a time, in
     * arrival order, each with its own blackout. Meanwhile no circuit is in place
     * (IsCircuitInPlace: every mirror moves), so transports wait as for a changed port. Set
     * before requests are made.
     * \param wholeSwitch true for whole-switch, false (the default) for per-port
     */
    void SetWholeSwitch(bool wholeSwitch);
    /// \return true if a reconfiguration darkens every port (SetWholeSwitch)
    bool IsWholeSwitch() const;

    /**
     * \brief Takes the next free port into use (its state is sized at the first one).
     * \return the port number
     */
    uint32_t AddPort();
    /// \return the ports taken so far
    uint32_t GetPortsInUse() const;

    /**
     * \brief Sets circuits instantly, with no blackout: the state before the job starts.
     *
     * Only valid while no reconfiguration is pending. Ports not named stay unconnected.
     * \param configuration the circuits
     * \return the outcome (rejected, with the reason, when invalid)
     */
    OcsRequestResult Preset(const OcsConnections& configuration);

    /**
     * \brief Requests a change of some circuits (see OpticalCircuitSwitch::Reconfigure).
     * \param changes the circuits to set
     * \param done called when the request completes (may be null)
     * \param started called when its ports go dark (never for a request that changes
     *        nothing; may be null)
     * \return the outcome
     */
    OcsRequestResult Reconfigure(const OcsConnections& changes,
                                 DoneCallback done = DoneCallback(),
                                 DoneCallback started = DoneCallback());

    /**
     * \brief Requests a whole configuration: named circuits set, every other one removed.
     * \param configuration the circuits wanted
     * \param done called when the request completes (may be null)
     * \return the outcome
     */
    OcsRequestResult SetConfiguration(const OcsConnections& configuration,
                                      DoneCallback done = DoneCallback());

    /**
     * \param input an input port
     * \return its current output (even while dark), or NO_PORT
     */
    uint32_t GetConnection(uint32_t input) const;
    /**
     * \param input an input port
     * \return true if the circuit from \p input is up and neither of its ports failed
     */
    bool IsCircuitUp(uint32_t input) const;
    /**
     * \param input an input port
     * \return true if a circuit from \p input is set and not switching, lit or darkened
     *         by a failed port (the mirrors keep their position); false during a
     *         whole-switch blackout, which moves every mirror
     */
    bool IsCircuitInPlace(uint32_t input) const;
    /**
     * \param port a port
     * \return true while a reconfiguration darkens it
     */
    bool IsPortDark(uint32_t port) const;
    /// \return the circuits that are up now
    OcsConnections GetCircuits() const;
    /// \return the configuration once every accepted request has completed
    OcsConnections GetTargetConfiguration() const;
    /// \return completed reconfigurations that changed at least one circuit
    uint64_t GetReconfigurationCount() const;
    /// \return requests accepted but not yet completed
    std::size_t GetPendingRequestCount() const;

    /**
     * \brief Fails (true) or repairs (false) a port (see OpticalCircuitSwitch::SetPortFailed).
     * \param port the port
     * \param failed the new state
     */
    void SetPortFailed(uint32_t port, bool failed);
    /// \param port a port \return true while it is failed
    bool IsPortFailed(uint32_t port) const;
    /// Makes the next reconfiguration that changes circuits and ends from now on fail.
    void FailNextReconfiguration();

    /**
     * \param port a port
     * \return the total time the port has been dark, up to now
     */
    Time GetPortDarkTime(uint32_t port) const;

    /**
     * \param input an input port
     * \return how many times the lit circuit from \p input has been cut so far
     */
    uint32_t GetCutCount(uint32_t input) const;
    /**
     * \brief Whether a frame that left on \p input's circuit after \p cuts cuts had all of
     *        its bits through the switch before the next cut.
     * \param input the input port
     * \param cuts GetCutCount() when the frame left
     * \param lastBitThrough when its last bit has passed the switch
     * \return true if the circuit was cut before then (the frame is lost)
     */
    bool WasCutBefore(uint32_t input, uint32_t cuts, Time lastBitThrough) const;

    /// Forgets the requests (and their callbacks) and the listener: the owner is disposed.
    void Clear();

  private:
    /// A request between arrival and completion.
    struct Request
    {
        OcsReconfiguration info;      //!< What is reported
        std::vector<uint32_t> ports;  //!< Ports it waits on (sorted, unique)
        DoneCallback done;            //!< Completion callback
        DoneCallback onStart;         //!< Called when its ports go dark
        bool started{false};          //!< Its ports went dark (or it proved empty)
        std::vector<uint32_t> dimmed; //!< Whole-switch: unchanged circuits it darkens
    };

    /// Checks \p changes against the projected configuration; empty string when valid.
    std::string Validate(const OcsConnections& changes) const;
    /// Ports a request orders itself on: its inputs and their old and new outputs.
    std::vector<uint32_t> PortsTouchedBy(const OcsConnections& changes) const;
    /// Starts every queued request that is first in line on all of its ports.
    void StartReadyRequests();
    /// \return true if \p request is first in line on every port it touches.
    bool IsFirstInLine(const Request& request) const;
    /// Darkens the changed ports and schedules Finish().
    void Start(Request& request);
    /// Brings the new circuits up and completes the request.
    void Finish(uint64_t id);
    /// Tears down the circuit from \p input (it goes dark).
    void TearDown(uint32_t input);
    /// Tells the owner that \p port's circuit state changed.
    void NotifyPort(uint32_t port) const;
    void CheckPort(uint32_t port) const;
    /// \return true if the circuit from \p input is up and neither of its ports failed.
    bool IsLit(uint32_t input) const;

    uint32_t m_radix{64};        //!< Number of ports
    Time m_reconfigurationDelay; //!< Blackout of a changed port
    bool m_wholeSwitch{false};   //!< A reconfiguration darkens every port
    Listener m_listener;         //!< The owner's hooks

    uint32_t m_portsInUse{0};                  //!< Ports taken (AddPort)
    std::vector<uint32_t> m_output;            //!< Current circuit per input, or NO_PORT
    std::vector<bool> m_up;                    //!< Circuit per input is up (not dark)
    std::vector<uint32_t> m_target;            //!< Circuit per input after all requests
    std::vector<std::vector<Time>> m_cuts;     //!< Times each input's lit circuit was cut
    std::vector<uint32_t> m_darkHolds;         //!< Reconfigurations darkening each port
    std::vector<Time> m_darkSince;             //!< Start of the current blackout per port
    std::vector<Time> m_darkTotal;             //!< Finished blackout time per port
    std::vector<bool> m_failed;                //!< Failed ports
    uint32_t m_failNext{0};                    //!< Reconfigurations left to fail
    std::vector<std::deque<uint64_t>> m_lines; //!< Per port: requests waiting on it, FIFO

    std::map<uint64_t, Request> m_requests; //!< Accepted, not completed, by id
    uint64_t m_nextId{1};                   //!< Id of the next request
    uint64_t m_reconfigurations{0};         //!< Completed non-empty reconfigurations
};

} // namespace ns3

#endif /* OCS_CIRCUIT_TABLE_H */

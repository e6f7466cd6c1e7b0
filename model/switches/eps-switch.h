/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EPS_SWITCH_H
#define EPS_SWITCH_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class EpsNetDevice;

/**
 * \ingroup photonic-rails
 * \brief Counters of one EpsSwitch (frame sizes include the 14-byte Ethernet header).
 */
struct EpsSwitchCounters
{
    uint64_t framesReceived{0};               //!< Data frames that arrived on any port
    uint64_t bytesReceived{0};                //!< Their bytes
    uint64_t framesForwarded{0};              //!< Frames that left an egress port
    uint64_t bytesForwarded{0};               //!< Their bytes
    uint64_t framesDroppedNoRoute{0};         //!< Unknown destination (never flooded)
    uint64_t framesDroppedBufferFull{0};      //!< The shared buffer had no room
    uint64_t framesDroppedEgressThreshold{0}; //!< Over the dynamic threshold (PFC off)
    uint64_t framesDroppedLinkDown{0}; //!< Routed to, or queued at, a port whose link is down
    uint64_t framesMarked{0};          //!< ECN marking decisions
    uint64_t pausesSent{0};            //!< PAUSE frames requested on ingress ports
    uint64_t resumesSent{0};           //!< RESUME frames requested on ingress ports
};

/**
 * \ingroup photonic-rails
 * \brief An electrical packet switch: the L2 forwarding plane of one node's EpsNetDevices.
 *
 * Aggregate it to a Node and register that node's EpsNetDevices as ports (AddPort). Frames
 * are switched by destination MAC over a static table (AddRoute); a destination with several
 * egress ports is ECMP: a frame takes the port chosen by a deterministic hash of (source
 * MAC, destination MAC, flow label), the flow label being the 4 bytes right after the
 * Ethernet header (big-endian; RoCEv2 puts entropy in the UDP source port likewise). Frames
 * to an unknown destination (also broadcast and multicast) are dropped, never flooded.
 *
 * Timing: store-and-forward. A frame is handled when its last bit has arrived and joins its
 * egress queue ProcessingDelay later; the egress port sends it when the line is free (and
 * not PFC-paused by the downstream device).
 *
 * Buffer: output-queued FIFO per egress port, all in one shared buffer of BufferSize bytes.
 * A frame occupies the buffer from its arrival until its transmission starts. A frame that
 * does not fit is dropped. With PFC off, an optional dynamic threshold (DtAlpha > 0) also
 * caps each egress queue at DtAlpha x the free buffer (Choudhury-Hahne).
 *
 * Network control (EpsNetDevice::IsNetworkControl, e.g. DCQCN's CNPs) waits in a second,
 * strict-priority FIFO per egress port: it leaves before any data frame queued there, even
 * while the port is paused (PFC holds the data class only), and is never ECN-marked. It
 * takes buffer like any frame.
 *
 * ECN: a data frame leaving an egress queue that still holds q bytes (behind it) is marked with
 * probability 0 if q <= EcnKmin, EcnPmax (q - EcnKmin) / (EcnKmax - EcnKmin) if
 * EcnKmin < q <= EcnKmax, and 1 above EcnKmax (DCQCN's RED profile on the instantaneous
 * queue). Marked frames carry an EcnMarkTag. EcnKmin and EcnKmax of 0 scale with the egress
 * port's rate (EcnThresholds).
 *
 * PFC: bytes in the buffer are counted per ingress port. When they exceed the port's Xoff
 * the switch makes that port send PAUSE upstream; when they fall to Xon or below, RESUME.
 * Each port needs headroom above Xoff for the bytes already on the way:
 * 2 x Delay x DataRate / 8 + 2 maximal frames + one PAUSE frame. The switch checks that
 * every port's Xoff plus headroom fits in the buffer, so a PFC fabric never drops.
 */
class EpsSwitch : public Object
{
  public:
    /// Why a frame was dropped.
    enum DropReason
    {
        NO_ROUTE,         //!< No route to the destination MAC
        BUFFER_FULL,      //!< The shared buffer had no room
        EGRESS_THRESHOLD, //!< The egress queue exceeded the dynamic threshold
        LINK_DOWN,        //!< The egress port's link is down (until routing avoids it)
    };

    /// Port number that means "none".
    static constexpr uint32_t NO_PORT = std::numeric_limits<uint32_t>::max();
    /// Bytes of the flow label, right after the Ethernet header.
    static constexpr uint32_t FLOW_LABEL_BYTES = 4;

    /// Signature of the QueueLength trace: egress port, bytes queued there.
    typedef void (*QueueLengthTracedCallback)(uint32_t port, uint64_t bytes);
    /// Signature of the EcnMark trace: frame, egress port, queue bytes it left behind.
    typedef void (*EcnMarkTracedCallback)(Ptr<const Packet> frame,
                                          uint32_t port,
                                          uint64_t queueBytes);
    /// Signature of the PfcPause trace: ingress port, true for PAUSE, false for RESUME.
    typedef void (*PfcPauseTracedCallback)(uint32_t port, bool paused);
    /// Signature of the Drop trace: frame (with header), ingress port, reason.
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame,
                                       uint32_t ingressPort,
                                       DropReason reason);

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    EpsSwitch();
    ~EpsSwitch() override;

    /**
     * \brief Makes \p device a port of this switch: the switch receives its frames
     *        (promiscuous callback) and feeds its transmitter from the port's egress queue.
     * \param device an EpsNetDevice of the switch's node
     * \return the port number (0, 1, ... in order of registration)
     */
    uint32_t AddPort(Ptr<EpsNetDevice> device);
    /// \return the number of ports
    uint32_t GetNPorts() const;
    /// \param seed ECMP hash seed (0: derived from the node id)
    void SetEcmpSeed(uint32_t seed);
    /// \return the ECMP hash seed attribute
    uint32_t GetEcmpSeed() const;
    /// \param port a port number \return its device
    Ptr<EpsNetDevice> GetPortDevice(uint32_t port) const;
    /// \param device a device \return its port number, or NO_PORT
    uint32_t GetPortOf(Ptr<const NetDevice> device) const;

    /**
     * \brief Routes frames for \p destination to \p ports (several: ECMP).
     *
     * Replaces any earlier route to \p destination.
     * \param destination a unicast MAC address
     * \param ports egress ports, not empty, each below GetNPorts()
     */
    void AddRoute(Mac48Address destination, std::vector<uint32_t> ports);
    /// \param destination a unicast MAC address \param port its single egress port
    void AddRoute(Mac48Address destination, uint32_t port);
    /// \param destination a MAC address whose frames are dropped (NO_ROUTE) from now on
    void RemoveRoute(Mac48Address destination);
    /// \param destination a MAC address \return its egress ports (empty if no route)
    std::vector<uint32_t> GetRoute(Mac48Address destination) const;
    /// \return the number of destinations with a route
    std::size_t GetNRoutes() const;

    /**
     * \brief The egress port a frame takes (what Forward uses).
     * \param source source MAC \param destination destination MAC
     * \param flowLabel the flow label
     * \return the port, or NO_PORT if there is no route
     */
    uint32_t SelectEgress(Mac48Address source, Mac48Address destination, uint32_t flowLabel);

    /**
     * \param payload a frame's payload (after the Ethernet header)
     * \return its first 4 bytes, big-endian (missing bytes read as 0)
     */
    static uint32_t ReadFlowLabel(Ptr<const Packet> payload);

    /**
     * \brief The ECN marking ramp of an egress port.
     * \param kmin EcnKmin (0: derived, 4,000 B per Gb/s of \p bps, at most the Kmax used)
     * \param kmax EcnKmax (0: derived, 16,000 B per Gb/s of \p bps, at least the Kmin used)
     * \param bps the port's rate
     * \return the Kmin and Kmax the port marks with
     */
    static std::pair<uint64_t, uint64_t> EcnThresholds(uint64_t kmin, uint64_t kmax, uint64_t bps);

    /**
     * \brief PFC headroom of a port: the bytes still arriving after it decides to PAUSE.
     *
     * RailFabricSpec::Validate uses it too, to refuse a fabric whose switches' buffers
     * cannot hold the headroom of every port.
     * \param bps the faster line rate of the port and its peer
     * \param delay the cable's one-way delay
     * \param maxFrameBytes the largest frame either end sends, Ethernet header included
     * \return bytes
     */
    static uint64_t PfcHeadroom(uint64_t bps, Time delay, uint64_t maxFrameBytes);

    /// The attributes that rule the shared buffer (see CheckBuffer).
    struct BufferSettings
    {
        uint64_t bufferSize{0}; //!< BufferSize
        double dtAlpha{0};      //!< DtAlpha
        uint64_t ecnKmin{0};    //!< EcnKmin
        uint64_t ecnKmax{0};    //!< EcnKmax
        bool pfcEnabled{true};  //!< PfcEnabled
        uint64_t pfcXoff{0};    //!< PfcXoff (0: derived)
        uint64_t pfcXon{0};     //!< PfcXon (0: derived)
    };

    /// One port as PFC sees it: what it needs, and the thresholds CheckBuffer gives it.
    struct PfcPort
    {
        uint64_t headroom{0}; //!< Bytes still arriving after a PAUSE (PfcHeadroom)
        uint64_t maxFrame{0}; //!< Largest frame in or out, Ethernet header included
        uint64_t xoff{0};     //!< PAUSE threshold (set by CheckBuffer)
        uint64_t xon{0};      //!< RESUME threshold (set by CheckBuffer)
    };

    /// \return the BufferSettings a switch made now starts with: the attributes' defaults,
    ///         or what Config::SetDefault (a command line) made them
    static BufferSettings DefaultSettings();

    /**
     * \brief The switch's rules between its attributes, and between them and its ports:
     *        written once, applied by the switch before its first frame (it aborts on a
     *        violation) and by the programs before anything runs (RailFabricSpec::Validate,
     *        StrictCommandLine).
     *
     * EcnKmin is at most EcnKmax; DtAlpha applies with PFC off, PfcXoff and PfcXon with PFC
     * on; PfcXoff is at most BufferSize; the buffer holds the largest frame. With PFC, each
     * port's Xoff is PfcXoff, or BufferSize / ports - headroom (which must leave a frame);
     * its Xon is PfcXon, or Xoff - 2 largest frames; Xon is below Xoff; and the ports' Xoff
     * plus headroom fit in BufferSize (lossless).
     * \param settings the attributes
     * \param ports the ports (none: the rules between the attributes only); each receives
     *        its thresholds
     * \return "" if the switch can work so, else a one-line reason naming the attributes
     */
    static std::string CheckBuffer(const BufferSettings& settings, std::vector<PfcPort>& ports);

    /// \return bytes held in the shared buffer
    uint64_t GetBufferUsed() const;
    /// \param port egress port \return bytes in its queue
    uint64_t GetQueueBytes(uint32_t port) const;
    /// \param port ingress port \return bytes in the buffer that arrived on it
    uint64_t GetIngressBytes(uint32_t port) const;
    /// \param port ingress port \return true while it holds its upstream with PAUSE
    bool IsIngressPaused(uint32_t port) const;
    /// \param port ingress port \return its PAUSE threshold in bytes
    uint64_t GetPfcXoff(uint32_t port);
    /// \param port ingress port \return its RESUME threshold in bytes
    uint64_t GetPfcXon(uint32_t port);
    /// \param port ingress port \return its PFC headroom in bytes (see class description)
    uint64_t GetPfcHeadroom(uint32_t port);
    /// \return the counters
    const EpsSwitchCounters& GetCounters() const;

    /**
     * \brief Sets the random stream of the ECN marking decisions.
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /// A frame waiting in an egress queue.
    struct Queued
    {
        Ptr<Packet> frame; //!< With its Ethernet header
        uint32_t ingress;  //!< Port it arrived on (for PFC accounting)
    };

    /// State of one port, as ingress and as egress.
    struct Port
    {
        Ptr<EpsNetDevice> device;          //!< The port's device
        std::deque<Queued> queue;          //!< Egress FIFO
        std::deque<Queued> networkControl; //!< Strict-priority egress FIFO, sent first
        uint64_t queueBytes{0};            //!< Bytes in both egress FIFOs
        uint64_t ingressBytes{0};          //!< Buffered bytes that arrived on this port
        bool ingressPaused{false};         //!< PAUSE sent upstream and not yet resumed
        uint64_t xoff{0};                  //!< PFC PAUSE threshold
        uint64_t xon{0};                   //!< PFC RESUME threshold
        uint64_t headroom{0};              //!< PFC headroom
        uint64_t ecnKmin{0};               //!< ECN: no mark at or below (EcnThresholds)
        uint64_t ecnKmax{0};               //!< ECN: every frame marked above
    };

    /// A port's link went down or came up: a dead port loses its queue and its pause.
    void OnLinkChange(uint32_t port);
    /// Drops a buffered frame, releasing its buffer and ingress accounting.
    void DropQueued(const Queued& queued);
    /// Promiscuous receive callback of port \p port.
    bool Receive(uint32_t port,
                 Ptr<const Packet> payload,
                 uint16_t protocol,
                 const Address& source,
                 const Address& destination);
    /// \return the ECMP member of \p ports for a flow (MACs as 48-bit integers).
    uint32_t HashToPort(const std::vector<uint32_t>& ports,
                        uint64_t source,
                        uint64_t destination,
                        uint32_t flowLabel) const;
    /// \return whether the shared buffer (and dynamic threshold) admit \p bytes to \p egress.
    bool Admit(uint32_t egress, uint32_t bytes, DropReason& reason) const;
    /// Puts \p frame into the egress queue of \p egress (after the processing delay).
    void Enqueue(uint32_t egress, uint32_t ingress, Ptr<Packet> frame);
    /**
     * Frame source of port \p egress.
     * \param egress the port
     * \param networkControlOnly the port is paused: network control only
     * \return its next frame, or null
     */
    Ptr<Packet> Dequeue(uint32_t egress, bool networkControlOnly);
    /// \return whether a frame joining \p port's queue of \p queueBytes is ECN-marked.
    bool ShouldMark(const Port& port, uint64_t queueBytes);
    /// Counts and traces a dropped frame.
    void Drop(Ptr<const Packet> frame, uint32_t ingress, DropReason reason);
    /// Sends PAUSE upstream of \p ingress if its bytes exceed Xoff.
    void CheckXoff(uint32_t ingress);
    /// Sends RESUME upstream of \p ingress if its bytes fell to Xon.
    void CheckXon(uint32_t ingress);
    /// Applies CheckBuffer to the attributes and ports: derives the PFC thresholds (once
    /// per port set), or aborts.
    void Configure();
    /// \return the PFC headroom of \p port in bytes.
    uint64_t ComputeHeadroom(const Port& port) const;
    /// \return the largest frame (with header) that can arrive on or leave \p port.
    static uint64_t MaxFrameBytes(const Port& port);
    /// \return \p address as a 48-bit integer (hash and table key).
    static uint64_t MacKey(Mac48Address address);

    std::vector<Port> m_ports;                                    //!< Ports
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_routes; //!< MAC -> egress ports
    bool m_configured;                                            //!< Configure() is current
    uint64_t m_bufferUsed;                                        //!< Shared buffer in use
    EpsSwitchCounters m_counters;                                 //!< Counters
    Ptr<UniformRandomVariable> m_random;                          //!< ECN decisions

    Time m_processingDelay; //!< From last bit in to joining the egress queue
    uint64_t m_bufferSize;  //!< Shared buffer bytes
    double m_dtAlpha;       //!< Dynamic threshold factor (0: off)
    uint32_t m_ecmpSeed;    //!< ECMP hash seed (0: the node id)
    uint64_t m_hashSeed;    //!< Seed in use
    bool m_ecnEnabled;      //!< ECN marking on
    uint64_t m_ecnKmin;     //!< ECN threshold: no marks at or below
    uint64_t m_ecnKmax;     //!< ECN threshold: all marked above
    double m_ecnPmax;       //!< Marking probability at EcnKmax
    bool m_pfcEnabled;      //!< PFC on
    uint64_t m_pfcXoff;     //!< PAUSE threshold (0: derived)
    uint64_t m_pfcXon;      //!< RESUME threshold (0: derived)

    TracedCallback<uint32_t, uint64_t> m_queueLengthTrace;                //!< QueueLength
    TracedCallback<Ptr<const Packet>, uint32_t, uint64_t> m_ecnMarkTrace; //!< EcnMark
    TracedCallback<uint32_t, bool> m_pfcPauseTrace;                       //!< PfcPause
    TracedCallback<Ptr<const Packet>, uint32_t, DropReason> m_dropTrace;  //!< Drop
};

} // namespace ns3

#endif /* EPS_SWITCH_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_RATE_CONTROLLER_H
#define DCQCN_RATE_CONTROLLER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The constants of a DCQCN reaction point (Zhu et al., "Congestion Control for
 * Large-Scale RDMA Deployments", SIGCOMM 2015), named after the NIC's knobs where it has
 * them. The defaults are NVIDIA ConnectX firmware's (see DcqcnProfile and the design doc's
 * parameter table for the sources).
 */
struct DcqcnParameters
{
    double lineRateBps{400e9};             //!< Maximum (line) rate
    double minRateBps{1e6};                //!< rpg_min_rate: floor of the current rate
    double initialAlpha{1023.0 / 1024};    //!< initial_alpha_value: alpha at the first CNP
    double g{5.0 / 1024};                  //!< 1 - dce_tcp_g / 1024: gain of alpha's average
    Time alphaPeriod{MicroSeconds(1)};     //!< dce_tcp_rtt: alpha is updated once per period
    Time decreasePeriod{MicroSeconds(4)};  //!< rate_reduce_monitor_period: at most one cut each
    Time increaseTimer{MicroSeconds(300)}; //!< rpg_time_reset (T): rate-increase timer
    uint64_t byteCounter{32767 * 64};      //!< rpg_byte_reset (B), 64-B units; 0: none
    uint32_t fastRecoveryStages{1};        //!< rpg_threshold (F)
    double additiveIncreaseBps{5e6};       //!< rpg_ai_rate (R_AI)
    double hyperIncreaseBps{50e6};         //!< rpg_hai_rate (R_HAI)
    bool clampAlways{false};               //!< clamp_tgt_rate: R_T <- R_C on every cut
};

/**
 * \ingroup photonic-rails
 * \brief A named set of DCQCN settings: the reaction point's constants and the notification
 * point's least time between two CNPs (ConnectX counts it per receiving port, the DCQCN
 * paper per flow).
 */
struct DcqcnProfile
{
    DcqcnParameters reactionPoint; //!< The sender's rate controller
    Time cnpInterval;              //!< min_time_between_cnps (the receiver's)
    bool cnpIntervalPerPort{true}; //!< cnpInterval limits a port's CNPs (false: a QP's)

    /**
     * \param name "cx7" (NVIDIA ConnectX-6/7 firmware defaults) or "paper-40g" (the DCQCN
     *        paper's settings)
     * \param lineRateBps the port's line rate
     * \return the profile (NS_FATAL_ERROR on another name: attributes check names first)
     */
    static DcqcnProfile Get(const std::string& name, double lineRateBps);
};

/**
 * \ingroup photonic-rails
 * \brief The reaction point of DCQCN: one sender's current rate R_C, driven by CNPs.
 *
 * Before its first CNP a sender runs at line rate. The first CNP starts three clocks, all
 * anchored at its arrival t0:
 * - alpha: at the end of each alphaPeriod, alpha <- (1 - g) alpha + g if a CNP arrived in
 *   that period, (1 - g) alpha if none did;
 * - rate decrease: at the end of each decreasePeriod in which a CNP arrived (the first one
 *   included), after that instant's alpha update, R_T <- R_C (only if a timer increase came
 *   since the last cut, unless clampAlways), then R_C <- max(minRate, R_C (1 - alpha / 2));
 *   the increase stages and the byte count restart, and so does the increase timer;
 * - rate increase, while R_C is below the line rate: every increaseTimer after the last cut
 *   and every byteCounter bytes sent since it. With T and BC the timer and byte-counter
 *   expiries since the last cut before this one, an increase first moves R_T: not at all
 *   while max(T, BC) < F (fast recovery: F stages), by R_HAI once min(T, BC) > F (hyper
 *   increase), by R_AI otherwise (additive increase); without a byte counter T stands for
 *   both. Then R_C <- (R_T + R_C) / 2, capped at the line rate, and a rate within R_AI of
 *   the line rate becomes the line rate (halving the gap never closes it).
 *
 * The clocks are evaluated lazily: every call first applies what fell due since the last
 * call, in time order, so an idle QP costs no events. The same inputs at the same times give
 * the same rates.
 */
class DcqcnRateController
{
  public:
    /// \param parameters the algorithm's constants
    explicit DcqcnRateController(const DcqcnParameters& parameters = DcqcnParameters());

    /**
     * \brief A congestion notification arrived.
     * \param now current time
     */
    void OnCnp(Time now);

    /**
     * \brief Bytes were sent (drives the byte-counter increases).
     * \param bytes bytes on the wire
     * \param now current time
     */
    void OnSent(uint64_t bytes, Time now);

    /**
     * \param now current time
     * \return the current rate R_C, in bit/s
     */
    double GetRate(Time now);

    /**
     * \param now current time
     * \return the target rate R_T, in bit/s
     */
    double GetTargetRate(Time now);

    /**
     * \param now current time
     * \return alpha after the updates due by \p now
     */
    double GetAlpha(Time now);

    /// \return true while the rate is below the line rate
    bool IsThrottled() const;

    /**
     * \param now current time
     * \return when the increase timer next raises the rate (Time::Max() if it does not run)
     */
    Time GetNextIncrease(Time now);

  private:
    /// Applies the cuts and timer increases due by \p now, in time order.
    void AdvanceTo(Time now);
    /// Applies the alpha updates of the periods that ended by \p now.
    void AdvanceAlpha(Time now);
    /// The rate cut at the end of a decrease period that saw a CNP.
    void Cut(Time at);
    /// One rate-increase event (fast recovery, additive or hyper increase).
    void Increase();

    DcqcnParameters m_p;    //!< Constants
    double m_rate;          //!< R_C, current rate
    double m_target;        //!< R_T, target rate
    double m_alpha;         //!< Alpha
    bool m_started;         //!< A CNP has arrived: the clocks run
    Time m_alphaStart;      //!< Start of the running alpha period
    bool m_alphaCnp;        //!< A CNP arrived in the running alpha period
    Time m_decreaseStart;   //!< t0, the anchor of the decrease periods
    bool m_cutPending;      //!< A CNP arrived in the running decrease period
    Time m_cutAt;           //!< End of that period, when the cut falls due
    Time m_timerAt;         //!< When the increase timer next expires
    uint32_t m_timerStages; //!< T: timer expiries since the last cut
    uint32_t m_byteStages;  //!< BC: byte-counter expiries since the last cut
    uint64_t m_bytes;       //!< Bytes sent in the running byte-counter period
};

} // namespace ns3

#endif /* DCQCN_RATE_CONTROLLER_H */

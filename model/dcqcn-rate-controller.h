/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_RATE_CONTROLLER_H
#define DCQCN_RATE_CONTROLLER_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief DCQCN parameters (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015).
 */
struct DcqcnParameters
{
    double lineRateBps{400e9};              //!< Maximum (line) rate
    double minRateBps{100e6};               //!< Floor of the current rate
    double g{1.0 / 256};                    //!< Gain of the alpha moving average
    Time alphaTimer{MicroSeconds(55)};      //!< K: alpha decays once per K without CNP
    Time increaseTimer{MicroSeconds(55)};   //!< T: rate-increase timer period
    uint64_t byteCounter{10 * 1000 * 1000}; //!< B: rate-increase byte counter (10 MB)
    uint32_t fastRecoverySteps{5};          //!< F: fast-recovery stages before additive increase
    double additiveIncreaseBps{40e6};       //!< R_AI
    double hyperIncreaseBps{200e6};         //!< R_HAI
};

/**
 * \ingroup photonic-rails
 * \brief The reaction point of DCQCN: one sender's current rate, driven by CNPs.
 *
 * Timers start with the first CNP (before it the sender runs at line rate with alpha 1,
 * so the first cut halves the rate whenever it comes) and are evaluated lazily: every call
 * first applies the alpha decays and timer-driven rate increases that fell due since the
 * last call, so an idle connection costs no events.
 * The same inputs at the same times give the same rates.
 */
class DcqcnRateController
{
  public:
    /// \param parameters the algorithm's constants
    explicit DcqcnRateController(const DcqcnParameters& parameters = DcqcnParameters());

    /**
     * \brief A congestion notification arrived: cut the rate.
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
     * \return the current rate, in bit/s
     */
    double GetRate(Time now);

    /// \return the current alpha (after the last update)
    double GetAlpha() const;

    /// \return true while the rate is below the line rate
    bool IsThrottled() const;

  private:
    /// Applies alpha decays and timer increases due by \p now.
    void AdvanceTo(Time now);
    /// One rate-increase event (fast recovery, additive or hyper increase).
    void Increase();

    DcqcnParameters m_p;    //!< Constants
    double m_rate;          //!< R_C, current rate
    double m_target;        //!< R_T, target rate
    double m_alpha;         //!< Alpha
    bool m_congested;       //!< A CNP has arrived: the timers run
    Time m_alphaSince;      //!< Start of the running alpha period
    Time m_timerSince;      //!< Start of the running increase-timer period
    uint32_t m_timerStages; //!< Timer-driven increases since the last CNP
    uint32_t m_byteStages;  //!< Byte-counter-driven increases since the last CNP
    uint64_t m_bytes;       //!< Bytes sent in the running byte-counter period
};

} // namespace ns3

#endif /* DCQCN_RATE_CONTROLLER_H */

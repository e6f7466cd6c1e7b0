/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINE_RATE_H
#define LINE_RATE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Serialization times of back-to-back frames at a line rate, exact on average.
 *
 * ns-3's DataRate::CalculateBytesTxTime() rounds each frame to the Time resolution (1 ns by
 * default): a 4110-byte frame at 400 Gb/s takes 82.2 ns but is sent in 82 ns, so a long
 * transfer runs 0.24% faster than the line. This clock carries the remainder from frame to
 * frame in integer arithmetic, so every frame is within one time step of its exact
 * duration and N frames take exactly their total size / rate, rounded once.
 */
class LineRate
{
  public:
    /// \param rate the line rate
    explicit LineRate(DataRate rate = DataRate(0));

    /// \param rate the new line rate (the carried remainder restarts)
    void SetRate(DataRate rate);
    /// \return the line rate
    DataRate GetRate() const;

    /**
     * \param bytes size of the next frame on the wire
     * \return its serialization time
     */
    Time Next(uint32_t bytes);

  private:
    uint64_t m_bps;       //!< Bits per second
    uint64_t m_remainder; //!< Carried numerator: bit-ticks not yet turned into a tick
};

} // namespace ns3

#endif /* LINE_RATE_H */

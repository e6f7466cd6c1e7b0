/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the job-level suites (collective, opus) observe of rank runtimes: when every op
 * ended, and whether every rank finished.
 */

#ifndef JOB_TEST_BED_H
#define JOB_TEST_BED_H

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/photonic-rails-module.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ns3
{
namespace tests
{

/// The end time of every op of every rank (of the last replay that ran it).
class OpEndLog
{
  public:
    /// \param runtimes the rank runtimes to follow (their OpEnd trace)
    void Attach(const ApplicationContainer& runtimes)
    {
        for (uint32_t i = 0; i < runtimes.GetN(); ++i)
        {
            runtimes.Get(i)->TraceConnectWithoutContext(
                "OpEnd",
                Callback<void, const WorkloadOp&, uint32_t>([this](const WorkloadOp& op, uint32_t) {
                    m_endNs[{op.rank, op.id}] = Simulator::Now().GetNanoSeconds();
                }));
        }
    }

    /// \return when op \p id of \p rank ended (last replay), ns; -1 if it did not
    double EndNs(uint32_t rank, uint32_t id) const
    {
        auto it = m_endNs.find({rank, id});
        return it == m_endNs.end() ? -1 : it->second;
    }

    /// \return the latest end of op \p id over all ranks, ns; -1 if none ended
    double LastEndNs(uint32_t id) const
    {
        double last = -1;
        for (const auto& [key, ns] : m_endNs)
        {
            if (key.second == id)
            {
                last = std::max(last, ns);
            }
        }
        return last;
    }

  private:
    std::map<std::pair<uint32_t, uint32_t>, double> m_endNs; //!< (rank, id) -> end
};

/// \param runtimes rank runtimes \return true if every one ran all its ops
inline bool
AllRanksFinished(const ApplicationContainer& runtimes)
{
    for (uint32_t i = 0; i < runtimes.GetN(); ++i)
    {
        if (!DynamicCast<RankRuntime>(runtimes.Get(i))->IsFinished())
        {
            return false;
        }
    }
    return true;
}

} // namespace tests
} // namespace ns3

#endif /* JOB_TEST_BED_H */

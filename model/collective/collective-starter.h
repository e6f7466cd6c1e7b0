/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_STARTER_H
#define COLLECTIVE_STARTER_H

#include "ns3/callback.h"
#include "ns3/collective-plan.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One collective, send or receive as every participant hands it to its communicator.
 */
struct CollectiveCall
{
    WorkloadOpType type{WorkloadOpType::ALLREDUCE}; //!< A collective, SEND or RECV
    std::string instance;          //!< Names this call, the same at every participant
    std::vector<uint32_t> members; //!< Collectives: global ranks
    uint32_t root{0};              //!< Broadcast/reduce: root rank
    uint32_t peer{0};              //!< SEND/RECV: the other rank
    uint64_t bytes{0};             //!< Per-rank buffer (NCCL convention)
    WorkloadAlgorithm algorithm{WorkloadAlgorithm::UNSPECIFIED}; //!< Requested algorithm
    std::string label; //!< The op's label (for reports, and OpusShim's Ignore pattern)
};

/**
 * \ingroup photonic-rails
 * \brief Where a rank's runtime hands each communication of its DAG.
 *
 * The seam between the runtime and whatever carries a collective: CollectiveCommunicator
 * runs it at once; a control plane above the communicator (OpusShim) may first wait for
 * circuits. The runtime knows this interface only.
 */
class CollectiveStarter : public Object
{
  public:
    /// Called when this rank's part of a communication finished.
    using DoneCallback = Callback<void>;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();

    ~CollectiveStarter() override;

    /**
     * \brief Starts a communication; every participant starts the same instance.
     * \param call the call
     * \param iteration its reported iteration: replay x DAG iterations + the op's label
     * \param done called when this rank's part finished
     */
    virtual void StartCommunication(const CollectiveCall& call,
                                    uint64_t iteration,
                                    DoneCallback done) = 0;
};

} // namespace ns3

#endif // COLLECTIVE_STARTER_H

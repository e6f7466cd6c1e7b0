/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GOODPUT_MODEL_H
#define GOODPUT_MODEL_H

#include "ns3/opus-cost-model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief One class of component whose failures interrupt a training job.
 */
struct FailureClass
{
    /// What a failure of the class takes to recover from.
    enum Recovery
    {
        SERVER,   //!< A server (or one of its GPUs or NICs) is lost: wait for it or swap a spare
        IN_PLACE, //!< Nothing to replace (software, a network part the fabric routes around):
                  //!< the job restarts on the same servers
    };

    std::string name;          //!< Cause, e.g. "gpu"
    double perPartYear{0};     //!< Failures per part per year
    uint64_t parts{0};         //!< Parts of the class in the cluster
    Recovery recovery{SERVER}; //!< How the job recovers

    /// \return failures per second of the whole class
    double RatePerSecond() const;
};

/**
 * \ingroup photonic-rails
 * \brief How the job runs and recovers, in seconds.
 *
 * The restart rules are RestartPolicy's (photonic-rails-sim's): a failure is detected after
 * detectionS; a SERVER failure then waits for the failed server's repair (swap false) or
 * takes a spare, which on optical rails costs one OCS reconfiguration (swapS, all rails in
 * parallel); training starts again restoreS after that restart order, from the last
 * checkpoint, and re-runs the work done since.
 */
struct GoodputJob
{
    double iterationS{1};        //!< Steady iteration time
    uint32_t checkpointEvery{0}; //!< Iterations between checkpoints (0: only the start)
    double detectionS{600};      //!< Failure to restart order
    double restoreS{600};        //!< Restart order to training again
    double repairS{7200};        //!< A failed server (or its GPU, NIC) back in service
    bool swap{false};            //!< SERVER failures take a spare when one is up
    uint32_t spares{0};          //!< Spare servers
    double swapS{0};             //!< Network change of a swap (OCS reconfiguration; 0 on EPS)

    /// \return seconds of training between checkpoints (0: only the start)
    double CheckpointS() const;
};

/**
 * \ingroup photonic-rails
 * \brief One failure: when, and its class (an index into the classes).
 */
struct GoodputFailure
{
    double atS{0};     //!< Seconds from the campaign's start
    uint32_t cause{0}; //!< Index of its FailureClass
};

/**
 * \ingroup photonic-rails
 * \brief What the failures did to one campaign.
 */
struct GoodputRun
{
    double wallS{0};               //!< The campaign's length
    double usefulS{0};             //!< Training kept at the end (goodput x wall)
    std::vector<uint64_t> count;   //!< Per class: failures
    std::vector<double> lostWorkS; //!< Per class: training since the checkpoint, lost
    std::vector<double> downS;     //!< Per class: time the job was down because of it

    /// \return usefulS / wallS
    double Goodput() const;
};

/**
 * \ingroup photonic-rails
 * \brief Mean and spread of one quantity over seeds.
 */
struct GoodputStats
{
    double mean{0};   //!< Mean
    double stddev{0}; //!< Sample standard deviation (0 for one sample)
    double min{0};    //!< Smallest
    double max{0};    //!< Largest

    /// \param samples at least one \return their statistics
    static GoodputStats Of(const std::vector<double>& samples);
};

/**
 * \ingroup photonic-rails
 * \brief Goodput of a training campaign under Poisson failures: a seeded Monte-Carlo.
 *
 * Failures of each class arrive as a Poisson process of rate perPartYear x parts, at any
 * time of the campaign (hardware fails whether the job runs or not). The job trains while
 * up; checkpoints are taken every CheckpointS() of training at no cost (and the restart
 * point is one). A failure while the job trains loses the training since the last
 * checkpoint and stops the job: restart order = failure + detection (+ for SERVER: the
 * repair, or the swap's reconfiguration once a spare is up), training again restoreS after
 * the order. A failure while the job is down (detecting, waiting, restoring) is detected in
 * turn and the restart waits for it: the order is the later of the two, training again
 * restoreS after it (RestartPlanner's rule); it loses no work. A server swapped out
 * becomes a spare once repaired; with no spare up, a swap waits for the earlier of a spare's
 * return and the failed server's repair. The campaign ends at wallS, whatever the job is
 * doing; the training since the last checkpoint counts as kept.
 *
 * The time is split exactly: usefulS + sum of lostWorkS + sum of downS = wallS.
 */
class GoodputModel
{
  public:
    /**
     * \param classes the failure classes
     * \param job how the job runs and recovers
     */
    GoodputModel(std::vector<FailureClass> classes, const GoodputJob& job);

    /**
     * \brief Draws the failures of one campaign.
     * \param wallS the campaign's length
     * \param seed the seed (each seed its own failures; each class its own stream of it, so
     *        a class at the same index and rate in another model fails at the same times)
     * \return the failures, in time order
     */
    std::vector<GoodputFailure> Draw(double wallS, uint64_t seed) const;

    /**
     * \brief Plays given failures.
     * \param failures in time order, causes valid indices
     * \param wallS the campaign's length
     * \return what they did
     */
    GoodputRun Play(const std::vector<GoodputFailure>& failures, double wallS) const;

    /// \return Play(Draw(wallS, seed), wallS)
    GoodputRun Run(double wallS, uint64_t seed) const;

    /**
     * \brief The first-order closed form for one class alone with a fixed recovery:
     *        1 / (1 + rate x (recovery + checkpoint / 2)).
     * \param ratePerS failures per second
     * \param recoveryS down time per failure
     * \param checkpointS training between checkpoints
     * \return the goodput
     */
    static double ClosedForm(double ratePerS, double recoveryS, double checkpointS);

    /// \return the classes
    const std::vector<FailureClass>& GetClasses() const;

  private:
    /// \return when the restart that \p f orders can be ordered; updates the spares
    double OrderAfter(const GoodputFailure& f, std::vector<double>& spareBack) const;

    std::vector<FailureClass> m_classes; //!< Failure classes
    GoodputJob m_job;                    //!< The job
};

/**
 * \ingroup photonic-rails
 * \brief The part counts of a cluster's network the failure classes scale with.
 */
struct ClusterParts
{
    uint64_t gpus{0};         //!< GPUs
    uint64_t hosts{0};        //!< Servers
    uint64_t nics{0};         //!< NICs (one per GPU)
    uint64_t switches{0};     //!< Electrical switches
    uint64_t transceivers{0}; //!< 400G optical transceivers
    uint64_t ocses{0};        //!< OCSes

    /**
     * \brief Counts from the cost model (OpusCostModel): switches and transceivers of an
     *        electrical design, or OCSes and transceivers of Opus.
     * \param bill the network's bill
     * \param gpusPerServer GPUs per server
     * \return the counts
     */
    static ClusterParts FromBill(const CostBill& bill, uint32_t gpusPerServer);
};

/**
 * \ingroup photonic-rails
 * \brief The default per-part failure rates: the Llama 3 paper's 54-day record of 419
 *        unexpected interruptions on 16,384 H100 GPUs (Table 5), divided by the part counts
 *        of that cluster (2,048 Grand Teton servers of 8 GPUs and 8 NICs; its network counted
 *        as the cost model's rail-optimized design for 16,384 GPUs).
 */
struct Llama3Rates
{
    static constexpr double DAYS = 54;           //!< The snapshot's length
    static constexpr uint64_t GPUS = 16384;      //!< H100 GPUs
    static constexpr uint32_t GPUS_PER_HOST = 8; //!< Grand Teton
    /// Faulty GPU 148, GPU HBM3 72, GPU SRAM 19, GPU system processor 17, silent data
    /// corruption 6, GPU thermal interface and sensor 6
    static constexpr double GPU = 148 + 72 + 19 + 17 + 6 + 6;
    /// Host maintenance 32, SSD 3, power supply 3, server chassis 2, IO expansion board 2,
    /// CPU 2, system memory 2
    static constexpr double HOST = 32 + 3 + 3 + 2 + 2 + 2 + 2;
    static constexpr double NIC = 7; //!< NIC
    /// Software bug 54, dependency 2, NCCL watchdog timeouts 7
    static constexpr double SOFTWARE = 54 + 2 + 7;
    static constexpr double NETWORK = 35; //!< Network switch/cable (split: switchShare)

    /**
     * \brief Per-part rates, per part per year.
     * \param switchShare share of the network switch/cable interruptions put on switches
     *        (the rest on transceivers and their cables)
     * \return the rates, by class name: gpu, host, nic, software, switch, transceiver
     */
    static std::vector<std::pair<std::string, double>> PerPartYear(double switchShare);

    /// \return the part counts of the Llama 3 cluster
    static ClusterParts Parts();
};

} // namespace ns3

#endif /* GOODPUT_MODEL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_DAG_H
#define WORKLOAD_DAG_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Kind of a workload operation (the JSON "type" field).
 */
enum class WorkloadOpType : uint8_t
{
    COMPUTE,
    ALLREDUCE,
    ALLGATHER,
    REDUCESCATTER,
    ALLTOALL,
    BROADCAST,
    REDUCE,
    BARRIER,
    SEND,
    RECV,
};

/**
 * \ingroup photonic-rails
 * \brief Collective algorithm requested by an op (the JSON "algorithm" field).
 */
enum class WorkloadAlgorithm : uint8_t
{
    UNSPECIFIED, //!< field absent: the communicator chooses
    RING,
    DIRECT,
    HALVING_DOUBLING,
    TREE,
    AUTO,
};

/**
 * \brief JSON name of an op type ("allgather").
 * \param type the type
 * \return its name
 */
std::string WorkloadOpTypeName(WorkloadOpType type);

/**
 * \brief Parses a JSON op type name.
 * \param name e.g. "reducescatter"
 * \param type receives the type on success
 * \return false if the name is unknown
 */
bool ParseWorkloadOpType(const std::string& name, WorkloadOpType& type);

/**
 * \param type an op type
 * \return true for group collectives (allreduce ... barrier)
 */
bool IsWorkloadCollective(WorkloadOpType type);

/**
 * \param type an op type
 * \return true for send and recv
 */
bool IsWorkloadPointToPoint(WorkloadOpType type);

/**
 * \param type an op type
 * \return the stream an op of this type uses when the file names none ("compute" or "comm")
 */
std::string WorkloadDefaultStream(WorkloadOpType type);

/**
 * \brief JSON name of an algorithm ("halving-doubling"); empty for UNSPECIFIED.
 * \param algorithm the algorithm
 * \return its name
 */
std::string WorkloadAlgorithmName(WorkloadAlgorithm algorithm);

/**
 * \brief Parses a JSON algorithm name.
 * \param name e.g. "ring"
 * \param algorithm receives the algorithm on success
 * \return false if the name is unknown
 */
bool ParseWorkloadAlgorithm(const std::string& name, WorkloadAlgorithm& algorithm);

/**
 * \ingroup photonic-rails
 * \brief One operation of one rank, as in the JSON DAG format (version 1).
 *
 * Fields that do not apply to the op's type keep their defaults. The stream is always
 * resolved (the type's default stream when the file named none).
 */
struct WorkloadOp
{
    uint32_t rank{0};                             //!< global rank running the op
    uint32_t id{0};                               //!< id, unique within the rank
    WorkloadOpType type{WorkloadOpType::COMPUTE}; //!< kind of op
    double durationUs{0.0};                       //!< compute: duration in microseconds
    std::string group;                            //!< collectives: group name
    uint64_t bytes{0};                            //!< per-rank buffer (NCCL convention)
    int64_t root{-1};                             //!< broadcast/reduce: root rank
    int64_t peer{-1};                             //!< send/recv: the other rank
    int64_t tag{0};                               //!< send/recv: matching tag
    std::vector<uint32_t> deps;                   //!< ids of same-rank ops to wait for
    std::string stream;                           //!< stream (ops run in id order)
    uint32_t iteration{0};                        //!< iteration the op is reported in
    WorkloadAlgorithm algorithm{WorkloadAlgorithm::UNSPECIFIED}; //!< requested algorithm
    std::string label;                                           //!< free text

    /**
     * \param other another op
     * \return true if every field is equal
     */
    bool operator==(const WorkloadOp& other) const;
    /**
     * \param other another op
     * \return true if any field differs
     */
    bool operator!=(const WorkloadOp& other) const;
};

/**
 * \ingroup photonic-rails
 * \brief Read-only view of a contiguous run of ops (one rank's ops, in id order).
 */
class WorkloadOpRange
{
  public:
    /**
     * \param first first op
     * \param last one past the last op
     */
    WorkloadOpRange(const WorkloadOp* first, const WorkloadOp* last);
    /// \return first op
    const WorkloadOp* begin() const;
    /// \return one past the last op
    const WorkloadOp* end() const;
    /// \return number of ops
    std::size_t size() const;
    /// \return true if there is no op
    bool empty() const;
    /**
     * \param i index in [0, size())
     * \return the i-th op
     */
    const WorkloadOp& operator[](std::size_t i) const;

  private:
    const WorkloadOp* m_first; //!< first op
    const WorkloadOp* m_last;  //!< one past the last op
};

/**
 * \ingroup photonic-rails
 * \brief An immutable per-rank DAG of operations with named communication groups.
 *
 * Ops are kept sorted by (rank, id), which is the order they are written in and the order
 * that stream semantics ("ops on the same rank and stream run in id order") refer to.
 * The constructor does not validate: use WorkloadValidator before running a DAG. Ops whose
 * rank is outside [0, ranks) are kept (at the end of GetAllOps()) so that the validator
 * can report them, but GetOps() never returns them.
 */
class WorkloadDag
{
  public:
    /// Group name -> member global ranks (in the order given).
    using GroupMap = std::map<std::string, std::vector<uint32_t>>;

    /// \brief An empty DAG (no rank, no op).
    WorkloadDag();

    /**
     * \brief Builds the DAG; ops are sorted by (rank, id), keeping the given order of equal
     *        keys (duplicates are for the validator to report).
     * \param ranks number of ranks
     * \param groups communication groups
     * \param ops every op of every rank
     */
    WorkloadDag(uint32_t ranks, GroupMap groups, std::vector<WorkloadOp> ops);

    /// \return the number of ranks
    uint32_t GetRankCount() const;
    /// \return every group
    const GroupMap& GetGroups() const;
    /**
     * \param name group name
     * \return its members, or nullptr if there is no such group
     */
    const std::vector<uint32_t>* FindGroup(const std::string& name) const;
    /// \return the number of ops of all ranks
    std::size_t GetOpCount() const;
    /// \return all ops sorted by (rank, id)
    const std::vector<WorkloadOp>& GetAllOps() const;
    /**
     * \param rank a rank in [0, GetRankCount())
     * \return its ops in id order (empty for a rank outside the range)
     */
    WorkloadOpRange GetOps(uint32_t rank) const;
    /**
     * \param rank a rank
     * \param id an op id
     * \return the op, or nullptr
     */
    const WorkloadOp* FindOp(uint32_t rank, uint32_t id) const;
    /// \return 1 + the largest op iteration (0 without ops)
    uint32_t GetIterationCount() const;

    /**
     * \param other another DAG
     * \return true if ranks, groups and ops are all equal
     */
    bool operator==(const WorkloadDag& other) const;

  private:
    uint32_t m_ranks;                 //!< number of ranks
    uint32_t m_iterations;            //!< 1 + largest op iteration (0 without ops)
    GroupMap m_groups;                //!< communication groups
    std::vector<WorkloadOp> m_ops;    //!< ops sorted by (rank, id)
    std::vector<std::size_t> m_first; //!< index of each rank's first op; size ranks + 1
};

} // namespace ns3

#endif /* WORKLOAD_DAG_H */

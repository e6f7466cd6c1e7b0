/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECN_MARK_TAG_H
#define ECN_MARK_TAG_H

#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Congestion Experienced: the frame crossed an egress queue above the ECN threshold.
 *
 * An EpsSwitch adds this packet tag to the frames its egress marks (at most once per frame,
 * however many switches mark it). It stands for the IP header's CE codepoint of RoCEv2; the
 * receiving transport reads it with Packet::PeekPacketTag() and echoes it to the sender
 * (a CNP in DCQCN). The tag carries the number of the egress port that marked the frame
 * first, for diagnostics.
 */
class EcnMarkTag : public Tag
{
  public:
    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// \param port the egress port that marked the frame
    explicit EcnMarkTag(uint32_t port = 0);

    /// \return the egress port that marked the frame
    uint32_t GetPort() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_port; //!< Marking egress port
};

} // namespace ns3

#endif /* ECN_MARK_TAG_H */

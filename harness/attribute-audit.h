/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATTRIBUTE_AUDIT_H
#define ATTRIBUTE_AUDIT_H

#include <string>
#include <vector>

namespace ns3
{

class StrictCommandLine;

/**
 * \ingroup photonic-rails
 * \brief Which ns-3 attributes (and global values) the programs take from a command line.
 *
 * Every attribute of every object a program creates is honoured, set by one of the
 * program's own flags (StrictCommandLine::Reserve), or refused: the attributes that the
 * models override whatever their default (a port's address and queue, a rank's start time),
 * that their arithmetic assumes (the real frame size), or that would only pick another random
 * run, are refused here, in every program, with the reason. An attribute of a type the
 * program does not create would change nothing and is refused by StrictCommandLine (a program
 * names the types it creates: StrictCommandLine::Creates). The job programs' types are
 * JobTypes(); doc/photonic-rails-user.rst lists each of their attributes and what happens to
 * it, and a test checks that the list is exactly their attributes.
 */
class AttributeAudit
{
  public:
    /// \return the TypeIds whose objects the job programs (photonic-rails-sim and the sweeps)
    ///         create: every TypeId of the group PhotonicRails and the ns-3 types the fabrics
    ///         and the job runner make (nodes, port queues, the switches' random variables,
    ///         the scheduler)
    static std::vector<std::string> JobTypes();

    /**
     * \brief What an example that builds its fabric with RailFabricHelper, and fails nothing,
     *        takes from the command line: the attributes of the fabric's objects and of
     *        \p others, but those the helper sets from its spec
     *        (RailFabricHelper::SpecAttributes), routing's DetectionDelay and the transport's
     *        Detour (such an example fails nothing).
     * \param cmd the example's command line (its own reservations come first)
     * \param optical whether it may build optical rails (else electrical ones only)
     * \param others the other types whose objects it creates
     */
    static void ForFabricExample(StrictCommandLine& cmd,
                                 bool optical,
                                 const std::vector<std::string>& others);

    /**
     * \param attribute ns3::Type::Attribute, Type being the attribute's own type, or a
     *        global value's name
     * \return why no program takes it from a command line, or "" if programs may
     */
    static std::string Refusal(const std::string& attribute);

    /**
     * \brief Applies the models' rules between attributes (EpsSwitch::CheckBuffer without
     *        ports, OpusShim::CheckIgnore) to the defaults a command line left.
     * \throws std::invalid_argument with the first rule broken, naming the type
     */
    static void CheckDefaults();
};

} // namespace ns3

#endif /* ATTRIBUTE_AUDIT_H */

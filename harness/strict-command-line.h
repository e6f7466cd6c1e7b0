/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STRICT_COMMAND_LINE_H
#define STRICT_COMMAND_LINE_H

#include "ns3/attribute.h"
#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

class GlobalValue;

/**
 * \ingroup photonic-rails
 * \brief The values a flag accepts: registered with the flag (StrictCommandLine::Add), so
 *        that a value beyond the variable's type (--iterations=-1 for an unsigned) and one
 *        merely out of range (--iterations=0) get the same message naming the real range,
 *        and the help states it.
 */
struct FlagRange
{
    /**
     * \param least smallest value
     * \param most largest value
     * \param what what the value is
     * \param zero what 0 means ("": 0 only if in range)
     */
    FlagRange(double least, double most, std::string what, std::string zero = "")
        : least(least),
          most(most),
          what(std::move(what)),
          zero(std::move(zero))
    {
    }

    double least{0};  //!< Smallest value
    double most{0};   //!< Largest value
    std::string what; //!< What the value is, e.g. "Gb/s per NIC port"
    std::string zero; //!< What 0 means, e.g. "the preset's" ("": 0 only if in range)

    /// \return "in [least, most]" and ", or 0 for ZERO" if 0 has a meaning
    std::string Text() const;
};

/**
 * \ingroup photonic-rails
 * \brief An ns-3 CommandLine that rejects bad flags with a one-line reason.
 *
 * ns-3's CommandLine prints the whole help on an unknown flag and accepts "--n=-1" for an
 * unsigned (it wraps). Flags registered through Add() are checked first: an unknown flag,
 * a value of the wrong kind, a negative unsigned, a number too large for a double or
 * one that underflows to 0 (1e-400 would silently take 0's meaning), an empty value or a
 * flag given twice (ns-3 would keep the last value) throws std::invalid_argument. Messages
 * quote values as typed, control characters and odd bytes escaped (Quote()). A flag
 * registered with a FlagRange is refused outside it, with CheckRange's message, whatever
 * the value (within the variable's type or not).
 */
class StrictCommandLine
{
  public:
    /**
     * \param file the program's __FILE__ (for CommandLine)
     * \param usage the usage text
     */
    StrictCommandLine(const std::string& file, const std::string& usage);

    /**
     * \brief Registers a flag.
     * \param name flag name
     * \param help help text
     * \param value variable holding the default and receiving the value
     */
    template <typename T>
    void Add(const std::string& name, const std::string& help, T& value)
    {
        if (m_kinds.count(name) > 0)
        {
            // Two parts of a program meaning different things by one flag: neither would work.
            throw std::logic_error("flag --" + name + " is registered twice");
        }
        m_kinds[name] = std::is_same<T, bool>::value          ? 'b'
                        : std::is_same<T, std::string>::value ? 's'
                        : std::is_floating_point<T>::value    ? 'd'
                        : std::is_unsigned<T>::value          ? 'u'
                                                              : 'i';
        if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value)
        {
            // The variable's own range: a value beyond it would wrap in CommandLine.
            m_ranges[name] = {static_cast<long double>(std::numeric_limits<T>::min()),
                              static_cast<long double>(std::numeric_limits<T>::max())};
        }
        m_cmd.AddValue(name, help, value);
    }

    /**
     * \brief Registers a flag that may be given several times, e.g. --vary=a=1,2
     *        --vary=b=3: each value is appended to \p values, in the order given (an empty
     *        value is refused).
     * \param name flag name
     * \param help help text
     * \param values receives the values
     */
    void AddRepeated(const std::string& name,
                     const std::string& help,
                     std::vector<std::string>& values);

    /**
     * \brief Registers a flag with the range of values it accepts; the help text ends with
     *        it, e.g. "replays of the workload (in [1, 1000000])".
     * \param name flag name
     * \param help help text, without the range
     * \param value variable holding the default and receiving the value
     * \param range the values accepted (the default is not checked)
     */
    template <typename T>
    void Add(const std::string& name, const std::string& help, T& value, const FlagRange& range)
    {
        Add(
            name,
            help,
            value,
            [range]() { return range; },
            help + " (" + range.Text() + ")");
    }

    /**
     * \brief Registers a flag whose range depends on other flags' values: it is evaluated
     *        once every flag is read, whatever their order.
     * \param name flag name
     * \param help the whole help text, saying what the range is
     * \param value variable holding the default and receiving the value
     * \param range the values accepted, given the other flags
     */
    template <typename T>
    void Add(const std::string& name,
             const std::string& help,
             T& value,
             std::function<FlagRange()> range)
    {
        Add(name, help, value, std::move(range), help);
    }

    /**
     * \brief Refuses --\p attribute=value (and the same attribute named through a parent or
     * child type), or a global value: the program sets it from its own flag, which would
     * override the default.
     * \param attribute e.g. ns3::RailTransport::Mtu, or a global value's name (SchedulerType)
     * \param flags the flags that set it, e.g. "--frameBytes"
     */
    void Reserve(const std::string& attribute, const std::string& flags);

    /**
     * \brief Refuses --\p attribute=value in this program, with the reason: the program
     *        overrides it, or has nothing it acts on (AttributeAudit has the refusals of
     *        every program).
     * \param attribute ns3::Type::Attribute, Type being the attribute's own type
     * \param reason why, e.g. "it acts on link failures, and this example has none"
     */
    void Refuse(const std::string& attribute, const std::string& reason);

    /**
     * \brief Names the types whose objects the program creates: an attribute of any other
     *        type (or a parent of one) would change nothing and is refused. A program that
     *        never calls it runs no simulation: every attribute and global value is refused.
     * \param types TypeId names, e.g. AttributeAudit::JobTypes()
     */
    void Creates(const std::vector<std::string>& types);

    /**
     * \brief Names what replaced a flag that no longer exists: --\p name is refused with
     *        "--name is gone: <instead>" rather than as an unknown flag.
     * \param name the old flag
     * \param instead what to give instead
     */
    void Retire(const std::string& name, const std::string& instead);

    /**
     * \brief Checks then parses the arguments.
     * \param argc argument count
     * \param argv arguments
     */
    void Parse(int argc, char* argv[]);

    /// \param name a flag \return true if it was on the command line
    bool IsGiven(const std::string& name) const;

    /**
     * \brief Refuses the first of \p flags that was on the command line, if any.
     * \param flags flags that do not apply here
     * \param reason why, after "--FLAG "
     * \throws std::invalid_argument "--FLAG reason"
     */
    void RefuseGiven(std::initializer_list<const char*> flags, const std::string& reason) const;

    /// \return the attributes given, as ns3::Type::Attribute, on the command line or in
    ///         NS_ATTRIBUTE_DEFAULT, in that order
    const std::vector<std::string>& GetAttributes() const;

    /**
     * \brief Reads a non-negative duration such as "25ms", "1.5s", "100us" or "0".
     * \param name the flag (for the error)
     * \param text its value: a number (with a + if need be, as ns-3 prints times) and one
     *        of s, ms, us, ns, min, h; only 0 may go without a unit (a bare 25 read as seconds was
     *        taken for ms)
     * \return the duration (std::invalid_argument with a one-line reason if malformed,
     *         without a unit, positive but below 1 ns, not a whole number of ns, or longer
     *         than 10^6 s)
     */
    static Time ParseTime(const std::string& name, const std::string& text);

    /**
     * \brief Splits a comma-separated flag value.
     * \param name the flag (for the error)
     * \param text its value
     * \return the items (std::invalid_argument on an empty list or an empty item: a
     *         leading, doubled or trailing comma)
     */
    static std::vector<std::string> SplitList(const std::string& name, const std::string& text);

    /**
     * \brief Refuses a flag's value outside [least, most] with a one-line reason that
     * names the flag, its value and the range.
     *
     * The value is quoted as typed when the last command line parsed gave this flag a text
     * that reads as \p value (1e18 stays 1e18, not 1e+18), else formatted.
     * \param name the flag
     * \param value its value
     * \param least smallest value
     * \param most largest value
     * \param what what the value is, e.g. "Gb/s per NIC port"
     * \param zero what 0 means, e.g. "the preset's" ("": 0 is refused unless in range)
     */
    static void CheckRange(const std::string& name,
                           double value,
                           double least,
                           double most,
                           const std::string& what,
                           const std::string& zero = "");

    /**
     * \brief CheckRange with a flag's registered range.
     * \param name the flag
     * \param value its value
     * \param range the values it accepts
     */
    static void CheckRange(const std::string& name, double value, const FlagRange& range);

    /// \param os receives the help text, as --help prints it
    void PrintHelp(std::ostream& os) const;

    /**
     * \param text a value as typed
     * \return \p text in single quotes, control characters and bytes that are not
     *         readable UTF-8 escaped as \\xNN (a terminal shows "\x01" as nothing at
     *         all): InputText::Quote
     */
    static std::string Quote(const std::string& text);

  private:
    /// A flag registered with a range: how to get the range and the value read.
    struct Ranged
    {
        std::function<FlagRange()> range; //!< The values accepted, given the other flags
        std::function<double()> value;    //!< The flag's variable, as a number
    };

    template <typename T>
    void Add(const std::string& name,
             const std::string& help,
             T& value,
             std::function<FlagRange()> range,
             const std::string& shownHelp)
    {
        Add(name, shownHelp, value);
        m_ranged[name] = {std::move(range), [&value]() { return static_cast<double>(value); }};
        m_rangedOrder.push_back(name);
    }

    /**
     * \brief Checks one argument.
     * \param arg the argument
     * \return false if it is a number beyond its variable's type for a flag with a range:
     *         refused once the other flags are read (the range may depend on them)
     */
    bool Check(const std::string& arg);

    /// \return true if \p arg is a flag of AddRepeated (its value taken)
    bool TakeRepeated(const std::string& arg);

    /// \throws std::invalid_argument for the first of these flags, then for any flag given
    ///         outside its range
    void CheckRanges(const std::vector<std::string>& beyondType) const;

    /**
     * \brief Checks ns-3's --ns3::Type::Attribute=value (a default for every object made
     * after the command line is parsed): the type, the attribute, that the program takes it
     * (not reserved, not refused by AttributeAudit, of a type the program creates) and the
     * value (AttributeValueText). Records it (GetAttributes).
     * \param name ns3::Type::Attribute
     * \param value its value
     */
    void CheckAttribute(const std::string& name, const std::string& value);

    /// \throws std::invalid_argument if attribute \p name of \p owner, its own type, is one
    ///         the program does not take
    void CheckTaken(const std::string& name, TypeId owner) const;
    /// \throws std::invalid_argument if \p name is refused (\p refusal, "" if not) or the
    ///         program runs no simulation
    void CheckTakenAtAll(const std::string& name, const std::string& refusal) const;

    /// Checks the attributes NS_ATTRIBUTE_DEFAULT gives (ns-3 reads it when it makes an
    /// object) as if they were flags, and makes them defaults (code that reads a default
    /// sees them too).
    void CheckEnvironment();

    /// \throws std::invalid_argument if attribute \p name (type \p tid) is reserved
    void CheckNotReserved(const std::string& name, TypeId tid, const std::string& attribute) const;

    /**
     * \brief Checks a global value given as a flag (--RngRun=3, --SchedulerType=...).
     * \param global the global value
     * \param value its value
     */
    void CheckGlobal(const GlobalValue& global, const std::string& value) const;

    CommandLine m_cmd;                             //!< ns-3's parser
    std::map<std::string, char> m_kinds;           //!< Flag -> 'u', 'i', 'd', 'b' or 's'
    std::map<std::string, std::string> m_reserved; //!< ns3::Type::Attribute -> flags setting it
    std::map<std::string, std::string> m_retired;  //!< Old flag -> what replaced it
    std::map<std::string, std::string> m_reservedGlobals; //!< Global value -> flags setting it
    std::map<std::string, std::string> m_refused;         //!< ns3::Type::Attribute -> why (Refuse)
    std::optional<std::vector<TypeId>> m_created;         //!< Types the program creates (Creates)
    std::vector<std::string> m_attributes;                //!< Attributes given (GetAttributes)
    std::map<std::string, std::pair<long double, long double>> m_ranges; //!< Integer flags
    std::set<std::string> m_given;                               //!< Flags on the command line
    std::map<std::string, Ranged> m_ranged;                      //!< Flags registered with a range
    std::map<std::string, std::vector<std::string>*> m_repeated; //!< AddRepeated's flags
    std::map<std::string, std::string> m_repeatedShown; //!< What --help shows as their default
    std::vector<std::string> m_rangedOrder; //!< Their names, in the order of registration
};

/**
 * \ingroup photonic-rails
 * \brief The programs' main(): parses the flags strictly, then runs the program. An
 *        exception from either is one line on stderr, "<program>: error: <what>", and exit
 *        status 1 (never an abort or a stack trace).
 * \param argc main()'s argument count
 * \param argv main()'s arguments
 * \param program the program's name, as the error line starts
 * \param file the program's source file (__FILE__), for --help
 * \param usage what the program does, for --help
 * \param addFlags registers every flag (on the program's options)
 * \param body runs the program once the flags are parsed
 * \return the exit status: body's, or 1 on an error
 */
int RunProgram(int argc,
               char* argv[],
               const std::string& program,
               const std::string& file,
               const std::string& usage,
               const std::function<void(StrictCommandLine&)>& addFlags,
               const std::function<int(const StrictCommandLine&)>& body);

} // namespace ns3

#endif /* STRICT_COMMAND_LINE_H */

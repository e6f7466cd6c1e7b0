/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PHOTONIC_RAILS_EXAMPLE_FLAGS_H
#define PHOTONIC_RAILS_EXAMPLE_FLAGS_H

#include "ns3/command-line.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The flags of an example program, with one-line errors.
 *
 * ns-3's CommandLine answers an unknown flag or a value it cannot read by printing the whole
 * help and exiting. The programs of this module say what is wrong in one line instead:
 * Parse() checks every argument against the registered flags and their types first and
 * throws std::invalid_argument, which main() prints as "PROGRAM: error: ...".
 */
class ExampleFlags
{
  public:
    /// \param program the program's name, shown by --help
    explicit ExampleFlags(const std::string& program)
        : m_cmd(program)
    {
    }

    /// \param usage what the program does, for --help
    void Usage(const std::string& usage)
    {
        m_cmd.Usage(usage);
    }

    /**
     * \brief Registers a flag.
     * \param name the flag, without dashes
     * \param help its help line
     * \param value where its value goes; holds the default
     */
    template <typename T>
    void Add(const std::string& name, const std::string& help, T& value)
    {
        char kind = std::is_same<T, bool>::value          ? 'b'
                    : std::is_same<T, std::string>::value ? 's'
                    : std::is_floating_point<T>::value    ? 'd'
                    : std::is_unsigned<T>::value          ? 'u'
                                                          : 'i';
        m_kinds[name] = kind;
        m_cmd.AddValue(name, help, value);
    }

    /**
     * \brief Checks every argument, then lets CommandLine set the values.
     * \param argc argument count
     * \param argv arguments
     * \throws std::invalid_argument with a one-line reason
     */
    void Parse(int argc, char* argv[])
    {
        for (int i = 1; i < argc; ++i)
        {
            Check(argv[i]);
        }
        m_cmd.Parse(argc, argv);
    }

    /// \return whether \p name was given on the command line (rather than defaulted)
    bool Given(const std::string& name) const
    {
        return m_given.count(name) > 0;
    }

    /// \return the flags given on the command line
    const std::set<std::string>& GetGiven() const
    {
        return m_given;
    }

  private:
    /// Checks one argument; throws std::invalid_argument with a one-line reason.
    void Check(const std::string& arg)
    {
        // CommandLine's own flags, which print and exit.
        static const std::set<std::string> general = {"PrintHelp",
                                                      "help",
                                                      "PrintVersion",
                                                      "PrintGlobals",
                                                      "PrintGroups",
                                                      "PrintTypeIds",
                                                      "PrintGroup",
                                                      "PrintAttributes"};
        std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        if (dashes == 0)
        {
            throw std::invalid_argument("unexpected argument '" + arg +
                                        "' (flags are --name=value)");
        }
        std::size_t equal = arg.find('=');
        std::string name =
            arg.substr(dashes, equal == std::string::npos ? std::string::npos : equal - dashes);
        std::string value = equal == std::string::npos ? "" : arg.substr(equal + 1);
        m_given.insert(name);
        auto it = m_kinds.find(name);
        if (it == m_kinds.end())
        {
            if (general.count(name) > 0)
            {
                return;
            }
            throw std::invalid_argument("unknown flag --" + name + " (see --help)");
        }
        if (!Accepts(it->second, value, equal != std::string::npos))
        {
            static const std::map<char, std::string> expected = {{'u', "a non-negative integer"},
                                                                 {'i', "an integer"},
                                                                 {'d', "a number"},
                                                                 {'b', "0, 1, true or false"},
                                                                 {'s', "a value without blanks"}};
            throw std::invalid_argument("bad value for --" + name + ": '" + value + "' (expected " +
                                        expected.at(it->second) + ")");
        }
    }

    /// Whether \p value (present or not) is a value of a flag of \p kind.
    static bool Accepts(char kind, const std::string& value, bool present)
    {
        char* end = nullptr;
        switch (kind)
        {
        case 'u':
            return !value.empty() && value[0] != '-' &&
                   (std::strtoull(value.c_str(), &end, 10), *end == '\0') &&
                   std::strtoull(value.c_str(), nullptr, 10) <= UINT32_MAX;
        case 'i':
            return !value.empty() && (std::strtoll(value.c_str(), &end, 10), *end == '\0');
        case 'd':
            // CommandLine cannot read "nan" or "inf"; nor can a program use them.
            return !value.empty() && std::isfinite(std::strtod(value.c_str(), &end)) &&
                   *end == '\0';
        case 'b':
            return value.empty() || value == "0" || value == "1" || value == "true" ||
                   value == "false";
        default:
            // CommandLine takes no empty value, and reads a string up to its first blank:
            // refuse what it would silently cut.
            return present && !value.empty() && value.find_first_of(" \t\n") == std::string::npos;
        }
    }

    CommandLine m_cmd;                   //!< ns-3's parser, which sets the values
    std::map<std::string, char> m_kinds; //!< Flag -> 'u', 'i', 'd', 'b' or 's'
    std::set<std::string> m_given;       //!< Flags given on the command line
};

/**
 * \ingroup photonic-rails
 * \brief The main() of an example program: declares its flags, parses them, runs it.
 *
 * Any exception, from a bad flag or from the run, ends the program with one line
 * "PROGRAM: error: WHAT" on stderr and exit status 1.
 * \param program the program's name, for the error line
 * \param argc argument count
 * \param argv arguments
 * \param options the program's options, holding the defaults
 * \param declare registers the flags, each bound to a field of \p options
 * \param run runs the program once \p options is set; returns its exit status
 * \return the exit status
 */
template <typename Options>
int
RunExample(const std::string& program,
           int argc,
           char* argv[],
           Options& options,
           void (*declare)(ExampleFlags&, Options&),
           int (*run)(const Options&, const ExampleFlags&))
{
    try
    {
        ExampleFlags flags(program);
        declare(flags, options);
        flags.Parse(argc, argv);
        return run(options, flags);
    }
    catch (const std::exception& e)
    {
        std::cerr << program << ": error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace ns3

#endif /* PHOTONIC_RAILS_EXAMPLE_FLAGS_H */

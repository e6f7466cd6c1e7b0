/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INPUT_TEXT_H
#define INPUT_TEXT_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief An input file that InputText::ReadFile refuses: what() is "PATH: reason".
 */
class InputFileError : public std::runtime_error
{
  public:
    /**
     * \param path the file, as given
     * \param reason why it is refused, e.g. "cannot open the file"
     */
    InputFileError(const std::string& path, const std::string& reason);

    /// \return why the file is refused, without the path
    const std::string& GetReason() const;

  private:
    std::string m_reason; //!< Why, without the path
};

/**
 * \ingroup photonic-rails
 * \brief How the programs read input files and quote what an input (a file or a flag)
 *        says, in one place.
 *
 * A message that echoes input bytes as they are can show nothing at all (a control
 * character, a second UTF-8 byte order mark), garble the terminal (a lone byte 0xff) or
 * reorder the line (a bidirectional override). Such bytes are written as \\xNN instead;
 * readable text, UTF-8 included, is kept.
 */
class InputText
{
  public:
    /**
     * \param text bytes from an input
     * \return \p text with every byte of these written as \\xNN (lower-case hex): control
     *         characters (below 0x20, 0x7f, U+0080 to U+009F), bytes that are not part of
     *         well-formed UTF-8, and the invisible or reordering characters U+200B to
     *         U+200F, U+2028 to U+202E, U+2060 to U+2069 and U+FEFF (the byte order mark)
     */
    static std::string Escape(const std::string& text);

    /**
     * \param text bytes from an input
     * \return Escape(text) in single quotes
     */
    static std::string Quote(const std::string& text);

    /// Largest input file: a generated DAG of WorkloadGenerator::MAX_OPS (2 x 10^7) ops at up
    /// to 214 bytes an op (those photonic-rails-workload writes take 140 to 150 bytes an op
    /// and at most 174 on one line), 4 GiB; phase logs and timelines are far smaller.
    static constexpr uint64_t MAX_FILE_BYTES = uint64_t(4) << 30;

    /**
     * \brief Reads a whole input file (DAG, phase log, timeline), refusing before reading
     *        what cannot be one: the file must be regular (a device such as /dev/zero, a
     *        pipe or a socket may never end) and at most \p maxBytes long.
     * \param path the file
     * \param kind what the file should be, for a directory's message, e.g. "DAG file"
     * \param maxBytes the bound (MAX_FILE_BYTES; tests pass smaller ones)
     * \return its bytes
     * \throws InputFileError "PATH: cannot open the file", "PATH: is a directory, not a
     *         KIND", "PATH: is not a regular file (a character device)", "PATH: is N bytes,
     *         more than an input file may hold (MAX bytes)" or "PATH: cannot read the file"
     */
    static std::string ReadFile(const std::string& path,
                                const std::string& kind,
                                uint64_t maxBytes = MAX_FILE_BYTES);
};

} // namespace ns3

#endif /* INPUT_TEXT_H */

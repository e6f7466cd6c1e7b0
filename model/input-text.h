/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INPUT_TEXT_H
#define INPUT_TEXT_H

#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief How the programs quote what an input (a file or a flag) says, in one place.
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
};

} // namespace ns3

#endif /* INPUT_TEXT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "input-text.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{

namespace
{

/**
 * \param text bytes
 * \param at where a UTF-8 sequence may start
 * \param codePoint receives its code point
 * \return the length of the well-formed UTF-8 sequence at \p at (1 to 4), or 0 if the byte
 *         there does not start one (stray continuation, overlong form, surrogate, beyond
 *         U+10FFFF or cut short)
 */
std::size_t
Utf8Sequence(const std::string& text, std::size_t at, uint32_t& codePoint)
{
    auto byte = [&text](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    unsigned char lead = byte(at);
    std::size_t length = lead < 0x80                   ? 1
                         : lead >= 0xc2 && lead < 0xe0 ? 2
                         : lead >= 0xe0 && lead < 0xf0 ? 3
                         : lead >= 0xf0 && lead < 0xf5 ? 4
                                                       : 0;
    if (length == 0 || at + length > text.size())
    {
        return 0;
    }
    static const uint32_t leadMask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    codePoint = lead & leadMask[length];
    for (std::size_t i = 1; i < length; ++i)
    {
        if ((byte(at + i) & 0xc0) != 0x80)
        {
            return 0;
        }
        codePoint = (codePoint << 6) | (byte(at + i) & 0x3f);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    bool surrogate = codePoint >= 0xd800 && codePoint <= 0xdfff;
    return codePoint < least[length] || surrogate || codePoint > 0x10ffff ? 0 : length;
}

/// \return true if a terminal would show \p codePoint as nothing or let it reorder the line
bool
IsHidden(uint32_t codePoint)
{
    return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f) ||
           (codePoint >= 0x200b && codePoint <= 0x200f) ||
           (codePoint >= 0x2028 && codePoint <= 0x202e) ||
           (codePoint >= 0x2060 && codePoint <= 0x2069) || codePoint == 0xfeff;
}

} // namespace

std::string
InputText::Escape(const std::string& text)
{
    static const char* const hex = "0123456789abcdef";
    std::string escaped;
    std::size_t i = 0;
    while (i < text.size())
    {
        uint32_t codePoint = 0;
        std::size_t length = Utf8Sequence(text, i, codePoint);
        // A byte that starts no well-formed sequence is escaped alone; the next byte may
        // start one.
        std::size_t bytes = length == 0 ? 1 : length;
        if (length == 0 || IsHidden(codePoint))
        {
            for (std::size_t k = i; k < i + bytes; ++k)
            {
                auto c = static_cast<unsigned char>(text[k]);
                escaped += std::string("\\x") + hex[c >> 4] + hex[c & 0xf];
            }
        }
        else
        {
            escaped.append(text, i, bytes);
        }
        i += bytes;
    }
    return escaped;
}

std::string
InputText::Quote(const std::string& text)
{
    return "'" + Escape(text) + "'";
}

} // namespace ns3

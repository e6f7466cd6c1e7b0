/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "input-text.h"

#include "ns3/log.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InputText");

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

/// \return what a file of this type is, in a few words ("a character device")
std::string
Describe(std::filesystem::file_type type)
{
    switch (type)
    {
    case std::filesystem::file_type::character:
        return "a character device";
    case std::filesystem::file_type::block:
        return "a block device";
    case std::filesystem::file_type::fifo:
        return "a named pipe";
    case std::filesystem::file_type::socket:
        return "a socket";
    default:
        return "a special file";
    }
}

/**
 * \param path an existing file
 * \param kind what it should be
 * \param maxBytes the bound
 * \return its size (0 if the system does not say)
 * \throws InputFileError unless \p path is a regular file of at most \p maxBytes
 */
uintmax_t
CheckFile(const std::string& path, const std::string& kind, uint64_t maxBytes)
{
    namespace fs = std::filesystem;
    std::error_code error;
    fs::file_status status = fs::status(path, error); // follows symbolic links
    if (error || status.type() == fs::file_type::not_found)
    {
        throw InputFileError(path, "cannot open the file");
    }
    if (status.type() == fs::file_type::directory)
    {
        throw InputFileError(path, "is a directory, not a " + kind);
    }
    if (status.type() != fs::file_type::regular)
    {
        throw InputFileError(path, "is not a regular file (" + Describe(status.type()) + ")");
    }
    uintmax_t size = fs::file_size(path, error);
    if (!error && size > maxBytes)
    {
        throw InputFileError(path,
                             "is " + std::to_string(size) +
                                 " bytes, more than an input file may hold (" +
                                 std::to_string(maxBytes) + " bytes)");
    }
    return error ? 0 : size;
}

} // namespace

InputFileError::InputFileError(const std::string& path, const std::string& reason)
    : std::runtime_error(path + ": " + reason),
      m_reason(reason)
{
}

const std::string&
InputFileError::GetReason() const
{
    return m_reason;
}

std::string
InputText::ReadFile(const std::string& path, const std::string& kind, uint64_t maxBytes)
{
    NS_LOG_FUNCTION(path << kind << maxBytes);
    uintmax_t size = CheckFile(path, kind, maxBytes);
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw InputFileError(path, "cannot open the file");
    }
    // Read in blocks up to one byte past the bound: a file that grows while it is read, or
    // whose size the system does not report (some files under /proc say 0), stays bounded.
    std::string text;
    text.reserve(size);
    char block[1 << 16];
    while (in.read(block, sizeof(block)) || in.gcount() > 0)
    {
        text.append(block, static_cast<std::size_t>(in.gcount()));
        if (text.size() > maxBytes)
        {
            throw InputFileError(path,
                                 "grew past " + std::to_string(maxBytes) +
                                     " bytes while read, more than an input file may hold");
        }
    }
    if (in.bad())
    {
        throw InputFileError(path, "cannot read the file");
    }
    return text;
}

std::string
InputText::Escape(const std::string& text)
{
    NS_LOG_FUNCTION(text.size());
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
    NS_LOG_FUNCTION(text.size());
    return "'" + Escape(text) + "'";
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "json-input.h"

#include "input-text.h"

#include "ns3/log.h"

#include <cstdio>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JsonInput");

namespace
{

using Json = nlohmann::json;

/**
 * \brief Finds keys given twice in one JSON object while the parser reads the text (the
 *        parser itself keeps the last value silently). Used as the parser's callback, it
 *        follows the path to the value being read, e.g. "ops[3]".
 */
class DuplicateKeyFinder
{
  public:
    /**
     * \brief The parser callback: never filters anything out.
     * \param event what the parser just read
     * \param parsed the key for a key event
     * \return true (keep every value)
     */
    bool OnEvent(Json::parse_event_t event, const Json& parsed)
    {
        switch (event)
        {
        case Json::parse_event_t::object_start:
            m_path.emplace_back();
            break;
        case Json::parse_event_t::array_start:
            m_path.emplace_back();
            m_path.back().isArray = true;
            break;
        case Json::parse_event_t::key:
            OnKey(parsed.get<std::string>());
            break;
        case Json::parse_event_t::object_end:
        case Json::parse_event_t::array_end:
            m_path.pop_back();
            ElementRead();
            break;
        case Json::parse_event_t::value:
            ElementRead();
            break;
        }
        return true;
    }

    /// \return the keys given twice, in text order (at most MAX_DUPLICATES)
    std::vector<JsonInput::DuplicateKey>& GetDuplicates()
    {
        return m_duplicates;
    }

  private:
    /// An object or array being read.
    struct Container
    {
        bool isArray{false};        //!< Array (else object)
        std::size_t index{0};       //!< Array: index of the element being read
        std::string key;            //!< Object: key of the value being read
        std::set<std::string> keys; //!< Object: keys read so far
    };

    void OnKey(const std::string& key)
    {
        Container& object = m_path.back();
        object.key = key;
        if (!object.keys.insert(key).second && m_duplicates.size() < JsonInput::MAX_DUPLICATES)
        {
            m_duplicates.push_back({Path(), key});
        }
    }

    /// An element of the innermost container was read: an array moves to the next one.
    void ElementRead()
    {
        if (!m_path.empty() && m_path.back().isArray)
        {
            ++m_path.back().index;
        }
    }

    /// \return the path of the innermost container, e.g. "ops[3]"
    std::string Path() const
    {
        std::string path;
        for (std::size_t i = 0; i + 1 < m_path.size(); ++i)
        {
            const Container& c = m_path[i];
            path +=
                c.isArray ? "[" + std::to_string(c.index) + "]" : (path.empty() ? "" : ".") + c.key;
        }
        return path;
    }

    std::vector<Container> m_path;                     //!< Containers from the top level in
    std::vector<JsonInput::DuplicateKey> m_duplicates; //!< Keys given twice
};

/**
 * \param text the text of a file
 * \return the offset of the first byte that no JSON text holds anywhere (a control
 *         character other than tab, line feed and carriage return), or npos
 */
std::size_t
FindBinaryByte(const std::string& text)
{
    for (std::size_t i = 0; i < text.size(); ++i)
    {
        auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        {
            return i;
        }
    }
    return std::string::npos;
}

/**
 * \param text a text with a control byte at \p binary
 * \param kind what it should hold
 * \param binary that byte's offset
 * \return why it is not JSON, naming that byte
 */
std::string
ExplainBinary(const std::string& text, const std::string& kind, std::size_t binary)
{
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%02x", static_cast<unsigned char>(text[binary]));
    return "not a JSON text (binary data: byte " + std::string(hex) + " at offset " +
           std::to_string(binary) + "; a " + kind + " is UTF-8 JSON)";
}

/**
 * \brief Explains why a text is not JSON: empty, or the parser's own reason.
 * \param text the text
 * \param kind what it should hold
 * \param e the parser's exception
 * \return the message
 */
std::string
ExplainParseFailure(const std::string& text, const std::string& kind, const Json::exception& e)
{
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    {
        return "the file is empty (expected a JSON " + kind + ")";
    }
    // e.what() is "[json.exception.parse_error.101] parse error at line 1, column 5: ..."
    std::string what = e.what();
    auto pos = what.find("] ");
    // Its "last read" echoes the bytes it choked on (a lone 0xff, say): escape them.
    return "invalid JSON: " +
           InputText::Escape(pos == std::string::npos ? what : what.substr(pos + 2));
}

} // namespace

std::string
JsonInput::DuplicateKey::Field() const
{
    return path.empty() ? key : path + "." + key;
}

std::string
JsonInput::DuplicateKey::Message() const
{
    return "duplicate key " + InputText::Quote(key) +
           ": a key may appear once per object (the earlier value would be silently dropped)";
}

JsonInput::Document
JsonInput::ParseDocument(const std::string& text, const std::string& file, const std::string& kind)
{
    NS_LOG_FUNCTION(text.size() << file << kind);
    Document document;
    DuplicateKeyFinder finder;
    // A control byte is invalid anywhere in JSON (strings escape them), and the parser takes
    // a NUL for the end of the text: a document followed by a NUL and more was read without
    // what followed. Its complaint about a first odd byte would only confuse.
    std::size_t binary = FindBinaryByte(text);
    if (binary != std::string::npos && text.find_first_not_of(" \t\r\n") != std::string::npos)
    {
        throw InputFileError(file, ExplainBinary(text, kind, binary));
    }
    try
    {
        document.root = Json::parse(text, [&finder](int, Json::parse_event_t event, Json& parsed) {
            return finder.OnEvent(event, parsed);
        });
    }
    catch (const Json::exception& e)
    {
        // parse_error, or out_of_range for numbers such as 1e999
        throw InputFileError(file, ExplainParseFailure(text, kind, e));
    }
    document.duplicates = std::move(finder.GetDuplicates());
    return document;
}

nlohmann::json
JsonInput::Parse(const std::string& text, const std::string& file, const std::string& kind)
{
    NS_LOG_FUNCTION(text.size() << file << kind);
    Document document = ParseDocument(text, file, kind);
    if (!document.duplicates.empty())
    {
        const DuplicateKey& first = document.duplicates.front();
        throw InputFileError(file,
                             "field " + InputText::Quote(first.Field()) + ": " + first.Message());
    }
    return std::move(document.root);
}

nlohmann::json
JsonInput::ReadFile(const std::string& path, const std::string& kind)
{
    NS_LOG_FUNCTION(path << kind);
    return Parse(InputText::ReadFile(path, "JSON " + kind), path, kind);
}

} // namespace ns3

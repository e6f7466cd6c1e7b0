/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JSON_INPUT_H
#define JSON_INPUT_H

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief How every JSON input is parsed (DAGs, --faults files, comm groups, the sweeps'
 *        summaries), in one place.
 *
 * Two rules hold for all of them: a text that is not JSON is refused in one line that says
 * why (empty, binary, or where the parser stopped), and a key given twice in one object is
 * an error (the JSON library alone keeps the last value and drops the earlier one
 * silently). Errors are InputFileError: "FILE: reason".
 */
class JsonInput
{
  public:
    /// A key given twice in one object.
    struct DuplicateKey
    {
        /// The object holding it: "" (the top level), "groups", "ops[3]", "[0]" (indices
        /// from 0)
        std::string path;
        std::string key; //!< The key

        /// \return where it is, "PATH.KEY" (or "KEY" at the top level), e.g. "ops[3].bytes"
        std::string Field() const;
        /// \return "duplicate key 'KEY': a key may appear once per object (...)"
        std::string Message() const;
    };

    /// A parsed text and the keys given twice in it.
    struct Document
    {
        nlohmann::json root;                  //!< The value
        std::vector<DuplicateKey> duplicates; //!< In text order, at most MAX_DUPLICATES
    };

    /// Keys given twice that a Document keeps (a reader reports at most this many errors).
    static constexpr std::size_t MAX_DUPLICATES = 100;

    /**
     * \brief Parses a JSON text and notes every key given twice, for a reader that reports
     *        every problem of a file with its own locations (the DAG reader).
     * \param text the text
     * \param file the file it comes from, for messages
     * \param kind what it should hold, for messages, e.g. "DAG" ("the file is empty
     *        (expected a JSON DAG)")
     * \return the value and the keys given twice
     * \throws InputFileError "FILE: the file is empty (expected a JSON KIND)", "FILE: not a
     *         JSON text (binary data: byte 0x02 at offset 4; a KIND is UTF-8 JSON)" or
     *         "FILE: invalid JSON: parse error at line L, column C: ..."
     */
    static Document ParseDocument(const std::string& text,
                                  const std::string& file,
                                  const std::string& kind);

    /**
     * \brief Parses a JSON text, refusing a key given twice.
     * \param text the text
     * \param file the file it comes from, for messages
     * \param kind what it should hold, for messages (as ParseDocument)
     * \return the value
     * \throws InputFileError as ParseDocument, or for the first key given twice: "FILE:
     *         field 'faults[0].at': duplicate key 'at': a key may appear once per object
     *         (...)"
     */
    static nlohmann::json Parse(const std::string& text,
                                const std::string& file,
                                const std::string& kind);

    /**
     * \brief Reads a JSON file the way every input file is read (InputText::ReadFile: a
     *        regular file of bounded size, so a named pipe or a device is refused before
     *        anything waits on it), then parses it with Parse.
     * \param path the file
     * \param kind what it should hold, e.g. "fault list" ("PATH: is a directory, not a JSON
     *        fault list")
     * \return the value
     * \throws InputFileError "PATH: reason"
     */
    static nlohmann::json ReadFile(const std::string& path, const std::string& kind);
};

} // namespace ns3

#endif /* JSON_INPUT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_COMM_GROUPS_H
#define CHAKRA_COMM_GROUPS_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief The process groups a Chakra trace's `pg_name` attributes name: ASTRA-sim's
 *        comm-group JSON file (`{"<pg_name>": [ranks]}`), or the JSON that PyTorch writes
 *        into METADATA nodes (objects with "pg_name" and "ranks", nested in lists).
 *
 * An empty rank list means every rank (PyTorch's default group). Ranks are not checked
 * against a rank count here: the reader knows it.
 */
class ChakraCommGroups
{
  public:
    /// pg_name -> member ranks in the order given (empty: every rank)
    using Map = std::map<std::string, std::vector<uint32_t>>;

    /**
     * \param path ASTRA-sim's comm-group JSON
     * \return its groups
     * \throws std::runtime_error "PATH: reason" (one line) if unreadable or malformed
     */
    static Map ReadFile(const std::string& path);

    /**
     * \param text comm-group JSON text
     * \param where file name for messages
     * \return its groups
     * \throws std::runtime_error "WHERE: reason"
     */
    static Map Parse(const std::string& text, const std::string& where);

    /**
     * \param text a METADATA node's inputs.values
     * \param where "FILE: node N" for messages
     * \return the groups it declares (none if it declares none)
     * \throws std::runtime_error if it declares one malformed
     */
    static Map ParseMetadata(const std::string& text, const std::string& where);

    /**
     * \param groups groups
     * \return ASTRA-sim's comm-group JSON of them, one group per line
     */
    static std::string ToJson(const Map& groups);
};

} // namespace ns3

#endif /* CHAKRA_COMM_GROUPS_H */

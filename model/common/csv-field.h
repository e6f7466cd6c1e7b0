/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CSV_FIELD_H
#define CSV_FIELD_H

#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \param text a value
 * \return \p text as a CSV field (RFC 4180): as it is, or quoted when it holds a comma, a
 *         quote or a line break, its quotes doubled
 */
std::string CsvField(const std::string& text);

} // namespace ns3

#endif /* CSV_FIELD_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "csv-field.h"

namespace ns3
{

std::string
CsvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
    {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text)
    {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

} // namespace ns3

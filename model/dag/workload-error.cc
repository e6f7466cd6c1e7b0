/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-error.h"

#include "ns3/input-text.h"
#include "ns3/log.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadError");

std::string
WorkloadError::ToString() const
{
    // "dag.json: rank 0 op 3, field 'bytes': must be positive"
    std::vector<std::string> parts;
    if (rank >= 0)
    {
        parts.push_back("rank " + std::to_string(rank) +
                        (id >= 0 ? " op " + std::to_string(id) : std::string()));
    }
    if (!group.empty())
    {
        parts.push_back("group " + InputText::Quote(group));
    }
    if (!field.empty())
    {
        parts.push_back("field " + InputText::Quote(field));
    }
    std::ostringstream os;
    os << (file.empty() ? std::string("<input>") : file);
    for (std::size_t i = 0; i < parts.size(); ++i)
    {
        os << (i == 0 ? ": " : ", ") << parts[i];
    }
    os << ": " << message;
    return os.str();
}

WorkloadFormatError::WorkloadFormatError(std::vector<WorkloadError> errors, std::size_t total)
    : std::runtime_error(Summarize(errors, total)),
      m_errors(std::move(errors)),
      m_total(total)
{
}

const std::vector<WorkloadError>&
WorkloadFormatError::GetErrors() const
{
    return m_errors;
}

std::size_t
WorkloadFormatError::GetTotal() const
{
    return m_total;
}

std::string
WorkloadFormatError::Summarize(const std::vector<WorkloadError>& errors, std::size_t total)
{
    if (errors.empty())
    {
        return "invalid workload";
    }
    std::string text = errors.front().ToString();
    if (total > 1)
    {
        text += " (and " + std::to_string(total - 1) + " more error" + (total > 2 ? "s" : "") + ")";
    }
    return text;
}

void
WorkloadErrorList::Add(WorkloadError error)
{
    if (m_errors.size() < WorkloadFormatError::MAX_ERRORS)
    {
        m_errors.push_back(std::move(error));
    }
    ++m_total;
}

bool
WorkloadErrorList::IsEmpty() const
{
    return m_total == 0;
}

std::size_t
WorkloadErrorList::GetTotal() const
{
    return m_total;
}

const std::vector<WorkloadError>&
WorkloadErrorList::GetErrors() const
{
    return m_errors;
}

void
WorkloadErrorList::ThrowIfAny() const
{
    if (m_total > 0)
    {
        throw WorkloadFormatError(m_errors, m_total);
    }
}

void
ThrowWorkloadError(const std::string& file, const std::string& message)
{
    NS_LOG_FUNCTION(file << message);
    WorkloadError error;
    error.file = file;
    error.message = message;
    throw WorkloadFormatError({error}, 1);
}

} // namespace ns3

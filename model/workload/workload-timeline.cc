/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-timeline.h"

#include "ns3/input-text.h"
#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadTimeline");

namespace
{

/// Reads CSV records (RFC 4180: quoted fields may hold commas, quotes and line breaks).
class CsvReader
{
  public:
    /// \param text the whole file
    explicit CsvReader(const std::string& text)
        : m_text(text)
    {
    }

    /**
     * \brief Reads the next record.
     * \param fields its fields
     * \return false at the end of the text
     */
    bool Next(std::vector<std::string>& fields)
    {
        if (m_at >= m_text.size())
        {
            return false;
        }
        m_recordLine = m_line;
        fields.assign(1, "");
        bool quoted = false;
        for (; m_at < m_text.size(); ++m_at)
        {
            char c = m_text[m_at];
            if (c == '\n')
            {
                ++m_line;
                if (!quoted)
                {
                    ++m_at;
                    return true;
                }
            }
            if (quoted && c == '"' && m_at + 1 < m_text.size() && m_text[m_at + 1] == '"')
            {
                fields.back() += '"';
                ++m_at;
            }
            else if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted)
            {
                fields.emplace_back();
            }
            else if (c != '\r' || quoted)
            {
                fields.back() += c;
            }
        }
        return true;
    }

    /// \return the line the last record started on (1 first)
    std::size_t GetLine() const
    {
        return m_recordLine;
    }

  private:
    const std::string& m_text;   //!< The file
    std::size_t m_at{0};         //!< Next character
    std::size_t m_line{1};       //!< Line of the next character
    std::size_t m_recordLine{1}; //!< Line the last record started on
};

} // namespace

std::string
WorkloadTimeline::QuoteCsv(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
    {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text)
    {
        quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

namespace
{

/**
 * \brief Parses one data row given the header's column positions.
 */
class RowReader
{
  public:
    RowReader(const std::string& file, std::map<std::string, std::size_t> columns)
        : m_file(file),
          m_columns(std::move(columns))
    {
        for (const char* name : {"rank", "type", "start_s", "end_s"})
        {
            if (m_columns.count(name) == 0)
            {
                throw std::runtime_error(m_file + ":1: missing required column '" + name + "'");
            }
        }
    }

    WorkloadCommRecord Read(const std::vector<std::string>& fields, std::size_t line) const
    {
        m_line = line;
        WorkloadCommRecord r;
        r.rank = static_cast<uint32_t>(Integer(fields, "rank", 0, UINT32_MAX, 0));
        r.id = Integer(fields, "id", -1, INT64_MAX, -1);
        std::string type = Text(fields, "type");
        if (!ParseWorkloadOpType(type, r.type) || r.type == WorkloadOpType::COMPUTE)
        {
            Fail("type", "not a collective or send/recv: " + InputText::Quote(type));
        }
        r.group = Text(fields, "group");
        r.peer = Integer(fields, "peer", -1, UINT32_MAX, -1);
        r.bytes = static_cast<uint64_t>(Integer(fields, "bytes", 0, INT64_MAX, 0));
        r.startS = Real(fields, "start_s");
        r.endS = Real(fields, "end_s");
        if (r.endS < r.startS)
        {
            Fail("end_s", "ends before it starts");
        }
        r.label = Text(fields, "label");
        r.iteration = static_cast<uint32_t>(Integer(fields, "iteration", 0, UINT32_MAX, 0));
        r.algorithm = Text(fields, "algorithm");
        r.channels = static_cast<uint32_t>(Integer(fields, "channels", 0, UINT32_MAX, 0));
        r.chunkBytes = static_cast<uint64_t>(Integer(fields, "chunk_bytes", 0, INT64_MAX, 0));
        return r;
    }

  private:
    [[noreturn]] void Fail(const std::string& column, const std::string& message) const
    {
        throw std::runtime_error(m_file + ":" + std::to_string(m_line) + ": column " +
                                 InputText::Quote(column) + ": " + message);
    }

    std::string Text(const std::vector<std::string>& fields, const std::string& column) const
    {
        auto it = m_columns.find(column);
        if (it == m_columns.end())
        {
            return "";
        }
        if (it->second >= fields.size())
        {
            Fail(column, "missing value (too few fields)");
        }
        return fields[it->second];
    }

    int64_t Integer(const std::vector<std::string>& fields,
                    const std::string& column,
                    int64_t min,
                    int64_t max,
                    int64_t absent) const
    {
        std::string text = Text(fields, column);
        if (text.empty())
        {
            return absent;
        }
        char* end = nullptr;
        errno = 0;
        long long value = std::strtoll(text.c_str(), &end, 10);
        if (*end != '\0' || errno != 0 || value < min || value > max)
        {
            Fail(column, "not an integer in range: " + InputText::Quote(text));
        }
        return value;
    }

    double Real(const std::vector<std::string>& fields, const std::string& column) const
    {
        std::string text = Text(fields, column);
        char* end = nullptr;
        double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value))
        {
            Fail(column, "not a number: " + InputText::Quote(text));
        }
        return value;
    }

    const std::string& m_file;
    std::map<std::string, std::size_t> m_columns;
    mutable std::size_t m_line{0};
};

} // namespace

WorkloadCommRecord
WorkloadCommRecord::Of(const WorkloadOp& op, double startS, double endS, uint32_t iteration)
{
    WorkloadCommRecord record;
    record.rank = op.rank;
    record.id = op.id;
    record.type = op.type;
    record.group = op.group;
    record.peer = op.peer;
    record.bytes = op.bytes;
    record.startS = startS;
    record.endS = endS;
    record.label = op.label;
    record.iteration = iteration;
    return record;
}

WorkloadTimeline::WorkloadTimeline(std::vector<WorkloadCommRecord> records)
    : m_records(std::move(records))
{
}

void
WorkloadTimeline::Add(WorkloadCommRecord record)
{
    m_records.push_back(std::move(record));
}

const std::vector<WorkloadCommRecord>&
WorkloadTimeline::GetRecords() const
{
    return m_records;
}

WorkloadTimeline
WorkloadTimeline::ParseCsv(const std::string& text, const std::string& fileName)
{
    CsvReader csv(text);
    std::vector<std::string> header;
    if (!csv.Next(header))
    {
        throw std::runtime_error(fileName + ": empty file (expected a CSV header)");
    }
    std::map<std::string, std::size_t> columns;
    for (std::size_t i = 0; i < header.size(); ++i)
    {
        columns[header[i]] = i;
    }
    RowReader reader(fileName, columns);
    WorkloadTimeline timeline;
    std::vector<std::string> fields;
    while (csv.Next(fields))
    {
        if (fields.size() == 1 && fields[0].empty())
        {
            continue; // a blank line
        }
        timeline.Add(reader.Read(fields, csv.GetLine()));
    }
    return timeline;
}

WorkloadTimeline
WorkloadTimeline::ReadCsv(const std::string& path)
{
    return ParseCsv(InputText::ReadFile(path, "timeline CSV"), path);
}

void
WorkloadTimeline::WriteCsv(std::ostream& os, const std::vector<std::string>& jobOfRank) const
{
    os << (jobOfRank.empty() ? "" : "job,")
       << "rank,id,type,group,bytes,start_s,end_s,label,iteration,peer,algorithm,channels,"
          "chunk_bytes\n";
    std::ostringstream row;
    row << std::setprecision(12);
    for (const auto& r : m_records)
    {
        row.str("");
        if (!jobOfRank.empty())
        {
            row << QuoteCsv(r.rank < jobOfRank.size() ? jobOfRank[r.rank] : "") << ',';
        }
        row << r.rank << ',' << r.id << ',' << WorkloadOpTypeName(r.type) << ','
            << QuoteCsv(r.group) << ',' << r.bytes << ',' << r.startS << ',' << r.endS << ','
            << QuoteCsv(r.label) << ',' << r.iteration << ',' << r.peer << ','
            << QuoteCsv(r.algorithm) << ',' << r.channels << ',' << r.chunkBytes << '\n';
        os << row.str();
    }
}

} // namespace ns3

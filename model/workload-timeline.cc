#include "workload-timeline.h"

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

namespace
{

/// Splits one CSV line (RFC 4180 quotes; no embedded newlines).
std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i)
    {
        char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        {
            fields.back() += '"';
            ++i;
        }
        else if (c == '"')
        {
            quoted = !quoted;
        }
        else if (c == ',' && !quoted)
        {
            fields.emplace_back();
        }
        else if (c != '\r')
        {
            fields.back() += c;
        }
    }
    return fields;
}

std::string
QuoteCsv(const std::string& text)
{
    if (text.find_first_of(",\"") == std::string::npos)
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
            Fail("type", "not a collective or send/recv: '" + type + "'");
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
        return r;
    }

  private:
    [[noreturn]] void Fail(const std::string& column, const std::string& message) const
    {
        throw std::runtime_error(m_file + ":" + std::to_string(m_line) + ": column '" + column +
                                 "': " + message);
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
            Fail(column, "not an integer in range: '" + text + "'");
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
            Fail(column, "not a number: '" + text + "'");
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
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line))
    {
        throw std::runtime_error(fileName + ": empty file (expected a CSV header)");
    }
    std::map<std::string, std::size_t> columns;
    std::vector<std::string> header = SplitCsv(line);
    for (std::size_t i = 0; i < header.size(); ++i)
    {
        columns[header[i]] = i;
    }
    RowReader reader(fileName, columns);
    WorkloadTimeline timeline;
    std::size_t number = 1;
    while (std::getline(in, line))
    {
        ++number;
        if (line.empty() || line == "\r")
        {
            continue;
        }
        timeline.Add(reader.Read(SplitCsv(line), number));
    }
    return timeline;
}

WorkloadTimeline
WorkloadTimeline::ReadCsv(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return ParseCsv(text.str(), path);
}

void
WorkloadTimeline::WriteCsv(std::ostream& os) const
{
    os << "rank,id,type,group,bytes,start_s,end_s,label,iteration,peer\n";
    std::ostringstream row;
    row << std::setprecision(12);
    for (const auto& r : m_records)
    {
        row.str("");
        row << r.rank << ',' << r.id << ',' << WorkloadOpTypeName(r.type) << ','
            << QuoteCsv(r.group) << ',' << r.bytes << ',' << r.startS << ',' << r.endS << ','
            << QuoteCsv(r.label) << ',' << r.iteration << ',' << r.peer << '\n';
        os << row.str();
    }
}

} // namespace ns3

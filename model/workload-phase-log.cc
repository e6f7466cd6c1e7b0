#include "workload-phase-log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \brief Reads the tokens of one line, failing with "FILE:LINE: reason".
 */
class LineReader
{
  public:
    LineReader(const std::string& file, std::size_t line, const std::string& text)
        : m_file(file),
          m_line(line)
    {
        std::string spaced = text;
        std::replace(spaced.begin(), spaced.end(), ',', ' ');
        std::istringstream in(spaced);
        std::string token;
        while (in >> token)
        {
            m_tokens.push_back(token);
        }
    }

    std::string Word()
    {
        return Next("a phase kind (PP or DP)");
    }

    void Expect(const std::string& key)
    {
        std::string token = Next("'" + key + "'");
        if (token != key)
        {
            Fail("expected '" + key + "' but found '" + token + "'");
        }
    }

    uint32_t Unsigned(const std::string& key)
    {
        Expect(key);
        std::string token = Next("a number after '" + key + "'");
        bool digits = !token.empty() && token.size() <= 9 &&
                      std::all_of(token.begin(), token.end(), [](unsigned char c) {
                          return std::isdigit(c);
                      });
        if (!digits)
        {
            Fail("'" + key + "' needs a non-negative integer, found '" + token + "'");
        }
        return static_cast<uint32_t>(std::strtoul(token.c_str(), nullptr, 10));
    }

    double Real(const std::string& key)
    {
        Expect(key);
        std::string token = Next("a time after '" + key + "'");
        char* end = nullptr;
        double value = std::strtod(token.c_str(), &end);
        if (*end != '\0' || !std::isfinite(value))
        {
            Fail("'" + key + "' needs a number, found '" + token + "'");
        }
        return value;
    }

    void End()
    {
        if (m_next < m_tokens.size())
        {
            Fail("unexpected text '" + m_tokens[m_next] + "' at the end of the line");
        }
    }

  private:
    std::string Next(const std::string& what)
    {
        if (m_next >= m_tokens.size())
        {
            Fail("line ends early (expected " + what + ")");
        }
        return m_tokens[m_next++];
    }

    [[noreturn]] void Fail(const std::string& message) const
    {
        throw std::runtime_error(m_file + ":" + std::to_string(m_line) + ": " + message);
    }

    const std::string& m_file;
    std::size_t m_line;
    std::vector<std::string> m_tokens;
    std::size_t m_next{0};
};

bool
IsBlank(const std::string& line)
{
    return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c); });
}

} // namespace

WorkloadPhaseLog
WorkloadPhaseLog::Parse(const std::string& text, const std::string& fileName)
{
    WorkloadPhaseLog log;
    std::istringstream in(text);
    std::string line;
    std::size_t number = 0;
    uint32_t iteration = 0;
    while (std::getline(in, line))
    {
        ++number;
        if (IsBlank(line))
        {
            continue;
        }
        LineReader reader(fileName, number, line);
        WorkloadPhaseLogEntry e;
        e.line = number;
        e.parallelism = reader.Word();
        e.startBackend = reader.Unsigned("start_backend:");
        e.startIdx = reader.Unsigned("start_idx:");
        e.endBackend = reader.Unsigned("end_backend:");
        e.endIdx = reader.Unsigned("end_idx:");
        e.len = reader.Unsigned("len:");
        e.startMs = reader.Real("start_time:");
        e.endMs = reader.Real("end_time:");
        reader.End();
        e.iteration = iteration;
        // The step ends after the optimizer's phase (README: backend 6).
        if (e.startBackend == OPTIMIZER_BACKEND)
        {
            ++iteration;
        }
        log.m_entries.push_back(e);
    }
    if (log.m_entries.empty())
    {
        throw std::runtime_error(fileName + ": no phase in the file");
    }
    return log;
}

WorkloadPhaseLog
WorkloadPhaseLog::ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return Parse(text.str(), path);
}

bool
WorkloadPhaseLog::LooksLikePhaseLog(const std::string& text)
{
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        if (!IsBlank(line))
        {
            return line.find("start_backend:") != std::string::npos;
        }
    }
    return false;
}

const std::vector<WorkloadPhaseLogEntry>&
WorkloadPhaseLog::GetEntries() const
{
    return m_entries;
}

uint32_t
WorkloadPhaseLog::GetIterationCount() const
{
    return m_entries.empty() ? 0 : m_entries.back().iteration + 1;
}

std::vector<WorkloadPhase>
WorkloadPhaseLog::ToPhases() const
{
    std::vector<WorkloadPhase> phases;
    for (const auto& e : m_entries)
    {
        WorkloadPhase p;
        p.parallelism = e.parallelism;
        p.startS = e.startMs / 1000.0;
        p.endS = std::max(e.endMs, e.startMs) / 1000.0; // README: zero measured duration
        p.comms = e.len;
        p.iteration = e.iteration;
        p.lastIteration = e.iteration;
        p.label = e.parallelism + " x" + std::to_string(e.len) +
                  (e.startBackend == OPTIMIZER_BACKEND ? " opt" : "");
        phases.push_back(p);
    }
    return phases;
}

} // namespace ns3

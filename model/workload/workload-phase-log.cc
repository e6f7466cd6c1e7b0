/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-phase-log.h"

#include "ns3/input-text.h"
#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadPhaseLog");

namespace
{

/// A time of the log (ms) and its text as typed.
struct LoggedTime
{
    double ms{0};     //!< value
    std::string text; //!< as in the file
};

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
            Fail("expected '" + key + "' but found " + InputText::Quote(token));
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
            Fail("'" + key + "' needs a non-negative integer, found " + InputText::Quote(token));
        }
        return static_cast<uint32_t>(std::strtoul(token.c_str(), nullptr, 10));
    }

    /// A time in [0, MAX_TIME_MS] ms, with its text as typed (for later messages).
    LoggedTime Milliseconds(const std::string& key)
    {
        Expect(key);
        std::string token = Next("a time after '" + key + "'");
        char* end = nullptr;
        double value = std::strtod(token.c_str(), &end);
        if (*end != '\0' || !std::isfinite(value))
        {
            Fail("'" + key + "' needs a number, found " + InputText::Quote(token));
        }
        if (value < 0 || value > WorkloadPhaseLog::MAX_TIME_MS)
        {
            Fail("'" + key + "' needs a time in [0, 1e13] ms, found " + InputText::Quote(token));
        }
        return {value, token};
    }

    void End()
    {
        if (m_next < m_tokens.size())
        {
            Fail("unexpected text " + InputText::Quote(m_tokens[m_next]) +
                 " at the end of the line");
        }
    }

    [[noreturn]] void Fail(const std::string& message) const
    {
        throw std::runtime_error(m_file + ":" + std::to_string(m_line) + ": " + message);
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

/// What the times of the next phase are checked against: the log's first start and the
/// previous phase's start.
struct TimeOrder
{
    bool started{false}; //!< a phase was read
    LoggedTime first;    //!< the log's first start_time
    LoggedTime previous; //!< the previous phase's start_time
};

/// The bounds of WorkloadPhaseLog's class documentation on one phase's times.
void
CheckTimes(const LineReader& reader,
           const LoggedTime& start,
           const LoggedTime& end,
           uint32_t len,
           TimeOrder& order)
{
    if (!order.started)
    {
        order = {true, start, start};
    }
    if (start.ms < order.previous.ms)
    {
        reader.Fail("start_time " + start.text + " is before the previous phase's start_time " +
                    order.previous.text + " (phases must be in time order)");
    }
    order.previous = start;
    if (end.ms < start.ms && len != 1)
    {
        reader.Fail("end_time " + end.text + " is before start_time " + start.text +
                    " on a phase of " + std::to_string(len) +
                    " collectives (only a one-collective phase may log an earlier end)");
    }
    if (end.ms < order.first.ms)
    {
        reader.Fail("end_time " + end.text + " is before the log's first start_time " +
                    order.first.text);
    }
    for (const LoggedTime* time : {&start, &end})
    {
        if (time->ms - order.first.ms > WorkloadPhaseLog::MAX_SPAN_MS)
        {
            reader.Fail(std::string(time == &start ? "start_time " : "end_time ") + time->text +
                        " is more than 1e9 ms (about 11.6 days) after the log's first "
                        "start_time " +
                        order.first.text);
        }
    }
}

/// The text without a leading UTF-8 byte order mark (editors on Windows write one).
std::string
WithoutByteOrderMark(const std::string& text)
{
    static const std::string bom = "\xEF\xBB\xBF";
    return text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text;
}

} // namespace

WorkloadPhaseLog
WorkloadPhaseLog::Parse(const std::string& text, const std::string& fileName)
{
    WorkloadPhaseLog log;
    std::istringstream in(WithoutByteOrderMark(text));
    std::string line;
    std::size_t number = 0;
    uint32_t iteration = 0;
    TimeOrder order;
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
        LoggedTime start = reader.Milliseconds("start_time:");
        LoggedTime end = reader.Milliseconds("end_time:");
        reader.End();
        CheckTimes(reader, start, end, e.len, order);
        e.startMs = start.ms;
        e.endMs = end.ms;
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
    return Parse(InputText::ReadFile(path, "phase log"), path);
}

bool
WorkloadPhaseLog::LooksLikePhaseLog(const std::string& text)
{
    std::istringstream in(WithoutByteOrderMark(text));
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

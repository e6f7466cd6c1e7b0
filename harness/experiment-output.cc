/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment-output.h"

#include "ns3/log.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentOutput");

ExperimentOutput::ExperimentOutput(const std::filesystem::path& dir, std::string tag)
    : m_dir(dir),
      m_tag(std::move(tag))
{
    MakeFolder(dir);
}

void
ExperimentOutput::MakeFolder(const std::filesystem::path& dir)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (!error && !std::filesystem::is_directory(dir))
    {
        error = std::make_error_code(std::errc::not_a_directory); // an existing file
    }
    if (error)
    {
        // The system's reason says what to fix: "Permission denied", "Not a directory"...
        throw std::runtime_error(dir.string() +
                                 ": cannot create the output folder: " + error.message());
    }
}

std::string
ExperimentOutput::ShellQuote(const std::string& text)
{
    std::string quoted = "'";
    for (char c : text)
    {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

void
ExperimentOutput::WriteAtomically(const std::filesystem::path& path, const std::string& text)
{
    std::filesystem::path part = path.string() + ".part";
    {
        std::ofstream out(part);
        out << text;
        if (!out.flush())
        {
            throw std::runtime_error(part.string() + ": cannot write the file");
        }
    }
    std::error_code error;
    std::filesystem::rename(part, path, error);
    if (error)
    {
        throw std::runtime_error(path.string() + ": cannot write the file (" + error.message() +
                                 ")");
    }
}

const std::filesystem::path&
ExperimentOutput::GetDir() const
{
    return m_dir;
}

std::ofstream
ExperimentOutput::Open(const std::string& name) const
{
    std::ofstream out(m_dir / name);
    if (!out)
    {
        throw std::runtime_error((m_dir / name).string() + ": cannot open the file for writing");
    }
    return out;
}

bool
ExperimentOutput::WriteFigure(const std::string& stem,
                              uint32_t width,
                              uint32_t height,
                              const std::function<void(std::ostream&)>& body,
                              bool render) const
{
    const std::string script = stem + ".plt";
    {
        std::ofstream plt = Open(script);
        // The script is self-contained and writes the PNG next to itself when run from
        // its folder, so it can be edited and re-rendered by hand.
        plt << "set terminal png size " << width << "," << height << "\nset output \"" << stem
            << ".png\"\n";
        body(plt);
    }
    // "--": a folder named like an option ("-1") is still a folder to the shell's cd.
    const std::string command =
        "cd -- " + ShellQuote(m_dir.string()) + " && gnuplot " + ShellQuote(script);
    if (!render)
    {
        std::cerr << m_tag << " wrote " << (m_dir / script).string() << "; render with: " << command
                  << "\n";
        return false;
    }
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    {
        std::cerr << m_tag << " gnuplot is not installed: wrote " << (m_dir / script).string()
                  << "; render with: " << command << "\n";
        return false;
    }
    if (std::system(command.c_str()) != 0)
    {
        throw std::runtime_error("gnuplot failed on " + (m_dir / script).string());
    }
    std::cerr << m_tag << " wrote " << (m_dir / (stem + ".png")).string() << "\n";
    return true;
}

} // namespace ns3

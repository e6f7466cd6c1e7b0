/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXPERIMENT_OUTPUT_H
#define EXPERIMENT_OUTPUT_H

#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Output folder, files and gnuplot figures of the experiment programs.
 *
 * Every experiment writes CSV files and a figure into one folder. The figure is a
 * self-contained gnuplot script (inline data, written with ns-3's Gnuplot classes by the
 * caller) that draws a PNG next to itself; it is rendered at once when gnuplot is
 * installed, and the command to render it later is printed otherwise.
 */
class ExperimentOutput
{
  public:
    /**
     * \brief Creates the folder (and its parents) if needed.
     * \param dir the output folder
     * \param tag prefix of the messages on stderr, e.g. "[cost]"
     *
     * Throws std::runtime_error with a one-line reason if the folder cannot be created.
     */
    ExperimentOutput(const std::filesystem::path& dir, std::string tag);

    /**
     * \brief Creates a folder and its parents if needed (what the constructor does; the job
     *        runs' folders, which hold no figure, use it alone).
     * \param dir the folder (std::runtime_error with a one-line reason if it cannot be made)
     */
    static void MakeFolder(const std::filesystem::path& dir);

    /// \return the folder
    const std::filesystem::path& GetDir() const;

    /**
     * \brief Writes \p text to \p path through a temporary file (PATH.part) and a rename:
     *        an interrupted program never leaves half a file there.
     * \throws std::runtime_error with a one-line reason if it cannot be written
     */
    static void WriteAtomically(const std::filesystem::path& path, const std::string& text);

    /// \return \p text single-quoted for sh (a quote inside as '\\'')
    static std::string ShellQuote(const std::string& text);

    /**
     * \brief Opens a file of the folder for writing.
     * \param name file name
     * \return the stream (std::runtime_error if the file cannot be opened)
     */
    std::ofstream Open(const std::string& name) const;

    /**
     * \brief Writes STEM.plt and renders STEM.png from it.
     * \param stem file name without extension
     * \param width PNG width in pixels
     * \param height PNG height in pixels
     * \param body writes the plots (e.g. Gnuplot::GenerateOutput), after the lines that
     *        select the PNG terminal and output file
     * \param render false to write the script only
     * \return true if the PNG was rendered
     *
     * Throws std::runtime_error if gnuplot is installed but fails on the script.
     */
    bool WriteFigure(const std::string& stem,
                     uint32_t width,
                     uint32_t height,
                     const std::function<void(std::ostream&)>& body,
                     bool render) const;

  private:
    std::filesystem::path m_dir; //!< The folder
    std::string m_tag;           //!< Message prefix
};

} // namespace ns3

#endif /* EXPERIMENT_OUTPUT_H */

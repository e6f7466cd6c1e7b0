/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_TRACE_FILE_H
#define CHAKRA_TRACE_FILE_H

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

namespace google
{
namespace protobuf
{
class MessageLite;

namespace io
{
class ArrayInputStream;
class GzipInputStream;
class ZeroCopyInputStream;
class GzipOutputStream;
class OstreamOutputStream;
class ZeroCopyOutputStream;
} // namespace io
} // namespace protobuf
} // namespace google

namespace ChakraProtoMsg
{
class GlobalMetadata;
class Node;
} // namespace ChakraProtoMsg

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Reads one Chakra execution-trace file: a GlobalMetadata message, then Node
 *        messages until the end, each preceded by its length as a base-128 varint; the
 *        whole file plain or gzip-compressed (detected by its first two bytes, 1f 8b).
 *
 * Every problem is one std::runtime_error "FILE: byte N: what" (N counts the decompressed
 * bytes of a gzip file, or its compressed ones for a gzip error), never a crash: a truncated
 * length or message, a message that is not a valid protobuf, a length of more than
 * MAX_MESSAGE_BYTES, a corrupt or truncated gzip stream, or more than
 * InputText::MAX_FILE_BYTES (decompressed). A gzip file is checked by one pass of zlib
 * (output discarded), then parsed as it is decompressed.
 */
class ChakraTraceInput
{
  public:
    /// Largest message accepted: a node of 64 MiB is corruption, not a trace (and a message
    /// is held whole while it is parsed, so this bounds a file's memory beyond its bytes)
    static constexpr uint32_t MAX_MESSAGE_BYTES = uint32_t(64) << 20;

    /**
     * \brief Reads the file into memory (bounded like every input: InputText::ReadFile).
     * \param path the file
     */
    explicit ChakraTraceInput(const std::string& path);
    ~ChakraTraceInput();

    /**
     * \brief Reads the first message; call it once, before ReadNode.
     * \param metadata receives it
     */
    void ReadMetadata(ChakraProtoMsg::GlobalMetadata& metadata);

    /**
     * \param node receives the next node (cleared first)
     * \return false at the end of the file
     */
    bool ReadNode(ChakraProtoMsg::Node& node);

    /// \return true if the file is gzip-compressed
    bool IsGzip() const;

  private:
    /// \return false at a clean end of the data
    bool ReadMessage(google::protobuf::MessageLite& message, const char* what);
    /// Throws "FILE: byte N: reason".
    [[noreturn]] void Fail(uint64_t offset, const std::string& reason) const;
    /// Throws if the gzip file is corrupt, truncated or too large once decompressed (its
    /// compressed offset named); memory stays flat.
    void CheckGzip() const;

    std::string m_path;                                             //!< As given
    std::string m_bytes;                                            //!< The file
    bool m_gzip{false};                                             //!< It is gzip
    std::unique_ptr<google::protobuf::io::ArrayInputStream> m_raw;  //!< Over m_bytes
    std::unique_ptr<google::protobuf::io::GzipInputStream> m_unzip; //!< Over m_raw, or null
    google::protobuf::io::ZeroCopyInputStream* m_in{nullptr};       //!< m_unzip or m_raw
    uint64_t m_offset{0};                                           //!< Last message's start
};

/**
 * \ingroup photonic-rails
 * \brief Writes one Chakra execution-trace file, plain or gzip-compressed, in the framing
 *        ChakraTraceInput reads.
 */
class ChakraTraceOutput
{
  public:
    /**
     * \param path the file to (over)write
     * \param gzip compress the whole file
     * \throws std::runtime_error if it cannot be opened
     */
    ChakraTraceOutput(const std::string& path, bool gzip);
    ~ChakraTraceOutput();

    /**
     * \param message the GlobalMetadata first, then nodes
     * \throws std::runtime_error if writing fails
     */
    void Write(const google::protobuf::MessageLite& message);

    /// \brief Flushes and closes the file (std::runtime_error if that fails).
    void Close();

  private:
    std::string m_path;                                               //!< As given
    std::ofstream m_file;                                             //!< The file
    std::unique_ptr<google::protobuf::io::OstreamOutputStream> m_raw; //!< Over m_file
    std::unique_ptr<google::protobuf::io::GzipOutputStream> m_gzip;   //!< Over m_raw, or null
    google::protobuf::io::ZeroCopyOutputStream* m_out{nullptr};       //!< m_gzip or m_raw
};

} // namespace ns3

#endif /* CHAKRA_TRACE_FILE_H */

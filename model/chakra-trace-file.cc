/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-trace-file.h"

#include "input-text.h"

#include "chakra-et.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include <climits>
#include <stdexcept>
#include <zlib.h>

namespace ns3
{

ChakraTraceInput::ChakraTraceInput(const std::string& path)
    : m_path(path),
      m_bytes(InputText::ReadFile(path, "Chakra trace"))
{
    if (m_bytes.size() > uint64_t(INT_MAX))
    {
        // protobuf's streams count in int: refused before one of them wraps.
        Fail(0, "is " + std::to_string(m_bytes.size()) + " bytes, more than a trace file may "
                "hold (" + std::to_string(INT_MAX) + ")");
    }
    m_raw = std::make_unique<google::protobuf::io::ArrayInputStream>(m_bytes.data(),
                                                                     int(m_bytes.size()));
    m_in = m_raw.get();
    if (IsGzip())
    {
        m_gzip = std::make_unique<google::protobuf::io::GzipInputStream>(
            m_raw.get(),
            google::protobuf::io::GzipInputStream::GZIP);
        m_in = m_gzip.get();
    }
}

ChakraTraceInput::~ChakraTraceInput() = default;

bool
ChakraTraceInput::IsGzip() const
{
    return m_bytes.size() >= 2 && uint8_t(m_bytes[0]) == 0x1f && uint8_t(m_bytes[1]) == 0x8b;
}

uint64_t
ChakraTraceInput::GetMessageOffset() const
{
    return m_offset;
}

void
ChakraTraceInput::Fail(uint64_t offset, const std::string& reason) const
{
    std::string where = IsGzip() ? " of the decompressed data" : "";
    throw std::runtime_error(m_path + ": byte " + std::to_string(offset) + where + ": " + reason);
}

bool
ChakraTraceInput::GzipFailed() const
{
    int code = m_gzip ? m_gzip->ZlibErrorCode() : Z_OK;
    return code != Z_OK && code != Z_STREAM_END;
}

void
ChakraTraceInput::ReadMetadata(ChakraProtoMsg::GlobalMetadata& metadata)
{
    if (!ReadMessage(metadata, "global metadata"))
    {
        Fail(0, "empty: a Chakra trace starts with its global metadata");
    }
}

bool
ChakraTraceInput::ReadNode(ChakraProtoMsg::Node& node)
{
    node.Clear();
    return ReadMessage(node, "node");
}

bool
ChakraTraceInput::ReadMessage(google::protobuf::MessageLite& message, const char* what)
{
    // One CodedInputStream per message: it returns what it read ahead to m_in when it goes,
    // so m_in->ByteCount() is the exact offset of the next message.
    m_offset = uint64_t(m_in->ByteCount());
    google::protobuf::io::CodedInputStream coded(m_in);
    const void* data = nullptr;
    int available = 0;
    if (!coded.GetDirectBufferPointer(&data, &available))
    {
        if (GzipFailed())
        {
            Fail(m_offset, std::string("corrupt gzip data (zlib: ") +
                               (m_gzip->ZlibErrorMessage() ? m_gzip->ZlibErrorMessage() : "?") +
                               ")");
        }
        return false;
    }
    uint32_t size = 0;
    if (!coded.ReadVarint32(&size))
    {
        Fail(m_offset, std::string("truncated or corrupt length of a ") + what);
    }
    if (size > MAX_MESSAGE_BYTES)
    {
        Fail(m_offset, std::string("a ") + what + " of " + std::to_string(size) +
                           " bytes announced, more than " + std::to_string(MAX_MESSAGE_BYTES) +
                           " (corrupt length)");
    }
    auto limit = coded.PushLimit(int(size));
    bool parsed = message.ParseFromCodedStream(&coded);
    // A message cut at a field boundary parses: only the bytes left before its limit tell.
    if (!parsed || coded.BytesUntilLimit() != 0)
    {
        Fail(m_offset, std::string(coded.BytesUntilLimit() != 0 || GzipFailed()
                                       ? "truncated "
                                       : "corrupt ") +
                           what + " (" + std::to_string(size) + " bytes announced)");
    }
    coded.PopLimit(limit);
    if (m_offset + size > uint64_t(InputText::MAX_FILE_BYTES))
    {
        Fail(m_offset, "more than " + std::to_string(InputText::MAX_FILE_BYTES) +
                           " bytes decompressed, more than an input file may hold");
    }
    return true;
}

ChakraTraceOutput::ChakraTraceOutput(const std::string& path, bool gzip)
    : m_path(path),
      m_file(path, std::ios::binary | std::ios::trunc)
{
    if (!m_file)
    {
        throw std::runtime_error(path + ": cannot open the file for writing");
    }
    m_raw = std::make_unique<google::protobuf::io::OstreamOutputStream>(&m_file);
    m_out = m_raw.get();
    if (gzip)
    {
        google::protobuf::io::GzipOutputStream::Options options;
        options.format = google::protobuf::io::GzipOutputStream::GZIP;
        m_gzip = std::make_unique<google::protobuf::io::GzipOutputStream>(m_raw.get(), options);
        m_out = m_gzip.get();
    }
}

ChakraTraceOutput::~ChakraTraceOutput() = default;

void
ChakraTraceOutput::Write(const google::protobuf::MessageLite& message)
{
    if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(message, m_out))
    {
        throw std::runtime_error(m_path + ": cannot write the file");
    }
}

void
ChakraTraceOutput::Close()
{
    bool ok = !m_gzip || m_gzip->Close();
    m_gzip.reset();
    m_raw.reset(); // flushes into m_file
    m_file.close();
    if (!ok || !m_file)
    {
        throw std::runtime_error(m_path + ": cannot write the file");
    }
}

} // namespace ns3

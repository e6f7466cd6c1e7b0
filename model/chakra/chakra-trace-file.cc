/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-trace-file.h"

#include "chakra-et.pb.h"

#include "ns3/input-text.h"
#include "ns3/log.h"

#include <algorithm>
#include <climits>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <stdexcept>
#include <zlib.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraTraceFile");

ChakraTraceInput::ChakraTraceInput(const std::string& path)
    : m_path(path),
      m_bytes(InputText::ReadFile(path, "Chakra trace"))
{
    NS_LOG_FUNCTION(this << path);
    if (m_bytes.size() > uint64_t(INT_MAX))
    {
        // protobuf's streams count in int: refused before one of them wraps.
        Fail(0,
             "is " + std::to_string(m_bytes.size()) +
                 " bytes, more than a trace file may "
                 "hold (" +
                 std::to_string(INT_MAX) + ")");
    }
    m_raw = std::make_unique<google::protobuf::io::ArrayInputStream>(m_bytes.data(),
                                                                     int(m_bytes.size()));
    m_in = m_raw.get();
    m_gzip = m_bytes.size() >= 2 && uint8_t(m_bytes[0]) == 0x1f && uint8_t(m_bytes[1]) == 0x8b;
    if (m_gzip)
    {
        CheckGzip();
        m_unzip = std::make_unique<google::protobuf::io::GzipInputStream>(
            m_raw.get(),
            google::protobuf::io::GzipInputStream::GZIP);
        m_in = m_unzip.get();
    }
}

void
ChakraTraceInput::CheckGzip() const
{
    // A pass of zlib alone, output discarded (memory stays flat even for a gzip bomb), before
    // protobuf's GzipInputStream parses: that one takes a stream cut before its trailer for a
    // complete one. Members may follow each other (concatenated gzip files).
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK)
    {
        throw std::runtime_error(m_path + ": cannot start zlib");
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(m_bytes.data()));
    z.avail_in = uInt(m_bytes.size());
    uint64_t member = 0;       // offset of the current member in the compressed file
    uint64_t decompressed = 0; // bytes out, every member
    char buffer[1 << 16];
    while (true)
    {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof(buffer);
        int code = inflate(&z, Z_NO_FLUSH);
        decompressed += sizeof(buffer) - z.avail_out;
        if (decompressed > InputText::MAX_FILE_BYTES)
        {
            inflateEnd(&z);
            Fail(InputText::MAX_FILE_BYTES, "more bytes decompressed than an input file may hold");
        }
        if (code == Z_STREAM_END && z.avail_in == 0)
        {
            break;
        }
        if (code == Z_STREAM_END)
        {
            member += z.total_in;
            inflateReset(&z); // the next member (its counters start again)
            continue;
        }
        bool exhausted = z.avail_in == 0 && z.avail_out > 0; // input gone before the end
        if (code == Z_OK && !exhausted)
        {
            continue;
        }
        std::string reason = code == Z_OK || code == Z_BUF_ERROR
                                 ? "truncated gzip data (the stream ends early)"
                                 : std::string("corrupt gzip data (zlib: ") +
                                       (z.msg ? z.msg : "error " + std::to_string(code)) + ")";
        uint64_t at = member + z.total_in;
        inflateEnd(&z);
        throw std::runtime_error(m_path + ": byte " + std::to_string(at) +
                                 " of the compressed file: " + reason);
    }
    inflateEnd(&z);
}

ChakraTraceInput::~ChakraTraceInput()
{
    NS_LOG_FUNCTION(this);
}

bool
ChakraTraceInput::IsGzip() const
{
    NS_LOG_FUNCTION(this);
    return m_gzip;
}

void
ChakraTraceInput::Fail(uint64_t offset, const std::string& reason) const
{
    std::string where = IsGzip() ? " of the decompressed data" : "";
    throw std::runtime_error(m_path + ": byte " + std::to_string(offset) + where + ": " + reason);
}

void
ChakraTraceInput::ReadMetadata(ChakraProtoMsg::GlobalMetadata& metadata)
{
    NS_LOG_FUNCTION(this);
    if (!ReadMessage(metadata, "global metadata"))
    {
        Fail(0, "empty: a Chakra trace starts with its global metadata");
    }
}

bool
ChakraTraceInput::ReadNode(ChakraProtoMsg::Node& node)
{
    NS_LOG_FUNCTION(this);
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
        return false;
    }
    // 64 bits: ReadVarint32 keeps the low 32 bits of a longer varint, and a corrupt length
    // of 2^32 + 5 read as 5 was taken for a message.
    uint64_t size = 0;
    if (!coded.ReadVarint64(&size))
    {
        Fail(m_offset, std::string("truncated or corrupt length of a ") + what);
    }
    if (size > MAX_MESSAGE_BYTES)
    {
        Fail(m_offset,
             std::string("a ") + what + " of " + std::to_string(size) +
                 " bytes announced, more than " + std::to_string(MAX_MESSAGE_BYTES) +
                 " (corrupt length)");
    }
    auto limit = coded.PushLimit(int(size));
    bool parsed = message.ParseFromCodedStream(&coded);
    // A message cut at a field boundary parses: only the bytes left before its limit tell.
    if (!parsed || coded.BytesUntilLimit() != 0)
    {
        Fail(m_offset,
             std::string(coded.BytesUntilLimit() != 0 ? "truncated " : "corrupt ") + what + " (" +
                 std::to_string(size) + " bytes announced)");
    }
    coded.PopLimit(limit);
    return true;
}

ChakraTraceOutput::ChakraTraceOutput(const std::string& path, bool gzip)
    : m_path(path),
      m_file(path, std::ios::binary | std::ios::trunc)
{
    NS_LOG_FUNCTION(this << path << gzip);
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

ChakraTraceOutput::~ChakraTraceOutput()
{
    NS_LOG_FUNCTION(this);
}

void
ChakraTraceOutput::Write(const google::protobuf::MessageLite& message)
{
    NS_LOG_FUNCTION(this);
    if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(message, m_out))
    {
        throw std::runtime_error(m_path + ": cannot write the file");
    }
}

void
ChakraTraceOutput::Close()
{
    NS_LOG_FUNCTION(this);
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

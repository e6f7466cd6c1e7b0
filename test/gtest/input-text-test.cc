// InputText: how messages quote input bytes (issue 11, review fix11, E; expected texts are
// the bytes written out by hand from the UTF-8 encoding) and how programs read input files
// (B: only regular files, at most MAX_FILE_BYTES, refused before they are read).
#include "ns3/input-text.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>

using namespace ns3;

TEST(InputText, KeepsReadableText)
{
    EXPECT_EQ(InputText::Escape("tp0 all-reduce"), "tp0 all-reduce");
    // U+00E9 and U+20AC are readable: kept as their UTF-8 bytes.
    EXPECT_EQ(InputText::Escape("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");
    EXPECT_EQ(InputText::Quote(""), "''");
}

TEST(InputText, EscapesControlCharacters)
{
    EXPECT_EQ(InputText::Escape(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(InputText::Escape("\t\x1b\x7f"), "\\x09\\x1b\\x7f");
    // U+0085 (a C1 control, NEL) is 0xc2 0x85.
    EXPECT_EQ(InputText::Escape("a\xc2\x85"), "a\\xc2\\x85");
}

TEST(InputText, EscapesBytesThatAreNotUtf8)
{
    EXPECT_EQ(InputText::Quote("a\xff"), "'a\\xff'");
    EXPECT_EQ(InputText::Escape("\x80x"), "\\x80x");                 // a stray continuation
    EXPECT_EQ(InputText::Escape("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
    EXPECT_EQ(InputText::Escape("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a surrogate
    EXPECT_EQ(InputText::Escape("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); // past U+10FFFF
    // Cut short: the lead byte alone is escaped, the next byte starts over.
    EXPECT_EQ(InputText::Escape("\xe2\x82x"), "\\xe2\\x82x");
    EXPECT_EQ(InputText::Escape("\xe2"
                                "a"),
              "\\xe2a");
}

TEST(InputText, EscapesInvisibleAndReorderingCharacters)
{
    // U+FEFF, the byte order mark, is 0xef 0xbb 0xbf; U+200B (zero width space) 0xe2 0x80
    // 0x8b; U+202E (right-to-left override) 0xe2 0x80 0xae.
    EXPECT_EQ(InputText::Escape("\xef\xbb\xbfPP"), "\\xef\\xbb\\xbfPP");
    EXPECT_EQ(InputText::Escape("a\xe2\x80\x8b"), "a\\xe2\\x80\\x8b");
    EXPECT_EQ(InputText::Escape("\xe2\x80\xae"
                                "cba"),
              "\\xe2\\x80\\xaecba");
}

// ---- InputText::ReadFile: every program input goes through it (issue 11, review fix11, B) ----

namespace
{

/// The message InputText::ReadFile refuses \p path with, or "read N bytes".
std::string
ReadError(const std::string& path, uint64_t maxBytes = InputText::MAX_FILE_BYTES)
{
    try
    {
        return "read " + std::to_string(InputText::ReadFile(path, "DAG file", maxBytes).size()) +
               " bytes";
    }
    catch (const InputFileError& e)
    {
        return e.what();
    }
}

/// Writes \p bytes to a temporary file; returns its path.
std::string
Temp(const std::string& name, const std::string& bytes)
{
    std::string path = ::testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

} // namespace

TEST(InputText, ReadsARegularFileWithinTheBound)
{
    std::string path = Temp("input-text-ten.txt", "0123456789");
    EXPECT_EQ(InputText::ReadFile(path, "DAG file"), "0123456789");
    EXPECT_EQ(ReadError(path, 10), "read 10 bytes");
    EXPECT_EQ(ReadError(path, 9),
              path + ": is 10 bytes, more than an input file may hold (9 bytes)");
    std::remove(path.c_str());
}

TEST(InputText, RefusesWhatIsNotARegularFile)
{
    // /dev/zero never ends: read whole, it exhausted memory.
    EXPECT_EQ(ReadError("/dev/zero"), "/dev/zero: is not a regular file (a character device)");
    std::string dir = ::testing::TempDir();
    EXPECT_EQ(ReadError(dir), dir + ": is a directory, not a DAG file");
    EXPECT_EQ(ReadError("/nonexistent/dag.json"), "/nonexistent/dag.json: cannot open the file");
    std::string fifo = ::testing::TempDir() + "input-text-fifo";
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    // Opening a FIFO without a writer would block: it is refused before it is opened.
    EXPECT_EQ(ReadError(fifo), fifo + ": is not a regular file (a named pipe)");
    std::remove(fifo.c_str());
}

TEST(InputText, RefusesAFileBeyondTheBoundWithoutReadingIt)
{
    // 4 GiB + 1 bytes, sparse: a read would take seconds and the memory of the file.
    std::string path = Temp("input-text-huge.json", "");
    std::error_code error;
    std::filesystem::resize_file(path, InputText::MAX_FILE_BYTES + 1, error);
    if (error)
    {
        std::remove(path.c_str());
        GTEST_SKIP() << "no sparse file of 4 GiB here: " << error.message();
    }
    EXPECT_EQ(ReadError(path),
              path + ": is 4294967297 bytes, more than an input file may hold (4294967296 " +
                  "bytes)");
    std::remove(path.c_str());
}

// JsonInput: the one way JSON inputs are parsed (issue 33, item 3): a key given twice in one
// object is refused with the file, the key and where it is; text that is not JSON says why.
// The expected paths are read off the texts by hand (array indices from 0).
#include "ns3/input-text.h"
#include "ns3/json-input.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>

using namespace ns3;

namespace
{

/// The one-line message \p f throws as an InputFileError, or "accepted".
template <typename F>
std::string
Refusal(F f)
{
    try
    {
        f();
    }
    catch (const InputFileError& e)
    {
        return e.what();
    }
    return "accepted";
}

/// The message JsonInput::Parse refuses \p text with, or "accepted".
std::string
ParseError(const std::string& text)
{
    return Refusal([&text] { JsonInput::Parse(text, "f.json", "fault list"); });
}

/// The message JsonInput::ReadFile refuses \p path with, or "accepted".
std::string
ReadError(const std::string& path)
{
    return Refusal([&path] { JsonInput::ReadFile(path, "fault list"); });
}

/// "f.json: field 'FIELD': duplicate key 'KEY': ..." as JsonInput words it.
std::string
Duplicate(const std::string& field, const std::string& key)
{
    return "f.json: field '" + field + "': duplicate key '" + key +
           "': a key may appear once per object (the earlier value would be silently dropped)";
}

} // namespace

TEST(JsonInput, RefusesAKeyGivenTwiceNamingWhereItIs)
{
    // The case of the issue: two "at" in the first fault of a top-level array.
    EXPECT_EQ(ParseError(R"([{"part": "nic:gpu1.port0", "at": "1ms", "at": "2ms"}])"),
              Duplicate("[0].at", "at"));
    EXPECT_EQ(ParseError(R"({"x": 1, "x": 1})"), Duplicate("x", "x"));
    // The second element of "faults", after a first that held an object and an array: the
    // index counts elements, whatever they hold.
    EXPECT_EQ(ParseError(R"({"faults": [{"o": {"p": [1, 2]}}, {"q": 1, "q": 2}]})"),
              Duplicate("faults[1].q", "q"));
    EXPECT_EQ(ParseError(R"([[0, {"k": 1, "k": 1}]])"), Duplicate("[0][1].k", "k"));
    // A key that garbles a terminal is quoted escaped (InputText::Quote).
    EXPECT_EQ(ParseError("{\"a\\u0007\": 1, \"a\\u0007\": 2}"), Duplicate("a\\x07", "a\\x07"));
}

TEST(JsonInput, AcceptsTheSameKeyInDifferentObjects)
{
    EXPECT_EQ(ParseError(R"([{"at": "1ms"}, {"at": "2ms", "o": {"at": 3}}])"), "accepted");
    nlohmann::json json = JsonInput::Parse(R"({"a": [1, 2]})", "f.json", "fault list");
    EXPECT_EQ(json["a"][1], 2);
}

TEST(JsonInput, DocumentKeepsEveryDuplicateInTextOrder)
{
    JsonInput::Document document =
        JsonInput::ParseDocument(R"({"b": 1, "ops": [{"id": 0, "id": 1}], "b": 2, "ops": []})",
                                 "f.json",
                                 "DAG");
    ASSERT_EQ(document.duplicates.size(), 3u);
    EXPECT_EQ(document.duplicates[0].Field(), "ops[0].id");
    EXPECT_EQ(document.duplicates[1].Field(), "b");
    EXPECT_EQ(document.duplicates[2].Field(), "ops");
    // The parser keeps the later value: what the refusal protects against.
    EXPECT_EQ(document.root["b"], 2);
}

TEST(JsonInput, SaysWhyATextIsNotJson)
{
    EXPECT_EQ(ParseError(" \n"), "f.json: the file is empty (expected a JSON fault list)");
    EXPECT_EQ(ParseError(std::string("[\"a\0\"]", 5)),
              "f.json: not a JSON text (binary data: byte 0x00 at offset 3; a fault list is UTF-8 "
              "JSON)");
    // A NUL after a whole document: the parser stopped there, and took [1] alone (issue 31).
    EXPECT_EQ(ParseError(std::string("[1]\0[2]", 7)),
              "f.json: not a JSON text (binary data: byte 0x00 at offset 3; a fault list is UTF-8 "
              "JSON)");
    // '[1,' then the end: the parser's reason, after the file (its column count is its own).
    EXPECT_EQ(ParseError("[1,").rfind("f.json: invalid JSON: parse error at line 1, column ", 0),
              0u)
        << ParseError("[1,");
    EXPECT_NE(ParseError("[1,").find("unexpected end of input"), std::string::npos);
    EXPECT_EQ(ParseError("[1e999]").rfind("f.json: invalid JSON: number overflow", 0), 0u)
        << ParseError("[1e999]");
}

TEST(JsonInput, ReadsFilesAsEveryInputIs)
{
    std::string path = ::testing::TempDir() + "json-input.json";
    std::ofstream(path) << R"({"a": 1, "a": 2})";
    EXPECT_EQ(ReadError(path),
              path + ": field 'a': duplicate key 'a': a key may appear once per object (the "
                     "earlier value would be silently dropped)");
    std::remove(path.c_str());
    // A named pipe without a writer would block the open: refused before it (issue 34).
    std::string fifo = ::testing::TempDir() + "json-input-fifo";
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(ReadError(fifo), fifo + ": is not a regular file (a named pipe)");
    std::remove(fifo.c_str());
    std::string dir = ::testing::TempDir();
    EXPECT_EQ(ReadError(dir), dir + ": is a directory, not a JSON fault list");
}

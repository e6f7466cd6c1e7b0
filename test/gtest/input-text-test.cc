// InputText: how messages quote input bytes (issue 11, review fix11, E). Expected texts are
// the bytes written out by hand from the UTF-8 encoding.
#include "ns3/input-text.h"

#include <gtest/gtest.h>
#include <string>

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

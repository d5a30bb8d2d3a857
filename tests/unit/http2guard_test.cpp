// The agent's HTTP/2 frame guard on its own: a client within its budget passes, the
// rapid reset and a stream flood are stopped, and so is a client that is not HTTP/2.
#include <gtest/gtest.h>

#include <string>

#include "wire/http2guard.h"

using namespace meridian;

namespace {

std::string frame(uint8_t type, uint32_t stream, size_t payload)
{
    std::string out;
    out += static_cast<char>((payload >> 16) & 0xff);
    out += static_cast<char>((payload >> 8) & 0xff);
    out += static_cast<char>(payload & 0xff);
    out += static_cast<char>(type);
    out += '\0';
    out += static_cast<char>((stream >> 24) & 0x7f);
    out += static_cast<char>((stream >> 16) & 0xff);
    out += static_cast<char>((stream >> 8) & 0xff);
    out += static_cast<char>(stream & 0xff);
    return out + std::string(payload, 'x');
}

const std::string kPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

}  // namespace

TEST(Http2Guard, AClientWithinItsBudgetPassesEvenFedAByteAtATime)
{
    Http2Guard guard;
    std::string bytes = kPreface + frame(0x4, 0, 12);
    // A console's day: a few streams, calls every minute, an occasional cancel.
    for (uint32_t i = 0; i < 300; ++i) {
        bytes += frame(0x1, 1 + 2 * i, 40) + frame(0x0, 1 + 2 * i, 100);
        if (i % 10 == 0)
            bytes += frame(0x3, 1 + 2 * i, 4);
    }
    for (size_t i = 0; i < bytes.size(); ++i)
        ASSERT_TRUE(guard.feed(&bytes[i], 1, static_cast<int64_t>(i / 50))) << guard.why();
}

TEST(Http2Guard, TheRapidResetIsStopped)
{
    Http2Guard guard;
    std::string bytes = kPreface;
    for (uint32_t i = 0; i < 200; ++i)
        bytes += frame(0x1, 1 + 2 * i, 40) + frame(0x3, 1 + 2 * i, 4);
    EXPECT_FALSE(guard.feed(bytes.data(), bytes.size(), 1000));
    EXPECT_NE(guard.why().find("the HTTP/2 rapid reset"), std::string::npos) << guard.why();
}

TEST(Http2Guard, AStreamFloodIsStoppedAndASlowOneIsNot)
{
    Http2Guard flood;
    std::string bytes = kPreface;
    for (uint32_t i = 0; i < 1000; ++i)
        bytes += frame(0x1, 1 + 2 * i, 40);
    EXPECT_FALSE(flood.feed(bytes.data(), bytes.size(), 0));
    EXPECT_NE(flood.why().find("opened streams faster than 100 a second"), std::string::npos);

    Http2Guard steady;
    ASSERT_TRUE(steady.feed(kPreface.data(), kPreface.size(), 0));
    for (uint32_t i = 0; i < 1000; ++i) {
        const std::string headers = frame(0x1, 1 + 2 * i, 40);
        // 50 a second, for twenty seconds: well within the sustained rate.
        ASSERT_TRUE(steady.feed(headers.data(), headers.size(), i * 20)) << steady.why();
    }
}

TEST(Http2Guard, AClientThatIsNotHttp2IsStopped)
{
    Http2Guard guard;
    const std::string get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    EXPECT_FALSE(guard.feed(get.data(), get.size(), 0));
    EXPECT_NE(guard.why().find("no connection preface"), std::string::npos);
}

#include "http2guard.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace meridian {

namespace {

constexpr char kPreface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
constexpr size_t kPrefaceSize = sizeof kPreface - 1;
constexpr uint8_t kHeaders = 0x1;
constexpr uint8_t kRstStream = 0x3;
constexpr uint32_t kMaxFrameBytes = (1u << 24) - 1;

}  // namespace

bool Http2Guard::Bucket::take(double perSecond, double burst, int64_t nowMs)
{
    if (lastMs < 0) {
        tokens = burst;
    } else if (nowMs > lastMs) {
        tokens = std::min(burst, tokens + perSecond * static_cast<double>(nowMs - lastMs) / 1000);
    }
    lastMs = std::max(lastMs, nowMs);
    if (tokens < 1)
        return false;
    tokens -= 1;
    return true;
}

Http2Guard::Http2Guard(Http2Budget budget) : m_budget(budget), m_prefaceLeft(kPrefaceSize)
{}

bool Http2Guard::feed(const char *data, size_t size, int64_t nowMs)
{
    size_t at = 0;
    while (at < size && m_why.empty()) {
        if (m_prefaceLeft > 0) {
            const size_t n = std::min(m_prefaceLeft, size - at);
            const size_t offset = kPrefaceSize - m_prefaceLeft;
            if (std::memcmp(data + at, kPreface + offset, n) != 0) {
                m_why = "not an HTTP/2 client (no connection preface)";
                break;
            }
            m_prefaceLeft -= n;
            at += n;
        } else if (m_payloadLeft > 0) {
            const size_t n = static_cast<size_t>(std::min<uint64_t>(m_payloadLeft, size - at));
            m_payloadLeft -= n;
            at += n;
        } else {
            const size_t n = std::min(sizeof m_header - m_headerHave, size - at);
            std::memcpy(m_header + m_headerHave, data + at, n);
            m_headerHave += n;
            at += n;
            if (m_headerHave < sizeof m_header)
                break;
            m_headerHave = 0;
            const uint32_t length = (uint32_t{m_header[0]} << 16) | (uint32_t{m_header[1]} << 8) |
                                    uint32_t{m_header[2]};
            const uint32_t stream = ((uint32_t{m_header[5]} & 0x7f) << 24) |
                                    (uint32_t{m_header[6]} << 16) | (uint32_t{m_header[7]} << 8) |
                                    uint32_t{m_header[8]};
            if (length > kMaxFrameBytes) {
                m_why = "a frame longer than HTTP/2 allows";
                break;
            }
            m_payloadLeft = length;
            onFrame(m_header[3], stream, nowMs);
        }
    }
    return m_why.empty();
}

void Http2Guard::onFrame(uint8_t type, uint32_t streamId, int64_t nowMs)
{
    if (type == kHeaders && streamId > m_lastStreamId) {
        m_lastStreamId = streamId;
        if (!m_streams.take(m_budget.streamsPerSecond, m_budget.streamBurst, nowMs))
            m_why = fmt::format("opened streams faster than {:.0f} a second (burst {:.0f})",
                                m_budget.streamsPerSecond, m_budget.streamBurst);
    } else if (type == kRstStream) {
        if (!m_resets.take(m_budget.resetsPerSecond, m_budget.resetBurst, nowMs))
            m_why = fmt::format(
                "reset streams faster than {:.0f} a second (burst {:.0f}): the "
                "HTTP/2 rapid reset",
                m_budget.resetsPerSecond, m_budget.resetBurst);
    }
}

}  // namespace meridian

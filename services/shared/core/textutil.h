// Small text helpers shared by every parser. Number parsing here is strict on
// purpose: vendor tools print "N/A", "[N/A]", "-", "[Requested functionality has been
// deprecated]" and similar where a number would be, and none of those may ever
// become a number.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meridian {

std::string_view trim(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char separator);
std::vector<std::string_view> splitWhitespace(std::string_view text);
std::vector<std::string_view> splitLines(std::string_view text);
bool equalsIgnoreCase(std::string_view a, std::string_view b);
bool startsWith(std::string_view text, std::string_view prefix);
bool contains(std::string_view text, std::string_view part);
std::string toLower(std::string_view text);

// True for every spelling vendors use for "no value".
bool isNotAvailable(std::string_view text);

// A finite decimal number, optionally followed by `unit` (case-insensitive, spaces
// allowed): parseNumber("67.03 W", "W") == 67.03. Thousands separators are accepted
// only when allowThousands is set (SONiC prints "93,845").
std::optional<double> parseNumber(std::string_view text, std::string_view unit = {},
                                  bool allowThousands = false);
std::optional<uint64_t> parseUnsigned(std::string_view text, std::string_view unit = {},
                                      bool allowThousands = false);

// "1.5 GiB", "81920 MiB", "20638 MB" (vendors mean MiB by "MB"): bytes.
std::optional<uint64_t> parseMemoryBytes(std::string_view text);

// ISO 8601 as people type it: "2026-07-01", "2026-07-01T08:00", "2026-07-01 08:00:00Z",
// "2026-07-01T16:00:00+08:00": seconds since the epoch. UTC unless it says otherwise.
std::optional<int64_t> parseUtcTime(std::string_view text);
// The end of a period as people give it: a date includes its whole day ("2026-12-06"
// ends at 2026-12-07 00:00 UTC), as the Reports window's last day does; a time is the
// instant the period ends, excluded.
std::optional<int64_t> parsePeriodEnd(std::string_view text);

// The other way: "2026-07-01" at midnight UTC, else "2026-07-01T08:00:00Z".
std::string formatUtcTime(int64_t unixS);
// Orders names as people do: "n2" before "n10", "xm-r01-n9" before "xm-r01-n10".
bool naturalLess(std::string_view a, std::string_view b);
// Removes ANSI escape sequences (colour codes some tools print even into pipes).
std::string stripAnsi(std::string_view text);

}  // namespace meridian

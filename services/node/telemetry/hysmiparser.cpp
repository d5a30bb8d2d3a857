// hy-smi default table: whitespace columns named by a header line that starts with
// "DCU". It prints no model name, UUID or memory size; those stay absent.
#include <fmt/format.h>

#include <map>
#include <string>

#include "cardparsers.h"
#include "core/textutil.h"
#include "parseinput.h"

namespace meridian {

Result<ParsedCards> parseHySmi(std::string_view text)
{
    if (Status status = checkToolOutput(text); !status)
        return status.error();
    const auto lines = splitLines(text);
    std::map<std::string, size_t, std::less<>> columns;
    size_t headerLine = 0;
    ParsedCards cards;
    for (size_t i = 0; i < lines.size(); ++i) {
        const size_t lineNumber = i + 1;
        const auto words = splitWhitespace(lines[i]);
        if (words.empty() || startsWith(words[0], "="))
            continue;
        if (words[0] == "DCU") {
            columns.clear();
            for (size_t c = 0; c < words.size(); ++c) {
                // A name twice would leave fewer columns than header words, and a row
                // that matches the count would be indexed past its end.
                if (!columns.emplace(std::string(words[c]), c).second)
                    return lineError(lineNumber,
                                     fmt::format("the header names column '{}' twice", words[c]));
            }
            headerLine = lineNumber;
            continue;
        }
        if (columns.empty() || !parseUnsigned(words[0]))
            continue;
        if (words.size() != columns.size()) {
            return lineError(lineNumber,
                             fmt::format("{} columns, but the header on line {} names {}",
                                         words.size(), headerLine, columns.size()));
        }
        if (cards.size() >= kMaxCardsPerNode)
            return lineError(lineNumber, fmt::format("more than {} cards", kMaxCardsPerNode));
        const auto column = [&](std::string_view name) -> std::string_view {
            const auto it = columns.find(name);
            return it == columns.end() ? std::string_view{} : words[it->second];
        };
        ParsedCard card;
        card.info.index = static_cast<uint32_t>(*parseUnsigned(words[0]));
        card.info.vendor = Vendor::Hygon;
        card.info.model = "Hygon DCU";
        card.info.uuid = fmt::format("DCU-{}", card.info.index);
        CardSample &s = card.sample;
        s.index = card.info.index;
        s.temperatureCelsius = parseNumber(column("Temp"), "C");
        s.powerWatts = parseNumber(column("AvgPwr"), "W");
        s.powerLimitWatts = parseNumber(column("PwrCap"), "W");
        s.utilizationPercent = parseNumber(column("DCU%"), "%");
        cards.push_back(std::move(card));
    }
    if (headerLine == 0)
        return Error{"no hy-smi table found (expected a header line starting with 'DCU')"};
    return cards;
}

}  // namespace meridian

// cnmon: each MLU is two table rows. The first (recognised by its PCI bus id) has the
// card number, name, firmware, utilisation and ECC errors; the second fan, temperature,
// power usage/cap and memory usage/total.
#include <fmt/format.h>

#include "boxtable.h"
#include "cardparsers.h"
#include "core/cardcatalog.h"
#include "core/textutil.h"
#include "parseinput.h"

namespace meridian {

namespace {

void parseSecondRow(const std::vector<std::string_view> &cells, ParsedCard &card)
{
    CardSample &s = card.sample;
    // "0%   28C        107 W/ 250 W"
    const std::string_view first = cells[0];
    const auto words = splitWhitespace(first);
    if (words.size() >= 2)
        s.temperatureCelsius = parseNumber(words[1], "C");
    const size_t powerStart = words.size() >= 3 ? first.find(words[2]) : std::string_view::npos;
    if (powerStart != std::string_view::npos) {
        if (const auto power = splitRatio(first.substr(powerStart))) {
            s.powerWatts = parseNumber(power->first, "W");
            s.powerLimitWatts = parseNumber(power->second, "W");
        }
    }
    if (const auto memory = splitRatio(cells[1])) {
        s.memoryUsedBytes = parseMemoryBytes(memory->first);
        s.memoryTotalBytes = parseMemoryBytes(memory->second);
        card.info.memoryTotalBytes = s.memoryTotalBytes;
    }
}

}  // namespace

Result<ParsedCards> parseCnmon(std::string_view text)
{
    if (Status status = checkToolOutput(text); !status)
        return status.error();
    const auto lines = splitLines(text);
    bool sawBanner = false;
    ParsedCards cards;
    bool expectSecondRow = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        const size_t lineNumber = i + 1;
        if (contains(lines[i], "CNMON"))
            sawBanner = true;
        if (contains(lines[i], "Processes:"))
            break;
        const auto cells = boxCells(lines[i]);
        if (cells.size() < 3)
            continue;
        if (looksLikePciBusId(cells[1])) {
            if (cards.size() >= kMaxCardsPerNode)
                return lineError(lineNumber, fmt::format("more than {} cards", kMaxCardsPerNode));
            const auto words = splitWhitespace(cells[0]);
            const auto cardNumber = words.empty() ? std::nullopt : parseUnsigned(words[0]);
            if (!cardNumber)
                return lineError(lineNumber, "a card row that does not start with a card number");
            ParsedCard card;
            card.info.index = static_cast<uint32_t>(*cardNumber);
            card.info.vendor = Vendor::Cambricon;
            // "0     /   MLU370-X8    v1.1.6": number, VF, name, firmware.
            for (std::string_view word : words) {
                if (startsWith(word, "MLU"))
                    card.info.model = canonicalCardModel(word);
            }
            card.info.pciBusId = std::string(cells[1]);
            card.info.uuid = "MLU-" + card.info.pciBusId;
            if (const auto facts = lookupCardModel(card.info.model))
                card.info.peakFp16Tflops = facts->peakFp16Tflops;
            card.sample.index = card.info.index;
            const auto util = splitWhitespace(cells[2]);
            if (!util.empty())
                card.sample.utilizationPercent = parseNumber(util[0], "%");
            if (util.size() > 1)
                card.sample.eccUncorrectedVolatile = parseUnsigned(util[1]);
            cards.push_back(std::move(card));
            expectSecondRow = true;
            continue;
        }
        if (expectSecondRow) {
            parseSecondRow(cells, cards.back());
            expectSecondRow = false;
        }
    }
    if (!sawBanner && cards.empty())
        return Error{"no cnmon table found (expected a 'CNMON' banner and card rows)"};
    return cards;
}

}  // namespace meridian

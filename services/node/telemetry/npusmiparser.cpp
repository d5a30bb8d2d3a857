// npu-smi info: each chip is two table rows. The first names the NPU and its health
// and carries power and temperature; the second (recognised by its PCI bus id) carries
// AI Core utilisation and memory. On multi-die parts (910C) every die is a chip, and
// the second die often prints "-" for power.
#include <fmt/format.h>

#include "boxtable.h"
#include "cardparsers.h"
#include "core/cardcatalog.h"
#include "core/textutil.h"
#include "parseinput.h"

namespace meridian {

namespace {

struct NameRow {
    size_t line = 0;
    std::string npuId;
    std::string name;
    std::string health;
    std::optional<double> powerWatts;
    std::optional<double> temperatureCelsius;
};

std::optional<NameRow> parseNameRow(size_t lineNumber, const std::vector<std::string_view> &cells)
{
    const auto first = splitWhitespace(cells[0]);
    if (first.size() < 2 || !parseUnsigned(first[0]))
        return std::nullopt;
    NameRow row;
    row.line = lineNumber;
    row.npuId = std::string(first[0]);
    row.name = std::string(first[1]);
    row.health = std::string(cells[1]);
    const auto readings = splitWhitespace(cells[2]);
    if (!readings.empty())
        row.powerWatts = parseNumber(readings[0]);
    if (readings.size() > 1)
        row.temperatureCelsius = parseNumber(readings[1]);
    return row;
}

// "0           0    / 0          29954/ 65536": AI Core %, then used/total pairs.
std::vector<std::pair<std::string_view, std::string_view>> ratios(std::string_view text)
{
    std::vector<std::pair<std::string_view, std::string_view>> out;
    size_t slash = text.find('/');
    while (slash != std::string_view::npos) {
        size_t left = slash;
        while (left > 0 && text[left - 1] == ' ')
            --left;
        size_t leftStart = left;
        while (leftStart > 0 && text[leftStart - 1] != ' ')
            --leftStart;
        size_t right = slash + 1;
        while (right < text.size() && text[right] == ' ')
            ++right;
        size_t rightEnd = right;
        while (rightEnd < text.size() && text[rightEnd] != ' ')
            ++rightEnd;
        out.emplace_back(text.substr(leftStart, left - leftStart),
                         text.substr(right, rightEnd - right));
        slash = text.find('/', rightEnd);
    }
    return out;
}

// A chip row under its NPU row: the card's identity, then its readings (memory from the
// HBM column where the table has one).
ParsedCard chipCard(const NameRow &name, const std::vector<std::string_view> &cells, bool hbmColumn,
                    size_t index)
{
    ParsedCard card;
    card.info.index = static_cast<uint32_t>(index);
    card.info.vendor = Vendor::Huawei;
    card.info.model = canonicalCardModel("Ascend " + name.name);
    card.info.pciBusId = std::string(cells[1]);
    // npu-smi info prints no UUID; the bus id is stable for the life of the node.
    card.info.uuid = "NPU-" + card.info.pciBusId;
    if (const auto facts = lookupCardModel(name.name))
        card.info.peakFp16Tflops = facts->peakFp16Tflops;
    CardSample &s = card.sample;
    s.index = card.info.index;
    s.powerWatts = name.powerWatts;
    s.temperatureCelsius = name.temperatureCelsius;
    s.health = name.health;
    const auto words = splitWhitespace(cells[2]);
    if (!words.empty())
        s.utilizationPercent = parseNumber(words[0]);
    const auto pairs = ratios(cells[2]);
    // With an HBM column the last pair is HBM (the first is DDR, 0/0 on 910B).
    if (!pairs.empty()) {
        const auto &memory = hbmColumn ? pairs.back() : pairs.front();
        const auto used = parseNumber(memory.first);
        const auto total = parseNumber(memory.second);
        if (used && total && *total > 0 && *used >= 0 && *used <= *total) {
            s.memoryUsedBytes = static_cast<uint64_t>(*used * 1024 * 1024);
            s.memoryTotalBytes = static_cast<uint64_t>(*total * 1024 * 1024);
            card.info.memoryTotalBytes = s.memoryTotalBytes;
        }
    }
    return card;
}

}  // namespace

Result<ParsedCards> parseNpuSmi(std::string_view text)
{
    if (Status status = checkToolOutput(text); !status)
        return status.error();
    const auto lines = splitLines(text);
    bool sawBanner = false;
    bool hbmColumn = false;
    std::optional<NameRow> pending;
    bool pendingHasChip = false;
    ParsedCards cards;
    for (size_t i = 0; i < lines.size(); ++i) {
        const size_t lineNumber = i + 1;
        if (contains(lines[i], "npu-smi"))
            sawBanner = true;
        const auto cells = boxCells(lines[i]);
        if (cells.size() < 3)
            continue;
        if (contains(cells[0], "Process id") || contains(cells[1], "Process id"))
            break;  // the process table follows; no more chips
        if (startsWith(cells[0], "Chip") || startsWith(cells[0], "NPU")) {
            hbmColumn |= contains(cells[2], "HBM-Usage");
            continue;
        }
        if (looksLikePciBusId(cells[1])) {
            if (!pending)
                return lineError(lineNumber, "a chip row without the NPU row above it");
            if (cards.size() >= kMaxCardsPerNode)
                return lineError(lineNumber, fmt::format("more than {} chips", kMaxCardsPerNode));
            ParsedCard card = chipCard(*pending, cells, hbmColumn, cards.size());
            cards.push_back(std::move(card));
            pendingHasChip = true;
            continue;
        }
        if (pending && !pendingHasChip)
            return lineError(pending->line,
                             fmt::format("NPU {} has no chip row below it", pending->npuId));
        pending = parseNameRow(lineNumber, cells);
        pendingHasChip = false;
        if (!pending)
            return lineError(lineNumber, fmt::format("unexpected table row '{}'", trim(lines[i])));
    }
    if (pending && !pendingHasChip) {
        return lineError(pending->line, fmt::format("NPU {} has no chip row below it; the output "
                                                    "is cut short",
                                                    pending->npuId));
    }
    if (!sawBanner && cards.empty())
        return Error{"no npu-smi table found (expected a line with 'npu-smi' and NPU rows)"};
    return cards;
}

}  // namespace meridian

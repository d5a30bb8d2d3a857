// nvidia-smi --query-gpu CSV. Header driven: columns are found by name, so any field
// order and any subset nvidia-smi accepts will parse; units come from the header
// ("memory.used [MiB]") or from the value ("81559 MiB").
#include <fmt/format.h>

#include <map>
#include <string>

#include "cardparsers.h"
#include "core/cardcatalog.h"
#include "core/textutil.h"
#include "nvidiathrottle.h"
#include "parseinput.h"

namespace meridian {

const char *const kNvidiaSmiQueryFields =
    "index,name,uuid,pci.bus_id,serial,driver_version,memory.total,memory.used,"
    "utilization.gpu,temperature.gpu,temperature.memory,power.draw,enforced.power.limit,"
    "clocks.current.sm,clocks.current.memory,ecc.errors.corrected.volatile.total,"
    "ecc.errors.uncorrected.volatile.total,mig.mode.current,clocks_event_reasons.gpu_idle,"
    "clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,"
    "clocks_event_reasons.sw_thermal_slowdown,clocks_event_reasons.hw_thermal_slowdown,"
    "clocks_event_reasons.hw_power_brake_slowdown";

namespace {

struct Column {
    std::string name;
    std::string unit;
};

struct CsvBlock {
    size_t headerLine = 0;
    std::vector<Column> columns;
    std::vector<std::pair<size_t, std::string_view>> rows;  // (line number, text)
};

Column parseHeaderField(std::string_view field)
{
    field = trim(field);
    Column column;
    const size_t bracket = field.find(" [");
    if (bracket != std::string_view::npos && field.back() == ']') {
        column.unit = std::string(field.substr(bracket + 2, field.size() - bracket - 3));
        field = field.substr(0, bracket);
    }
    column.name = std::string(trim(field));
    return column;
}

bool isGpuQueryHeader(const std::vector<Column> &columns)
{
    bool identity = false;
    bool reading = false;
    for (const Column &c : columns) {
        identity |= c.name == "index" || c.name == "uuid" || c.name == "pci.bus_id";
        reading |= c.name == "utilization.gpu" || c.name == "memory.used" ||
                   c.name == "temperature.gpu" || c.name == "power.draw";
    }
    return identity && reading;
}

std::vector<CsvBlock> findBlocks(const std::vector<std::string_view> &lines)
{
    std::vector<CsvBlock> blocks;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find(',') == std::string_view::npos || startsWith(trim(lines[i]), "#"))
            continue;
        std::vector<Column> columns;
        for (std::string_view field : split(lines[i], ','))
            columns.push_back(parseHeaderField(field));
        if (!isGpuQueryHeader(columns))
            continue;
        CsvBlock block{i + 1, std::move(columns), {}};
        size_t j = i + 1;
        for (; j < lines.size(); ++j) {
            const std::string_view row = trim(lines[j]);
            if (row.empty() || startsWith(row, "#"))
                break;
            block.rows.emplace_back(j + 1, lines[j]);
        }
        blocks.push_back(std::move(block));
        i = j;
    }
    return blocks;
}

class Row {
public:
    Row(const CsvBlock &block, std::vector<std::string_view> values)
        : m_block(block), m_values(std::move(values))
    {
        for (size_t i = 0; i < block.columns.size(); ++i)
            m_index.emplace(block.columns[i].name, i);
    }

    std::string_view text(std::string_view name) const
    {
        const auto it = m_index.find(std::string(name));
        return it == m_index.end() ? std::string_view{} : trim(m_values[it->second]);
    }

    // The value with the header's unit stripped, whichever of the two carries it.
    std::optional<double> number(std::string_view name) const
    {
        const auto it = m_index.find(std::string(name));
        if (it == m_index.end())
            return std::nullopt;
        const std::string &unit = m_block.columns[it->second].unit;
        return parseNumber(m_values[it->second], unit);
    }

    std::optional<uint64_t> mebibytes(std::string_view name) const
    {
        const auto value = number(name);
        // Past 2^64 bytes the cast is undefined (1e300 MiB came out as 0): no reading.
        if (!value || *value < 0 || *value * 1024.0 * 1024.0 >= 1.8e19)
            return std::nullopt;
        return static_cast<uint64_t>(*value * 1024.0 * 1024.0);
    }

private:
    const CsvBlock &m_block;
    std::vector<std::string_view> m_values;
    std::map<std::string, size_t, std::less<>> m_index;
};

std::optional<std::vector<ThrottleReason>> throttleReasons(const CsvBlock &block, const Row &row)
{
    NvidiaThrottleReasons reasons;
    for (const Column &column : block.columns) {
        if (startsWith(column.name, "clocks_event_reasons") ||
            startsWith(column.name, "clocks_throttle_reasons"))
            reasons.add(column.name, row.text(column.name));
    }
    return reasons.result();
}

template <typename T>
std::optional<T> firstOf(std::optional<T> a, std::optional<T> b)
{
    return a ? a : b;
}

std::optional<uint32_t> toUint32(std::optional<double> value)
{
    if (!value || *value < 0 || *value > 1e9)
        return std::nullopt;
    return static_cast<uint32_t>(*value);
}

std::optional<uint64_t> toCount(std::optional<double> value)
{
    if (!value || *value < 0)
        return std::nullopt;
    return static_cast<uint64_t>(*value);
}

Result<ParsedCard> parseRow(const CsvBlock &block, size_t lineNumber, std::string_view line,
                            size_t position)
{
    std::vector<std::string_view> values = split(line, ',');
    if (values.size() != block.columns.size()) {
        return lineError(lineNumber,
                         fmt::format("{} fields, but the header on line {} names {}", values.size(),
                                     block.headerLine, block.columns.size()));
    }
    const Row row(block, std::move(values));
    ParsedCard card;
    CardInfo &info = card.info;
    const auto index = row.number("index");
    info.index =
        index && *index >= 0 ? static_cast<uint32_t>(*index) : static_cast<uint32_t>(position);
    info.vendor = Vendor::Nvidia;
    info.model = canonicalCardModel(row.text("name"));
    info.uuid = std::string(row.text("uuid"));
    info.pciBusId = std::string(row.text("pci.bus_id"));
    if (!isNotAvailable(row.text("serial")))
        info.serial = std::string(row.text("serial"));
    info.driverVersion = std::string(row.text("driver_version"));
    info.memoryTotalBytes = row.mebibytes("memory.total");
    if (const auto facts = lookupCardModel(info.model))
        info.peakFp16Tflops = facts->peakFp16Tflops;
    const std::string_view mig = row.text("mig.mode.current");
    if (mig == "Enabled" || mig == "Disabled")
        info.migEnabled = mig == "Enabled";
    if (info.uuid.empty() && info.pciBusId.empty())
        return lineError(lineNumber, "a GPU row with neither uuid nor pci.bus_id");

    CardSample &s = card.sample;
    s.index = info.index;
    s.utilizationPercent = row.number("utilization.gpu");
    s.memoryUsedBytes = row.mebibytes("memory.used");
    s.memoryTotalBytes = info.memoryTotalBytes;
    s.temperatureCelsius = row.number("temperature.gpu");
    s.memoryTemperatureCelsius = row.number("temperature.memory");
    s.powerWatts = firstOf(row.number("power.draw"), row.number("power.draw.instant"));
    s.powerLimitWatts = firstOf(row.number("enforced.power.limit"), row.number("power.limit"));
    s.smClockMhz = toUint32(firstOf(row.number("clocks.current.sm"), row.number("clocks.sm")));
    s.memoryClockMhz =
        toUint32(firstOf(row.number("clocks.current.memory"), row.number("clocks.mem")));
    s.eccCorrectedVolatile = toCount(row.number("ecc.errors.corrected.volatile.total"));
    s.eccUncorrectedVolatile = toCount(row.number("ecc.errors.uncorrected.volatile.total"));
    s.throttleReasons = throttleReasons(block, row);
    return card;
}

}  // namespace

Result<ParsedCards> parseNvidiaSmiCsv(std::string_view text)
{
    if (Status status = checkToolOutput(text); !status)
        return status.error();
    const std::vector<std::string_view> lines = splitLines(text);
    const std::vector<CsvBlock> blocks = findBlocks(lines);
    if (blocks.empty()) {
        return Error{
            "no nvidia-smi --query-gpu CSV header found (a line naming index or uuid "
            "and utilization.gpu, memory.used or temperature.gpu)"};
    }
    const CsvBlock &block = blocks.back();
    if (block.rows.size() > kMaxCardsPerNode) {
        return lineError(block.headerLine, fmt::format("{} GPU rows; a node has at most {}",
                                                       block.rows.size(), kMaxCardsPerNode));
    }
    ParsedCards cards;
    for (const auto &[lineNumber, line] : block.rows) {
        auto card = parseRow(block, lineNumber, line, cards.size());
        if (!card)
            return card.error();
        cards.push_back(std::move(card).value());
    }
    return cards;
}

}  // namespace meridian

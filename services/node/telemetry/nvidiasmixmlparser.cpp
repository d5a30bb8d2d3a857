// nvidia-smi -q -x. Element names changed across driver generations (power_readings →
// gpu_power_readings, clocks_throttle_reasons → clocks_event_reasons, single/double-bit
// ECC → sram/dram), so each reading looks in every place a driver has put it.
#include <fmt/format.h>

#include <algorithm>
#include <pugixml.hpp>
#include <string>

#include "cardparsers.h"
#include "core/cardcatalog.h"
#include "core/textutil.h"
#include "nvidiathrottle.h"
#include "parseinput.h"

namespace meridian {

namespace {

std::string_view textAt(const pugi::xml_node &node, const char *path)
{
    return node.first_element_by_path(path).child_value();
}

std::optional<double> numberAt(const pugi::xml_node &node, const char *path, std::string_view unit)
{
    const pugi::xml_node element = node.first_element_by_path(path);
    if (!element)
        return std::nullopt;
    return parseNumber(element.child_value(), unit);
}

std::optional<double> firstNumber(const pugi::xml_node &node,
                                  std::initializer_list<const char *> paths, std::string_view unit)
{
    for (const char *path : paths) {
        if (auto value = numberAt(node, path, unit))
            return value;
    }
    return std::nullopt;
}

std::optional<uint64_t> sumCounts(const pugi::xml_node &node,
                                  std::initializer_list<const char *> paths)
{
    std::optional<uint64_t> total;
    for (const char *path : paths) {
        if (auto value = parseUnsigned(textAt(node, path))) {
            // A counter saturates; it never wraps to a small, innocent number.
            const uint64_t sum = total.value_or(0);
            total = *value > UINT64_MAX - sum ? UINT64_MAX : sum + *value;
        }
    }
    return total;
}

std::optional<std::vector<ThrottleReason>> throttleReasons(const pugi::xml_node &gpu)
{
    pugi::xml_node reasons = gpu.child("clocks_event_reasons");
    if (!reasons)
        reasons = gpu.child("clocks_throttle_reasons");
    if (!reasons)
        return std::nullopt;
    NvidiaThrottleReasons result;
    for (const pugi::xml_node &child : reasons.children())
        result.add(child.name(), child.child_value());
    return result.result();
}

std::optional<uint64_t> mebibytesAt(const pugi::xml_node &node, const char *path)
{
    return parseMemoryBytes(textAt(node, path));
}

size_t lineOfOffset(std::string_view text, ptrdiff_t offset)
{
    offset = std::clamp<ptrdiff_t>(offset, 0, static_cast<ptrdiff_t>(text.size()));
    return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

ParsedCard parseGpu(const pugi::xml_node &gpu, std::string_view driverVersion, size_t position)
{
    ParsedCard card;
    CardInfo &info = card.info;
    const auto minor = parseUnsigned(textAt(gpu, "minor_number"));
    info.index = minor ? static_cast<uint32_t>(*minor) : static_cast<uint32_t>(position);
    info.vendor = Vendor::Nvidia;
    info.model = canonicalCardModel(textAt(gpu, "product_name"));
    info.uuid = std::string(trim(textAt(gpu, "uuid")));
    info.pciBusId = std::string(trim(textAt(gpu, "pci/pci_bus_id")));
    if (info.pciBusId.empty())
        info.pciBusId = gpu.attribute("id").value();
    if (!isNotAvailable(textAt(gpu, "serial")))
        info.serial = std::string(trim(textAt(gpu, "serial")));
    info.driverVersion = std::string(driverVersion);
    info.memoryTotalBytes = mebibytesAt(gpu, "fb_memory_usage/total");
    if (const auto facts = lookupCardModel(info.model))
        info.peakFp16Tflops = facts->peakFp16Tflops;
    const std::string_view mig = trim(textAt(gpu, "mig_mode/current_mig"));
    if (mig == "Enabled" || mig == "Disabled")
        info.migEnabled = mig == "Enabled";

    CardSample &s = card.sample;
    s.index = info.index;
    s.utilizationPercent = numberAt(gpu, "utilization/gpu_util", "%");
    s.memoryUsedBytes = mebibytesAt(gpu, "fb_memory_usage/used");
    s.memoryTotalBytes = info.memoryTotalBytes;
    s.temperatureCelsius = numberAt(gpu, "temperature/gpu_temp", "C");
    s.memoryTemperatureCelsius = numberAt(gpu, "temperature/memory_temp", "C");
    s.powerWatts =
        firstNumber(gpu,
                    {"gpu_power_readings/power_draw", "gpu_power_readings/instant_power_draw",
                     "gpu_power_readings/average_power_draw", "power_readings/power_draw"},
                    "W");
    s.powerLimitWatts =
        firstNumber(gpu,
                    {"gpu_power_readings/current_power_limit",
                     "power_readings/enforced_power_limit", "power_readings/power_limit"},
                    "W");
    if (auto sm = numberAt(gpu, "clocks/sm_clock", "MHz"))
        s.smClockMhz = static_cast<uint32_t>(std::max(0.0, *sm));
    if (auto mem = numberAt(gpu, "clocks/mem_clock", "MHz"))
        s.memoryClockMhz = static_cast<uint32_t>(std::max(0.0, *mem));
    s.eccCorrectedVolatile = sumCounts(
        gpu, {"ecc_errors/volatile/sram_correctable", "ecc_errors/volatile/dram_correctable",
              "ecc_errors/volatile/single_bit/total"});
    s.eccUncorrectedVolatile = sumCounts(
        gpu, {"ecc_errors/volatile/sram_uncorrectable", "ecc_errors/volatile/dram_uncorrectable",
              "ecc_errors/volatile/double_bit/total"});
    s.throttleReasons = throttleReasons(gpu);
    return card;
}

}  // namespace

Result<ParsedCards> parseNvidiaSmiXml(std::string_view text)
{
    if (Status status = checkToolOutput(text); !status)
        return status.error();
    if (Status status = checkXmlShape(text); !status)
        return status.error();
    pugi::xml_document document;
    // No DOCTYPE/entity expansion: pugixml never fetches or expands external entities.
    const pugi::xml_parse_result parsed =
        document.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!parsed) {
        return lineError(lineOfOffset(text, parsed.offset),
                         fmt::format("not valid nvidia-smi XML: {}", parsed.description()));
    }
    const pugi::xml_node log = document.child("nvidia_smi_log");
    if (!log)
        return Error{"no <nvidia_smi_log> element: not the output of nvidia-smi -q -x"};
    const std::string_view driver = trim(log.child_value("driver_version"));
    ParsedCards cards;
    for (const pugi::xml_node &gpu : log.children("gpu")) {
        if (cards.size() >= kMaxCardsPerNode) {
            return Error{fmt::format("more than {} <gpu> elements; a node has at most that many",
                                     kMaxCardsPerNode)};
        }
        cards.push_back(parseGpu(gpu, driver, cards.size()));
    }
    return cards;
}

}  // namespace meridian

#include "topoparser.h"

#include <fmt/format.h>

#include "core/textutil.h"
#include "parseinput.h"

namespace meridian {

namespace {

bool isDeviceName(std::string_view word)
{
    for (std::string_view prefix : {"GPU", "NIC", "mlx5_", "hns_"}) {
        if (startsWith(word, prefix) && word.size() > prefix.size() &&
            parseUnsigned(word.substr(prefix.size())))
            return true;
    }
    return false;
}

// Lower is nearer. NV# (NVLink) only joins GPUs, never a GPU and a NIC.
int distance(std::string_view link)
{
    if (link == "PIX")
        return 1;
    if (link == "PXB")
        return 2;
    if (link == "PHB")
        return 3;
    if (link == "NODE")
        return 4;
    return 5;  // SYS and anything unknown
}

}  // namespace

Result<PcieTopology> parseNvidiaSmiTopo(std::string_view input)
{
    if (Status status = checkToolOutput(input); !status)
        return status.error();
    const std::string text = stripAnsi(input);  // newer drivers underline the header
    const auto lines = splitLines(text);
    PcieTopology topology;
    size_t headerLine = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (contains(lines[i], "GPU0") && contains(lines[i], "CPU Affinity")) {
            headerLine = i + 1;
            for (std::string_view word : splitWhitespace(lines[i])) {
                if (isDeviceName(word))
                    topology.devices.emplace_back(word);
            }
            break;
        }
    }
    if (headerLine == 0)
        return Error{
            "no nvidia-smi topo -m matrix found (expected a header with GPU0 and CPU Affinity)"};
    for (size_t i = headerLine; i < lines.size(); ++i) {
        const auto words = splitWhitespace(lines[i]);
        if (words.empty())
            break;  // the matrix ends at the first blank line
        if (!isDeviceName(words[0]))
            return lineError(i + 1,
                             fmt::format("expected a GPU or NIC row, got '{}'", trim(lines[i])));
        if (words.size() < topology.devices.size() + 1) {
            return lineError(i + 1,
                             fmt::format("{} has {} entries; the header names {} devices", words[0],
                                         words.size() - 1, topology.devices.size()));
        }
        auto &row = topology.link[std::string(words[0])];
        for (size_t c = 0; c < topology.devices.size(); ++c)
            row[topology.devices[c]] = std::string(words[c + 1]);
    }
    for (size_t i = headerLine; i < lines.size(); ++i) {
        // "  NIC0: mlx5_0"
        const std::string_view line = trim(lines[i]);
        const size_t colon = line.find(':');
        if (startsWith(line, "NIC") && colon != std::string_view::npos &&
            isDeviceName(line.substr(0, colon)))
            topology.nicNames[std::string(line.substr(0, colon))] =
                std::string(trim(line.substr(colon + 1)));
    }
    return topology;
}

std::map<std::string, uint32_t> nearestGpuPerNic(const PcieTopology &topology)
{
    std::map<std::string, uint32_t> nearest;
    for (const auto &[row, links] : topology.link) {
        if (startsWith(row, "GPU"))
            continue;
        int best = 5;
        std::optional<uint32_t> bestGpu;
        for (const auto &[column, link] : links) {
            if (!startsWith(column, "GPU"))
                continue;
            const int d = distance(link);
            const auto index = static_cast<uint32_t>(*parseUnsigned(column.substr(3)));
            if (d < best || (d == best && bestGpu && index < *bestGpu)) {
                best = d;
                bestGpu = index;
            }
        }
        if (!bestGpu)
            continue;
        const auto legend = topology.nicNames.find(row);
        nearest[legend != topology.nicNames.end() ? legend->second : row] = *bestGpu;
    }
    return nearest;
}

}  // namespace meridian

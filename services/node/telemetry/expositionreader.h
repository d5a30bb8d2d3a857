// Reads a scrape in the Prometheus text format (and OpenMetrics, which differs only in
// what a reader may ignore here): every sample with its labels and value. Comments and
// TYPE/HELP lines are skipped; NaN and ±Inf are values; a timestamp after the value is
// accepted and dropped. A line that is not a sample is an error naming the source and
// line, so a replica that answers /metrics with an HTML page is reported, not guessed.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace meridian {

struct ExpositionSample {
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels;
    double value = 0;

    // The label's value, or empty when the sample has no such label.
    std::string_view label(std::string_view key) const;
};

Result<std::vector<ExpositionSample>> readExposition(std::string_view text,
                                                     std::string_view source);

}  // namespace meridian

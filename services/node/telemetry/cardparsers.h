// Parsers for the accelerator vendors' command-line tools. Each takes the tool's whole
// output and returns one ParsedCard per card, or an error naming the line. Values
// the tool printed as N/A (in any spelling) stay absent.
#pragma once

#include <string_view>
#include <vector>

#include "core/cardtypes.h"
#include "core/result.h"

namespace meridian {

using ParsedCards = std::vector<ParsedCard>;

// `nvidia-smi --query-gpu=... --format=csv` (with header, units or nounits). Also finds
// the query block inside a longer capture; when several blocks are present the last
// (most recent) one wins.
Result<ParsedCards> parseNvidiaSmiCsv(std::string_view text);

// `nvidia-smi -q -x`, DTD v11 and v12.
Result<ParsedCards> parseNvidiaSmiXml(std::string_view text);

// `npu-smi info` (Ascend 910B/910C; one card per chip).
Result<ParsedCards> parseNpuSmi(std::string_view text);

// `cnmon` default table (Cambricon MLU).
Result<ParsedCards> parseCnmon(std::string_view text);

// `hy-smi` default table (Hygon DCU).
Result<ParsedCards> parseHySmi(std::string_view text);

// The nvidia-smi query this collector runs; the CSV parser understands its header.
extern const char *const kNvidiaSmiQueryFields;

}  // namespace meridian

// Runs a vendor tool with a time limit and an output cap, without a shell. A tool that
// hangs (a wedged driver makes nvidia-smi hang) is killed, never waited on forever.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct ToolRun {
    std::vector<std::string> argv;
    int timeoutMs = 5000;
    size_t maxOutputBytes = 16 * 1024 * 1024;
    // Given to the tool on stdin (at most 60 KB, so it fits a pipe and the write never
    // waits on the tool); empty: stdin is /dev/null.
    std::string input;
};

Result<std::string> runTool(const ToolRun &run);

// The first executable `program` on PATH, as a path; nothing where there is none.
std::optional<std::string> findOnPath(const std::string &program);
// Whether `program` is an executable on PATH.
bool toolOnPath(const std::string &program);

}  // namespace meridian

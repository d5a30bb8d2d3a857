// Replacing a small file so that a crash or a power cut leaves either the old contents or
// the new, never an empty or half-written file: written beside it, flushed to the disk
// (fsync), renamed over it, and the folder flushed so the rename itself survives.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace meridian {

// An error names the file and what failed.
Status writeFileDurably(const std::string &path, std::string_view contents);

}  // namespace meridian

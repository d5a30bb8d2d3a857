// Reading a whole file that a person or a tool wrote, never more than a cap. The cap
// is checked while reading, not from the size the file claims, so /dev/zero, a FIFO or
// a file that grows under us cannot make us hold more than maxBytes.
#pragma once

#include <string>

#include "core/result.h"

namespace meridian {

// The whole file, or an error naming it; refuses files over maxBytes.
Result<std::string> readTextFile(const std::string &path, size_t maxBytes = 64 * 1024 * 1024);

}  // namespace meridian

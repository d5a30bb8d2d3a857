// Reading a whole file that a person or a tool wrote, never more than a cap. The cap
// is checked while reading, not from the size the file claims, so /dev/zero, a FIFO or
// a file that grows under us cannot make us hold more than maxBytes.
#pragma once

#include <string>

#include "core/result.h"

namespace meridian {

// The whole file, or an error naming it; refuses files over maxBytes.
Result<std::string> readTextFile(const std::string &path, size_t maxBytes = 64 * 1024 * 1024);

// A file opened for reading, only if it is a regular file: never a FIFO it would wait on
// or a device that never ends. Its descriptor (the caller closes it) and its size, or an
// error naming the file. What readTextFile and LineReader open files with.
struct OpenedFile {
    int fd = -1;
    size_t size = 0;
};
Result<OpenedFile> openRegularFile(const std::string &path);

}  // namespace meridian

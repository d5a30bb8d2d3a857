#include "textfile.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace meridian {

namespace {

// Closes the descriptor on every return path.
struct FileDescriptor {
    int fd = -1;
    ~FileDescriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

}  // namespace

Result<OpenedFile> openRegularFile(const std::string &path)
{
    // O_NONBLOCK so opening a FIFO with no writer does not wait forever.
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (file.fd < 0)
        return Error{fmt::format("{}: cannot open: {}", path, std::strerror(errno))};
    struct stat info {};
    if (::fstat(file.fd, &info) != 0)
        return Error{fmt::format("{}: cannot read: {}", path, std::strerror(errno))};
    if (S_ISDIR(info.st_mode))
        return Error{fmt::format("{}: is a directory, not a file", path)};
    if (!S_ISREG(info.st_mode))
        return Error{fmt::format("{}: not a regular file", path)};
    const OpenedFile opened{file.fd, static_cast<size_t>(info.st_size)};
    file.fd = -1;  // the caller's now
    return opened;
}

Result<std::string> readTextFile(const std::string &path, size_t maxBytes)
{
    auto opened = openRegularFile(path);
    if (!opened)
        return opened.error();
    FileDescriptor file{opened->fd};
    if (opened->size > maxBytes)
        return Error{fmt::format("{}: {} bytes is more than the {} this reads", path, opened->size,
                                 maxBytes)};
    std::string text;
    text.reserve(opened->size);
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(file.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error{fmt::format("{}: read failed: {}", path, std::strerror(errno))};
        if (n == 0)
            return text;
        if (text.size() + static_cast<size_t>(n) > maxBytes)
            return Error{fmt::format("{}: more than the {} bytes this reads", path, maxBytes)};
        text.append(buffer, static_cast<size_t>(n));
    }
}

}  // namespace meridian

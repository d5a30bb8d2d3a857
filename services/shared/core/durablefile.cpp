#include "durablefile.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace meridian {

namespace {

Status failed(const std::string &path, const char *what)
{
    return Error{fmt::format("{}: cannot {}: {}", path, what, std::strerror(errno))};
}

}  // namespace

Status writeFileDurably(const std::string &path, std::string_view contents)
{
    const std::string temporary = path + ".new";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
    if (fd < 0)
        return failed(temporary, "create");
    size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const Status problem = failed(temporary, "write");
            ::close(fd);
            ::unlink(temporary.c_str());
            return problem;
        }
        written += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) {
        const Status problem = failed(temporary, "flush to disk");
        ::close(fd);
        ::unlink(temporary.c_str());
        return problem;
    }
    ::close(fd);
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const Status problem = failed(path, "replace");
        ::unlink(temporary.c_str());
        return problem;
    }
    std::string folder = std::filesystem::path(path).parent_path().string();
    if (folder.empty())
        folder = ".";
    const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return failed(folder, "open the folder to flush it");
    const int synced = ::fsync(dir);
    ::close(dir);
    if (synced != 0)
        return failed(folder, "flush the folder");
    return {};
}

}  // namespace meridian

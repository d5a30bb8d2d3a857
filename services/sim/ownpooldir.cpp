#include "ownpooldir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

namespace meridian {

namespace fs = std::filesystem;

namespace {

// Whether a living fleet holds the folder's lock; a lock file that cannot be opened (not
// ours to judge) counts as held.
bool lockHeld(const fs::path &lockFile)
{
    const int fd = ::open(lockFile.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return true;
    const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    ::close(fd);  // closing lets go of the lock taken just now
    return held;
}

}  // namespace

int removeOrphanPoolDirs(const std::string &parent)
{
    int removed = 0;
    std::error_code error;
    for (const fs::directory_entry &entry : fs::directory_iterator(parent, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(OwnPoolDir::kPrefix, 0) != 0 || !entry.is_directory(error) ||
            entry.is_symlink(error))
            continue;
        const fs::path lockFile = entry.path() / OwnPoolDir::kLockFile;
        if (fs::exists(lockFile, error)) {
            if (lockHeld(lockFile))
                continue;
        } else {
            const auto age = fs::file_time_type::clock::now() - fs::last_write_time(entry, error);
            if (error || age < std::chrono::minutes(1))
                continue;
        }
        std::error_code ignored;
        if (fs::remove_all(entry.path(), ignored) > 0)
            ++removed;
    }
    return removed;
}

Result<OwnPoolDir> OwnPoolDir::make()
{
    const std::string parent = fs::temp_directory_path().string();
    removeOrphanPoolDirs(parent);
    std::string pattern = (fs::path(parent) / (std::string(kPrefix) + "XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        return Error{fmt::format("cannot make a folder for the cloud pool's books in {}: {}",
                                 parent, std::strerror(errno))};
    OwnPoolDir dir;
    dir.m_path = pattern;
    // Locked under another name, then renamed: a simulator sweeping at this moment never
    // sees an owner.lock that nobody holds yet (the lock stays with the file).
    const std::string lockFile = (fs::path(pattern) / kLockFile).string();
    const std::string unnamed = lockFile + ".new";
    dir.m_lockFd = ::open(unnamed.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (dir.m_lockFd < 0 || ::flock(dir.m_lockFd, LOCK_EX | LOCK_NB) != 0 ||
        ::rename(unnamed.c_str(), lockFile.c_str()) != 0)
        return Error{fmt::format("cannot lock {}: {}", lockFile, std::strerror(errno))};
    return dir;
}

OwnPoolDir::~OwnPoolDir()
{
    release();
}

OwnPoolDir::OwnPoolDir(OwnPoolDir &&other) noexcept
    : m_path(std::exchange(other.m_path, {})), m_lockFd(std::exchange(other.m_lockFd, -1))
{}

OwnPoolDir &OwnPoolDir::operator=(OwnPoolDir &&other) noexcept
{
    if (this != &other) {
        release();
        m_path = std::exchange(other.m_path, {});
        m_lockFd = std::exchange(other.m_lockFd, -1);
    }
    return *this;
}

void OwnPoolDir::release()
{
    if (!m_path.empty()) {
        std::error_code ignored;
        fs::remove_all(m_path, ignored);
    }
    if (m_lockFd >= 0)
        ::close(m_lockFd);
    m_path.clear();
    m_lockFd = -1;
}

}  // namespace meridian

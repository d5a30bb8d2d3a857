// The temporary folder a simulated fleet keeps its cloud pool's books in, when it was
// given none: made under the system's temporary folder, held by a lock (flock) while the
// fleet lives, removed when it ends. A fleet killed with kill -9 cannot remove its own,
// so each new one first removes those whose lock nobody holds.
#pragma once

#include <string>

#include "core/result.h"

namespace meridian {

class OwnPoolDir {
public:
    static Result<OwnPoolDir> make();
    OwnPoolDir() = default;
    ~OwnPoolDir();
    OwnPoolDir(OwnPoolDir &&other) noexcept;
    OwnPoolDir &operator=(OwnPoolDir &&other) noexcept;
    OwnPoolDir(const OwnPoolDir &) = delete;
    OwnPoolDir &operator=(const OwnPoolDir &) = delete;

    const std::string &path() const { return m_path; }

    // The name pattern's prefix, and the lock file inside each folder.
    static constexpr const char *kPrefix = "meridian-sim-pool-";
    static constexpr const char *kLockFile = "owner.lock";

private:
    void release();

    std::string m_path;
    int m_lockFd = -1;
};

// Removes the folders under `parent` named kPrefix… whose lock file nobody holds: left by
// a fleet that was killed. One without a lock file is removed once it is a minute old (a
// fleet that has just made its folder takes its lock at once). How many went.
int removeOrphanPoolDirs(const std::string &parent);

}  // namespace meridian

#include "userdirs.h"

#include <cstdlib>
#include <filesystem>

namespace meridian {

std::string userFile(UserDir dir, const std::string &name)
{
    const bool data = dir == UserDir::Data;
    std::filesystem::path base;
    if (const char *xdg = std::getenv(data ? "XDG_DATA_HOME" : "XDG_CONFIG_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char *home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / (data ? ".local/share" : ".config");
    else
        base = ".";
    return (base / "meridian" / name).string();
}

}  // namespace meridian

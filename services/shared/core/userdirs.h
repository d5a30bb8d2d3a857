// Where a user's own Meridian files go, by the XDG base-directory rules: data under
// $XDG_DATA_HOME (else ~/.local/share), settings under $XDG_CONFIG_HOME (else ~/.config),
// each in a "meridian" folder; the working directory when there is no home at all.
#pragma once

#include <string>

namespace meridian {

enum class UserDir { Data, Config };

std::string userFile(UserDir dir, const std::string &name);

}  // namespace meridian

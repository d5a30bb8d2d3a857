// A command's answer written where it was asked: to a file, or to standard output.
#pragma once

#include <string>

namespace meridian {

// `output` empty: standard output. False where it could not be written whole.
bool writeTextTo(const std::string &text, const std::string &output);

}  // namespace meridian

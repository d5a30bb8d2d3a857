// One field of a CSV row as RFC 4180 writes it: quoted, with its quotes doubled, when it
// holds a comma, a quote or a line break; as it is otherwise.
#pragma once

#include <string>

namespace meridian {

std::string csvField(const std::string &text);

}  // namespace meridian

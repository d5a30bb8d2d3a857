#include "textoutput.h"

#include <cstdio>

namespace meridian {

bool writeTextTo(const std::string &text, const std::string &output)
{
    if (output.empty())
        return std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    std::FILE *file = std::fopen(output.c_str(), "w");
    if (!file)
        return false;
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    return std::fclose(file) == 0 && written;
}

}  // namespace meridian

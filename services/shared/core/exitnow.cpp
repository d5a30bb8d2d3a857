#include "exitnow.h"

#include <cstdlib>

#ifdef MERIDIAN_COVERAGE
extern "C" void __gcov_dump();
#endif

namespace meridian {

void exitNow(int code)
{
#ifdef MERIDIAN_COVERAGE
    __gcov_dump();
#endif
    std::_Exit(code);
}

}  // namespace meridian

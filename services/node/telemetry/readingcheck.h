// Readings no card can produce, from a broken tool or a garbled line: utilisation of
// -50 %, -273 °C, -1e300 W, more memory used than there is. Each becomes "no reading"
// with a problem line naming the card, the field and the value, so a bad tool shows up
// instead of being averaged into the fleet.
#pragma once

#include <string>
#include <vector>

#include "core/cardtypes.h"

namespace meridian {

// Clears every impossible reading of `sample`; returns one line per reading cleared.
std::vector<std::string> dropImpossibleReadings(CardSample &sample);

}  // namespace meridian

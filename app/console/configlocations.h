// Which configuration file is in force, for each the console reads: the price book and
// the inference services file (the one named on the command line, else the user's edited
// copy, else the one installed with Meridian, else, in a build tree, the source copy in
// resources/), and the alert routing file (the one named, else the user's).
#pragma once

#include <string>

namespace meridian {

std::string priceBookInForce(const std::string &named = {});
std::string servicesInForce(const std::string &named = {});
std::string userServicesPath();
// Where alerts go (docs/alerting.md): the one named, else the user's config directory's.
std::string alertRoutingInForce(const std::string &named = {});

}  // namespace meridian

// Places as people read them, in their language: the data centers by the names people use
// for them. Qt Core only, so that the headless watcher words its pages the same way.
#pragma once

#include <QString>
#include <string>

namespace meridian {

QString dataCenterTitle(const std::string &name);

}  // namespace meridian

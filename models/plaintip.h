// A tooltip that shows text from another process (a watcher, an Alertmanager, an agent, a
// receiver's error) as its characters. Qt draws a tooltip as rich text whenever it looks
// like markup, so "<b>" or an <img> in someone's reason or name would be drawn, or fetched.
#pragma once

#include <QString>

namespace meridian {

QString plainTip(const QString &text);
QString plainTip(const std::string &text);

}  // namespace meridian

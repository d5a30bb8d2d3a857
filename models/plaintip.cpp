#include "plaintip.h"

namespace meridian {

QString plainTip(const QString &text)
{
    if (text.isEmpty())
        return {};
    // Rich text on purpose, whose every character is escaped: drawn as written, line
    // breaks and spaces kept.
    return QStringLiteral("<p style='white-space:pre-wrap'>") + text.toHtmlEscaped() +
           QStringLiteral("</p>");
}

QString plainTip(const std::string &text)
{
    return plainTip(QString::fromStdString(text));
}

}  // namespace meridian

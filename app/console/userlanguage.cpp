#include "userlanguage.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>

namespace meridian {

UserLanguage::UserLanguage()
{
    if (m_qtStrings.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                         QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&m_qtStrings);
    if (m_ours.load(QLocale(), QStringLiteral("meridian"), QStringLiteral("_"),
                    QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&m_ours);
}

}  // namespace meridian

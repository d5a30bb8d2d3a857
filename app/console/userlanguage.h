// The user's language (Simplified Chinese or English) for Meridian's strings and Qt's own,
// chosen by the system locale: the window and the report a cron job prints speak alike.
#pragma once

#include <QTranslator>

namespace meridian {

class UserLanguage {
public:
    // Installs the translators on the running application; they stay until destruction.
    UserLanguage();

private:
    QTranslator m_qtStrings;
    QTranslator m_ours;
};

}  // namespace meridian

// Where the Reports window reads from and where its price book editor writes.
#pragma once

#include <QString>

namespace meridian {

struct ReportSources {
    QString historyFile;        // the console's history; empty: reports are unavailable
    QString priceBookFile;      // the book in force
    QString userPriceBookFile;  // where the editor saves
};

}  // namespace meridian

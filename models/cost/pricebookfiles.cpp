#include "pricebookfiles.h"

#include <QObject>

#include "cost/pricebookfile.h"

namespace meridian {

Result<PriceBook> loadPriceBookFile(const QString &file)
{
    if (file.isEmpty())
        return Error{QObject::tr("no price book: costs are not known").toStdString()};
    return PriceBook::load(file.toStdString());
}

Status savePriceBookFile(const QString &file, const PriceBook &book)
{
    return savePriceBook(file.toStdString(), book);
}

}  // namespace meridian

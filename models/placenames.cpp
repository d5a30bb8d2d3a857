#include "placenames.h"

#include <QCoreApplication>

namespace meridian {

QString dataCenterTitle(const std::string &name)
{
    // Our own three by the names people use for them, in their language.
    if (name == "xiamen")
        return QCoreApplication::translate("DataCenter", "Xiamen");
    if (name == "wuhu")
        return QCoreApplication::translate("DataCenter", "Wuhu");
    if (name == "zhongwei")
        return QCoreApplication::translate("DataCenter", "Zhongwei");
    // Inventories name data centers as identifiers ("xiamen"); people read "Xiamen".
    QString title = QString::fromStdString(name);
    if (!title.isEmpty() && title == title.toLower())
        title[0] = title[0].toUpper();
    return title;
}

}  // namespace meridian

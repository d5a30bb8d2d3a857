#include "fabriclegend.h"

#include <QPainter>

#include "fabricview.h"

namespace meridian {

namespace {

struct Entry {
    QPen pen;       // a line sample, or
    QString badge;  // a badge letter
    QColor badgeColour;
    QString text;
};

QPen loadPen(double share)
{
    QPen pen(fabricLoadColour(share), 2);
    pen.setCosmetic(true);
    return pen;
}

std::vector<Entry> entries()
{
    return {
        {loadPen(0.1), {}, {}, FabricLegend::tr("load < 50%")},
        {loadPen(0.7), {}, {}, FabricLegend::tr("load 50–90%")},
        {loadPen(0.95), {}, {}, FabricLegend::tr("load > 90%")},
        {loadPen(-1), {}, {}, FabricLegend::tr("load unknown")},
        {fabricTroublePen(LinkHealth::Down, false), {}, {}, FabricLegend::tr("down")},
        {fabricTroublePen(LinkHealth::Flapping, false), {}, {}, FabricLegend::tr("flapping")},
        {fabricTroublePen(LinkHealth::Up, true), {}, {}, FabricLegend::tr("not heard lately")},
        {{},
         QStringLiteral("P"),
         QColor(239, 108, 0),
         FabricLegend::tr("PFC ≥ %1/s").arg(kFabricPfcBadgeAt)},
        {{},
         QStringLiteral("E"),
         QColor(21, 101, 192),
         FabricLegend::tr("ECN+CNP ≥ %1/s").arg(kFabricEcnBadgeAt)},
    };
}

constexpr int kColumns = 2;
constexpr int kSample = 26;  // the line or badge before each text

}  // namespace

FabricLegend::FabricLegend(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

int FabricLegend::entryCount() const
{
    return static_cast<int>(entries().size());
}

QSize FabricLegend::sizeHint() const
{
    const QFontMetrics metrics(font());
    int widest = 0;
    for (const Entry &e : entries())
        widest = std::max(widest, metrics.horizontalAdvance(e.text));
    const int rows = (entryCount() + kColumns - 1) / kColumns;
    return {kColumns * (kSample + 6 + widest + 8), rows * (metrics.height() + 2) + 4};
}

void FabricLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetrics metrics(font());
    const int line = metrics.height() + 2;
    const int columnWidth = width() / kColumns;
    const std::vector<Entry> all = entries();
    const int rows = (static_cast<int>(all.size()) + kColumns - 1) / kColumns;
    for (int i = 0; i < static_cast<int>(all.size()); ++i) {
        const Entry &e = all[static_cast<size_t>(i)];
        const int x = (i / rows) * columnWidth;
        const int y = 2 + (i % rows) * line;
        const int mid = y + line / 2;
        if (e.badge.isEmpty()) {
            p.setPen(e.pen);
            p.drawLine(x + 2, mid, x + kSample - 2, mid);
        } else {
            const QRect r(x + kSample / 2 - 6, mid - 6, 12, 12);
            p.fillRect(r, e.badgeColour);
            p.setPen(Qt::white);
            p.drawText(r, Qt::AlignCenter, e.badge);
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x + kSample + 6, y, columnWidth - kSample - 6, line), Qt::AlignVCenter,
                   metrics.elidedText(e.text, Qt::ElideRight, columnWidth - kSample - 6));
    }
}

}  // namespace meridian

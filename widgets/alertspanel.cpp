#include "alertspanel.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "models/alertcenter.h"

namespace meridian {

namespace {

// Open alerts only, when asked; sorting by the model's SortRole.
class AlertsFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setOpenOnly(bool openOnly)
    {
        m_openOnly = openOnly;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &) const override
    {
        if (!m_openOnly)
            return true;
        const auto *model = static_cast<const AlertsModel *>(sourceModel());
        const Alert *a = model->alertAt(row);
        return a && a->open(QDateTime::currentMSecsSinceEpoch());
    }

private:
    bool m_openOnly = false;
};

}  // namespace

AlertsPanel::AlertsPanel(AlertCenter &center, QWidget *parent) : QWidget(parent), m_center(center)
{
    auto *filter = new AlertsFilter(this);
    filter->setSourceModel(center.model());
    filter->setSortRole(AlertsModel::SortRole);
    filter->setDynamicSortFilter(true);
    m_sorted = filter;

    m_view = new QTableView(this);
    m_view->setModel(m_sorted);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(AlertsModel::LastSeen, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->setWordWrap(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);  // the note gets the rest
    m_view->setAlternatingRowColors(true);
    connect(m_view, &QTableView::doubleClicked, this, &AlertsPanel::jumpTo);

    auto *acknowledge = new QPushButton(tr("Acknowledge"), this);
    auto *silence1 = new QPushButton(tr("Silence 1 h"), this);
    auto *silence8 = new QPushButton(tr("Silence 8 h"), this);
    auto *note = new QPushButton(tr("Note…"), this);
    m_openOnly = new QCheckBox(tr("Open only"), this);
    connect(acknowledge, &QPushButton::clicked, this, &AlertsPanel::acknowledgeSelected);
    connect(silence1, &QPushButton::clicked, this, [this] { silenceSelected(1); });
    connect(silence8, &QPushButton::clicked, this, [this] { silenceSelected(8); });
    connect(note, &QPushButton::clicked, this, &AlertsPanel::noteSelected);
    connect(m_openOnly, &QCheckBox::toggled, this, [filter](bool on) { filter->setOpenOnly(on); });
    connect(&center, &AlertCenter::alertsChanged, this, [this, filter] {
        if (m_openOnly->isChecked())
            filter->setOpenOnly(true);  // open-ness changes with time, not only with rows
    });

    auto *buttons = new QHBoxLayout;
    for (QWidget *w : {static_cast<QWidget *>(acknowledge), static_cast<QWidget *>(silence1),
                       static_cast<QWidget *>(silence8), static_cast<QWidget *>(note)})
        buttons->addWidget(w);
    buttons->addStretch();
    buttons->addWidget(m_openOnly);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_view);
}

int AlertsPanel::minimumRowsHeight(int rows) const
{
    const int buttons = layout()->itemAt(0)->sizeHint().height() + layout()->spacing();
    const int header = m_view->horizontalHeader()->sizeHint().height();
    const int row = m_view->verticalHeader()->defaultSectionSize();
    return buttons + header + rows * row + 2 * m_view->frameWidth() +
           m_view->horizontalScrollBar()->sizeHint().height();
}

const Alert *AlertsPanel::selected() const
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return nullptr;
    return m_center.model()->alertAt(m_sorted->mapToSource(current).row());
}

void AlertsPanel::acknowledgeSelected()
{
    if (const Alert *a = selected())
        m_center.acknowledge(QString::fromStdString(a->key));
}

void AlertsPanel::silenceSelected(int hours)
{
    if (const Alert *a = selected())
        m_center.silence(QString::fromStdString(a->key),
                         QDateTime::currentMSecsSinceEpoch() + hours * 3600'000LL);
}

void AlertsPanel::noteSelected()
{
    const Alert *a = selected();
    if (!a)
        return;
    const QString key = QString::fromStdString(a->key);
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Note"), tr("Note for %1:").arg(QString::fromStdString(a->subject)),
        QLineEdit::Normal, QString::fromStdString(a->note), &ok);
    if (ok)
        m_center.setNote(key, text);
}

bool AlertsPanel::selectLinkAlert(const std::string &nodeId, const std::string &netdev)
{
    for (int row = 0; row < m_sorted->rowCount(); ++row) {
        const Alert *a =
            m_center.model()->alertAt(m_sorted->mapToSource(m_sorted->index(row, 0)).row());
        if (a && a->netdev == netdev && a->subject.rfind(nodeId + " ", 0) == 0) {
            m_view->selectRow(row);
            m_view->scrollTo(m_sorted->index(row, 0));
            return true;
        }
    }
    return false;
}

void AlertsPanel::jumpTo(const QModelIndex &index)
{
    const Alert *a = m_center.model()->alertAt(m_sorted->mapToSource(index).row());
    if (!a)
        return;
    if (a->node && !a->netdev.empty())
        Q_EMIT linkRequested(*a->node, QString::fromStdString(a->netdev));
    else if (a->card)
        Q_EMIT cardRequested(*a->card);
    else if (a->node)
        Q_EMIT nodeRequested(*a->node);
}

}  // namespace meridian

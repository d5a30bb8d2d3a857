#include "alertspanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "models/alerts/alertcenter.h"
#include "models/alerts/alertguidance.h"
#include "models/alerts/alertsmodel.h"
#include "models/alerts/silencesmodel.h"
#include "models/metricscale.h"
#include "silencedialog.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

// Open alerts only, when asked, at the center's time; sorting by the model's SortRole,
// within groups of one kind or one data center when asked.
class AlertsFilter final : public QSortFilterProxyModel {
public:
    AlertsFilter(const AlertCenter &center, QObject *parent)
        : QSortFilterProxyModel(parent), m_center(center)
    {}
    void setOpenOnly(bool openOnly)
    {
        m_openOnly = openOnly;
        invalidateFilter();
    }
    void setGrouping(AlertsPanel::Grouping grouping)
    {
        m_grouping = grouping;
        invalidate();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &) const override
    {
        if (!m_openOnly)
            return true;
        const auto *model = static_cast<const AlertsModel *>(sourceModel());
        const Alert *a = model->alertAt(row);
        return a && a->open(m_center.nowMs());
    }

    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        const auto *model = static_cast<const AlertsModel *>(sourceModel());
        const Alert *a = model->alertAt(left.row());
        const Alert *b = model->alertAt(right.row());
        if (a && b && m_grouping != AlertsPanel::Grouping::None) {
            const QString groupA = groupOf(*a);
            const QString groupB = groupOf(*b);
            if (groupA != groupB) {
                // Groups in the order of their names, whichever way the rows are sorted.
                const bool less = QString::localeAwareCompare(groupA, groupB) < 0;
                return sortOrder() == Qt::AscendingOrder ? less : !less;
            }
        }
        return QSortFilterProxyModel::lessThan(left, right);
    }

private:
    QString groupOf(const Alert &a) const
    {
        return m_grouping == AlertsPanel::Grouping::Kind ? alertTitle(a)
                                                         : dataCenterTitle(a.dataCenter);
    }

    const AlertCenter &m_center;
    bool m_openOnly = false;
    AlertsPanel::Grouping m_grouping = AlertsPanel::Grouping::None;
};

}  // namespace

AlertsPanel::AlertsPanel(AlertCenter &center, QWidget *parent) : QWidget(parent), m_center(center)
{
    auto *filter = new AlertsFilter(center, this);
    m_model = new AlertsModel(center, this);
    filter->setSourceModel(m_model);
    filter->setSortRole(AlertsModel::SortRole);
    filter->setDynamicSortFilter(true);
    m_sorted = filter;

    buildTable();

    auto *acknowledge = new QPushButton(tr("Acknowledge"), this);
    auto *silence = new QPushButton(tr("Silence…"), this);
    silence->setToolTip(
        tr("Silence this alert, its kind on its node or in its data center, "
           "or everything there, for a while"));
    m_silences = new QPushButton(this);
    m_silences->setToolTip(
        tr("Silences in force, shared by every console on this history "
           "file; lift one here"));
    auto *note = new QPushButton(tr("Note…"), this);
    m_openOnly = new QCheckBox(tr("Open only"), this);
    m_grouping = new QComboBox(this);
    m_grouping->setObjectName(QStringLiteral("alertGrouping"));
    m_grouping->addItem(tr("Not grouped"), static_cast<int>(Grouping::None));
    m_grouping->addItem(tr("Grouped by kind"), static_cast<int>(Grouping::Kind));
    m_grouping->addItem(tr("Grouped by data center"), static_cast<int>(Grouping::DataCenter));
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this, filter] {
        const auto grouping = static_cast<Grouping>(m_grouping->currentData().toInt());
        filter->setGrouping(grouping);
        QSettings().setValue(QStringLiteral("alerts/grouping"), static_cast<int>(grouping));
    });
    m_grouping->setCurrentIndex(std::max(
        0, m_grouping->findData(QSettings().value(QStringLiteral("alerts/grouping"), 0).toInt())));
    connect(acknowledge, &QPushButton::clicked, this, &AlertsPanel::acknowledgeSelected);
    connect(silence, &QPushButton::clicked, this, &AlertsPanel::silenceSelected);
    connect(m_silences, &QPushButton::clicked, this, &AlertsPanel::showSilences);
    connect(note, &QPushButton::clicked, this, &AlertsPanel::noteSelected);
    connect(m_openOnly, &QCheckBox::toggled, this, [filter](bool on) { filter->setOpenOnly(on); });
    connect(&center, &AlertCenter::alertsChanged, this, [this, filter] {
        if (m_openOnly->isChecked())
            filter->setOpenOnly(true);  // open-ness changes with time, not only with rows
        m_silences->setText(tr("Silences (%1)").arg(m_center.silences().size()));
    });
    m_silences->setText(tr("Silences (%1)").arg(0));

    auto *buttons = new QHBoxLayout;
    for (QWidget *w : {static_cast<QWidget *>(acknowledge), static_cast<QWidget *>(silence),
                       static_cast<QWidget *>(note), static_cast<QWidget *>(m_silences)})
        buttons->addWidget(w);
    buttons->addStretch();
    buttons->addWidget(m_grouping);
    buttons->addWidget(m_openOnly);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_view);
}

void AlertsPanel::buildTable()
{
    m_view = new QTableView(this);
    m_view->setModel(m_sorted);
    m_view->setSortingEnabled(true);
    // Severity first, then the newest occurrence: a row does not move as its count ticks.
    m_view->sortByColumn(AlertsModel::Severity, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->setWordWrap(false);
    // Fixed row heights and widths measured on a sample, never on every row: a watcher's
    // list of tens of thousands of alerts is merged without measuring each row's text.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // The next step is a sentence: it takes what the other columns leave, elided, whole
    // in the tooltip; so the list never needs a horizontal scroll bar, and shows a row more.
    m_view->horizontalHeader()->setSectionResizeMode(AlertsModel::NextStep, QHeaderView::Stretch);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setAlternatingRowColors(true);
    // A merge emits many changes: the columns are fitted once, after it.
    connect(m_sorted, &QAbstractItemModel::modelReset, this, &AlertsPanel::fitColumnsSoon);
    connect(m_sorted, &QAbstractItemModel::layoutChanged, this, &AlertsPanel::fitColumnsSoon);
    connect(m_sorted, &QAbstractItemModel::rowsInserted, this, &AlertsPanel::fitColumnsSoon);
    connect(m_sorted, &QAbstractItemModel::dataChanged, this, &AlertsPanel::fitColumnsSoon);
    connect(m_view, &QTableView::doubleClicked, this, &AlertsPanel::jumpTo);
}

int AlertsPanel::minimumRowsHeight(int rows) const
{
    const int buttons = layout()->itemAt(0)->sizeHint().height() + layout()->spacing();
    const int header = m_view->horizontalHeader()->sizeHint().height();
    const int row = m_view->verticalHeader()->defaultSectionSize();
    return buttons + header + rows * row + 2 * m_view->frameWidth();
}

const Alert *AlertsPanel::selected() const
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return nullptr;
    return m_model->alertAt(m_sorted->mapToSource(current).row());
}

void AlertsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitColumns();
}

void AlertsPanel::fitColumnsSoon()
{
    if (m_fitQueued)
        return;
    m_fitQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_fitQueued = false;
        fitColumns();
    });
}

int AlertsPanel::sampledWidth(int column) const
{
    // The header and the rows most likely seen (the first ones, sorted), each as wide as
    // its text in its own font (open alerts are bold) and the delegate's margins; a row
    // past the sample that is wider is elided, whole in its tooltip.
    constexpr int kSampledRows = 64;
    constexpr int kCellPadding = 10;  // the item delegate's margins on both sides, and a pixel
    const QFontMetrics plain = m_view->fontMetrics();
    int widest = m_view->horizontalHeader()->sectionSizeHint(column);
    const int rows = std::min(m_sorted->rowCount(), kSampledRows);
    for (int row = 0; row < rows; ++row) {
        const QModelIndex cell = m_sorted->index(row, column);
        const QVariant font = cell.data(Qt::FontRole);
        const QFontMetrics metrics = font.isValid() ? QFontMetrics(font.value<QFont>()) : plain;
        widest = std::max(widest, metrics.horizontalAdvance(cell.data().toString()) + kCellPadding);
    }
    return widest;
}

void AlertsPanel::fitColumns()
{
    // Shares of the list's width for free text; what it and the short columns leave (a
    // fifth at least, at 1366 px) is the next step's.
    constexpr std::pair<int, double> kShares[] = {{AlertsModel::What, 0.13},
                                                  {AlertsModel::Where, 0.08},
                                                  {AlertsModel::State, 0.09},
                                                  {AlertsModel::Note, 0.08}};
    QHeaderView *header = m_view->horizontalHeader();
    const int width = m_view->viewport()->width();
    for (int column = 0; column < AlertsModel::ColumnCount; ++column) {
        if (column == AlertsModel::NextStep)
            continue;
        int fitted = sampledWidth(column);
        for (const auto &[shared, share] : kShares) {
            if (shared == column)
                fitted = std::min(fitted, std::max(header->sectionSizeHint(column),
                                                   static_cast<int>(width * share)));
        }
        if (header->sectionSize(column) != fitted)
            header->resizeSection(column, fitted);
    }
}

void AlertsPanel::acknowledgeSelected()
{
    if (const Alert *a = selected())
        m_center.acknowledge(QString::fromStdString(a->key));
}

void AlertsPanel::silenceSelected()
{
    const Alert *a = selected();
    if (!a)
        return;
    SilenceDialog dialog(*a, m_center.nowMs(), this);
    if (dialog.exec() == QDialog::Accepted)
        m_center.silence(dialog.rule());
}

void AlertsPanel::showSilences()
{
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Silences"));
    auto *silences = new SilencesModel(dialog);
    auto *list = new QTableView(dialog);
    list->setModel(silences);
    list->horizontalHeader()->setStretchLastSection(true);
    list->verticalHeader()->hide();
    list->setSelectionBehavior(QAbstractItemView::SelectRows);
    list->setSelectionMode(QAbstractItemView::SingleSelection);
    list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    silences->setSilences(m_center.silences());
    list->resizeColumnsToContents();
    // Another console's silence, or one that ran out, shows while the list is open.
    connect(&m_center, &AlertCenter::alertsChanged, silences,
            [this, silences] { silences->setSilences(m_center.silences()); });
    auto *lift = new QPushButton(tr("Lift"), dialog);
    lift->setEnabled(false);
    connect(list->selectionModel(), &QItemSelectionModel::selectionChanged, lift,
            [list, lift] { lift->setEnabled(list->selectionModel()->hasSelection()); });
    connect(lift, &QPushButton::clicked, dialog, [this, list, silences] {
        const QModelIndexList rows = list->selectionModel()->selectedRows();
        if (rows.isEmpty())
            return;
        m_center.liftSilence(rows.front().data(SilencesModel::IdRole).toLongLong());
        silences->setSilences(m_center.silences());
    });
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(list);
    layout->addWidget(lift, 0, Qt::AlignRight);
    fitToScreen(dialog, QSize(760, 360));
    dialog->show();
}

void AlertsPanel::noteSelected()
{
    const Alert *a = selected();
    if (!a)
        return;
    const QString key = QString::fromStdString(a->key);
    bool ok = false;
    const QString text =
        QInputDialog::getText(this, tr("Note"), tr("Note for %1:").arg(alertWhere(*a)),
                              QLineEdit::Normal, QString::fromStdString(a->note), &ok);
    if (ok)
        m_center.setNote(key, text);
}

bool AlertsPanel::selectLinkAlert(const std::string &nodeId, const std::string &netdev)
{
    for (int row = 0; row < m_sorted->rowCount(); ++row) {
        const Alert *a = m_model->alertAt(m_sorted->mapToSource(m_sorted->index(row, 0)).row());
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
    const Alert *a = m_model->alertAt(m_sorted->mapToSource(index).row());
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

#include "faultresponsewindow.h"

#include <QComboBox>
#include <QDateEdit>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPageSize>
#include <QPdfWriter>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTextDocument>
#include <QTimeZone>
#include <QVBoxLayout>

#include "models/cost/faultresponsemodel.h"

namespace meridian {

namespace {

int64_t dayStartMs(const QDate &day)
{
    return QDateTime(day, QTime(0, 0), QTimeZone::utc()).toMSecsSinceEpoch();
}

}  // namespace

FaultResponseWindow::FaultResponseWindow(const QString &historyFile, const QDate &firstDay,
                                         const QDate &lastDay, QWidget *parent)
    : QWidget(parent, Qt::Window), m_historyFile(historyFile), m_model(new FaultResponseModel(this))
{
    setWindowTitle(tr("Fault response"));
    m_from = new QDateEdit(firstDay, this);
    m_to = new QDateEdit(lastDay, this);
    for (QDateEdit *edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    }
    m_grouping = new QComboBox(this);
    for (const ResponseGrouping g : {ResponseGrouping::Week, ResponseGrouping::DataCenter,
                                     ResponseGrouping::Kind, ResponseGrouping::Person})
        m_grouping->addItem(FaultResponseModel::groupingTitle(g), static_cast<int>(g));
    m_ackWithin = new QSpinBox(this);
    m_ackWithin->setRange(1, 24 * 60);
    m_ackWithin->setValue(15);
    m_ackWithin->setSuffix(tr(" min"));
    m_ackWithin->setToolTip(
        tr("The escalation time: an alert acknowledged within it counts "
           "as answered in time"));
    auto *refreshButton = new QPushButton(tr("Refresh"), this);
    auto *csv = new QPushButton(tr("Export CSV…"), this);
    auto *pdf = new QPushButton(tr("Export PDF…"), this);

    QHBoxLayout *controls = controlRow(refreshButton, csv, pdf);

    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    // The figures as wide as they need; the names take the rest.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(FaultResponseModel::Group,
                                                     QHeaderView::Stretch);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    connect(refreshButton, &QPushButton::clicked, this, &FaultResponseWindow::refresh);
    connect(m_grouping, &QComboBox::activated, this, &FaultResponseWindow::refresh);
    connect(m_ackWithin, &QSpinBox::editingFinished, this, &FaultResponseWindow::refresh);
    connect(m_model, &FaultResponseModel::loaded, this, &FaultResponseWindow::showLoaded);
    connect(csv, &QPushButton::clicked, this, [this] {
        saveAs(tr("Export CSV"), QStringLiteral("csv"), tr("CSV (*.csv)"),
               &FaultResponseWindow::exportCsv);
    });
    connect(pdf, &QPushButton::clicked, this, [this] {
        saveAs(tr("Export PDF"), QStringLiteral("pdf"), tr("PDF (*.pdf)"),
               &FaultResponseWindow::exportPdf);
    });
    resize(1100, 420);
    refresh();
}

QHBoxLayout *FaultResponseWindow::controlRow(QPushButton *refresh, QPushButton *csv,
                                             QPushButton *pdf)
{
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Sent"), this));
    controls->addWidget(m_from);
    controls->addWidget(new QLabel(QStringLiteral("–"), this));
    controls->addWidget(m_to);
    controls->addWidget(new QLabel(tr("UTC, by"), this));
    controls->addWidget(m_grouping);
    controls->addWidget(new QLabel(tr("acknowledged in time within"), this));
    controls->addWidget(m_ackWithin);
    controls->addWidget(refresh);
    controls->addStretch();
    controls->addWidget(csv);
    controls->addWidget(pdf);
    return controls;
}

void FaultResponseWindow::saveAs(const QString &title, const QString &extension,
                                 const QString &filter,
                                 Status (FaultResponseWindow::*write)(const QString &) const)
{
    const QString path = QFileDialog::getSaveFileName(
        this, title, QStringLiteral("meridian-fault-response-%1.%2").arg(periodText(), extension),
        filter);
    if (path.isEmpty())
        return;
    const Status status = (this->*write)(path);
    m_status->setText(status ? tr("Saved %1").arg(path) : QString::fromStdString(status.message()));
}

void FaultResponseWindow::setPeriod(const QDate &firstDay, const QDate &lastDay)
{
    m_from->setDate(firstDay);
    m_to->setDate(lastDay);
    refresh();
}

void FaultResponseWindow::refresh()
{
    FaultResponseModel::Ask ask;
    ask.historyFile = m_historyFile;
    ask.fromMs = dayStartMs(m_from->date());
    ask.toMs = dayStartMs(m_to->date().addDays(1));  // the last day included
    ask.grouping = static_cast<ResponseGrouping>(m_grouping->currentData().toInt());
    ask.targets.acknowledgeWithinMs = static_cast<int64_t>(m_ackWithin->value()) * 60'000;
    m_status->setText(tr("Reading the alerts sent…"));
    m_model->load(ask);
}

QString FaultResponseWindow::periodText() const
{
    return QStringLiteral("%1_%2").arg(m_from->date().toString(Qt::ISODate),
                                       m_to->date().toString(Qt::ISODate));
}

QString FaultResponseWindow::statusText() const
{
    return m_status->text();
}

void FaultResponseWindow::showLoaded()
{
    if (!m_model->problem().isEmpty()) {
        m_status->setText(tr("No fault-response figures: %1").arg(m_model->problem()));
    } else if (m_model->rows().empty() || m_model->rows().back().incidents == 0) {
        m_status->setText(tr("No alert was sent in this period."));
    } else {
        const ResponseRow &total = m_model->rows().back();
        m_status->setText(
            tr("%1 alert(s) sent: %2% acknowledged within %3 min, %4% resolved within the "
               "hour; %5 still open. Times run from when the receivers were told.")
                .arg(total.incidents)
                .arg(total.shareAcknowledgedInTime() * 100, 0, 'f', 0)
                .arg(m_ackWithin->value())
                .arg(total.shareResolvedInTime() * 100, 0, 'f', 0)
                .arg(total.open));
    }
    Q_EMIT refreshed();
}

Status FaultResponseWindow::exportCsv(const QString &path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Error{QStringLiteral("%1: %2").arg(path, file.errorString()).toStdString()};
    const std::string csv = m_model->csv();
    if (file.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size()))
        return Error{QStringLiteral("%1: %2").arg(path, file.errorString()).toStdString()};
    return {};
}

Status FaultResponseWindow::exportPdf(const QString &path) const
{
    // A table as the window shows it, under a title with the period and the targets.
    QString html =
        QStringLiteral(
            "<h2>%1</h2><p>%2</p><table border='1' cellspacing='0' "
            "cellpadding='3' width='100%'><tr>")
            .arg(tr("Fault response %1 – %2 (UTC)")
                     .arg(m_from->date().toString(Qt::ISODate), m_to->date().toString(Qt::ISODate)),
                 m_status->text().toHtmlEscaped());
    for (int c = 0; c < m_model->columnCount(); ++c)
        html += QStringLiteral("<th>%1</th>")
                    .arg(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole)
                             .toString()
                             .toHtmlEscaped());
    html += QStringLiteral("</tr>");
    for (int r = 0; r < m_model->rowCount(); ++r) {
        html += QStringLiteral("<tr>");
        for (int c = 0; c < m_model->columnCount(); ++c)
            html += QStringLiteral("<td>%1</td>")
                        .arg(m_model->index(r, c).data().toString().toHtmlEscaped());
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    QPdfWriter writer(path);
    if (!writer.setPageSize(QPageSize(QPageSize::A4)))
        return Error{path.toStdString() + ": cannot set the page size"};
    writer.setPageOrientation(QPageLayout::Landscape);
    writer.setTitle(tr("Fault response"));
    QTextDocument document;
    document.setHtml(html);
    document.print(&writer);
    if (!QFile::exists(path))
        return Error{path.toStdString() + ": cannot write"};
    return {};
}

}  // namespace meridian

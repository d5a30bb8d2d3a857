#include "fleettoolbar.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QShortcut>
#include <algorithm>

#include "models/fleet/datacentersummarymodel.h"

namespace meridian {

namespace {

const QString kColouringSetting = QStringLiteral("fleet/colouring");

QComboBox *labelledCombo(QToolBar *bar, const QString &label)
{
    bar->addWidget(new QLabel(label, bar));
    auto *combo = new QComboBox(bar);
    bar->addWidget(combo);
    return combo;
}

}  // namespace

FleetToolbar::FleetToolbar(QWidget *parent) : QToolBar(tr("Fleet"), parent)
{
    setObjectName(QStringLiteral("fleetToolbar"));
    setMovable(false);
    m_metric = labelledCombo(this, tr("Colour by "));
    m_metric->setObjectName(QStringLiteral("colouring"));
    for (FleetMetric m : {FleetMetric::Health, FleetMetric::Utilization, FleetMetric::Memory,
                          FleetMetric::Temperature, FleetMetric::Power, FleetMetric::Errors})
        m_metric->addItem(metricName(m), static_cast<int>(m));
    addSeparator();
    m_dataCenter = labelledCombo(this, tr(" Data center "));
    m_dataCenter->addItem(tr("All"), QString());
    m_dataCenter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_vendor = labelledCombo(this, tr(" Vendor "));
    m_vendor->addItem(tr("All"), -1);
    for (Vendor v : {Vendor::Nvidia, Vendor::Huawei, Vendor::Cambricon, Vendor::Hygon}) {
        const QString name =
            QString::fromLatin1(vendorName(v).data(), static_cast<int>(vendorName(v).size()));
        m_vendor->addItem(name.left(1).toUpper() + name.mid(1), static_cast<int>(v));
    }
    m_model = labelledCombo(this, tr(" Model "));
    m_model->addItem(tr("All"), QString());
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_state = labelledCombo(this, tr(" State "));
    m_state->addItem(tr("All"), static_cast<int>(CardState::Any));
    m_state->addItem(tr("Faulty"), static_cast<int>(CardState::Faulty));
    m_state->addItem(tr("Live"), static_cast<int>(CardState::Live));
    m_state->addItem(
        tr("Idle (below %1%)").arg(static_cast<double>(DataCenterSummaryModel::kBusyPercent)),
        static_cast<int>(CardState::Idle));
    m_state->addItem(tr("Stale"), static_cast<int>(CardState::Stale));
    m_state->addItem(tr("Unreachable"), static_cast<int>(CardState::Unreachable));
    m_state->addItem(tr("With errors"), static_cast<int>(CardState::WithErrors));
    m_state->addItem(tr("No reading"), static_cast<int>(CardState::NoReading));
    addSeparator();
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("fleetSearch"));
    m_search->setPlaceholderText(tr("Search host, node or card UUID (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(320);
    addWidget(m_search);

    // Anywhere in the window, as the placeholder says (an action added here would be a button).
    auto *focusSearch =
        new QShortcut(QKeySequence::Find, this, nullptr, nullptr, Qt::WindowShortcut);
    connect(focusSearch, &QShortcut::activated, m_search, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        // Kept at once, not at close: a console that is killed or crashes keeps it too.
        QSettings().setValue(kColouringSetting, metricKey(metric()));
        Q_EMIT metricChanged(metric());
    });
    for (QComboBox *combo : {m_dataCenter, m_vendor, m_model, m_state})
        connect(combo, &QComboBox::currentIndexChanged, this, &FleetToolbar::filterChanged);
    connect(m_search, &QLineEdit::textChanged, this, &FleetToolbar::filterChanged);
}

FleetMetric FleetToolbar::metric() const
{
    return static_cast<FleetMetric>(m_metric->currentData().toInt());
}

HeatmapFilter FleetToolbar::filter() const
{
    HeatmapFilter filter;
    filter.dataCenter = m_dataCenter->currentData().toString();
    filter.vendor = m_vendor->currentData().toInt();
    filter.model = m_model->currentData().toString();
    filter.state = static_cast<CardState>(m_state->currentData().toInt());
    filter.search = m_search->text();
    return filter;
}

void FleetToolbar::learnFleet(const FleetSnapshot &snapshot)
{
    if (snapshot.layout->generation == m_modelsGeneration)
        return;
    m_modelsGeneration = snapshot.layout->generation;
    for (const std::string &dc : snapshot.layout->nodeDataCenter) {
        const QString name = dataCenterTitle(dc);
        if (m_dataCenter->findData(name) < 0)
            m_dataCenter->addItem(name, name);
    }
    for (const std::string &model : snapshot.layout->cardModel) {
        const QString name = QString::fromStdString(model);
        if (m_model->findData(name) < 0)
            m_model->addItem(name, name);
    }
}

void FleetToolbar::search(const QString &text)
{
    m_search->setText(text);
}

void FleetToolbar::restoreMetric()
{
    const auto kept = metricFromKey(QSettings().value(kColouringSetting).toString());
    m_metric->setCurrentIndex(
        std::max(0, m_metric->findData(static_cast<int>(kept.value_or(FleetMetric::Health)))));
}

}  // namespace meridian

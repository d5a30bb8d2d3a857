// The fleet's toolbar above the heatmap: what the cards are coloured by, and which cards are
// shown (data center, vendor, model, state, a search for host, node or card UUID). The
// colouring is kept in the settings at once, so a console killed keeps it too; the data
// centers and models offered are those the fleet has shown so far.
#pragma once

#include <QToolBar>
#include <cstdint>

#include "fleetheatmap.h"
#include "models/metricscale.h"

class QComboBox;
class QLineEdit;

namespace meridian {

class FleetToolbar final : public QToolBar {
    Q_OBJECT
public:
    explicit FleetToolbar(QWidget *parent = nullptr);

    FleetMetric metric() const;
    HeatmapFilter filter() const;
    // Offers the data centers and card models in `snapshot` not offered yet.
    void learnFleet(const FleetSnapshot &snapshot);
    // Shows the cards this text finds (a node's address, say).
    void search(const QString &text);
    // The colouring kept in the settings, or health.
    void restoreMetric();

Q_SIGNALS:
    void metricChanged(FleetMetric metric);
    void filterChanged();

private:
    QComboBox *m_metric = nullptr;
    QComboBox *m_dataCenter = nullptr;
    QComboBox *m_vendor = nullptr;
    QComboBox *m_model = nullptr;
    QComboBox *m_state = nullptr;
    QLineEdit *m_search = nullptr;
    uint64_t m_modelsGeneration = 0;
};

}  // namespace meridian

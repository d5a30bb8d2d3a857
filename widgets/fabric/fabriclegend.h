// What the fabric drawing's colours, dashes and badges mean, in two compact columns
// beside the findings.
#pragma once

#include <QWidget>

namespace meridian {

class FabricLegend final : public QWidget {
    Q_OBJECT
public:
    explicit FabricLegend(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }
    int entryCount() const;

protected:
    void paintEvent(QPaintEvent *event) override;
};

}  // namespace meridian

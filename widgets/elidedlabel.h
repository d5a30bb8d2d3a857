// A one-line label whose text is cut with "…" to the width it is given, instead of asking
// for the width of its whole text: a long line (the alerts open at a past moment) never
// widens a window past the screen. The whole text is kept, and what shows is recut at each
// resize.
#pragma once

#include <QLabel>

namespace meridian {

class ElidedLabel final : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    const QString &fullText() const { return m_full; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();

    QString m_full;
};

}  // namespace meridian

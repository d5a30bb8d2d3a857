// The alerts panel's silences list on the offscreen platform: it opens from the panel,
// lifts the picked silence only, and shows one set meanwhile without being reopened.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QFontMetrics>
#include <QHeaderView>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QTableView>

#include "fakefleet.h"
#include "models/alerts/alertcenter.h"
#include "models/alerts/alertsmodel.h"
#include "models/alerts/silencesmodel.h"
#include "widgets/alerts/alertspanel.h"
#include "widgets/alerts/silencedialog.h"

using namespace meridian;

namespace {

SilenceRule quietNode(const char *node)
{
    SilenceRule rule;
    rule.node = node;
    rule.untilMs = 10'000'000;
    rule.reason = std::string("firmware on ") + node;
    return rule;
}

// A card event on `node` at `atMs`, and the center's look at it just after.
void raise(FleetState &state, AlertCenter &center, NodeHandle node, EventKind kind, uint32_t card,
           int64_t atMs)
{
    Event e;
    e.kind = kind;
    e.cardIndex = card;
    e.xid = 79;
    e.timeUnixMs = atMs;
    state.recordEvent(node, e);
    center.update(state.snapshot(atMs + 10));
}

QPushButton *buttonStartingWith(QWidget &parent, const QString &text)
{
    for (auto *button : parent.findChildren<QPushButton *>()) {
        if (button->text().startsWith(text))
            return button;
    }
    return nullptr;
}

}  // namespace

TEST(AlertsPanel, TheSilencesListLiftsThePickedOneAndFollowsTheCenter)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}, {"xiamen", "xm-2", "r1"}}, 10'000);
    AlertCenter center(state);
    center.silence(quietNode("xm-1"));
    center.silence(quietNode("xm-2"));
    AlertsPanel panel(center);
    panel.show();
    QPushButton *open = buttonStartingWith(panel, QStringLiteral("Silences"));
    ASSERT_NE(open, nullptr);
    open->click();
    QDialog *dialog = panel.findChild<QDialog *>();
    ASSERT_NE(dialog, nullptr);
    auto *list = dialog->findChild<QTableView *>();
    QPushButton *lift = buttonStartingWith(*dialog, QStringLiteral("Lift"));
    ASSERT_NE(list, nullptr);
    ASSERT_NE(lift, nullptr);
    ASSERT_EQ(list->model()->rowCount(), 2);
    EXPECT_FALSE(lift->isEnabled()) << "nothing picked, nothing to lift";

    list->selectRow(1);
    EXPECT_TRUE(lift->isEnabled());
    lift->click();
    ASSERT_EQ(center.silences().size(), 1u);
    EXPECT_EQ(center.silences().front().node, "xm-1") << "the picked silence, not another";
    ASSERT_EQ(list->model()->rowCount(), 1);

    center.silence(quietNode("xm-2"));  // as another console would
    ASSERT_EQ(list->model()->rowCount(), 2);
    EXPECT_EQ(list->model()->index(1, SilencesModel::Reason).data().toString(),
              QStringLiteral("firmware on xm-2"));
    dialog->close();
}

// A calm list: critical alerts above warnings whatever happened last, and rows that stay
// where they are while counts tick under the mouse.
TEST(AlertsPanel, CriticalComesFirstAndRowsStayPutAsCountsTick)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}, {"xiamen", "xm-2", "r1"}}, 10'000);
    AlertCenter center(state);
    AlertsPanel panel(center);
    const auto rows = [&] {
        QStringList keys;
        const QAbstractItemModel *model = panel.view()->model();
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString key = model->index(r, 0).data(AlertsModel::KeyRole).toString();
            if (!key.startsWith(QStringLiteral("stale/")))  // no telemetry in this test
                keys << key;
        }
        return keys;
    };
    raise(state, center, 1, EventKind::Xid, 3, 11'000);              // critical, first
    raise(state, center, 0, EventKind::ThermalThrottle, 1, 12'000);  // a warning, newer
    raise(state, center, 0, EventKind::ThermalThrottle, 2, 13'000);  // another, newer still
    const QStringList before = rows();
    ASSERT_EQ(before.size(), 3) << before.join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(before[0].startsWith(QStringLiteral("xid/")))
        << before.join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(before[1].contains(QStringLiteral("card-2")))
        << before.join(QStringLiteral(", ")).toStdString();
    // The older warning throttles again and again: its count ticks, nothing moves.
    for (int64_t t = 14'000; t < 20'000; t += 1'000)
        raise(state, center, 0, EventKind::ThermalThrottle, 1, t);
    EXPECT_EQ(rows(), before) << rows().join(QStringLiteral(", ")).toStdString();
}

TEST(AlertsPanel, GroupedByKindOrDataCenterRowsOfAGroupStandTogether)
{
    QSettings().remove(QStringLiteral("alerts/grouping"));
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-1", "r1"}, {"wuhu", "wh-1", "r1"}}, 10'000);
    AlertCenter center(state);
    AlertsPanel panel(center);
    // Interleaved: by severity and time alone, kinds and data centers alternate.
    raise(state, center, 0, EventKind::Xid, 1, 11'000);
    raise(state, center, 1, EventKind::EccUncorrected, 2, 12'000);
    raise(state, center, 1, EventKind::Xid, 3, 13'000);
    raise(state, center, 0, EventKind::EccUncorrected, 4, 14'000);
    const auto column = [&](int column) {
        QStringList values;
        const QAbstractItemModel *model = panel.view()->model();
        for (int r = 0; r < model->rowCount(); ++r) {
            if (!model->index(r, 0)
                     .data(AlertsModel::KeyRole)
                     .toString()
                     .startsWith(QStringLiteral("stale/")))
                values << model->index(r, column).data().toString();
        }
        return values;
    };
    // Each value in one run: it never comes back after another one.
    const auto together = [](const QStringList &values) {
        QStringList runs;
        for (const QString &v : values) {
            if (runs.isEmpty() || runs.back() != v)
                runs << v;
        }
        return runs.removeDuplicates() == 0;
    };
    ASSERT_EQ(column(AlertsModel::What).size(), 4);
    EXPECT_FALSE(together(column(AlertsModel::What))) << "the test would prove nothing";
    auto *grouping = panel.findChild<QComboBox *>(QStringLiteral("alertGrouping"));
    ASSERT_NE(grouping, nullptr);
    grouping->setCurrentIndex(grouping->findData(static_cast<int>(AlertsPanel::Grouping::Kind)));
    EXPECT_TRUE(together(column(AlertsModel::What)))
        << column(AlertsModel::What).join(QStringLiteral(", ")).toStdString();
    grouping->setCurrentIndex(
        grouping->findData(static_cast<int>(AlertsPanel::Grouping::DataCenter)));
    EXPECT_TRUE(together(column(AlertsModel::DataCenter)))
        << column(AlertsModel::DataCenter).join(QStringLiteral(", ")).toStdString();
    // Remembered for the next panel.
    AlertsPanel next(center);
    EXPECT_EQ(next.findChild<QComboBox *>(QStringLiteral("alertGrouping"))->currentData().toInt(),
              static_cast<int>(AlertsPanel::Grouping::DataCenter));
}

// At 1366 px, after an acknowledge and a long note, the next step still reads: the free
// text columns keep to their share, and the list needs no horizontal scroll bar.
TEST(AlertsPanel, TheNextStepStaysReadableThroughAcknowledgeNoteAndSilence)
{
    FleetState state;
    test::fillFleet(state, {{"xiamen", "xm-r01-n1", "r1"}, {"xiamen", "xm-r01-n2", "r1"}}, 10'000);
    AlertCenter center(state);
    center.setUser(QStringLiteral("on-call engineer with a long name@ops-desk-3.xiamen"));
    AlertsPanel panel(center);
    panel.resize(1366, 300);
    panel.show();
    raise(state, center, 1, EventKind::Xid, 3, 11'000);
    const QAbstractItemModel *model = panel.view()->model();
    QString key;
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString k = model->index(r, 0).data(AlertsModel::KeyRole).toString();
        if (k.startsWith(QStringLiteral("xid/")))
            key = k;
    }
    ASSERT_FALSE(key.isEmpty());
    center.acknowledge(key);
    center.setNote(key, QStringLiteral("Drained at 03:12, DCGM level 3 passed, waiting on the "
                                       "vendor's RMA number before the card is swapped out"));
    center.silence(key, 20'000'000);
    center.update(state.snapshot(12'000));
    QCoreApplication::processEvents();

    QTableView *view = panel.view();
    const int nextStep = view->horizontalHeader()->sectionSize(AlertsModel::NextStep);
    EXPECT_GE(nextStep, view->viewport()->width() / 5)
        << "the next step was squeezed to " << nextStep << " px";
    for (int column :
         {AlertsModel::What, AlertsModel::Where, AlertsModel::State, AlertsModel::Note})
        EXPECT_LT(view->horizontalHeader()->sectionSize(column), nextStep) << column;
    EXPECT_FALSE(view->horizontalScrollBar()->isVisible());
    // Short columns are never cut: each row's time fits whole, in the row's font (an open
    // alert's is bold).
    for (int r = 0; r < model->rowCount(); ++r) {
        for (int column : {AlertsModel::FirstSeen, AlertsModel::LastSeen, AlertsModel::Since}) {
            const QModelIndex cell = model->index(r, column);
            const QVariant font = cell.data(Qt::FontRole);
            const QFontMetrics metrics =
                font.isValid() ? QFontMetrics(font.value<QFont>()) : view->fontMetrics();
            EXPECT_GE(view->horizontalHeader()->sectionSize(column),
                      metrics.horizontalAdvance(cell.data().toString()))
                << column << ": " << cell.data().toString().toStdString();
        }
    }
    // What the narrowed columns cut is whole in the row's tooltip.
    int row = -1;
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, 0).data(AlertsModel::KeyRole).toString() == key)
            row = r;
    }
    ASSERT_GE(row, 0);
    const QString tip = model->index(row, AlertsModel::Note).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("vendor&#x27;s RMA number")) ||
                tip.contains(QStringLiteral("vendor's RMA number")))
        << tip.toStdString();
}

// A silence quiets the whole team's pages: the dialog's Silence button waits for a reason,
// as the watcher's API refuses a silence without one.
TEST(SilenceDialog, TheSilenceButtonWaitsForAReason)
{
    Alert alert;
    alert.key = "xid/xm-r01-n1/card3";
    alert.kind = AlertKind::Xid;
    alert.nodeName = "xm-r01-n1";
    alert.dataCenter = "xiamen";
    SilenceDialog dialog(alert, 1'800'000'000'000);
    QPushButton *ok = nullptr;
    for (QPushButton *button : dialog.findChildren<QPushButton *>()) {
        if (button->text() == QStringLiteral("Silence"))
            ok = button;
    }
    ASSERT_NE(ok, nullptr);
    EXPECT_FALSE(ok->isEnabled());
    dialog.setReason(QStringLiteral("   "));
    EXPECT_FALSE(ok->isEnabled()) << "blanks are no reason";
    dialog.setReason(QStringLiteral("reseating cards"));
    EXPECT_TRUE(ok->isEnabled());
    dialog.setHours(4);
    const SilenceRule rule = dialog.rule();
    EXPECT_EQ(rule.reason, "reseating cards");
    EXPECT_EQ(rule.untilMs, 1'800'000'000'000 + 4 * 3600'000LL);
    EXPECT_EQ(rule.alertKey, alert.key);
}

// The alerts panel's silences list on the offscreen platform: it opens from the panel,
// lifts the picked silence only, and shows one set meanwhile without being reopened.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDialog>
#include <QPushButton>
#include <QTableView>

#include "fakefleet.h"
#include "models/alertcenter.h"
#include "models/silencesmodel.h"
#include "widgets/alertspanel.h"

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

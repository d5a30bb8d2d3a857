// The scaling window and the services editor, offscreen: a window without a controller
// says why scaling is off and offers nothing to click; the editor refuses a file that
// would not load (naming its line) without touching the saved copy, and saves one
// that loads.
#include <gtest/gtest.h>

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <fstream>

#include "testsupport.h"
#include "widgets/scalingwindow.h"
#include "widgets/servicesdialog.h"

using namespace meridian;

namespace {

constexpr const char *kGoodServices = R"(services:
  - name: chat
    model: qwen2-72b-instruct
    cards_per_replica: 4
    replicas: {min: 1, max: 8}
    runs_on:
      - {card_model: A100-SXM4-80GB, requests_per_second_per_card: 0.9, max_concurrency_per_card: 16}
)";

QString readAll(const std::string &path)
{
    QFile file(QString::fromStdString(path));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

}  // namespace

TEST(ScalingWindow, WithoutAControllerItSaysWhyAndOffersNothingToApprove)
{
    ScalingWindow window(nullptr, QStringLiteral("the inventory names no capacity_pool"), {});
    window.refresh();
    bool said = false;
    for (const QLabel *label : window.findChildren<QLabel *>())
        said |= label->text().contains(QStringLiteral("no capacity_pool"));
    EXPECT_TRUE(said);
    EXPECT_FALSE(window.approveButton()->isEnabled());
}

TEST(ServicesDialog, RefusesAFileThatWouldNotLoadAndSavesOneThatDoes)
{
    test::TempDir dir;
    const std::string source = dir.file("services.yaml");
    const std::string saved = dir.file("user/services.yaml");
    std::ofstream(source) << kGoodServices;
    ServicesDialog dialog(QString::fromStdString(source), QString::fromStdString(saved));
    EXPECT_EQ(dialog.editor()->toPlainText(), QString::fromUtf8(kGoodServices));
    QSignalSpy spy(&dialog, &ServicesDialog::saved);

    QString broken = QString::fromUtf8(kGoodServices);
    broken.replace(QStringLiteral("max: 8"), QStringLiteral("max: -8"));
    dialog.editor()->setPlainText(broken);
    EXPECT_FALSE(dialog.save());
    EXPECT_TRUE(dialog.problem().contains(QStringLiteral("services.yaml:5")))
        << dialog.problem().toStdString();
    EXPECT_FALSE(QFile::exists(QString::fromStdString(saved)));
    EXPECT_EQ(spy.count(), 0);

    dialog.editor()->setPlainText(QString::fromUtf8(kGoodServices));
    EXPECT_TRUE(dialog.save()) << dialog.problem().toStdString();
    EXPECT_EQ(readAll(saved), QString::fromUtf8(kGoodServices));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), QString::fromStdString(saved));
}

TEST(ScalingWindow, PolicyReasonsAreSaidInPlainWords)
{
    for (ScalingReason reason :
         {ScalingReason::Hold, ScalingReason::Up, ScalingReason::Panic, ScalingReason::LatencyGuard,
          ScalingReason::Down, ScalingReason::Bounds}) {
        const QString words = ScalingWindow::reasonText(reason);
        EXPECT_GT(words.size(), 10) << static_cast<int>(reason);
        // The policy's own jargon stays in the journal.
        EXPECT_NE(words, QString::fromLatin1(scalingReasonName(reason).data()));
        EXPECT_FALSE(words.contains(QStringLiteral("panic")));
        EXPECT_FALSE(words.contains(QStringLiteral("bounds")));
    }
}

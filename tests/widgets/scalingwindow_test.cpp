// The scaling window and the services editor, offscreen: a window without a controller
// says why scaling is off and offers nothing to click; an approval sent to a slow
// controller leaves the window live and shows the refusal when it comes; the editor
// refuses a file that would not load (naming its line) without touching the saved copy,
// and saves one that loads.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>

#include "gate.h"
#include "testsupport.h"
#include "widgets/scaling/scalingwindow.h"
#include "widgets/scaling/servicesdialog.h"

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

// A controller at the far end of a slow link: every command waits at the gate until the
// test opens it, and an approval is refused because the plan was replaced meanwhile.
class SlowControl final : public ScalingControl {
public:
    ScalingView view() const override
    {
        ScalingView view;
        view.atMs = ++m_pass;
        ServiceScalingView chat;
        chat.service.name = "chat";
        chat.planVersion = 7;
        chat.pendingSteps = 1;
        chat.pendingCnyPerHour = 19.2;
        view.services.push_back(chat);
        return view;
    }
    Status setMode(ApprovalMode, const std::string &) override { return answer(); }
    Status requestPlan(const std::string &, const std::string &) override { return answer(); }
    Status approvePlan(const std::string &service, const std::string &who,
                       std::optional<int64_t> shownVersion) override
    {
        {
            std::lock_guard lock(m_mutex);
            approved =
                service + " by " + who + " at version " + std::to_string(shownVersion.value_or(0));
        }
        gate.pass();
        return Error{"plan 7 was replaced by plan 8; look again"};
    }
    Status rejectPlan(const std::string &, const std::string &, const std::string &) override
    {
        return answer();
    }
    Status approveRelease(const std::string &, const std::string &) override { return answer(); }

    test::Gate gate;
    std::mutex m_mutex;
    std::string approved;

private:
    Status answer()
    {
        gate.pass();
        return {};
    }
    mutable std::atomic<int64_t> m_pass{0};
};

}  // namespace

TEST(ScalingWindow, AnApprovalSentToASlowControllerLeavesTheWindowLive)
{
    using namespace std::chrono;
    SlowControl control;
    QString warned;
    ScalingWindowHooks hooks;
    hooks.operatorName = QStringLiteral("alice");
    hooks.confirm = [](const QString &, const QString &) { return true; };
    hooks.warn = [&](const QString &, const QString &message) { warned = message; };
    ScalingWindow window(&control, {}, hooks);
    window.refresh();
    ASSERT_TRUE(window.approveButton()->isEnabled());

    const auto before = steady_clock::now();
    window.approveButton()->click();
    EXPECT_LT(steady_clock::now() - before, milliseconds(500)) << "the click waited for the answer";
    EXPECT_FALSE(window.approveButton()->isEnabled()) << "a second click while the first is sent";
    bool saysSending = false;
    for (const QLabel *label : window.findChildren<QLabel *>())
        saysSending |= !label->isHidden() && label->text().startsWith(QStringLiteral("Sending"));
    EXPECT_TRUE(saysSending);

    ASSERT_TRUE(control.gate.arrived(1));
    control.gate.open();  // the answer comes
    ASSERT_TRUE(QTest::qWaitFor([&] { return !warned.isEmpty(); }, 10'000));
    EXPECT_TRUE(warned.contains(QStringLiteral("replaced by plan 8"))) << warned.toStdString();
    {
        std::lock_guard lock(control.m_mutex);
        EXPECT_EQ(control.approved, "chat by alice at version 7");
    }
    EXPECT_TRUE(window.approveButton()->isEnabled());
}

// A controller whose view is what the test sets; commands are accepted and do nothing.
class FixedControl final : public ScalingControl {
public:
    ScalingView shown;
    ScalingView view() const override { return shown; }
    Status setMode(ApprovalMode, const std::string &) override { return {}; }
    Status requestPlan(const std::string &, const std::string &) override { return {}; }
    Status approvePlan(const std::string &, const std::string &, std::optional<int64_t>) override
    {
        return {};
    }
    Status rejectPlan(const std::string &, const std::string &, const std::string &) override
    {
        return {};
    }
    Status approveRelease(const std::string &, const std::string &) override { return {}; }
};

bool anyLabelSays(const ScalingWindow &window, const QString &text)
{
    for (const QLabel *label : window.findChildren<QLabel *>()) {
        if (label->text().contains(text))
            return true;
    }
    return false;
}

// With the daily shape on, what earlier days reached is said under the policy's
// decision; without a forecast nothing is said of it.
TEST(ScalingWindow, TheDailyShapesForecastIsShownWhenThereIsOne)
{
    FixedControl control;
    control.shown.atMs = 1'800'000'000'000;
    ServiceScalingView chat;
    chat.service.name = "chat";
    chat.forecastRps = 12.43;
    control.shown.services.push_back(chat);
    ScalingWindow window(&control, {}, {});
    window.refresh();
    EXPECT_TRUE(anyLabelSays(window, QStringLiteral("earlier days reached 12.4 req/s")));

    control.shown.services[0].forecastRps.reset();
    control.shown.atMs += 5000;  // the next pass's view
    window.refresh();
    EXPECT_FALSE(anyLabelSays(window, QStringLiteral("Daily shape")));
}

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

// A FIFO nobody writes as the services file used to hang the window as the dialog opened.
TEST(ServicesDialog, AFileThatIsNotARegularFileIsNamedNotWaitedOn)
{
    test::TempDir dir;
    const std::string fifo = dir.file("services.yaml");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ServicesDialog dialog(QString::fromStdString(fifo),
                          QString::fromStdString(dir.file("user/services.yaml")));
    EXPECT_TRUE(dialog.editor()->toPlainText().isEmpty());
    EXPECT_TRUE(dialog.problem().contains(QStringLiteral("services.yaml: not a regular file")))
        << dialog.problem().toStdString();
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

// meridian: the operations console. With no inventory it starts an embedded simulated
// fleet on loopback and connects to it exactly as to a real one. Its alerting headless, for
// systemd, is a program of its own: meridian-watch (app/watch).
#include <QApplication>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>
#include <cstdio>

#include "commandline.h"
#include "consolesession.h"
#include "core/brokenpipes.h"
#include "stoponsignals.h"
#include "userlanguage.h"
#include "widgets/shell/mainwindow.h"

namespace {

using namespace meridian;

ConsoleOptions consoleOptions(const WindowArguments &window)
{
    ConsoleOptions options;
    options.inventoryFile = QString::fromStdString(window.inventory);
    options.simulatedNodes = window.nodes;
    options.prometheusUrl = QString::fromStdString(window.prometheus);
    options.scrapeIntervalS = window.scrapeIntervalS;
    options.diagnosticsJson = QString::fromStdString(window.diagnostics);
    options.historyFile = QString::fromStdString(window.history);
    options.servicesFile = QString::fromStdString(window.services);
    options.scalingPolicyFile = QString::fromStdString(window.scalingPolicy);
    options.fabricFile = QString::fromStdString(window.fabric);
    options.alertRoutingFile = QString::fromStdString(window.alertRoutes);
    return options;
}

int runWindow(const WindowArguments &window, QApplication &app)
{
    ConsoleSession session(consoleOptions(window));
    if (Status status = session.start(); !status) {
        std::fprintf(stderr, "meridian: %s\n", status.message().c_str());
        if (window.quitAfterSeconds <= 0)
            QMessageBox::critical(nullptr, QObject::tr("Meridian cannot start"),
                                  QString::fromStdString(status.message()));
        return 2;
    }
    session.window().show();
    if (window.openFabric)
        session.window().showToolWindow(MainWindow::ToolWindow::Fabric);
    if (window.openScaling)
        session.window().showToolWindow(MainWindow::ToolWindow::Scaling);
    // As the window's close button, less its question (rented cards still running): a
    // signal has nobody at the screen to answer it, and killed, it was never asked.
    stopOnSignals(&app, [&] {
        session.window().setCloseWarning({});
        session.window().close();
    });
    if (window.quitAfterSeconds > 0)
        QTimer::singleShot(static_cast<int>(window.quitAfterSeconds * 1000), &app,
                           [&] { session.window().close(); });
    const int code = QApplication::exec();
    if (Status status = session.writeDiagnostics(); !status) {
        std::fprintf(stderr, "meridian: %s\n", status.message().c_str());
        return 1;
    }
    return code;
}

}  // namespace

int main(int argc, char **argv)
{
    ignoreBrokenPipes();  // a client gone mid-TLS costs a connection, not us
    ConsoleCommandLine line;
    if (const auto status = readCommandLine(argc, argv, line))
        return *status;
    if (line.command == ConsoleCommandLine::Command::Sync)
        return runSync(line.sync.inventory, line.sync.db, line.sync.prices);
    if (line.command == ConsoleCommandLine::Command::Report)
        return runReport(line.report, argc, argv);
    if (line.command == ConsoleCommandLine::Command::Plan)
        return runPlan(line.plan, argc, argv);

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Meridian"));
    QApplication::setApplicationName(QStringLiteral("meridian"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/meridian.png")));
    QApplication::setDesktopFileName(QStringLiteral("meridian"));
    const UserLanguage language;
    return runWindow(line.window, app);
}

// meridian: the operations console. With no inventory it starts an embedded simulated
// fleet on loopback and connects to it exactly as to a real one.
#include <CLI/CLI.hpp>

#include <QApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTimer>
#include <QTranslator>
#include <cstdio>

#include "consolesession.h"
#include "widgets/mainwindow.h"

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Meridian"));
    QApplication::setApplicationName(QStringLiteral("meridian"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/meridian.png")));
    QApplication::setDesktopFileName(QStringLiteral("meridian"));
    // The user's language (Simplified Chinese or English), for our strings and Qt's own.
    QTranslator qtStrings;
    if (qtStrings.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                       QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtStrings);
    QTranslator ours;
    if (ours.load(QLocale(), QStringLiteral("meridian"), QStringLiteral("_"),
                  QStringLiteral(":/i18n")))
        QApplication::installTranslator(&ours);

    CLI::App cli{"Meridian operations console"};
    std::string inventory;
    std::string diagnostics;
    int nodes = 750;
    double quitAfter = 0;
    cli.add_option("--inventory", inventory, "YAML inventory of data centers and agents");
    cli.add_option("--nodes", nodes,
                   "size of the embedded simulated fleet (default 750 = 6,000 cards)");
    cli.add_option("--diagnostics-json", diagnostics, "write the diagnostics figures here on exit");
    cli.add_option("--quit-after", quitAfter, "quit after this many seconds (scripted runs)");
    cli.allow_extras();  // Qt's own options (-platform, -style) are Qt's
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return cli.exit(e);
    }

    meridian::ConsoleOptions options;
    options.inventoryFile = QString::fromStdString(inventory);
    options.simulatedNodes = nodes;
    options.diagnosticsJson = QString::fromStdString(diagnostics);
    meridian::ConsoleSession session(options);
    if (meridian::Status status = session.start(); !status) {
        std::fprintf(stderr, "meridian: %s\n", status.message().c_str());
        if (quitAfter <= 0)
            QMessageBox::critical(nullptr, QObject::tr("Meridian cannot start"),
                                  QString::fromStdString(status.message()));
        return 2;
    }
    session.window().show();
    if (quitAfter > 0)
        QTimer::singleShot(static_cast<int>(quitAfter * 1000), &app,
                           [&] { session.window().close(); });
    const int code = QApplication::exec();
    if (meridian::Status status = session.writeDiagnostics(); !status) {
        std::fprintf(stderr, "meridian: %s\n", status.message().c_str());
        return 1;
    }
    return code;
}

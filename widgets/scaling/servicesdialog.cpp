#include "servicesdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include "core/inferenceservice.h"
#include "core/textfile.h"
#include "widgets/screenfit.h"

namespace meridian {

ServicesDialog::ServicesDialog(const QString &servicesFile, QString userFile, QWidget *parent)
    : QDialog(parent), m_userFile(std::move(userFile))
{
    setWindowTitle(tr("Inference services"));
    auto *layout = new QVBoxLayout(this);
    auto *where =
        new QLabel(tr("Saved to %1. The autoscaler restarts with it.").arg(m_userFile), this);
    where->setWordWrap(true);
    layout->addWidget(where);
    m_editor = new QPlainTextEdit(this);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(m_editor, 1);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    layout->addWidget(m_problem);
    // As every reader of ours opens a file: a regular one only (a FIFO would hang the
    // window), under the cap the services file is loaded with (loadYamlFile).
    if (QFileInfo::exists(servicesFile)) {
        if (auto text = readTextFile(servicesFile.toStdString(), 4 << 20))
            m_editor->setPlainText(QString::fromStdString(text.value()));
        else
            m_problem->setText(QString::fromStdString(text.error().message));
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (save())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    fitToScreen(this, QSize(820, 640));
}

QString ServicesDialog::problem() const
{
    return m_problem->text();
}

bool ServicesDialog::save()
{
    // Checked from a scratch copy, so a broken text never replaces a good file.
    QTemporaryDir scratch;
    const QString draft = scratch.filePath(QStringLiteral("services.yaml"));
    {
        QFile out(draft);
        if (!scratch.isValid() || !out.open(QIODevice::WriteOnly)) {
            m_problem->setText(tr("Cannot write a scratch copy: %1").arg(out.errorString()));
            return false;
        }
        out.write(m_editor->toPlainText().toUtf8());
    }
    const auto loaded = loadInferenceServices(draft.toStdString());
    if (!loaded) {
        QString message = QString::fromStdString(loaded.error().message);
        m_problem->setText(message.replace(draft, QFileInfo(m_userFile).fileName()));
        return false;
    }
    QDir().mkpath(QFileInfo(m_userFile).absolutePath());
    QSaveFile out(m_userFile);
    if (!out.open(QIODevice::WriteOnly) || out.write(m_editor->toPlainText().toUtf8()) < 0 ||
        !out.commit()) {
        m_problem->setText(tr("%1: %2").arg(m_userFile, out.errorString()));
        return false;
    }
    m_problem->clear();
    Q_EMIT saved(m_userFile);
    return true;
}

}  // namespace meridian

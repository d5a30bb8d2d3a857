#include "pricebookdialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/textutil.h"
#include "widgets/screenfit.h"

namespace meridian {

namespace {

enum PriceColumn { PModel, PVendor, PDataCenter, PPrice, PFrom, PTo, PColumns };
enum ContractColumn { CCustomer, CDataCenter, CNode, CModel, CFrom, CTo, CDiscount, CColumns };

QString timeText(int64_t unixS)
{
    return QString::fromStdString(formatUtcTime(unixS));
}

std::string cell(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text().trimmed().toStdString() : std::string();
}

void setRow(QTableWidget *table, int row, const QStringList &values)
{
    for (int c = 0; c < values.size(); ++c)
        table->setItem(row, c, new QTableWidgetItem(values[c]));
}

QTableWidget *newTable(const QStringList &header, QWidget *parent)
{
    auto *table = new QTableWidget(0, static_cast<int>(header.size()), parent);
    table->setHorizontalHeaderLabels(header);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setVisible(false);
    return table;
}

}  // namespace

PriceBookDialog::PriceBookDialog(const PriceBook &book, QString saveTo, int64_t nowUnixS,
                                 QWidget *parent)
    : QDialog(parent), m_saveTo(std::move(saveTo)), m_nowUnixS(nowUnixS)
{
    setWindowTitle(tr("Price book"));
    m_prices = newTable({tr("Card model"), tr("Vendor"), tr("Data center"), tr("CNY per card-hour"),
                         tr("From (UTC)"), tr("To (UTC)")},
                        this);
    m_contracts = newTable({tr("Customer"), tr("Data center"), tr("Node"), tr("Card model"),
                            tr("From (UTC)"), tr("To (UTC)"), tr("Discount %")},
                           this);
    auto *explain = new QLabel(
        tr("The most specific price wins: a card model over a vendor, a data center over "
           "any. Prices in force are history: set an end, or add a new price from now on. "
           "Contracts of six months or more get 10% off unless they state a discount."),
        this);
    explain->setWordWrap(true);
    auto *addPriceButton = new QPushButton(tr("Add price"), this);
    auto *addContractButton = new QPushButton(tr("Add contract"), this);
    connect(addPriceButton, &QPushButton::clicked, this, &PriceBookDialog::addPrice);
    connect(addContractButton, &QPushButton::clicked, this, &PriceBookDialog::addContract);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c0392b"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (save().ok())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(explain);
    layout->addWidget(new QLabel(tr("<b>Prices</b>"), this));
    layout->addWidget(m_prices, 3);
    layout->addWidget(addPriceButton, 0, Qt::AlignLeft);
    layout->addWidget(new QLabel(tr("<b>Contracts</b>"), this));
    layout->addWidget(m_contracts, 1);
    layout->addWidget(addContractButton, 0, Qt::AlignLeft);
    layout->addWidget(m_problem);
    layout->addWidget(new QLabel(tr("Saved to %1").arg(m_saveTo), this));
    layout->addWidget(buttons);
    fitToScreen(this, QSize(820, 560));
    fill(book);
}

void PriceBookDialog::fill(const PriceBook &book)
{
    for (const PriceRule &rule : book.rules()) {
        const int row = m_prices->rowCount();
        m_prices->insertRow(row);
        setRow(m_prices, row,
               {QString::fromStdString(rule.model),
                rule.vendor == Vendor::Unknown ? QString()
                                               : QString::fromLatin1(vendorName(rule.vendor)),
                QString::fromStdString(rule.dataCenter), QString::number(rule.cnyPerCardHour),
                timeText(rule.fromUnixS), rule.toUnixS ? timeText(*rule.toUnixS) : QString()});
        lockPast(m_prices, row, rule.fromUnixS, PTo);
    }
    for (const Contract &c : book.contracts()) {
        const int row = m_contracts->rowCount();
        m_contracts->insertRow(row);
        const bool byTerm = c.discountPercent == contractDiscount(c.fromUnixS, c.toUnixS, {});
        setRow(m_contracts, row,
               {QString::fromStdString(c.customer), QString::fromStdString(c.dataCenter),
                QString::fromStdString(c.nodeId), QString::fromStdString(c.model),
                timeText(c.fromUnixS), timeText(c.toUnixS),
                byTerm ? QString() : QString::number(c.discountPercent)});
        lockPast(m_contracts, row, c.fromUnixS, CTo);
    }
}

void PriceBookDialog::lockPast(QTableWidget *table, int row, int64_t fromUnixS, int editableColumn)
{
    if (fromUnixS >= m_nowUnixS)
        return;
    for (int c = 0; c < table->columnCount(); ++c) {
        QTableWidgetItem *item = table->item(row, c);
        if (!item || c == editableColumn)
            continue;
        item->setFlags(item->flags() & ~Qt::ItemIsEditable);
        item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        item->setToolTip(tr("In force since %1: only its end can change").arg(timeText(fromUnixS)));
    }
}

void PriceBookDialog::addPrice()
{
    const int row = m_prices->rowCount();
    m_prices->insertRow(row);
    const int64_t tomorrow = (m_nowUnixS / 86400 + 1) * 86400;
    setRow(m_prices, row, {{}, {}, {}, {}, timeText(tomorrow), {}});
    m_prices->setCurrentCell(row, PModel);
    m_prices->editItem(m_prices->item(row, PModel));
}

void PriceBookDialog::addContract()
{
    const int row = m_contracts->rowCount();
    m_contracts->insertRow(row);
    const int64_t tomorrow = (m_nowUnixS / 86400 + 1) * 86400;
    setRow(m_contracts, row, {{}, {}, {}, {}, timeText(tomorrow), {}, {}});
    m_contracts->setCurrentCell(row, CCustomer);
}

namespace {

Error rowError(const QString &table, int row, const QString &why)
{
    return Error{QStringLiteral("%1, row %2: %3").arg(table).arg(row + 1).arg(why).toStdString()};
}

// A row the user added (its first cell editable), not one the file already held.
bool isNew(const QTableWidget *table, int row)
{
    const QTableWidgetItem *item = table->item(row, 0);
    return item && (item->flags() & Qt::ItemIsEditable);
}

}  // namespace

Result<PriceBook> PriceBookDialog::edited() const
{
    PriceBook book;
    for (int r = 0; r < m_prices->rowCount(); ++r) {
        auto rule = editedRule(r);
        if (!rule)
            return rule.error();
        book.addRule(std::move(rule).value());
    }
    for (int r = 0; r < m_contracts->rowCount(); ++r) {
        auto contract = editedContract(r);
        if (!contract)
            return contract.error();
        book.addContract(std::move(contract).value());
    }
    return book;
}

Result<PriceRule> PriceBookDialog::editedRule(int r) const
{
    PriceRule rule;
    rule.model = cell(m_prices, r, PModel);
    rule.dataCenter = cell(m_prices, r, PDataCenter);
    if (const std::string vendor = cell(m_prices, r, PVendor); !vendor.empty()) {
        rule.vendor = vendorFromName(vendor);
        if (rule.vendor == Vendor::Unknown)
            return rowError(tr("Prices"), r,
                            tr("vendor must be nvidia, huawei, cambricon or hygon"));
    }
    if (rule.model.empty() && rule.vendor == Vendor::Unknown && rule.dataCenter.empty())
        return rowError(tr("Prices"), r, tr("name a card model, a vendor or a data center"));
    const auto price = parseNumber(cell(m_prices, r, PPrice));
    if (!price || *price < 0 || *price > 10'000)
        return rowError(tr("Prices"), r, tr("CNY per card-hour must be a number from 0 to 10000"));
    rule.cnyPerCardHour = *price;
    const auto from = parseUtcTime(cell(m_prices, r, PFrom));
    if (!from)
        return rowError(tr("Prices"), r, tr("From must be a date such as 2026-07-01"));
    if (*from < m_nowUnixS && isNew(m_prices, r))
        return rowError(tr("Prices"), r,
                        tr("a new price starts now or later; the past keeps its prices"));
    rule.fromUnixS = *from;
    if (const std::string to = cell(m_prices, r, PTo); !to.empty()) {
        rule.toUnixS = parseUtcTime(to);
        if (!rule.toUnixS || *rule.toUnixS <= rule.fromUnixS)
            return rowError(tr("Prices"), r, tr("To must be a date after From"));
    }
    return rule;
}

Result<Contract> PriceBookDialog::editedContract(int r) const
{
    Contract c;
    c.customer = cell(m_contracts, r, CCustomer);
    c.dataCenter = cell(m_contracts, r, CDataCenter);
    c.nodeId = cell(m_contracts, r, CNode);
    c.model = cell(m_contracts, r, CModel);
    const auto from = parseUtcTime(cell(m_contracts, r, CFrom));
    const auto to = parseUtcTime(cell(m_contracts, r, CTo));
    if (!from || !to || *to <= *from)
        return rowError(tr("Contracts"), r, tr("a contract needs From and a later To"));
    if (*from < m_nowUnixS && isNew(m_contracts, r))
        return rowError(tr("Contracts"), r,
                        tr("a new contract starts now or later; the past keeps its prices"));
    c.fromUnixS = *from;
    c.toUnixS = *to;
    std::optional<double> stated;
    if (const std::string discount = cell(m_contracts, r, CDiscount); !discount.empty()) {
        stated = parseNumber(discount);
        if (!stated || *stated < 0 || *stated > 100)
            return rowError(tr("Contracts"), r, tr("Discount % must be 0 to 100, or empty"));
    }
    c.discountPercent = contractDiscount(c.fromUnixS, c.toUnixS, stated);
    return c;
}

Status PriceBookDialog::save()
{
    auto book = edited();
    Status status = book ? savePriceBookFile(m_saveTo, book.value()) : Status(book.error());
    m_problem->setText(status ? QString() : QString::fromStdString(status.message()));
    if (status)
        Q_EMIT saved(m_saveTo);
    return status;
}

QString PriceBookDialog::problem() const
{
    return m_problem->text();
}

}  // namespace meridian

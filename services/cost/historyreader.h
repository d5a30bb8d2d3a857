// Reads the history file for reports: the card catalogue, the services, the kept range
// and the cloud leases once, then any number of periods from the roll-ups. Read-only;
// one reader per thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cloudlease.h"
#include "core/result.h"
#include "rollupplan.h"
#include "usagereport.h"

namespace SQLite {
class Database;
}

namespace meridian {

class HistoryReader {
public:
    static Result<std::unique_ptr<HistoryReader>> open(const std::string &historyFile);
    ~HistoryReader();

    Result<UsageReport> report(const PriceBook &prices, const ReportRequest &request);

private:
    HistoryReader(std::unique_ptr<SQLite::Database> db, std::string path);
    void load();
    std::string groupKey(ReportGroup group, const CardPlace &card, int64_t serviceId,
                         const Contract *contract) const;

    std::unique_ptr<SQLite::Database> m_db;
    std::string m_path;
    std::vector<std::optional<CardPlace>> m_cards;  // by card id
    std::map<int64_t, std::string> m_services;
    std::vector<CloudLease> m_leases;
    std::map<std::string, std::string> m_leaseService;  // lease id → service
    std::map<std::string, double> m_leasePriceByNode;   // rented nodes bill at the lease price
    KeptRange m_kept;
};

}  // namespace meridian

#include "costrecords.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>

#include "sqlite/sqlitebind.h"
#include "sqlite/sqlitewriter.h"

namespace meridian {

Status recordCloudLeases(SqliteWriter &history, const std::vector<CloudLease> &leases)
{
    return writeInTransaction(history, "record cloud leases", [&](SQLite::Database &db) {
        SQLite::Statement lease(db, R"(
            INSERT OR REPLACE INTO cloud_lease VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10))");
        SQLite::Statement node(db, "INSERT OR IGNORE INTO cloud_lease_node VALUES (?1, ?2)");
        for (const CloudLease &l : leases) {
            SQLite::bind(lease, l.leaseId, l.region, l.cardModel, l.requestedBy,
                         static_cast<int64_t>(l.nodes), static_cast<int64_t>(l.cardsPerNode),
                         l.cnyPerCardHour, l.billingIncrementSeconds, l.createdUnixS);
            bindOptional(lease, 10, l.releasedUnixS);
            lease.exec();
            lease.reset();
            for (const std::string &nodeId : l.nodeIds) {
                SQLite::bind(node, l.leaseId, nodeId);
                node.exec();
                node.reset();
            }
        }
    });
}

Status recordPrices(SqliteWriter &history, const PriceBook &prices)
{
    return writeInTransaction(history, "record prices", [&](SQLite::Database &db) {
        db.exec("DELETE FROM price_rule; DELETE FROM contract;");
        SQLite::Statement rule(db, "INSERT INTO price_rule VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        for (const PriceRule &r : prices.rules()) {
            SQLite::bind(
                rule, r.model,
                r.vendor == Vendor::Unknown ? std::string() : std::string(vendorName(r.vendor)),
                r.dataCenter, r.cnyPerCardHour, r.fromUnixS);
            bindOptional(rule, 6, r.toUnixS);
            rule.exec();
            rule.reset();
        }
        SQLite::Statement contract(db, "INSERT INTO contract VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        for (const Contract &c : prices.contracts()) {
            SQLite::bind(contract, c.customer, c.dataCenter, c.nodeId, c.model, c.fromUnixS,
                         c.toUnixS, c.discountPercent);
            contract.exec();
            contract.reset();
        }
    });
}

}  // namespace meridian

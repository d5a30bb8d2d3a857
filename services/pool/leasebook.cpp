#include "leasebook.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>

#include <filesystem>

#include "sqlite/sqlitefile.h"

namespace meridian {

namespace {

// "MPOL" as a 32-bit number.
constexpr int kApplicationId = 1297108812;

const SqliteSchema kSchema{kApplicationId, "Meridian capacity pool", {R"(
    CREATE TABLE lease (
        lease_id TEXT PRIMARY KEY,
        idempotency_key TEXT NOT NULL UNIQUE,
        owner TEXT NOT NULL,
        provider TEXT NOT NULL,
        release_owed INTEGER NOT NULL,
        record TEXT NOT NULL      -- the Lease message as JSON
    );
)"}};

}  // namespace

Result<std::unique_ptr<LeaseBook>> LeaseBook::open(const std::string &dataDir)
{
    std::error_code ec;
    std::filesystem::create_directories(dataDir, ec);
    if (ec)
        return Error{fmt::format("data_dir {}: cannot create it: {}", dataDir, ec.message())};
    const std::string path = (std::filesystem::path(dataDir) / "pool.db").string();
    auto db = openSqliteFile(path, kSchema);
    if (!db)
        return db.error();
    try {
        (*db)->exec("PRAGMA synchronous = FULL");
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: {}", path, e.what())};
    }
    return std::unique_ptr<LeaseBook>(new LeaseBook(std::move(db).value(), path));
}

LeaseBook::LeaseBook(std::unique_ptr<SQLite::Database> db, std::string path)
    : m_db(std::move(db)), m_path(std::move(path))
{}

LeaseBook::~LeaseBook() = default;

Status LeaseBook::put(const BookedLease &booked)
{
    return putTogether({&booked});
}

Status LeaseBook::putTogether(const std::vector<const BookedLease *> &leases)
{
    std::vector<std::string> records;
    for (const BookedLease *booked : leases) {
        if (!google::protobuf::util::MessageToJsonString(booked->lease, &records.emplace_back())
                 .ok())
            return Error{
                fmt::format("{}: lease {} does not convert", m_path, booked->lease.lease_id())};
    }
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Transaction transaction(*m_db);
        for (size_t i = 0; i < leases.size(); ++i) {
            const BookedLease &booked = *leases[i];
            SQLite::Statement upsert(*m_db,
                                     "INSERT OR REPLACE INTO lease VALUES (?1,?2,?3,?4,?5,?6)");
            SQLite::bind(upsert, booked.lease.lease_id(), booked.lease.idempotency_key(),
                         booked.lease.requested_by(), booked.provider,
                         static_cast<int>(booked.releaseOwed), records[i]);
            upsert.exec();
        }
        transaction.commit();
        return {};
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot write lease {}: {}", m_path,
                                 leases.empty() ? "" : leases.front()->lease.lease_id(), e.what())};
    }
}

Result<std::vector<BookedLease>> LeaseBook::all()
{
    std::lock_guard lock(m_mutex);
    try {
        SQLite::Statement query(*m_db,
                                "SELECT provider, release_owed, record FROM lease ORDER BY rowid");
        std::vector<BookedLease> out;
        while (query.executeStep()) {
            BookedLease booked;
            booked.provider = query.getColumn(0).getString();
            booked.releaseOwed = query.getColumn(1).getInt() != 0;
            if (!google::protobuf::util::JsonStringToMessage(query.getColumn(2).getString(),
                                                             &booked.lease)
                     .ok())
                return Error{fmt::format("{}: a lease record does not read", m_path)};
            out.push_back(std::move(booked));
        }
        return out;
    } catch (const SQLite::Exception &e) {
        return Error{fmt::format("{}: cannot read leases: {}", m_path, e.what())};
    }
}

}  // namespace meridian

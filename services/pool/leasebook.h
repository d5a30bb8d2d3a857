// The pool's books in its own SQLite file (DATA_DIR/pool.db): every lease with its
// idempotency key, owner, provider and whether a release is still owed. Written before
// the provider is asked and after it answers, so a pool killed at any point comes back
// knowing what it promised (synchronous = FULL: a power cut loses nothing committed).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/result.h"
#include "meridian/v1/capacity_pool.pb.h"

namespace SQLite {
class Database;
}

namespace meridian {

struct BookedLease {
    v1::Lease lease;  // requested_by is its owner
    std::string provider;
    bool releaseOwed = false;  // asked to release; the provider has not confirmed yet
};

// The id the lease's provider knows it by: a lease that took a standby node goes by the
// standby lease's.
inline const std::string &providerLeaseId(const v1::Lease &lease)
{
    return lease.taken_from().empty() ? lease.lease_id() : lease.taken_from();
}

class LeaseBook {
public:
    static Result<std::unique_ptr<LeaseBook>> open(const std::string &dataDir);
    ~LeaseBook();

    Status put(const BookedLease &booked);
    // All of them or none: a standby node handed to a lease is one change of the books.
    Status putTogether(const std::vector<const BookedLease *> &leases);
    Result<std::vector<BookedLease>> all();
    const std::string &path() const { return m_path; }

private:
    LeaseBook(std::unique_ptr<SQLite::Database> db, std::string path);

    std::mutex m_mutex;
    std::unique_ptr<SQLite::Database> m_db;
    std::string m_path;
};

}  // namespace meridian

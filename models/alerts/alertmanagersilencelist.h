// The silences an Alertmanager holds, as this console lists them: each keeps one id of ours
// across reads (so a selected row stays selected), in the order first seen; one made here is
// shown at once, before Alertmanager has answered; one lifted here stays out of the list
// even where a read asked before the lift still has it. Plain bookkeeping for AlertCenter,
// which reads and writes Alertmanager itself.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "alerts/alert.h"

namespace meridian {

// A silence on its way to Alertmanager. Whichever learns last, the job that makes it (the
// id) or the user who lifts it (the lift), expires it, so a lift in the seconds before
// Alertmanager answers is not undone by the next read.
struct UnconfirmedSilence {
    std::mutex mutex;
    std::string alertmanagerId;
    bool lifted = false;
};

class AlertmanagerSilenceList {
public:
    const std::vector<SilenceRule> &rules() const { return m_rules; }
    // Made here, under the id the caller gave it: listed now; the job that makes it in
    // Alertmanager fills in what it returns.
    std::shared_ptr<UnconfirmedSilence> addUnconfirmed(const SilenceRule &rule);
    // Lifted here, `readsAsked` reads having been asked by then: Alertmanager's id to expire
    // ("" where the job still making it will); nullopt when the id is not one of these.
    std::optional<std::string> lift(int64_t id, uint64_t readsAsked);
    // What a read found in Alertmanager, all reads before `readsApplied` having been applied.
    void take(std::vector<SilenceRule> silences, uint64_t readsApplied);
    // Alertmanager did not answer: those not yet made there are kept in the history file,
    // and listed from it instead.
    void forgetUnconfirmed();

private:
    std::vector<SilenceRule> m_rules;              // as last read, with ids of ours
    std::map<std::string, int64_t> m_idsByTheirs;  // Alertmanager's id → ours, as last read
    // Ours count down from far below any the file or the console gives, so a lift goes to
    // the right place.
    int64_t m_nextId = -1'000'000'000;
    std::map<int64_t, std::shared_ptr<UnconfirmedSilence>> m_unconfirmed;  // by our id
    // Lifted here, by Alertmanager's id, with the reads asked by then: one of those may
    // still list the silence. A read asked later ran after the lift (one thread, in order).
    std::map<std::string, uint64_t> m_lifted;
};

}  // namespace meridian

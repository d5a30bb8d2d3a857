#include "alertmanagersilencelist.h"

#include <algorithm>

namespace meridian {

std::shared_ptr<UnconfirmedSilence> AlertmanagerSilenceList::addUnconfirmed(const SilenceRule &rule)
{
    m_rules.push_back(rule);
    auto unconfirmed = std::make_shared<UnconfirmedSilence>();
    m_unconfirmed[rule.id] = unconfirmed;
    return unconfirmed;
}

std::optional<std::string> AlertmanagerSilenceList::lift(int64_t id, uint64_t readsAsked)
{
    const auto it = std::find_if(m_rules.begin(), m_rules.end(),
                                 [id](const SilenceRule &r) { return r.id == id; });
    if (it == m_rules.end())
        return std::nullopt;
    std::string alertmanagerId = it->alertmanagerId;
    m_rules.erase(it);
    if (const auto unconfirmed = m_unconfirmed.find(id);
        alertmanagerId.empty() && unconfirmed != m_unconfirmed.end()) {
        const std::lock_guard lock(unconfirmed->second->mutex);
        unconfirmed->second->lifted = true;  // made not yet: the job that makes it lifts it
        alertmanagerId = unconfirmed->second->alertmanagerId;
    }
    if (!alertmanagerId.empty())
        m_lifted[alertmanagerId] = readsAsked;
    return alertmanagerId;
}

void AlertmanagerSilenceList::take(std::vector<SilenceRule> silences, uint64_t readsApplied)
{
    // One lifted here may still be listed by a read asked before the lift. A read asked
    // after it lists the silence only where the lift failed (said as a problem), and then
    // the silence is still there for everyone: shown again.
    std::erase_if(m_lifted, [&](const auto &lifted) { return lifted.second < readsApplied; });
    std::erase_if(silences,
                  [this](const SilenceRule &r) { return m_lifted.count(r.alertmanagerId) > 0; });
    // Confirmed, and read back or lifted: nothing is left to carry over.
    std::erase_if(m_unconfirmed, [&](const auto &entry) {
        const std::lock_guard lock(entry.second->mutex);
        const std::string &made = entry.second->alertmanagerId;
        return !made.empty() &&
               (entry.second->lifted ||
                std::any_of(silences.begin(), silences.end(),
                            [&](const SilenceRule &r) { return r.alertmanagerId == made; }));
    });
    // The same silence keeps its id here across reads, so the list's selection holds; one
    // no longer listed has ended, and its id goes with it.
    std::map<std::string, int64_t> ids;
    for (SilenceRule &rule : silences) {
        const auto known = m_idsByTheirs.find(rule.alertmanagerId);
        rule.id = known != m_idsByTheirs.end() ? known->second : m_nextId--;
        ids[rule.alertmanagerId] = rule.id;
    }
    m_idsByTheirs = std::move(ids);
    // In the order this console first saw them (ids count down): Alertmanager's own order
    // ties silences that end together, and a list reordered between reads would move rows
    // under the user.
    std::stable_sort(silences.begin(), silences.end(),
                     [](const SilenceRule &a, const SilenceRule &b) { return a.id > b.id; });
    m_rules = std::move(silences);
}

void AlertmanagerSilenceList::forgetUnconfirmed()
{
    std::erase_if(m_rules, [](const SilenceRule &r) { return r.alertmanagerId.empty(); });
}

}  // namespace meridian

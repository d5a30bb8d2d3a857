// What the controller writes in the audit log for what it does on its own: the executor's
// actions on the journal's steps, and the causes that held a scale-up back, each cause once
// while it lasts (its figures may move).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scaling/journalstep.h"
#include "scaling/reconcile.h"

namespace meridian {

// "lease cn-east-a100 for step chat-…", "stop replicas of step … on …"; "" for waiting and
// holding, which are not actions.
std::string actionWords(const Recovery &action, const std::vector<JournalStep> &open);

// Of this pass's `limits`, those whose cause was not in `said`; `said` becomes this pass's.
std::vector<std::string> limitsNotSaid(std::set<std::string> &said,
                                       const std::vector<std::string> &limits);

}  // namespace meridian

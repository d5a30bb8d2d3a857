// The scaling policy judged on a real trace in virtual time, beside the baselines: the
// same simulated replicas and the same trace for each, fifteen-second decisions, and
// the figures an operator decides by (requests inside the objective, card-hours local
// and rented, cost, occupancy, actions, how fast a load step is answered). Every row
// follows the same billing rules: rented replicas are paid per started hour, so each
// autoscaler keeps a rented replica serving to the end of the hour it has paid for.
// The oracle row has perfect foresight and is simulated like the rest: the cheapest
// schedule, of those that start each minute's replicas ahead of its demand with a
// common headroom, that the simulator shows keeping 99% of requests inside the
// objective (or, where no headroom does, the best it reaches, said so). The paced
// oracle beside it is held to 20 actions a day: what the goals on cost and on actions
// ask of a policy together, with foresight. Meridian is also run at HPA's attainment
// (more headroom where HPA keeps more requests inside the objective, less where it
// keeps fewer): the goal against HPA is set at equal or better attainment. And it is
// run told the trace's coming load as its forecast ("meridian told", ordering capacity a
// lead ahead, or as far ahead as `toldAheadS` says): the part of its distance from the
// oracle that is not knowing the future.
//
// The trace is streamed, pass after pass, never held: first to learn its shape, then
// once per autoscaler.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "evaluationrun.h"
#include "requestsource.h"
#include "requesttrace.h"

namespace meridian {

// Replays `trace` (named `name` in the figures); fails when the source breaks (with its
// file and line) or holds no requests, or when scaled to the asked peak it would be
// longer than a replay can finish.
Result<EvaluationRun> evaluateScaling(RequestSource &trace, const std::string &name,
                                      const EvaluationOptions &options);
Result<EvaluationRun> evaluateScaling(const RequestTrace &trace, const EvaluationOptions &options);

// Meridian alone, once under each of `policies`, on the trace scaled as evaluateScaling
// scales it (the same replicas, seed and billing): what a service's own traffic says of
// candidate policy files, without the baselines' and the oracles' replays. The run's
// results are in the order given, each named by `names`; the same failures as
// evaluateScaling.
Result<EvaluationRun> replayPolicies(RequestSource &trace, const std::string &name,
                                     const EvaluationOptions &options,
                                     const std::vector<ScalingPolicyConfig> &policies,
                                     const std::vector<std::string> &names);

}  // namespace meridian

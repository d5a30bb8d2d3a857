// `meridian-scaled replicas`: starts, stops or lists a service's steady replicas on one
// node, the ones scaling builds on and never touches (the controller adds and gives back
// only what its own steps started). Through the agent's ApplyWorkload, with the same
// idempotent keys the controller uses: NAME/r1, NAME/r2, …, so running it twice starts
// nothing twice, and a start cut short is finished by running it again.
#pragma once

#include <string>
#include <vector>

namespace meridian {

struct ReplicasCommand {
    std::string action;  // start | stop | list
    std::string agent;   // the node's agent, HOST:PORT
    std::string name;    // the replicas' key: NAME/r1 … (default: steady-SERVICE)
    std::string service;
    std::string model;
    int count = 1;
    int cardsPerReplica = 1;
    std::vector<uint32_t> cards;  // the node's cards they may take; empty: 0 … 7
    double waitSeconds = 0;       // start: until every replica serves, at most this long
    std::string caFile;
    std::string tokenFile;
};

int runReplicas(const ReplicasCommand &command);

}  // namespace meridian

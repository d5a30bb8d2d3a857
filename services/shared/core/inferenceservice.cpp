#include "inferenceservice.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "core/yamlfile.h"

namespace meridian {

double InferenceService::replicaRequestsPerSecond(const std::string &cardModel) const
{
    for (const CardCapability &c : runsOn) {
        if (c.cardModel == cardModel)
            return c.requestsPerSecondPerCard * cardsPerReplica;
    }
    return 0;
}

namespace {

Result<ServingCommand> readServing(const std::string &path, const YAML::Node &node)
{
    if (!node.IsMap())
        return yamlError(path, node, "serving: command:, engine:, port: ...");
    ServingCommand c;
    const YAML::Node command = node["command"];
    if (!command || !command.IsSequence() || command.size() == 0)
        return yamlError(path, command ? command : node,
                         "serving: command: the program and its arguments, as a list");
    c.command = command.as<std::vector<std::string>>();
    if (c.command.front().empty())
        return yamlError(path, command, "serving: command: the program is empty");
    if (const YAML::Node environment = node["environment"]) {
        if (!environment.IsMap())
            return yamlError(path, environment, "serving: environment: NAME: value pairs");
        c.environment = environment.as<std::map<std::string, std::string>>();
    }
    const std::string engine = yamlValue<std::string>(node, "engine", "vllm");
    const auto known = servingEngineNamed(engine);
    if (!known)
        return yamlError(path, node["engine"],
                         "serving: engine: " + engine + " (vllm, mindie, tgi or llamacpp)");
    c.engine = *known;
    c.port = yamlValue<int>(node, "port", 8000);
    if (c.port < 1 || c.port > 65'000)
        return yamlError(path, node["port"], "serving: port: 1..65000");
    c.healthPath = yamlValue<std::string>(node, "health_path", "/health");
    c.metricsPath = yamlValue<std::string>(node, "metrics_path", "/metrics");
    if (c.healthPath.rfind('/', 0) != 0 || c.metricsPath.rfind('/', 0) != 0)
        return yamlError(path, node, "serving: health_path and metrics_path start with /");
    c.startupTimeoutSeconds = yamlValue<double>(node, "startup_timeout_seconds", 900);
    c.drainGraceSeconds = yamlValue<double>(node, "drain_grace_seconds", 30);
    c.restartLimit = yamlValue<int>(node, "restart_limit", 3);
    if (!(c.startupTimeoutSeconds >= 1 && c.startupTimeoutSeconds <= 7200))
        return yamlError(path, node["startup_timeout_seconds"],
                         "serving: startup_timeout_seconds: 1..7200");
    if (!(c.drainGraceSeconds >= 0 && c.drainGraceSeconds <= 3600))
        return yamlError(path, node["drain_grace_seconds"],
                         "serving: drain_grace_seconds: 0..3600");
    if (c.restartLimit < 0 || c.restartLimit > 100)
        return yamlError(path, node["restart_limit"], "serving: restart_limit: 0..100");
    return c;
}

// How big a replica is, its objective, its bounds and its start-up.
Status readSizing(const std::string &path, const YAML::Node &entry, InferenceService &s)
{
    s.cardsPerReplica = yamlValue<int>(entry, "cards_per_replica", 1);
    if (s.cardsPerReplica < 1 || s.cardsPerReplica > 64)
        return yamlError(path, entry["cards_per_replica"], "cards_per_replica: 1..64");
    if (const YAML::Node slo = entry["slo"]) {
        s.objectiveP95Seconds = yamlValue<double>(slo, "ttft_p95_seconds", 5.0);
        if (!(s.objectiveP95Seconds > 0) || s.objectiveP95Seconds > 600)
            return yamlError(path, slo, "ttft_p95_seconds must be above 0 and at most 600");
    }
    if (const YAML::Node replicas = entry["replicas"]) {
        s.minReplicas = yamlValue<int>(replicas, "min", 1);
        s.maxReplicas = yamlValue<int>(replicas, "max", 16);
        if (s.minReplicas < 0 || s.maxReplicas < s.minReplicas || s.maxReplicas > 10'000)
            return yamlError(path, replicas, "replicas: 0 <= min <= max <= 10000");
    }
    s.coldStartSeconds = yamlValue<double>(entry, "cold_start_seconds", 90);
    if (!(s.coldStartSeconds >= 0) || s.coldStartSeconds > 3600)
        return yamlError(path, entry["cold_start_seconds"], "cold_start_seconds: 0..3600");
    return {};
}

Status readRunsOn(const std::string &path, const YAML::Node &entry, InferenceService &s)
{
    if (!entry["runs_on"] || !entry["runs_on"].IsSequence() || entry["runs_on"].size() == 0)
        return yamlError(path, entry, "runs_on: lists the card models it may use");
    for (const YAML::Node &card : entry["runs_on"]) {
        CardCapability c;
        c.cardModel = yamlCardModel(card, "card_model");
        c.requestsPerSecondPerCard = yamlValue<double>(card, "requests_per_second_per_card", 0);
        c.maxConcurrencyPerCard = yamlValue<int>(card, "max_concurrency_per_card", 1);
        if (c.cardModel.empty() || !(c.requestsPerSecondPerCard > 0) ||
            c.requestsPerSecondPerCard > 10'000 || c.maxConcurrencyPerCard < 1)
            return yamlError(path, card,
                             "runs_on needs card_model, requests_per_second_per_card > 0 "
                             "and max_concurrency_per_card >= 1");
        s.runsOn.push_back(c);
    }
    return {};
}

Status readRent(const std::string &path, const YAML::Node &rent, InferenceService &s)
{
    if (const YAML::Node models = rent["card_models"]) {
        if (!models.IsSequence())
            return yamlError(path, models, "rent: card_models is a list of card models");
        for (const YAML::Node &model : models)
            s.rent.cardModels.push_back(yamlCardModel(model));
    }
    s.rent.maxCards = yamlValue<int>(rent, "max_cards", 0);
    s.rent.maxCnyPerCardHour = yamlValue<double>(rent, "max_cny_per_card_hour", 0);
    s.rent.budgetCnyPerHour = yamlValue<double>(rent, "budget_cny_per_hour", 0);
    if (s.rent.maxCards < 0 || s.rent.maxCnyPerCardHour < 0 || s.rent.budgetCnyPerHour < 0)
        return yamlError(path, rent, "rent: limits cannot be negative");
    for (const std::string &model : s.rent.cardModels) {
        if (s.replicaRequestsPerSecond(model) <= 0)
            return yamlError(path, rent["card_models"], "rent: " + model + " is not in runs_on");
    }
    return {};
}

Result<LoadBalancerTarget> readLoadBalancer(const std::string &path, const YAML::Node &node)
{
    if (Status keys = checkKeys(path, node, {"kind", "runtime_api", "backend", "server_options"});
        !keys)
        return keys.error();
    if (yamlValue<std::string>(node, "kind", "haproxy") != "haproxy")
        return yamlError(path, node["kind"], "load_balancer: kind haproxy is the one known");
    LoadBalancerTarget target;
    target.runtimeApi = yamlValue<std::string>(node, "runtime_api", "");
    target.backend = yamlValue<std::string>(node, "backend", "");
    if (target.runtimeApi.empty() || target.backend.empty())
        return yamlError(path, node, "load_balancer needs runtime_api (host:port) and backend");
    // Words for HAProxy's `add server` line, sent over its runtime API: nothing that could
    // end the line and start another command.
    target.serverOptions = yamlValue<std::string>(node, "server_options", "");
    const bool plain =
        std::all_of(target.serverOptions.begin(), target.serverOptions.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '.' ||
                   c == '_' || c == '-' || c == ':';
        });
    if (!plain)
        return yamlError(path, node["server_options"],
                         "load_balancer: server_options are HAProxy server keywords "
                         "(letters, digits, spaces, . _ - :)");
    return target;
}

Result<InferenceService> readService(const std::string &path, const YAML::Node &entry,
                                     std::set<std::string> &names)
{
    InferenceService s;
    s.name = yamlValue<std::string>(entry, "name", "");
    s.model = yamlValue<std::string>(entry, "model", "");
    if (s.name.empty() || s.model.empty())
        return yamlError(path, entry, "a service needs name: and model:");
    if (!names.insert(s.name).second)
        return yamlError(path, entry["name"], "a second service named " + s.name);
    if (Status read = readSizing(path, entry, s); !read)
        return read.error();
    if (Status read = readRunsOn(path, entry, s); !read)
        return read.error();
    if (const YAML::Node pool = entry["local_pool"]) {
        if (!pool.IsSequence())
            return yamlError(path, pool, "local_pool: a list of node ids");
        s.localPool = pool.as<std::vector<std::string>>();
    }
    if (const YAML::Node rent = entry["rent"]) {
        if (Status read = readRent(path, rent, s); !read)
            return read.error();
    }
    if (const YAML::Node serving = entry["serving"]) {
        auto command = readServing(path, serving);
        if (!command)
            return command.error();
        s.serving = std::move(command).value();
    }
    if (const YAML::Node policy = entry["policy"])
        s.policyFile = besideFile(path, yamlScalar<std::string>(policy, "policy"));
    if (const YAML::Node balancer = entry["load_balancer"]) {
        auto target = readLoadBalancer(path, balancer);
        if (!target)
            return target.error();
        s.loadBalancer = std::move(target).value();
    }
    return s;
}

}  // namespace

Result<std::vector<InferenceService>> loadInferenceServices(const std::string &path)
{
    auto loaded = loadYamlFile(path);
    if (!loaded)
        return loaded.error();
    const YAML::Node root = loaded.value();
    if (!root.IsMap() || !root["services"] || !root["services"].IsSequence())
        return yamlError(path, root, "expected 'services:' with a list of services");
    std::vector<InferenceService> services;
    std::set<std::string> names;
    try {
        for (const YAML::Node &entry : root["services"]) {
            auto service = readService(path, entry, names);
            if (!service)
                return service.error();
            services.push_back(std::move(service).value());
        }
    } catch (const YAML::Exception &e) {
        return yamlError(path, e);
    }
    return services;
}

}  // namespace meridian

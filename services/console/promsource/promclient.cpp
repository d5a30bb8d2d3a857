#include "promclient.h"

#include <fmt/format.h>
#include <httplib.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/callwatch.h"

namespace meridian {

namespace {

// The answer's shape: {"status", "data": {"resultType", "result": [ {"metric": {…},
// "value": [t, "v"]} or {"metric": {…}, "values": [[t, "v"], …]} ]}, "errorType", "error"}.
// Depths: 1 the answer, 2 data, 3 result, 4 one series, 5 its metric / value / values,
// 6 one point of values.
class AnswerReader final : public nlohmann::json_sax<nlohmann::json> {
public:
    std::string status;
    std::string resultType;
    std::string errorType;
    std::string error;
    std::vector<PromSeries> series;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t v) override { return number(double(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(double(v)); }
    bool number_float(number_float_t v, const string_t &) override { return number(v); }
    bool binary(binary_t &) override { return true; }

    bool string(string_t &value) override
    {
        if (m_depth == 1) {
            if (m_key == "status")
                status = value;
            else if (m_key == "errorType")
                errorType = value;
            else if (m_key == "error")
                error = value;
        } else if (m_depth == 2 && m_key == "resultType") {
            resultType = value;
        } else if (m_inMetric && m_depth == 5) {
            series.back().labels.emplace_back(m_key, value);
        } else if (m_inPoint && m_pointField == 1) {
            series.back().points.emplace_back(m_pointTime, std::strtod(value.c_str(), nullptr));
            ++m_pointField;
        }
        return true;
    }

    bool start_object(std::size_t) override
    {
        ++m_depth;
        if (m_depth == 4 && m_inResult)
            series.emplace_back();
        if (m_depth == 5 && m_key == "metric" && !series.empty())
            m_inMetric = true;
        return true;
    }
    bool end_object() override
    {
        if (m_depth == 5)
            m_inMetric = false;
        --m_depth;
        return true;
    }
    bool key(string_t &value) override
    {
        m_key = value;
        return true;
    }
    bool start_array(std::size_t) override
    {
        ++m_depth;
        if (m_depth == 3 && m_key == "result")
            m_inResult = true;
        // An instant sample's [t, "v"] sits at depth 5; a range point at depth 6.
        const bool instantPoint = m_depth == 5 && m_key == "value";
        const bool rangePoint = m_depth == 6 && m_inValues;
        if (m_depth == 5 && m_key == "values")
            m_inValues = true;
        if ((instantPoint || rangePoint) && !series.empty()) {
            m_inPoint = true;
            m_pointField = 0;
        }
        return true;
    }
    bool end_array() override
    {
        if (m_inPoint && (m_depth == 5 || m_depth == 6))
            m_inPoint = false;
        else if (m_depth == 5)
            m_inValues = false;
        else if (m_depth == 3)
            m_inResult = false;
        --m_depth;
        return true;
    }
    bool parse_error(std::size_t position, const std::string &,
                     const nlohmann::detail::exception &e) override
    {
        m_parseError = fmt::format("not a Prometheus API answer (byte {}): {}", position, e.what());
        return false;
    }
    const std::string &parseError() const { return m_parseError; }

private:
    bool number(double value)
    {
        if (m_inPoint && m_pointField == 0) {
            m_pointTime = value;
            ++m_pointField;
        }
        return true;
    }

    int m_depth = 0;
    std::string m_key;
    bool m_inResult = false;
    bool m_inMetric = false;
    bool m_inValues = false;
    bool m_inPoint = false;
    int m_pointField = 0;
    double m_pointTime = 0;
    std::string m_parseError;
};

Result<AnswerReader> readAnswer(std::string_view body, std::string_view expectedType)
{
    AnswerReader reader;
    const bool parsed = nlohmann::json::sax_parse(body.begin(), body.end(), &reader);
    if (!parsed)
        return Error{reader.parseError().empty() ? "not a Prometheus API answer"
                                                 : reader.parseError()};
    if (reader.status != "success") {
        return Error{fmt::format("the query failed: {}{}{}",
                                 reader.errorType.empty() ? "no status" : reader.errorType,
                                 reader.error.empty() ? "" : ": ", reader.error)};
    }
    if (reader.resultType != expectedType)
        return Error{
            fmt::format("expected a {} answer, got '{}'", expectedType, reader.resultType)};
    return reader;
}

}  // namespace

const std::string *PromSample::label(std::string_view name) const
{
    for (const auto &[key, value] : labels) {
        if (key == name)
            return &value;
    }
    return nullptr;
}

Result<std::vector<PromSample>> parsePromVector(std::string_view body)
{
    auto answer = readAnswer(body, "vector");
    if (!answer)
        return answer.error();
    std::vector<PromSample> out;
    out.reserve(answer->series.size());
    for (PromSeries &series : answer->series) {
        if (series.points.size() != 1)
            return Error{"a vector sample without exactly one [time, value]"};
        out.push_back({std::move(series.labels), series.points[0].first, series.points[0].second});
    }
    return out;
}

Result<std::vector<PromSeries>> parsePromMatrix(std::string_view body)
{
    auto answer = readAnswer(body, "matrix");
    if (!answer)
        return answer.error();
    return std::move(answer->series);
}

Result<std::unique_ptr<PromClient>> PromClient::create(PromEndpoint endpoint,
                                                       std::shared_ptr<CallWatch> calls)
{
    const size_t scheme = endpoint.url.find("://");
    if (scheme == std::string::npos || (endpoint.url.compare(0, scheme, "http") != 0 &&
                                        endpoint.url.compare(0, scheme, "https") != 0)) {
        return Error{fmt::format("Prometheus URL '{}': give http://host:port or https://host:port",
                                 endpoint.url)};
    }
    const size_t pathStart = endpoint.url.find('/', scheme + 3);
    std::unique_ptr<PromClient> client(new PromClient(endpoint));
    const std::string origin = endpoint.url.substr(0, pathStart);
    if (pathStart != std::string::npos) {
        client->m_pathPrefix = endpoint.url.substr(pathStart);
        while (!client->m_pathPrefix.empty() && client->m_pathPrefix.back() == '/')
            client->m_pathPrefix.pop_back();
    }
    client->m_calls = calls ? std::move(calls) : std::make_shared<CallWatch>();
    client->m_http = std::make_unique<httplib::Client>(origin);
    if (!client->m_http->is_valid())
        return Error{fmt::format("Prometheus URL '{}' cannot be used", endpoint.url)};
    httplib::Client &http = *client->m_http;
    const auto seconds = endpoint.timeoutMs / 1000;
    const auto micros = (endpoint.timeoutMs % 1000) * 1000;
    http.set_connection_timeout(seconds, micros);
    http.set_read_timeout(seconds, micros);
    http.set_keep_alive(true);
    http.set_decompress(true);  // and so asks for gzip
    if (!endpoint.bearerToken.empty())
        http.set_bearer_token_auth(endpoint.bearerToken.c_str());
    else if (!endpoint.basicUser.empty())
        http.set_basic_auth(endpoint.basicUser.c_str(), endpoint.basicPassword.c_str());
    if (!endpoint.caFile.empty())
        http.set_ca_cert_path(endpoint.caFile.c_str());
    http.enable_server_certificate_verification(true);
    return client;
}

PromClient::PromClient(PromEndpoint endpoint) : m_endpoint(std::move(endpoint))
{}

PromClient::~PromClient() = default;

Result<std::string> PromClient::get(const std::string &api,
                                    const std::vector<std::pair<std::string, std::string>> &params)
{
    httplib::Params query;
    for (const auto &[key, value] : params)
        query.emplace(key, value);
    const std::string path = m_pathPrefix + api;
    // Asked for explicitly: a 100,000-card snapshot is a tenth of its size gzipped. Our
    // PromQL is a few hundred bytes, well inside any server's URL limit.
    const httplib::Headers headers = {{"Accept-Encoding", "gzip"}};
    std::string body;
    bool tooLarge = false;
    // The whole request has timeoutMs: httplib's own timeouts restart with every byte, so
    // a server dripping one a second would hold this thread, and the console's exit.
    const CallWatch::Watched watched =
        m_calls->watch(m_endpoint.timeoutMs, [http = m_http.get()] { http->stop(); });
    auto response = m_http->Get(path, query, headers, [&](const char *data, size_t size) {
        if (body.size() + size > m_endpoint.maxAnswerBytes) {
            tooLarge = true;
            return false;  // stop reading: the rest is never held
        }
        body.append(data, size);
        return true;
    });
    if (tooLarge) {
        return Error{fmt::format("{}{}: the answer passed {} MiB and was refused", m_endpoint.url,
                                 api, m_endpoint.maxAnswerBytes >> 20)};
    }
    if (watched.aborted()) {
        return Error{fmt::format("{}{}: no complete answer within {} s", m_endpoint.url, api,
                                 m_endpoint.timeoutMs / 1000.0)};
    }
    if (!response) {
        return Error{
            fmt::format("{}{}: {}", m_endpoint.url, api, httplib::to_string(response.error()))};
    }
    if (response->status == 401 || response->status == 403) {
        return Error{fmt::format("{}: refused ({}): check the token or user and password",
                                 m_endpoint.url, response->status)};
    }
    // 400 and 422 carry the API's own error in the body; anything else is not the API.
    if (response->status != 200 && response->status != 400 && response->status != 422) {
        return Error{fmt::format("{}{}: HTTP {} — is this a Prometheus-compatible query API?",
                                 m_endpoint.url, api, response->status)};
    }
    return body;
}

Result<std::vector<PromSample>> PromClient::instant(const std::string &promql)
{
    auto body = get("/api/v1/query", {{"query", promql}});
    if (!body)
        return body.error();
    auto parsed = parsePromVector(body.value());
    if (!parsed)
        return Error{fmt::format("{} ({}): {}", m_endpoint.url, promql, parsed.error().message)};
    return parsed;
}

Result<std::vector<PromSeries>> PromClient::range(const std::string &promql, int64_t startUnixS,
                                                  int64_t endUnixS, int64_t stepS)
{
    auto body = get("/api/v1/query_range", {{"query", promql},
                                            {"start", std::to_string(startUnixS)},
                                            {"end", std::to_string(endUnixS)},
                                            {"step", std::to_string(std::max<int64_t>(1, stepS))}});
    if (!body)
        return body.error();
    auto parsed = parsePromMatrix(body.value());
    if (!parsed)
        return Error{fmt::format("{} ({}): {}", m_endpoint.url, promql, parsed.error().message)};
    return parsed;
}

}  // namespace meridian

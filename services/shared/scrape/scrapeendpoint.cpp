#include "scrapeendpoint.h"

#include <fmt/format.h>
#include <httplib.h>

#include "scrapeserver.h"
#include "wire/hostport.h"

namespace meridian {

namespace {

bool acceptsGzip(const httplib::Request &request)
{
    return request.get_header_value("Accept-Encoding").find("gzip") != std::string::npos;
}

// httplib compresses text/* bodies itself; others (OpenMetrics's content type is not
// text/*) are compressed here.
void setBody(const httplib::Request &request, httplib::Response &response, ScrapeAnswer answer)
{
    response.status = answer.status;
    if (answer.retryAfterS > 0)
        response.set_header("Retry-After", std::to_string(answer.retryAfterS));
    if (answer.contentType.rfind("text/", 0) != 0 && acceptsGzip(request)) {
        std::string compressed;
        httplib::detail::gzip_compressor gzip;
        const bool ok = gzip.compress(answer.body.data(), answer.body.size(), true,
                                      [&compressed](const char *data, size_t size) {
                                          compressed.append(data, size);
                                          return true;
                                      });
        if (ok) {
            response.set_header("Content-Encoding", "gzip");
            response.set_content(std::move(compressed), answer.contentType.c_str());
            return;
        }
    }
    response.set_content(std::move(answer.body), answer.contentType.c_str());
}

template <class Server>
std::unique_ptr<httplib::Server> configured(std::unique_ptr<ScrapeServer<Server>> server,
                                            const ScrapeEndpointOptions &options)
{
    server->setWorkers(static_cast<size_t>(std::max(1, options.threads)));
    if (!options.keepAlive)
        server->limits.maxRequestsPerConnection = 1;
    return server;
}

std::unique_ptr<httplib::Server> makeServer(const ScrapeEndpointOptions &options)
{
    const ServerSecurity &security = options.security;
    if (!security.tlsEnabled())
        return configured(std::make_unique<ScrapeServer<httplib::Server>>(), options);
    return configured(std::make_unique<ScrapeServer<httplib::SSLServer>>(
                          security.certFile.c_str(), security.keyFile.c_str(),
                          security.clientCaFile.empty() ? nullptr : security.clientCaFile.c_str()),
                      options);
}

// httplib 0.11 listens with a backlog of 5: a few slow clients and the next scrape's
// connection is not even taken. The listening socket is caught as it is made.
void catchListeningSocket(httplib::Server &server, int &listening)
{
    server.set_socket_options([&listening](socket_t sock) {
        httplib::default_socket_options(sock);
        listening = sock;
    });
}

ScrapeRequest requestOf(const httplib::Request &request, const Authorizer &authorizer)
{
    ScrapeRequest r;
    r.method = request.method;
    r.path = request.path;
    r.accept = request.get_header_value("Accept");
    r.body = request.body;
    if (authorizer.hasTokens()) {
        const auto grant = authorizer.bearerGrant(request.get_header_value("Authorization"));
        r.caller = grant ? grant->name : std::string();
        r.mayOperate = grant && grant->role == Role::Operator;
    }
    return r;
}

void route(httplib::Server &server, const ServerSecurity &security, ScrapeEndpoint::Handler handler,
           ScrapeEndpoint::Handler post)
{
    // A scraper sends a short GET; anything slow or large is not one (scrapeconnection.h).
    server.set_payload_max_length(4096);
    auto authorizer = std::make_shared<Authorizer>(security.tokens);
    server.set_pre_routing_handler(
        [authorizer](const httplib::Request &request, httplib::Response &response) {
            if (authorizer->acceptsBearer(request.get_header_value("Authorization")))
                return httplib::Server::HandlerResponse::Unhandled;
            response.status = 401;
            response.set_header("WWW-Authenticate", "Bearer");
            response.set_content("a bearer token is needed\n", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        });
    server.Get(".*", [handler = std::move(handler), authorizer](const httplib::Request &request,
                                                                httplib::Response &response) {
        setBody(request, response, handler(requestOf(request, *authorizer)));
    });
    if (post) {
        server.Post(".*", [post = std::move(post), authorizer](const httplib::Request &request,
                                                               httplib::Response &response) {
            setBody(request, response, post(requestOf(request, *authorizer)));
        });
    }
}

}  // namespace

Result<std::unique_ptr<ScrapeEndpoint>> ScrapeEndpoint::start(const ScrapeEndpointOptions &options,
                                                              Handler handler,
                                                              const std::string &what, Handler post)
{
    const std::string place = fmt::format("{} {}", what, options.listen);
    if (Status policy = checkListenPolicy(options.listen, options.security); !policy)
        return Error{fmt::format("{}: {}", place, policy.message())};
    if (options.security.tlsEnabled()) {
        if (auto files = readServerTlsFiles(options.security); !files)
            return Error{fmt::format("{}: {}", place, files.error().message)};
    }
    auto address = parseHostPort(options.listen);
    if (!address)
        return Error{fmt::format("{}: {}", place, address.error().message)};

    std::unique_ptr<ScrapeEndpoint> self(new ScrapeEndpoint);
    self->m_server = makeServer(options);
    httplib::Server &server = *self->m_server;
    if (!server.is_valid())
        return Error{fmt::format("{}: the TLS certificate or key could not be loaded", place)};
    route(server, options.security, std::move(handler), std::move(post));
    int listening = -1;
    catchListeningSocket(server, listening);
    if (address->port == 0)
        self->m_port = server.bind_to_any_port(address->host);
    else
        self->m_port = server.bind_to_port(address->host, address->port) ? address->port : -1;
    server.set_socket_options(httplib::default_socket_options);  // `listening` is local
    if (self->m_port <= 0)
        return Error{fmt::format(
            "{}: cannot listen there (in use, or not an address of this machine)", place)};
    ::listen(listening, 1024);
    self->m_thread = std::thread([&server] { server.listen_after_bind(); });
    return self;
}

ScrapeEndpoint::~ScrapeEndpoint()
{
    stop();
}

void ScrapeEndpoint::stop()
{
    if (m_server)
        m_server->stop();
    if (m_thread.joinable())
        m_thread.join();
}

}  // namespace meridian

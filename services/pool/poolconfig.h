// meridian-pool's configuration file (YAML): where it listens, its TLS and tokens (as
// the agent's), where its SQLite file lives, and its providers, each an exec plugin
// with the offers it serves:
//   listen: 0.0.0.0:50071
//   data_dir: /var/lib/meridian-pool
//   tls: {cert_file: /etc/meridian/pool.crt, key_file: /etc/meridian/pool.key}
//   tokens: [{name: scaled, role: operator, token_file: /etc/meridian/pool.token}]
//   providers:
//     - name: spare
//       command: [meridian-pool, local-provider, --nodes, /etc/meridian/spare-nodes.yaml,
//                 --state, /var/lib/meridian-pool/spare-state.json]
//       timeout_seconds: 900
//       offers:
//         - {offer_id: xm-spare-a100, region: xiamen, vendor: nvidia,
//            card_model: A100-SXM4-80GB, cards_per_node: 8, nodes: 4,
//            price_cny_per_card_hour: 0, billing_increment_seconds: 3600,
//            provisioning_seconds: 300,
//            standby_nodes: 1, standby_price_cny_per_card_hour: 0}
// Errors name the file and line.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "core/vendor.h"
#include "wire/security.h"

namespace meridian {

struct PoolOffer {
    std::string offerId;
    std::string region;
    Vendor vendor = Vendor::Unknown;
    std::string cardModel;
    int cardsPerNode = 8;
    int nodes = 0;  // how many nodes it may lease at once
    double priceCnyPerCardHour = 0;
    int billingIncrementSeconds = 3600;
    int provisioningSeconds = 300;
    // Warm standby: nodes the pool keeps provisioned but idle, so that a one-node lease is
    // ready at once; billed at their own price while they stand by (the offer's by default).
    int standbyNodes = 0;
    double standbyPriceCnyPerCardHour = 0;
};

struct ProviderConfig {
    std::string name;
    std::vector<std::string> command;  // the verb (lease, release, list) is appended
    int timeoutSeconds = 900;
    std::vector<PoolOffer> offers;
};

struct PoolConfig {
    std::string listen = "127.0.0.1:50071";
    std::string dataDir = "/var/lib/meridian-pool";
    ServerSecurity security;
    std::vector<ProviderConfig> providers;
    // Who the pool's lines on stderr are from: meridian-pool, or the simulator serving it.
    std::string speaker = "meridian-pool";
};

Status loadPoolConfig(const std::string &path, PoolConfig &config);

}  // namespace meridian

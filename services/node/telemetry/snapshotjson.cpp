#include "snapshotjson.h"

#include <nlohmann/json.hpp>

namespace meridian {

namespace {

using nlohmann::json;

template <typename T>
json opt(const std::optional<T> &value)
{
    return value ? json(*value) : json(nullptr);
}

const char *throttleName(ThrottleReason reason)
{
    switch (reason) {
    case ThrottleReason::Idle: return "idle";
    case ThrottleReason::SwPowerCap: return "sw_power_cap";
    case ThrottleReason::HwSlowdown: return "hw_slowdown";
    case ThrottleReason::SwThermal: return "sw_thermal";
    case ThrottleReason::HwThermal: return "hw_thermal";
    case ThrottleReason::HwPowerBrake: return "hw_power_brake";
    case ThrottleReason::ApplicationClocks: return "application_clocks";
    case ThrottleReason::SyncBoost: return "sync_boost";
    }
    return "unknown";
}

const char *linkName(LinkState state)
{
    return state == LinkState::Up ? "up" : state == LinkState::Down ? "down" : "unknown";
}

json cardJson(const CardInfo &info, const CardSample *s)
{
    json card = {{"index", info.index},
                 {"vendor", std::string(vendorName(info.vendor))},
                 {"model", info.model},
                 {"uuid", info.uuid},
                 {"pci_bus_id", info.pciBusId},
                 {"memory_total_bytes", opt(info.memoryTotalBytes)},
                 {"peak_fp16_tflops", opt(info.peakFp16Tflops)},
                 {"mig_enabled", opt(info.migEnabled)},
                 {"driver_version", info.driverVersion}};
    if (s) {
        json throttle = nullptr;
        if (s->throttleReasons) {
            throttle = json::array();
            for (ThrottleReason r : *s->throttleReasons)
                throttle.push_back(throttleName(r));
        }
        card["utilization_percent"] = opt(s->utilizationPercent);
        card["memory_used_bytes"] = opt(s->memoryUsedBytes);
        card["temperature_celsius"] = opt(s->temperatureCelsius);
        card["memory_temperature_celsius"] = opt(s->memoryTemperatureCelsius);
        card["power_watts"] = opt(s->powerWatts);
        card["power_limit_watts"] = opt(s->powerLimitWatts);
        card["sm_clock_mhz"] = opt(s->smClockMhz);
        card["memory_clock_mhz"] = opt(s->memoryClockMhz);
        card["ecc_corrected_volatile_count"] = opt(s->eccCorrectedVolatile);
        card["ecc_uncorrected_volatile_count"] = opt(s->eccUncorrectedVolatile);
        card["throttle_reasons"] = throttle;
        card["health"] = opt(s->health);
    }
    return card;
}

json nicJson(const NicInfo &info, const NicCounters *c)
{
    json nic = {{"netdev", info.netdev},
                {"rdma_device", info.rdmaDevice},
                {"speed_mbps", opt(info.speedMbps)},
                {"nearest_card_index", opt(info.nearestCardIndex)},
                {"link_state", linkName(info.linkState)}};
    if (info.neighbor) {
        const LldpNeighbor &n = *info.neighbor;
        nic["lldp_neighbor"] = {{"system_name", n.systemName},
                                {"chassis_id", n.chassisId},
                                {"port_id", n.portId},
                                {"port_id_type", n.portIdType},
                                {"port_description", n.portDescription},
                                {"management_address", n.managementAddress},
                                {"ttl_seconds", opt(n.ttlSeconds)},
                                {"age_seconds", opt(n.ageSeconds)}};
    } else {
        nic["lldp_neighbor"] = nullptr;
    }
    if (c) {
        json pfc = json::array();
        for (int p = 0; p < kPfcPriorities; ++p) {
            if (c->rxPause[p] || c->txPause[p]) {
                pfc.push_back({{"priority", p},
                               {"rx_pause_frames_total", opt(c->rxPause[p])},
                               {"tx_pause_frames_total", opt(c->txPause[p])}});
            }
        }
        nic["link_state"] = linkName(c->linkState);
        nic["rx_bytes_total"] = opt(c->rxBytes);
        nic["tx_bytes_total"] = opt(c->txBytes);
        nic["pfc"] = pfc;
        nic["ecn_marked_packets_total"] = opt(c->ecnMarkedPackets);
        nic["cnp_sent_total"] = opt(c->cnpSent);
        nic["cnp_handled_total"] = opt(c->cnpHandled);
        nic["out_of_sequence_total"] = opt(c->outOfSequence);
        nic["packet_sequence_errors_total"] = opt(c->packetSequenceErrors);
        nic["rx_discards_total"] = opt(c->rxDiscards);
        nic["tx_discards_total"] = opt(c->txDiscards);
        nic["link_down_events_total"] = opt(c->linkDownEvents);
        nic["symbol_errors_total"] = opt(c->symbolErrors);
        nic["crc_errors_total"] = opt(c->crcErrors);
    }
    return nic;
}

}  // namespace

std::string snapshotToJson(const NodeHardware &hardware, const CollectedSample &sample)
{
    json cards = json::array();
    for (const CardInfo &info : hardware.cards) {
        const CardSample *s = nullptr;
        for (const CardSample &candidate : sample.cards) {
            if (candidate.index == info.index)
                s = &candidate;
        }
        cards.push_back(cardJson(info, s));
    }
    json nics = json::array();
    for (const NicInfo &info : hardware.nics) {
        const NicCounters *c = nullptr;
        for (const NicCounters &candidate : sample.nics) {
            if (candidate.netdev == info.netdev)
                c = &candidate;
        }
        nics.push_back(nicJson(info, c));
    }
    json problems = json::array();
    for (const std::string &p : sample.problems)
        problems.push_back(p);
    const json root = {{"cards", cards}, {"nics", nics}, {"problems", problems}};
    // Tool output can carry invalid UTF-8; replace it rather than fail the whole report.
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace meridian

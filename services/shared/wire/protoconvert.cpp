#include "protoconvert.h"
#include "core/cardcatalog.h"

namespace meridian {

v1::Vendor vendorToProto(Vendor v)
{
    switch (v) {
    case Vendor::Nvidia: return v1::VENDOR_NVIDIA;
    case Vendor::Huawei: return v1::VENDOR_HUAWEI;
    case Vendor::Cambricon: return v1::VENDOR_CAMBRICON;
    case Vendor::Hygon: return v1::VENDOR_HYGON;
    case Vendor::Unknown: break;
    }
    return v1::VENDOR_UNSPECIFIED;
}

namespace {

Vendor vendorFromProto(v1::Vendor v)
{
    switch (v) {
    case v1::VENDOR_NVIDIA: return Vendor::Nvidia;
    case v1::VENDOR_HUAWEI: return Vendor::Huawei;
    case v1::VENDOR_CAMBRICON: return Vendor::Cambricon;
    case v1::VENDOR_HYGON: return Vendor::Hygon;
    default: return Vendor::Unknown;
    }
}

v1::LinkState linkToProto(LinkState s)
{
    return s == LinkState::Up     ? v1::LINK_STATE_UP
           : s == LinkState::Down ? v1::LINK_STATE_DOWN
                                  : v1::LINK_STATE_UNSPECIFIED;
}

v1::ThrottleReason throttleToProto(ThrottleReason r)
{
    switch (r) {
    case ThrottleReason::Idle: return v1::THROTTLE_REASON_IDLE;
    case ThrottleReason::SwPowerCap: return v1::THROTTLE_REASON_SW_POWER_CAP;
    case ThrottleReason::HwSlowdown: return v1::THROTTLE_REASON_HW_SLOWDOWN;
    case ThrottleReason::SwThermal: return v1::THROTTLE_REASON_SW_THERMAL;
    case ThrottleReason::HwThermal: return v1::THROTTLE_REASON_HW_THERMAL;
    case ThrottleReason::HwPowerBrake: return v1::THROTTLE_REASON_HW_POWER_BRAKE;
    case ThrottleReason::ApplicationClocks: return v1::THROTTLE_REASON_APPLICATION_CLOCKS;
    case ThrottleReason::SyncBoost: return v1::THROTTLE_REASON_SYNC_BOOST;
    }
    return v1::THROTTLE_REASON_UNSPECIFIED;
}

ThrottleReason throttleFromProto(int r)
{
    switch (r) {
    case v1::THROTTLE_REASON_SW_POWER_CAP: return ThrottleReason::SwPowerCap;
    case v1::THROTTLE_REASON_HW_SLOWDOWN: return ThrottleReason::HwSlowdown;
    case v1::THROTTLE_REASON_SW_THERMAL: return ThrottleReason::SwThermal;
    case v1::THROTTLE_REASON_HW_THERMAL: return ThrottleReason::HwThermal;
    case v1::THROTTLE_REASON_HW_POWER_BRAKE: return ThrottleReason::HwPowerBrake;
    case v1::THROTTLE_REASON_APPLICATION_CLOCKS: return ThrottleReason::ApplicationClocks;
    case v1::THROTTLE_REASON_SYNC_BOOST: return ThrottleReason::SyncBoost;
    default: return ThrottleReason::Idle;
    }
}

v1::WorkloadState workloadStateToProto(WorkloadState s)
{
    switch (s) {
    case WorkloadState::Starting: return v1::WORKLOAD_STATE_STARTING;
    case WorkloadState::Serving: return v1::WORKLOAD_STATE_SERVING;
    case WorkloadState::Stopping: return v1::WORKLOAD_STATE_STOPPING;
    case WorkloadState::Stopped: return v1::WORKLOAD_STATE_STOPPED;
    case WorkloadState::Failed: return v1::WORKLOAD_STATE_FAILED;
    }
    return v1::WORKLOAD_STATE_UNSPECIFIED;
}

// Copies an optional into a proto3 optional field through its setter.
template <typename T, typename Setter>
void setIf(const std::optional<T> &value, Setter set)
{
    if (value)
        set(*value);
}

}  // namespace

void toProto(const NicInfo &in, v1::Nic *out)
{
    out->set_netdev(in.netdev);
    out->set_rdma_device(in.rdmaDevice);
    setIf(in.speedMbps, [&](uint64_t v) { out->set_speed_mbps(v); });
    out->set_link_state(linkToProto(in.linkState));
    if (in.neighbor) {
        const LldpNeighbor &n = *in.neighbor;
        v1::LldpNeighbor *p = out->mutable_neighbor();
        p->set_chassis_id(n.chassisId);
        p->set_chassis_id_type(n.chassisIdType);
        p->set_system_name(n.systemName);
        p->set_port_id(n.portId);
        p->set_port_id_type(n.portIdType);
        p->set_port_description(n.portDescription);
        p->set_management_address(n.managementAddress);
        setIf(n.ttlSeconds, [&](uint32_t v) { p->set_ttl_seconds(v); });
        setIf(n.ageSeconds, [&](uint64_t v) { p->set_age_seconds(v); });
        if (n.pfcPriorities) {
            p->set_advertises_pfc(true);
            for (uint32_t priority : *n.pfcPriorities)
                p->add_pfc_priorities(priority);
        }
    }
    setIf(in.nearestCardIndex, [&](uint32_t v) { out->set_nearest_card_index(v); });
    for (uint32_t p : in.pfcEnabledPriorities)
        out->add_pfc_enabled_priorities(p);
}

void toProto(const NodeInventory &in, v1::NodeInventory *out)
{
    out->set_node_id(in.nodeId);
    out->set_data_center(in.dataCenter);
    out->set_rack(in.rack);
    out->set_hostname(in.hostname);
    for (const CardInfo &c : in.cards) {
        v1::Card *p = out->add_cards();
        p->set_index(c.index);
        p->set_vendor(vendorToProto(c.vendor));
        p->set_model(c.model);
        p->set_uuid(c.uuid);
        p->set_pci_bus_id(c.pciBusId);
        setIf(c.memoryTotalBytes, [&](uint64_t v) { p->set_memory_total_bytes(v); });
        setIf(c.peakFp16Tflops, [&](double v) { p->set_peak_fp16_tflops(v); });
        setIf(c.migEnabled, [&](bool v) { p->set_mig_enabled(v); });
        p->set_driver_version(c.driverVersion);
        p->set_serial(c.serial);
    }
    for (const NicInfo &n : in.nics)
        toProto(n, out->add_nics());
    out->set_agent_version(in.agentVersion);
    out->set_collector(in.collector);
    out->set_agent_started_unix_ms(in.agentStartedUnixMs);
    out->set_boot_id(in.bootId);
}

void toProto(const NicSample &in, v1::NicTelemetry *out)
{
    const NicCounters &c = in.counters;
    out->set_netdev(c.netdev);
    out->set_link_state(linkToProto(c.linkState));
    setIf(c.rxBytes, [&](uint64_t v) { out->set_rx_bytes_total(v); });
    setIf(c.txBytes, [&](uint64_t v) { out->set_tx_bytes_total(v); });
    setIf(in.rxBytesPerSecond, [&](double v) { out->set_rx_bytes_per_second(v); });
    setIf(in.txBytesPerSecond, [&](double v) { out->set_tx_bytes_per_second(v); });
    for (int p = 0; p < kPfcPriorities; ++p) {
        if (!c.rxPause[p] && !c.txPause[p])
            continue;
        v1::PriorityFlowControl *pfc = out->add_pfc();
        pfc->set_priority(static_cast<uint32_t>(p));
        setIf(c.rxPause[p], [&](uint64_t v) { pfc->set_rx_pause_frames_total(v); });
        setIf(c.txPause[p], [&](uint64_t v) { pfc->set_tx_pause_frames_total(v); });
        setIf(in.rxPausePerSecond[p], [&](double v) { pfc->set_rx_pause_frames_per_second(v); });
        setIf(in.txPausePerSecond[p], [&](double v) { pfc->set_tx_pause_frames_per_second(v); });
    }
    setIf(c.ecnMarkedPackets, [&](uint64_t v) { out->set_ecn_marked_packets_total(v); });
    setIf(c.cnpSent, [&](uint64_t v) { out->set_cnp_sent_total(v); });
    setIf(c.cnpHandled, [&](uint64_t v) { out->set_cnp_handled_total(v); });
    setIf(c.outOfSequence, [&](uint64_t v) { out->set_out_of_sequence_total(v); });
    setIf(c.packetSequenceErrors, [&](uint64_t v) { out->set_packet_sequence_errors_total(v); });
    setIf(c.rxDiscards, [&](uint64_t v) { out->set_rx_discards_total(v); });
    setIf(c.txDiscards, [&](uint64_t v) { out->set_tx_discards_total(v); });
    setIf(c.linkDownEvents, [&](uint64_t v) { out->set_link_down_events_total(v); });
    setIf(c.symbolErrors, [&](uint64_t v) { out->set_symbol_errors_total(v); });
    setIf(c.crcErrors, [&](uint64_t v) { out->set_crc_errors_total(v); });
    setIf(in.ecnMarkedPerSecond, [&](double v) { out->set_ecn_marked_packets_per_second(v); });
    setIf(in.cnpSentPerSecond, [&](double v) { out->set_cnp_sent_per_second(v); });
    setIf(in.cnpHandledPerSecond, [&](double v) { out->set_cnp_handled_per_second(v); });
    out->set_counters_reset(in.countersReset);
}

void toProto(const TelemetrySample &in, v1::TelemetryBatch *out)
{
    out->set_sample_time_unix_ms(in.sampleTimeUnixMs);
    for (const CardSample &s : in.cards) {
        v1::CardTelemetry *p = out->add_cards();
        p->set_card_index(s.index);
        setIf(s.utilizationPercent, [&](double v) { p->set_utilization_percent(v); });
        setIf(s.memoryUsedBytes, [&](uint64_t v) { p->set_memory_used_bytes(v); });
        setIf(s.memoryTotalBytes, [&](uint64_t v) { p->set_memory_total_bytes(v); });
        setIf(s.temperatureCelsius, [&](double v) { p->set_temperature_celsius(v); });
        setIf(s.memoryTemperatureCelsius, [&](double v) { p->set_memory_temperature_celsius(v); });
        setIf(s.powerWatts, [&](double v) { p->set_power_watts(v); });
        setIf(s.powerLimitWatts, [&](double v) { p->set_power_limit_watts(v); });
        setIf(s.smClockMhz, [&](uint32_t v) { p->set_sm_clock_mhz(v); });
        setIf(s.memoryClockMhz, [&](uint32_t v) { p->set_memory_clock_mhz(v); });
        setIf(s.eccCorrectedVolatile, [&](uint64_t v) { p->set_ecc_corrected_volatile_count(v); });
        setIf(s.eccUncorrectedVolatile,
              [&](uint64_t v) { p->set_ecc_uncorrected_volatile_count(v); });
        if (s.throttleReasons) {
            v1::ThrottleState *t = p->mutable_throttle();
            for (ThrottleReason r : *s.throttleReasons)
                t->add_active(throttleToProto(r));
        }
        setIf(s.health, [&](const std::string &v) { p->set_health(v); });
        setIf(s.lastXid, [&](uint32_t v) { p->set_last_xid(v); });
    }
    for (const NicSample &n : in.nics)
        toProto(n, out->add_nics());
    for (const ReplicaSignals &r : in.replicas) {
        v1::ReplicaTelemetry *p = out->add_replicas();
        p->set_replica_id(r.replicaId);
        p->set_service(r.service);
        setIf(r.waitingRequests, [&](uint32_t v) { p->set_waiting_requests(v); });
        setIf(r.runningRequests, [&](uint32_t v) { p->set_running_requests(v); });
        setIf(r.inflightTokens, [&](uint64_t v) { p->set_inflight_tokens(v); });
        setIf(r.kvCacheUsedRatio, [&](double v) { p->set_kv_cache_used_ratio(v); });
        setIf(r.tokensPerSecond, [&](double v) { p->set_tokens_per_second(v); });
        setIf(r.ttftP50Seconds, [&](double v) { p->set_ttft_p50_seconds(v); });
        setIf(r.ttftP95Seconds, [&](double v) { p->set_ttft_p95_seconds(v); });
        setIf(r.queueDelayP95Seconds, [&](double v) { p->set_queue_delay_p95_seconds(v); });
        setIf(r.e2eP95Seconds, [&](double v) { p->set_e2e_p95_seconds(v); });
        setIf(r.requestsPerSecond, [&](double v) { p->set_requests_per_second(v); });
        p->set_serving_port(r.servingPort);
    }
}

void toProto(const Event &in, v1::Event *out)
{
    out->set_sequence(in.sequence);
    out->set_time_unix_ms(in.timeUnixMs);
    out->set_kind(static_cast<v1::EventKind>(static_cast<int>(in.kind)));
    out->set_severity(in.severity == Severity::Critical  ? v1::SEVERITY_CRITICAL
                      : in.severity == Severity::Warning ? v1::SEVERITY_WARNING
                                                         : v1::SEVERITY_INFO);
    setIf(in.cardIndex, [&](uint32_t v) { out->set_card_index(v); });
    out->set_netdev(in.netdev);
    setIf(in.xid, [&](uint32_t v) { out->set_xid(v); });
    out->set_message(in.message);
    setIf(in.gapFirst, [&](uint64_t v) { out->set_gap_first_sequence(v); });
    setIf(in.gapLast, [&](uint64_t v) { out->set_gap_last_sequence(v); });
}

void toProto(const UsageMinute &in, v1::UsageMinute *out)
{
    out->set_minute_start_unix_s(in.minuteStartUnixS);
    out->set_card_index(in.cardIndex);
    out->set_card_uuid(in.cardUuid);
    out->set_observed_seconds(in.observedSeconds);
    out->set_busy_seconds(in.busySeconds);
    setIf(in.meanUtilizationPercent, [&](double v) { out->set_mean_utilization_percent(v); });
    setIf(in.energyJoules, [&](double v) { out->set_energy_joules(v); });
    out->set_service(in.service);
}

void toProto(const Workload &in, v1::Workload *out)
{
    out->set_replica_id(in.replicaId);
    out->set_service(in.service);
    out->set_model(in.model);
    for (uint32_t c : in.cardIndices)
        out->add_card_indices(c);
    out->set_state(workloadStateToProto(in.state));
    out->set_started_unix_ms(in.startedUnixMs);
    setIf(in.servingSinceUnixMs, [&](int64_t v) { out->set_serving_since_unix_ms(v); });
    out->set_message(in.message);
}

NicInfo fromProto(const v1::Nic &n)
{
    NicInfo nic;
    nic.netdev = n.netdev();
    nic.rdmaDevice = n.rdma_device();
    if (n.has_speed_mbps())
        nic.speedMbps = n.speed_mbps();
    nic.linkState = n.link_state() == v1::LINK_STATE_UP     ? LinkState::Up
                    : n.link_state() == v1::LINK_STATE_DOWN ? LinkState::Down
                                                            : LinkState::Unknown;
    if (n.has_neighbor()) {
        const v1::LldpNeighbor &p = n.neighbor();
        LldpNeighbor nb;
        nb.systemName = p.system_name();
        nb.portId = p.port_id();
        nb.portIdType = p.port_id_type();
        nb.portDescription = p.port_description();
        nb.chassisId = p.chassis_id();
        nb.chassisIdType = p.chassis_id_type();
        nb.managementAddress = p.management_address();
        if (p.has_ttl_seconds())
            nb.ttlSeconds = p.ttl_seconds();
        if (p.has_age_seconds())
            nb.ageSeconds = p.age_seconds();
        if (p.advertises_pfc())
            nb.pfcPriorities =
                std::vector<uint32_t>(p.pfc_priorities().begin(), p.pfc_priorities().end());
        nic.neighbor = nb;
    }
    if (n.has_nearest_card_index())
        nic.nearestCardIndex = n.nearest_card_index();
    for (uint32_t priority : n.pfc_enabled_priorities()) {
        if (priority < kPfcPriorities && nic.pfcEnabledPriorities.size() < kPfcPriorities)
            nic.pfcEnabledPriorities.push_back(priority);
    }
    return nic;
}

NodeInventory fromProto(const v1::NodeInventory &in)
{
    NodeInventory out;
    out.nodeId = in.node_id();
    out.dataCenter = in.data_center();
    out.rack = in.rack();
    out.hostname = in.hostname();
    for (const v1::Card &c : in.cards()) {
        CardInfo card;
        card.index = c.index();
        card.vendor = vendorFromProto(c.vendor());
        card.model = canonicalCardModel(c.model());  // what an older agent reported raw
        card.uuid = c.uuid();
        card.pciBusId = c.pci_bus_id();
        if (c.has_memory_total_bytes())
            card.memoryTotalBytes = c.memory_total_bytes();
        if (c.has_peak_fp16_tflops())
            card.peakFp16Tflops = c.peak_fp16_tflops();
        if (c.has_mig_enabled())
            card.migEnabled = c.mig_enabled();
        card.driverVersion = c.driver_version();
        card.serial = c.serial();
        out.cards.push_back(std::move(card));
    }
    for (const v1::Nic &n : in.nics())
        out.nics.push_back(fromProto(n));
    out.agentVersion = in.agent_version();
    out.collector = in.collector();
    out.agentStartedUnixMs = in.agent_started_unix_ms();
    out.bootId = in.boot_id();
    return out;
}

Event fromProto(const v1::Event &in)
{
    Event out;
    out.sequence = in.sequence();
    out.timeUnixMs = in.time_unix_ms();
    const int kind = in.kind();
    out.kind = kind >= 0 && kind <= static_cast<int>(EventKind::Gap) ? static_cast<EventKind>(kind)
                                                                     : EventKind::Unknown;
    out.severity = in.severity() == v1::SEVERITY_CRITICAL  ? Severity::Critical
                   : in.severity() == v1::SEVERITY_WARNING ? Severity::Warning
                                                           : Severity::Info;
    if (in.has_card_index())
        out.cardIndex = in.card_index();
    out.netdev = in.netdev();
    if (in.has_xid())
        out.xid = in.xid();
    out.message = in.message();
    if (in.has_gap_first_sequence())
        out.gapFirst = in.gap_first_sequence();
    if (in.has_gap_last_sequence())
        out.gapLast = in.gap_last_sequence();
    return out;
}

UsageMinute fromProto(const v1::UsageMinute &in)
{
    UsageMinute out;
    out.minuteStartUnixS = in.minute_start_unix_s();
    out.cardIndex = in.card_index();
    out.cardUuid = in.card_uuid();
    out.observedSeconds = in.observed_seconds();
    out.busySeconds = in.busy_seconds();
    if (in.has_mean_utilization_percent())
        out.meanUtilizationPercent = in.mean_utilization_percent();
    if (in.has_energy_joules())
        out.energyJoules = in.energy_joules();
    out.service = in.service();
    return out;
}

CardSample fromProto(const v1::CardTelemetry &in)
{
    CardSample out;
    out.index = in.card_index();
    if (in.has_utilization_percent())
        out.utilizationPercent = in.utilization_percent();
    if (in.has_memory_used_bytes())
        out.memoryUsedBytes = in.memory_used_bytes();
    if (in.has_memory_total_bytes())
        out.memoryTotalBytes = in.memory_total_bytes();
    if (in.has_temperature_celsius())
        out.temperatureCelsius = in.temperature_celsius();
    if (in.has_power_watts())
        out.powerWatts = in.power_watts();
    if (in.has_ecc_uncorrected_volatile_count())
        out.eccUncorrectedVolatile = in.ecc_uncorrected_volatile_count();
    if (in.has_throttle()) {
        std::vector<ThrottleReason> reasons;
        for (int r : in.throttle().active())
            reasons.push_back(throttleFromProto(r));
        out.throttleReasons = reasons;
    }
    if (in.has_last_xid())
        out.lastXid = in.last_xid();
    return out;
}

NicSample fromProto(const v1::NicTelemetry &in)
{
    NicSample out;
    NicCounters &c = out.counters;
    c.netdev = in.netdev();
    c.linkState = in.link_state() == v1::LINK_STATE_UP     ? LinkState::Up
                  : in.link_state() == v1::LINK_STATE_DOWN ? LinkState::Down
                                                           : LinkState::Unknown;
    const auto take = [](bool has, auto value, auto &into) {
        if (has)
            into = value;
    };
    take(in.has_rx_bytes_total(), in.rx_bytes_total(), c.rxBytes);
    take(in.has_tx_bytes_total(), in.tx_bytes_total(), c.txBytes);
    take(in.has_rx_bytes_per_second(), in.rx_bytes_per_second(), out.rxBytesPerSecond);
    take(in.has_tx_bytes_per_second(), in.tx_bytes_per_second(), out.txBytesPerSecond);
    for (const v1::PriorityFlowControl &pfc : in.pfc()) {
        if (pfc.priority() >= static_cast<uint32_t>(kPfcPriorities))
            continue;  // a priority PFC does not have
        const size_t p = pfc.priority();
        take(pfc.has_rx_pause_frames_total(), pfc.rx_pause_frames_total(), c.rxPause[p]);
        take(pfc.has_tx_pause_frames_total(), pfc.tx_pause_frames_total(), c.txPause[p]);
        take(pfc.has_rx_pause_frames_per_second(), pfc.rx_pause_frames_per_second(),
             out.rxPausePerSecond[p]);
        take(pfc.has_tx_pause_frames_per_second(), pfc.tx_pause_frames_per_second(),
             out.txPausePerSecond[p]);
    }
    take(in.has_ecn_marked_packets_total(), in.ecn_marked_packets_total(), c.ecnMarkedPackets);
    take(in.has_cnp_sent_total(), in.cnp_sent_total(), c.cnpSent);
    take(in.has_cnp_handled_total(), in.cnp_handled_total(), c.cnpHandled);
    take(in.has_out_of_sequence_total(), in.out_of_sequence_total(), c.outOfSequence);
    take(in.has_packet_sequence_errors_total(), in.packet_sequence_errors_total(),
         c.packetSequenceErrors);
    take(in.has_rx_discards_total(), in.rx_discards_total(), c.rxDiscards);
    take(in.has_tx_discards_total(), in.tx_discards_total(), c.txDiscards);
    take(in.has_link_down_events_total(), in.link_down_events_total(), c.linkDownEvents);
    take(in.has_symbol_errors_total(), in.symbol_errors_total(), c.symbolErrors);
    take(in.has_crc_errors_total(), in.crc_errors_total(), c.crcErrors);
    take(in.has_ecn_marked_packets_per_second(), in.ecn_marked_packets_per_second(),
         out.ecnMarkedPerSecond);
    take(in.has_cnp_sent_per_second(), in.cnp_sent_per_second(), out.cnpSentPerSecond);
    take(in.has_cnp_handled_per_second(), in.cnp_handled_per_second(), out.cnpHandledPerSecond);
    out.countersReset = in.counters_reset();
    return out;
}

ReplicaSignals fromProto(const v1::ReplicaTelemetry &in)
{
    ReplicaSignals out;
    out.replicaId = in.replica_id();
    out.service = in.service();
    if (in.has_waiting_requests())
        out.waitingRequests = in.waiting_requests();
    if (in.has_running_requests())
        out.runningRequests = in.running_requests();
    if (in.has_inflight_tokens())
        out.inflightTokens = in.inflight_tokens();
    if (in.has_kv_cache_used_ratio())
        out.kvCacheUsedRatio = in.kv_cache_used_ratio();
    if (in.has_tokens_per_second())
        out.tokensPerSecond = in.tokens_per_second();
    if (in.has_ttft_p50_seconds())
        out.ttftP50Seconds = in.ttft_p50_seconds();
    if (in.has_ttft_p95_seconds())
        out.ttftP95Seconds = in.ttft_p95_seconds();
    if (in.has_queue_delay_p95_seconds())
        out.queueDelayP95Seconds = in.queue_delay_p95_seconds();
    if (in.has_e2e_p95_seconds())
        out.e2eP95Seconds = in.e2e_p95_seconds();
    if (in.has_requests_per_second())
        out.requestsPerSecond = in.requests_per_second();
    // A port is 16 bits; a hostile agent's larger number is no port.
    out.servingPort = in.serving_port() <= 65535 ? in.serving_port() : 0;
    return out;
}

TelemetrySample fromProto(const v1::TelemetryBatch &in)
{
    TelemetrySample out;
    out.sampleTimeUnixMs = in.sample_time_unix_ms();
    out.cards.reserve(static_cast<size_t>(in.cards_size()));
    for (const v1::CardTelemetry &card : in.cards())
        out.cards.push_back(fromProto(card));
    out.nics.reserve(static_cast<size_t>(in.nics_size()));
    for (const v1::NicTelemetry &nic : in.nics())
        out.nics.push_back(fromProto(nic));
    out.replicas.reserve(static_cast<size_t>(in.replicas_size()));
    for (const v1::ReplicaTelemetry &replica : in.replicas())
        out.replicas.push_back(fromProto(replica));
    return out;
}

}  // namespace meridian

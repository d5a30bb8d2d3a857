#include "alertguidance.h"

#include <QCoreApplication>
#include <QTranslator>
#include <algorithm>

#include "models/placenames.h"

namespace meridian {

namespace {

// The language alert texts are made in on this thread, where one is set
// (ScopedAlertLanguage): its translator, or none for the English they are written in.
thread_local bool t_languageSet = false;
thread_local const QTranslator *t_language = nullptr;

QString translate(const char *context, const char *text)
{
    if (!t_languageSet)
        return QCoreApplication::translate(context, text);
    const QString translatedText = t_language ? t_language->translate(context, text) : QString();
    return translatedText.isEmpty() ? QString::fromUtf8(text) : translatedText;
}

// The catalogue's texts, marked for translation in the table below.
QString translated(const char *text)
{
    return translate("AlertGuidance", text);
}

struct XidEntry {
    uint32_t code;
    const char *meaning;
    const char *nextStep;
};

// The Xids a rental fleet meets, from NVIDIA's Xid catalogue and its GPU debug guidelines.
const XidEntry kXids[] = {
    {13,
     QT_TRANSLATE_NOOP("AlertGuidance", "Graphics engine exception: usually the job's own code"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Tell the tenant; if it appears on several cards without a job change, "
                       "run dcgmi diag -r 3 on the node")},
    {31,
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "GPU memory page fault: usually an illegal address in the job"),
     QT_TRANSLATE_NOOP(
         "AlertGuidance",
         "Tell the tenant; if it recurs across jobs, drain the node and run dcgmi diag")},
    {43, QT_TRANSLATE_NOOP("AlertGuidance", "The GPU stopped a job that faulted; the card is fine"),
     QT_TRANSLATE_NOOP("AlertGuidance", "No action unless it recurs with other Xids")},
    {45, QT_TRANSLATE_NOOP("AlertGuidance", "A job was cleaned up after it was killed"),
     QT_TRANSLATE_NOOP("AlertGuidance", "No action: it follows a kill or another Xid")},
    {48, QT_TRANSLATE_NOOP("AlertGuidance", "Double-bit ECC error: memory contents were lost"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Drain the node, reset the GPU (row remapping applies on reset); replace "
                       "the card if it recurs")},
    {61, QT_TRANSLATE_NOOP("AlertGuidance", "Internal micro-controller breakpoint"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Drain the node and reset the GPU; open a case with NVIDIA if it recurs")},
    {62, QT_TRANSLATE_NOOP("AlertGuidance", "Internal micro-controller halt"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Drain the node and reset the GPU; open a case with NVIDIA if it recurs")},
    {63, QT_TRANSLATE_NOOP("AlertGuidance", "ECC page retirement or row remapping recorded"),
     QT_TRANSLATE_NOOP(
         "AlertGuidance",
         "Reset the GPU at the next drain so the remap takes effect; watch for Xid 64")},
    {64, QT_TRANSLATE_NOOP("AlertGuidance", "ECC page retirement or row remapping failed"),
     QT_TRANSLATE_NOOP("AlertGuidance", "Drain the node and replace the card")},
    {74, QT_TRANSLATE_NOOP("AlertGuidance", "NVLink error"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Drain the node, reset the GPUs; reseat or replace the NVLink bridge or "
                       "baseboard if it recurs")},
    {79, QT_TRANSLATE_NOOP("AlertGuidance", "GPU fell off the bus"),
     QT_TRANSLATE_NOOP("AlertGuidance", "Drain the node, reset; replace the card if it recurs")},
    {92, QT_TRANSLATE_NOOP("AlertGuidance", "High rate of single-bit ECC errors"),
     QT_TRANSLATE_NOOP("AlertGuidance", "Schedule the card for replacement; watch for Xid 48")},
    {94,
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Contained ECC error: one job was stopped, the card is usable"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Tell the tenant; reset the GPU when the node is next drained")},
    {95,
     QT_TRANSLATE_NOOP("AlertGuidance", "Uncontained ECC error: every job on the card is affected"),
     QT_TRANSLATE_NOOP("AlertGuidance", "Drain the node and reset the GPU now")},
    {119, QT_TRANSLATE_NOOP("AlertGuidance", "GSP firmware did not answer in time"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Drain the node and reset the GPU; update the driver if it recurs")},
    {120, QT_TRANSLATE_NOOP("AlertGuidance", "GSP firmware error"),
     QT_TRANSLATE_NOOP("AlertGuidance",
                       "Drain the node and reset the GPU; update the driver if it recurs")},
};

const XidEntry *xidEntry(const Alert &alert)
{
    if (alert.kind != AlertKind::Xid || !alert.xid)
        return nullptr;
    for (const XidEntry &entry : kXids) {
        if (entry.code == *alert.xid)
            return &entry;
    }
    return nullptr;
}

}  // namespace

QString alertKindTitle(AlertKind kind)
{
    switch (kind) {
    case AlertKind::DataCenterDark: return translate("AlertGuidance", "Data center dark");
    case AlertKind::AgentUnreachable: return translate("AlertGuidance", "Agent unreachable");
    case AlertKind::AgentStale: return translate("AlertGuidance", "Agent silent");
    case AlertKind::Xid: return translate("AlertGuidance", "Xid");
    case AlertKind::EccDoubleBit: return translate("AlertGuidance", "ECC double-bit");
    case AlertKind::ThermalThrottle: return translate("AlertGuidance", "Thermal throttling");
    case AlertKind::LinkDown: return translate("AlertGuidance", "Link down");
    case AlertKind::LinkFlap: return translate("AlertGuidance", "Link flapping");
    case AlertKind::PfcStorm: return translate("AlertGuidance", "PFC storm");
    case AlertKind::PaidButIdle: return translate("AlertGuidance", "Paid but idle");
    case AlertKind::ServiceOverObjective:
        return translate("AlertGuidance", "Service over objective");
    case AlertKind::PlanAwaitingApproval:
        return translate("AlertGuidance", "Plan awaiting approval");
    case AlertKind::ControllerSilent:
        return translate("AlertGuidance", "Scaling controller silent");
    }
    return translate("AlertGuidance", "Alert");
}

QString alertTitle(const Alert &alert)
{
    if (alert.kind == AlertKind::Xid && alert.xid) {
        if (const XidEntry *entry = xidEntry(alert))
            return translate("AlertGuidance", "%1 (Xid %2)")
                .arg(translated(entry->meaning))
                .arg(*alert.xid);
        return translate("AlertGuidance", "Xid %1").arg(*alert.xid);
    }
    return alertKindTitle(alert.kind);
}

QString alertWhere(const Alert &alert)
{
    if (alert.kind == AlertKind::DataCenterDark)
        return dataCenterTitle(alert.subject);
    if (alert.cardIndex && !alert.nodeName.empty())
        return translate("AlertGuidance", "%1 card %2")
            .arg(QString::fromStdString(alert.nodeName))
            .arg(*alert.cardIndex);
    return QString::fromStdString(alert.subject);
}

QString alertMeaning(const Alert &alert)
{
    if (const XidEntry *entry = xidEntry(alert))
        return translated(entry->meaning);
    switch (alert.kind) {
    case AlertKind::DataCenterDark:
        return translate("AlertGuidance",
                         "Most of the data center's agents stopped reporting at once: its uplink, "
                         "power or Meridian's route to it, not the nodes one by one");
    case AlertKind::AgentUnreachable:
        return translate("AlertGuidance", "Meridian cannot reach the node's agent");
    case AlertKind::AgentStale:
        return translate("AlertGuidance",
                         "The agent is connected but has sent no telemetry for three intervals");
    case AlertKind::Xid:
        return translate("AlertGuidance", "The NVIDIA driver reported an error on the card");
    case AlertKind::EccDoubleBit:
        return translate("AlertGuidance", "Uncorrectable memory error: data on the card was lost");
    case AlertKind::ThermalThrottle:
        return translate("AlertGuidance", "The card slows itself down because it is too hot");
    case AlertKind::LinkDown: return translate("AlertGuidance", "A RoCE link of the node is down");
    case AlertKind::LinkFlap:
        return translate("AlertGuidance",
                         "A RoCE link keeps going down and up: collectives on it stall and retry");
    case AlertKind::PfcStorm:
        return translate("AlertGuidance",
                         "Pause frames flood the fabric: traffic behind the port is stuck");
    case AlertKind::PaidButIdle:
        return translate("AlertGuidance",
                         "A rented card has been below 5% utilisation for an hour");
    case AlertKind::ServiceOverObjective:
        return translate(
            "AlertGuidance",
            "Customers of the inference service wait longer than its objective for the "
            "first token");
    case AlertKind::PlanAwaitingApproval:
        return translate(
            "AlertGuidance",
            "The autoscaler proposes more capacity and waits for someone to approve it");
    case AlertKind::ControllerSilent:
        return translate("AlertGuidance",
                         "meridian-scaled does not answer or has stopped its passes: no service "
                         "is scaled while it is");
    }
    return {};
}

QString alertNextStep(const Alert &alert)
{
    if (const XidEntry *entry = xidEntry(alert))
        return translated(entry->nextStep);
    switch (alert.kind) {
    case AlertKind::DataCenterDark:
        return translate("AlertGuidance",
                         "Check the data center's uplink, VPN and power first; agent alerts there "
                         "are held back until it recovers");
    case AlertKind::AgentUnreachable:
        return translate("AlertGuidance",
                         "Check the node is up and 'systemctl status meridian-agent'; then the "
                         "firewall, certificate and token");
    case AlertKind::AgentStale:
        return translate("AlertGuidance",
                         "Read the agent's journal: a hung nvidia-smi or npu-smi stops its "
                         "collector; restart the agent");
    case AlertKind::Xid:
        return translate(
            "AlertGuidance",
            "Look the code up in NVIDIA's Xid catalogue; drain the node if it repeats");
    case AlertKind::EccDoubleBit:
        return translate("AlertGuidance",
                         "Drain the node and reset the card; replace it if it recurs");
    case AlertKind::ThermalThrottle:
        return translate("AlertGuidance",
                         "Check the node's fans and the rack's inlet temperature and airflow");
    case AlertKind::LinkDown:
        return translate("AlertGuidance",
                         "On the node, 'ethtool' and 'rdma link' on the port; then the cable, the "
                         "transceiver and the switch port (the console's Fabric window names it)");
    case AlertKind::LinkFlap:
        return translate(
            "AlertGuidance",
            "Replace the cable or transceiver; check the switch port's error counters");
    case AlertKind::PfcStorm:
        return translate("AlertGuidance",
                         "Find the NIC sending the pauses (a stuck receiver) and isolate its port; "
                         "check the switch's PFC watchdog");
    case AlertKind::PaidButIdle:
        return translate("AlertGuidance",
                         "Tell the tenant's account manager; release the card if it stays idle");
    case AlertKind::ServiceOverObjective:
        return translate("AlertGuidance",
                         "'meridian-scaled status' says what it waits for; approve its plan in the "
                         "console's Scaling window, or add capacity");
    case AlertKind::PlanAwaitingApproval:
        return translate("AlertGuidance",
                         "Approve or reject the plan in the console's Scaling window "
                         "('meridian-scaled status' shows it)");
    case AlertKind::ControllerSilent:
        return translate("AlertGuidance",
                         "'systemctl status meridian-scaled' and its journal; restarted, it "
                         "resumes every step from its own journal");
    }
    return {};
}

ScopedAlertLanguage::ScopedAlertLanguage(const QTranslator *translator)
    : m_wasSet(t_languageSet), m_was(t_language)
{
    t_languageSet = true;
    t_language = translator;
}

ScopedAlertLanguage::~ScopedAlertLanguage()
{
    t_languageSet = m_wasSet;
    t_language = m_was;
}

QString alertKindTitleOfName(const std::string &kindName)
{
    const auto kind = alertKindFromName(kindName);
    return kind ? alertKindTitle(*kind) : QString::fromStdString(kindName);
}

QString alertDurationText(int64_t ms)
{
    // The alert list's words (its context), in the language of whoever is told.
    const int64_t s = std::max<int64_t>(0, ms / 1000);
    if (s < 60)
        return translate("AlertsModel", "%1 s").arg(s);
    if (s < 3600)
        return translate("AlertsModel", "%1 min").arg(s / 60);
    if (s < 86400)
        return s % 3600 >= 60
                   ? translate("AlertsModel", "%1 h %2 min").arg(s / 3600).arg(s % 3600 / 60)
                   : translate("AlertsModel", "%1 h").arg(s / 3600);
    return s % 86400 >= 3600
               ? translate("AlertsModel", "%1 d %2 h").arg(s / 86400).arg(s % 86400 / 3600)
               : translate("AlertsModel", "%1 d").arg(s / 86400);
}

QString alertOverText(int64_t lastedMs)
{
    return translate("AlertGuidance", "Over after %1").arg(alertDurationText(lastedMs));
}

QString alertEndedUnseenText(int64_t atMostMs)
{
    return translate("AlertGuidance", "Over: it ended while no judge ran, within %1 of its start")
        .arg(alertDurationText(atMostMs));
}

}  // namespace meridian

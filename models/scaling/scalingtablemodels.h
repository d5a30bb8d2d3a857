// The Scaling window's three tables as models: the services with their replicas and the
// policy's decision, the journal's steps and the audit log. Each merges by key on every
// refresh (never a reset), so a selected service, a selected step and a scrolled journal
// stay put while the controller's passes come in. SortRole gives numbers and times as
// numbers, for a QSortFilterProxyModel. Live on the UI thread.
#pragma once

#include <QString>

#include "autoscaler/scalingcontrol.h"
#include "models/keyedtablemodel.h"

namespace meridian {

// A policy reason in plain words ("more demand", not "up").
QString scalingReasonText(ScalingReason reason);

class ScalingServicesModel final : public KeyedTableModel<ServiceScalingView> {
    Q_OBJECT
public:
    enum Column {
        Service,
        Local,
        Rented,
        Starting,
        Desired,
        Arrivals,
        Waiting,
        QueueDelayP95,  // what the objective is held to, where replicas report it
        TtftP95,
        RentedCards,
        RentedCny,
        Decision,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    using KeyedTableModel::KeyedTableModel;
    void setServices(std::vector<ServiceScalingView> services);
    const ServiceScalingView *serviceAt(int row) const;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

class ScalingJournalModel final : public KeyedTableModel<JournalStep> {
    Q_OBJECT
public:
    enum Column {
        Step,
        Created,
        Service,
        State,
        Offer,
        Lease,
        Node,
        CnyPerHour,
        By,
        Why,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    using KeyedTableModel::KeyedTableModel;
    void setSteps(std::vector<JournalStep> steps);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

class ScalingAuditModel final : public KeyedTableModel<AuditEntry> {
    Q_OBJECT
public:
    enum Column { When, Who, What, Why, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    using KeyedTableModel::KeyedTableModel;
    void setEntries(std::vector<AuditEntry> entries);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace meridian

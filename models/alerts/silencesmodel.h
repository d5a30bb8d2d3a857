// The silences in force as a table: what each one quiets, until when, who set it and
// why. Merged by silence id when the alerts change (never a reset), so the row picked to
// lift stays picked while another console adds or lifts one. Lives on the UI thread.
#pragma once

#include "alerts/alert.h"
#include "models/keyedtablemodel.h"

namespace meridian {

class SilencesModel final : public KeyedTableModel<SilenceRule> {
    Q_OBJECT
public:
    enum Column { What, Until, By, Reason, ColumnCount };
    static constexpr int IdRole = Qt::UserRole + 1;  // the silence id, to lift it

    using KeyedTableModel::KeyedTableModel;
    void setSilences(std::vector<SilenceRule> silences);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace meridian

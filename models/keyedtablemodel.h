// A table model whose rows have a stable key, updated by merging: rows that vanished
// are removed, changed rows emit dataChanged, new rows are appended. Never a reset, so
// selections and scroll positions survive every refresh. The one merge every periodic
// model here uses.
#pragma once

#include <QAbstractTableModel>
#include <algorithm>
#include <vector>

namespace meridian {

template <typename Row>
class KeyedTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }

protected:
    // keyOf(row) identifies a row; same(old, fresh) says whether it needs repainting.
    template <typename KeyOf, typename Same>
    void mergeRows(std::vector<Row> fresh, KeyOf keyOf, Same same)
    {
        for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0; --i) {
            const auto &key = keyOf(m_rows[static_cast<size_t>(i)]);
            if (std::none_of(fresh.begin(), fresh.end(),
                             [&](const Row &r) { return keyOf(r) == key; })) {
                beginRemoveRows({}, i, i);
                m_rows.erase(m_rows.begin() + i);
                endRemoveRows();
            }
        }
        for (Row &row : fresh) {
            const auto it = std::find_if(m_rows.begin(), m_rows.end(),
                                         [&](const Row &r) { return keyOf(r) == keyOf(row); });
            if (it == m_rows.end()) {
                const int at = static_cast<int>(m_rows.size());
                beginInsertRows({}, at, at);
                m_rows.push_back(std::move(row));
                endInsertRows();
            } else if (!same(*it, row)) {
                *it = std::move(row);
                const int r = static_cast<int>(it - m_rows.begin());
                Q_EMIT this->dataChanged(this->index(r, 0),
                                         this->index(r, this->columnCount() - 1));
            }
        }
    }

    std::vector<Row> m_rows;
};

}  // namespace meridian

// A table model whose rows have a stable key, updated by merging: rows that vanished
// are removed, changed rows emit dataChanged, new rows are appended. Never a reset, so
// selections and scroll positions survive every refresh. The one merge every periodic
// model here uses.
#pragma once

#include <QAbstractTableModel>
#include <map>
#include <set>
#include <type_traits>
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
    // keyOf(row) identifies a row (a value, not references into the rows: they move);
    // same(old, fresh) says whether it needs repainting.
    // Keys are looked up in maps, not searched: 500 alerts merged once a second cost the
    // UI thread 10 ms when each row searched the other list.
    template <typename KeyOf, typename Same>
    void mergeRows(std::vector<Row> fresh, KeyOf keyOf, Same same)
    {
        using Key = std::decay_t<decltype(keyOf(fresh.front()))>;
        std::set<Key> freshKeys;
        for (const Row &row : fresh)
            freshKeys.insert(keyOf(row));
        for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0; --i) {
            if (!freshKeys.count(keyOf(m_rows[static_cast<size_t>(i)]))) {
                beginRemoveRows({}, i, i);
                m_rows.erase(m_rows.begin() + i);
                endRemoveRows();
            }
        }
        std::map<Key, size_t> rowOf;
        for (size_t i = 0; i < m_rows.size(); ++i)
            rowOf.emplace(keyOf(m_rows[i]), i);
        for (Row &row : fresh) {
            const auto found = rowOf.find(keyOf(row));
            if (found == rowOf.end()) {
                const int at = static_cast<int>(m_rows.size());
                beginInsertRows({}, at, at);
                rowOf.emplace(keyOf(row), m_rows.size());
                m_rows.push_back(std::move(row));
                endInsertRows();
            } else if (Row &old = m_rows[found->second]; !same(old, row)) {
                old = std::move(row);
                const int r = static_cast<int>(found->second);
                Q_EMIT this->dataChanged(this->index(r, 0),
                                         this->index(r, this->columnCount() - 1));
            }
        }
    }

    std::vector<Row> m_rows;
};

}  // namespace meridian

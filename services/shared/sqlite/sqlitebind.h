// Optional values in and out of SQLite statements: absent is NULL, both ways.
#pragma once

#include <SQLiteCpp/Column.h>
#include <SQLiteCpp/Statement.h>

#include <optional>

namespace meridian {

template <typename T>
void bindOptional(SQLite::Statement &statement, int index, const std::optional<T> &value)
{
    if (value)
        statement.bind(index, *value);
    else
        statement.bind(index);
}

inline std::optional<double> optionalDouble(const SQLite::Column &column)
{
    if (column.isNull())
        return std::nullopt;
    return column.getDouble();
}

}  // namespace meridian

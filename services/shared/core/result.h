// Errors as values at service boundaries: a Result holds either a value or an Error
// whose message is written for the person who has to fix the problem.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace meridian {

struct Error {
    std::string message;
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_value(std::move(value)) {}      // NOLINT(google-explicit-constructor)
    Result(Error error) : m_error(std::move(error)) {}  // NOLINT(google-explicit-constructor)

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const T &operator*() const & { return *m_value; }
    T &operator*() & { return *m_value; }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }

    const Error &error() const { return m_error; }

private:
    std::optional<T> m_value;
    Error m_error;
};

// For operations that produce nothing but may fail.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : m_error(std::move(error)), m_failed(true) {}  // NOLINT

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return m_error; }
    const std::string &message() const { return m_error.message; }

private:
    Error m_error;
    bool m_failed = false;
};

}  // namespace meridian

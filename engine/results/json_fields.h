// Reading and writing the fields of kta's JSON documents (results.db payloads, results.json) the
// same way everywhere: non-finite numbers are null (JSON has no NaN, and a reader must not take
// one for 0), unset optionals are absent or null, and a missing field reads as the type's
// default, so documents written by an older kta still load.
#pragma once

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>

namespace kta::engine::json_fields {

using Json = nlohmann::ordered_json;  // the same type as kta::engine::Json

inline Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

template <class T>
Json optional(const std::optional<T>& v) {
  if (!v) return nullptr;
  if constexpr (std::is_floating_point_v<T>)
    return number(*v);
  else
    return Json(*v);
}

// Sets j[key] only when `v` holds a value.
template <class T>
void put_if(Json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = optional(v);
}

// j[key] as T; `fallback` when absent or null. A double read from null is NaN.
template <class T>
T get(const Json& j, const char* key, T fallback = T{}) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if constexpr (std::is_floating_point_v<T>) {
      if (it != j.end()) return std::numeric_limits<T>::quiet_NaN();
    }
    return fallback;
  }
  return it->template get<T>();
}

template <class T>
std::optional<T> get_optional(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->template get<T>();
}

}  // namespace kta::engine::json_fields

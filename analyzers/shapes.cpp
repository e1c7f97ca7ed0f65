#include "analyzers/shapes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace kta::analyzers {
namespace {

bool is_small_power_of_two(int64_t v) { return v > 0 && v <= 1024 && (v & (v - 1)) == 0; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> parse_int(std::string_view s) {
  s = trim(s);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// `4096`, `1<<20`, `2^20`.
std::optional<int64_t> parse_value(std::string_view s) {
  for (std::string_view op : {std::string_view("<<"), std::string_view("^")}) {
    auto at = s.find(op);
    if (at == std::string_view::npos) continue;
    auto base = parse_int(s.substr(0, at));
    auto exp = parse_int(s.substr(at + op.size()));
    if (!base || !exp || *exp < 0 || *exp > 62) return std::nullopt;
    int64_t v = op == "<<" ? 1 : *base;
    if (op == "<<") {
      if (*base < 0 || *base > (std::numeric_limits<int64_t>::max() >> *exp)) return std::nullopt;
      return *base << *exp;
    }
    for (int64_t i = 1; i < *exp; ++i) {
      if (v != 0 && std::abs(*base) > std::numeric_limits<int64_t>::max() / std::abs(v))
        return std::nullopt;
      v *= *base;
    }
    return *exp == 0 ? 1 : v;
  }
  return parse_int(s);
}

}  // namespace

ShapeSet::ShapeSet(const std::map<std::string, std::vector<int64_t>>& shapes) {
  struct Axis {
    std::string name;
    int64_t value;
  };
  std::vector<Axis> direct;
  for (const auto& [name, values] : shapes) {
    axes_.push_back(lower(name));
    for (int64_t v : values) {
      if (v < kMinValue) continue;
      direct.push_back({name, v});
      values_.emplace(v, name);
      direct_[v] = true;
    }
  }
  // Derived values: products and exact quotients of two visible values. Small powers of two
  // are left out of the derived set: as quotients they are the usual tile and block sizes.
  auto add_derived = [&](int64_t v, std::string how) {
    if (v < kMinValue || is_small_power_of_two(v) || values_.count(v)) return;
    values_.emplace(v, std::move(how));
  };
  for (size_t i = 0; i < direct.size(); ++i) {
    for (size_t j = i; j < direct.size(); ++j) {
      const Axis& a = direct[i];
      const Axis& b = direct[j];
      if (i != j && a.name == b.name) continue;  // two values of one axis: no meaning
      if (a.value <= std::numeric_limits<int64_t>::max() / b.value)
        add_derived(a.value * b.value, a.name + "*" + b.name);
      if (i == j) continue;
      if (a.value % b.value == 0) add_derived(a.value / b.value, a.name + "/" + b.name);
      if (b.value % a.value == 0) add_derived(b.value / a.value, b.name + "/" + a.name);
    }
  }
}

std::optional<std::string> ShapeSet::origin(int64_t value) const {
  auto it = values_.find(value);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

bool ShapeSet::is_direct(int64_t value) const { return direct_.count(value) > 0; }

bool ShapeSet::is_axis_name(std::string_view name) const {
  return std::find(axes_.begin(), axes_.end(), lower(name)) != axes_.end();
}

std::string parse_shape_spec(std::string_view spec,
                             std::map<std::string, std::vector<int64_t>>& out) {
  if (trim(spec).empty()) return "empty --shape value; expected NAME=VALUE[,NAME=VALUE...]";
  while (!spec.empty()) {
    auto comma = spec.find(',');
    std::string_view item = trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    auto eq = item.find('=');
    if (eq == std::string_view::npos)
      return fmt::format("bad --shape item '{}'; expected NAME=VALUE (e.g. N=4096)", item);
    std::string_view name = trim(item.substr(0, eq));
    bool ident = !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front()));
    for (char c : name) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ident) return fmt::format("bad --shape name '{}'; expected an identifier", name);
    std::string_view values = item.substr(eq + 1);
    if (trim(values).empty()) return fmt::format("--shape {} has no value", name);
    while (true) {
      auto bar = values.find('|');
      std::string_view text = values.substr(0, bar);
      auto v = parse_value(text);
      if (!v)
        return fmt::format("bad --shape value '{}' for {}; expected an integer", trim(text), name);
      if (*v < 0) return fmt::format("--shape {} has a negative value {}", name, *v);
      out[std::string(name)].push_back(*v);
      if (bar == std::string_view::npos) break;
      values = values.substr(bar + 1);
    }
  }
  return {};
}

}  // namespace kta::analyzers

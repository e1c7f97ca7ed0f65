// ShapeSet: the integers that count as "a visible shape value" for the kta-* checks, built from
// the visible grid: every value, every product and every exact quotient of two of them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kta::analyzers {

class ShapeSet {
 public:
  ShapeSet() = default;
  explicit ShapeSet(const std::map<std::string, std::vector<int64_t>>& shapes);

  // How `value` derives from the visible shapes ("N", "N*M", "N/M"), or nullopt.
  std::optional<std::string> origin(int64_t value) const;
  // True when `value` is a shape value itself (not a product or quotient).
  bool is_direct(int64_t value) const;
  // True when `name` spells one of the shape axes (case-insensitive), e.g. `n` for N.
  bool is_axis_name(std::string_view name) const;
  bool empty() const { return values_.empty(); }

  // Values below this are too common (0, 1, 2 are everywhere) to be evidence of anything.
  static constexpr int64_t kMinValue = 3;

 private:
  std::map<int64_t, std::string> values_;
  std::map<int64_t, bool> direct_;
  std::vector<std::string> axes_;
};

// Parses a `--shape` argument: `N=4096,M=128`, lists as `N=4096|8192`, values may use `1<<20`
// or `2^20`. Adds to `out`; returns an error message (empty on success).
std::string parse_shape_spec(std::string_view spec,
                             std::map<std::string, std::vector<int64_t>>& out);

}  // namespace kta::analyzers

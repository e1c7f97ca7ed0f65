#include "analyzers/checks/names.h"

#include <array>
#include <cctype>
#include <string>

namespace kta::analyzers {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool contains_any(const std::string& name, std::initializer_list<std::string_view> parts) {
  for (std::string_view p : parts)
    if (name.find(p) != std::string::npos) return true;
  return false;
}

}  // namespace

bool is_tile_like_name(std::string_view name) {
  std::string n = upper(name);
  static constexpr std::array<std::string_view, 12> exact = {"BM", "BN", "BK", "TM", "TN", "TK",
                                                             "WM", "WN", "WK", "BS", "TS", "VW"};
  for (std::string_view e : exact)
    if (n == e || n == std::string("K") + std::string(e)) return true;
  return contains_any(n, {"TILE", "BLOCK", "BLK", "THREAD", "WARP", "WAVE", "UNROLL", "VEC", "PAD",
                          "STAGE", "LANE", "PER_THREAD", "ITEMS", "SPLIT", "CHUNK", "WIDTH_BITS"});
}

bool is_size_like_name(std::string_view name, const ShapeSet& shapes) {
  if (shapes.is_axis_name(name)) return true;
  std::string n = upper(name);
  // `kN`, `N_`, `N_SIZE` style spellings of an axis.
  if (n.size() >= 2 && n[0] == 'K' && shapes.is_axis_name(name.substr(1))) return true;
  return contains_any(n, {"SIZE", "LEN", "DIM", "ROWS", "COLS", "NUM", "COUNT", "ELEM", "TOTAL",
                          "WIDTH", "HEIGHT", "BATCH", "SEQ", "HIDDEN", "FEAT", "CHANNEL", "SHAPE"});
}

bool is_warp_like_name(std::string_view name) {
  std::string n = upper(name);
  return contains_any(n, {"WARP", "WAVEFRONT", "WAVE_SIZE", "WAVESIZE"});
}

bool is_small_power_of_two(int64_t v) { return v > 0 && v <= 1024 && (v & (v - 1)) == 0; }

}  // namespace kta::analyzers

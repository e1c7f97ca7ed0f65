// How a constant's name reads: a tile/launch knob (`TILE`, `BLOCK_SIZE`) or a problem size
// (`N`, `NUM_ROWS`). The shape checks use it to tell tile constants from hard-coded shapes.
#pragma once

#include <string_view>

#include "analyzers/shapes.h"

namespace kta::analyzers {

bool is_tile_like_name(std::string_view name);
bool is_size_like_name(std::string_view name, const ShapeSet& shapes);
bool is_warp_like_name(std::string_view name);
bool is_small_power_of_two(int64_t v);

}  // namespace kta::analyzers

#include "engine/inputs/philox.h"

namespace kta::engine {

namespace {

constexpr uint32_t kM0 = 0xD2511F53, kM1 = 0xCD9E8D57;  // round multipliers
constexpr uint32_t kW0 = 0x9E3779B9, kW1 = 0xBB67AE85;  // Weyl key increments

void round(PhiloxCounter& c, const PhiloxKey& k) {
  uint64_t p0 = uint64_t{kM0} * c[0];
  uint64_t p1 = uint64_t{kM1} * c[2];
  c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
       static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
}

}  // namespace

PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key) {
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      key[0] += kW0;
      key[1] += kW1;
    }
    round(counter, key);
  }
  return counter;
}

}  // namespace kta::engine

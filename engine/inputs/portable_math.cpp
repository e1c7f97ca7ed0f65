#include "engine/inputs/portable_math.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kta::engine::portable {

namespace {

constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2 split so e * kLn2Hi is exact
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896340736;
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kHalfPi = 1.57079632679489661923;

// sin(x) and cos(x) for |x| <= pi/4: Taylor series in Horner form; the first dropped term is
// below 1e-19, far under an ulp.
double sin_small(double x) {
  // Coefficients of x^3, x^5, ..., x^19 (alternating signs), innermost last.
  static constexpr double c[] = {-1.0 / 6,
                                 1.0 / 120,
                                 -1.0 / 5040,
                                 1.0 / 362880,
                                 -1.0 / 39916800,
                                 1.0 / 6227020800,
                                 -1.0 / 1307674368000,
                                 1.0 / 355687428096000,
                                 -1.0 / 121645100408832000};
  double x2 = x * x;
  double p = c[8];
  for (int k = 7; k >= 0; --k) p = c[k] + x2 * p;
  return x + x * x2 * p;
}

double cos_small(double x) {
  // Coefficients of x^2, x^4, ..., x^20 (alternating signs), innermost last.
  static constexpr double c[] = {-1.0 / 2,
                                 1.0 / 24,
                                 -1.0 / 720,
                                 1.0 / 40320,
                                 -1.0 / 3628800,
                                 1.0 / 479001600,
                                 -1.0 / 87178291200,
                                 1.0 / 20922789888000,
                                 -1.0 / 6402373705728000,
                                 1.0 / 2432902008176640000};
  double x2 = x * x;
  double p = c[9];
  for (int k = 8; k >= 0; --k) p = c[k] + x2 * p;
  return 1.0 + x2 * p;
}

// cos and sin of 2*pi*t, reduced exactly by quarter turns (t * 4 is exact).
void sincos_quarters(double t, double* s, double* c) {
  double q4 = t * 4.0;
  double quadrant = std::floor(q4);
  double r = q4 - quadrant;  // exact: fraction of a quarter turn, in [0, 1)
  double sr, cr;
  if (r <= 0.5) {
    double x = r * kHalfPi;
    sr = sin_small(x);
    cr = cos_small(x);
  } else {
    double x = (1.0 - r) * kHalfPi;  // 1 - r is exact for r in (0.5, 1)
    sr = cos_small(x);
    cr = sin_small(x);
  }
  switch (static_cast<int>(quadrant) & 3) {
    case 0:
      *s = sr;
      *c = cr;
      break;
    case 1:
      *s = cr;
      *c = -sr;
      break;
    case 2:
      *s = -sr;
      *c = -cr;
      break;
    default:
      *s = -cr;
      *c = sr;
      break;
  }
}

}  // namespace

double log(double x) {
  // x = m * 2^e with m in [0.5, 1), split from the bits (exact; frexp for subnormals).
  int e = 0;
  double m = 0;
  uint64_t bits = std::bit_cast<uint64_t>(x);
  if (auto biased = static_cast<int>(bits >> 52 & 0x7ff); biased != 0) {
    e = biased - 1022;
    m = std::bit_cast<double>((bits & 0x800fffffffffffffull) | 0x3fe0000000000000ull);
  } else {
    m = std::frexp(x, &e);
  }
  if (m < kSqrtHalf) {
    m *= 2.0;
    --e;
  }
  // ln m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.1716: the odd series converges fast.
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s;
  double p = 1.0 / 25.0;
  for (int k = 23; k >= 3; k -= 2) p = 1.0 / k + s2 * p;
  double ln_m = 2.0 * s + 2.0 * s * s2 * p;
  double de = e;
  return de * kLn2Hi + (ln_m + de * kLn2Lo);
}

double exp(double x) {
  if (x != x) return x;
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = k ln2 + r with |r| <= ln2 / 2: k * kLn2Hi is exact (kLn2Hi has trailing zero bits).
  double k = std::floor(x * kInvLn2 + 0.5);
  double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0;  // Taylor series to r^14 / 14!, below an ulp for |r| <= 0.35
  for (int n = 14; n >= 1; --n) p = 1.0 + r * p / n;
  return std::ldexp(p, static_cast<int>(k));
}

double cos_2pi(double t) {
  double s, c;
  sincos_quarters(t, &s, &c);
  return c;
}

double sin_2pi(double t) {
  double s, c;
  sincos_quarters(t, &s, &c);
  return s;
}

void sincos_2pi(double t, double* s, double* c) { sincos_quarters(t, s, c); }

}  // namespace kta::engine::portable
